"""The engine: the checked operations every door and every tap runs (roll, act, odds, odds_after, luck, costs,
after_roll, table, ...), JSON-safe dicts in and out, errors as `RulesError`. api.py is the door the page (and the CLI)
calls them through; tap.py, links.py and receive.py import this module, and it imports none of them.

Each procedure answers the protocol of procedures.py (`procedures.Procedure`; shared code reads it through the
adapter, `procedures.PROCEDURES`); this module checks input, builds the dice source (app dice from `seed`, recorded
into the answer's "drawn"; or the table's faces, `dice`: arbiter.dice.TableFaces), and turns exact `Fraction` odds
into floats plus "p/q" strings. A procedure draws its dice with `dice.roll(source, n, sides, why)`, a batch at a time
with the reason a table rolls it, so `dice_needed` can say what comes next. A procedure with table state adds TABLE
(op name -> pure function of state and args) and TABLE_OPS.
"""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any

from . import chances, fields, records, tally
from .dice import NeedMore, Recorded, TableFaces, exact_str, source
from .errors import RulesError
from .fairness import ALPHA, MIN_EXPECTED, POWER, Fairness, faces_to_find, loaded_die, power_error
from .fairness import read as read_faces
from .procedures import PROCEDURES, kind, tab


def _procedure(system: Any):
    if not isinstance(system, str) or system not in PROCEDURES:
        raise RulesError(f"'system' must be one of {', '.join(PROCEDURES)}, got {system!r}")
    return PROCEDURES[system]


def systems() -> list[dict]:
    """Every procedure with its id, title, tab, label, hint and one-line description (what its tab shows a newcomer),
    seed file, inputs (type, range, default), actions and extras, the roll JSON its roll() and act() answer ("roll":
    every key, what it holds and means, arbiter.shapes) and requests to try it with ("example_requests", by name)."""
    return [
        {
            "id": m.ID,
            "title": m.TITLE,
            "tab": tab(m),  # its own tab in the picker
            "label": m.LABEL,
            "hint": m.HINT,
            "description": m.DESCRIPTION,
            "seed": m.SEED,
            "fields": [f.schema() for f in m.FIELDS],
            "defaults": fields.defaults(m.FIELDS),
            "actions": copy.deepcopy(m.ACTIONS),
            "extras": copy.deepcopy(m.EXTRAS),
            "table_ops": copy.deepcopy(m.TABLE_OPS),
            "kind": _kind_id(m),
            "sheet": None if m.SHEET is None else m.SHEET.schema(),
            "sheet_choices": [f.schema() for f in m.CHOICES],
            "waiting_dice": _waiting_dice(m),
            "roll": m.ROLL.schema(),
            "example_requests": copy.deepcopy(m.EXAMPLE_REQUESTS),
        }
        for m in PROCEDURES.values()
    ]


def _kind_id(m) -> str | None:
    """The kind of character that rolls `m` (procedures.kind), or None when no character sheet does."""
    sheet_of = kind(m)
    return None if sheet_of is None else sheet_of.ID


def _sheet_of(m):
    """The procedure whose character sheet rolls `m`; refused when no sheet does."""
    sheet_of = kind(m)
    if sheet_of is None:
        raise RulesError(f"'system': no character sheet rolls {fields.a(m.TITLE)}")
    return sheet_of


def _waiting_dice(m) -> dict:
    """The dice the page tumbles for a roll tapped before the engine can answer (they land on its roll): as many as
    the form's defaults roll, of the procedure's sides."""
    return {
        "count": len(m.roll(fields.parse(m.FIELDS, fields.defaults(m.FIELDS)), source(0))["dice"]),
        "sides": m.SIDES,
    }


def roll(system: str, request: Any, seed: int | None = None, dice: Any = None) -> dict:
    """Roll `system` for `request`: every die, each step in order, the outcome, its class (`tone`, arbiter.tone), the
    choices still open, "drawn", the faces drawn in draw order (the procedure's docstring and docs/rulings.md say
    that order), and "faces", the dice it shows, of their sides and groups, to draw and to log (`_shown`). `dice`: the faces a table rolled, in that order, used instead of drawing: the answer is the one
    a seeded roll that drew them gives; too few or too many, or a face the die does not have, are refused."""
    m = _procedure(system)
    req = fields.parse(m.FIELDS, request)
    draw = _draw(seed, dice)
    out = m.roll(req, draw)
    return _with_odds(m, _shown(m, _drawn(out, draw, "this roll")))


def act(system: str, roll: Any, action: Any, seed: int | None = None, dice: Any = None) -> dict:
    """The next roll after a follow-up choice the rules allow; `roll` is never changed. "drawn": only the faces this
    follow-up drew ([] when it rolls nothing); `dice`, the table's faces for it, as for roll()."""
    m = _procedure(system)
    _check_follow_up(m, roll, action)
    draw = _draw(seed, dice)
    out = m.act(copy.deepcopy(roll), action, draw)
    return _with_odds(m, _shown(m, _drawn(out, draw, "this follow-up")))


def dice_needed(system: str, request: Any, faces: Any) -> dict:
    """What a roll of `request` needs after the table's `faces` (in the order rolled): {"dice": N more, "sides": of
    which die, "for": why, in a player's words ("the 10s roll again", "the target's pool", "the Narrator's Scheme
    die")}, the next batch a table rolls; {"dice": 0, "sides": null, "for": null} once the faces are complete. Too
    many faces, or one the die does not have, are refused as roll() refuses them."""
    m = _procedure(system)
    req = fields.parse(m.FIELDS, request)
    return _needed(lambda draw: m.roll(req, draw), faces, "this roll")


def dice_needed_act(system: str, roll: Any, action: Any, faces: Any) -> dict:
    """What the follow-up `action` of `roll` needs after the table's `faces`, as dice_needed() says it for a roll
    ({"dice": 0, ...} at once for a follow-up that rolls nothing)."""
    m = _procedure(system)
    _check_follow_up(m, roll, action)
    return _needed(lambda draw: m.act(copy.deepcopy(roll), action, draw), faces, "this follow-up")


def _draw(seed: Any, dice: Any) -> Recorded | TableFaces:
    """Where a roll's dice come from: the table's faces (`dice`), else the app's dice (seeded or not), recorded."""
    if dice is None:
        return Recorded(source(seed))
    if seed is not None:
        raise RulesError("'dice' cannot come with a 'seed': the table's faces are rolled, a seed draws the app's")
    return TableFaces(dice)


def _drawn(out: dict, draw: Recorded | TableFaces, what: str) -> dict:
    """The answer with "drawn" and "drawn_own" (the roller's own faces among them: not a contest's other side's, not
    the Narrator's Scheme die; dice.Theirs), once the table's faces are all used (none left over)."""
    if isinstance(draw, TableFaces):
        draw.all_drawn(what)
    out["drawn"] = list(draw.drawn)
    out["drawn_own"] = list(draw.own)
    return out


def _shown(m, out: dict) -> dict:
    """The answer with "faces": every die the roll shows as it stands, to draw and to log, in rolled order (the
    procedure's `faces`: {"sides", "face", "group", "marks"} each, shapes.FACES), so the page reads no procedure's
    keys for its dice."""
    out["faces"] = m.faces(out)
    return out


def _needed(step, faces: Any, what: str) -> dict:
    draw = TableFaces(faces)
    try:
        step(draw)
    except NeedMore as more:
        return {"dice": more.n, "sides": more.sides, "for": more.why}
    draw.all_drawn(what)
    return {"dice": 0, "sides": None, "for": None}


def _with_odds(m, out: dict) -> dict:
    """The roll with "standing" (its outcome as it stands, in the odds' shape, probability 1) and, on each choice
    that suggests an action, "odds": that action's odds_after() with the action itself under "action"."""
    out["standing"] = _public(chances.standing(m, out))
    for choice, exact in chances.choice_odds(m, out):
        action = exact.pop("action")
        choice["odds"] = {"action": action, **_public(exact), **_note(m, out, action, exact)}
    return out


def _note(m, roll: dict, action: Any, exact: dict) -> dict:
    """{"note": {"words", "tone"}} when the procedure has words for what these odds say (chances.note), else {}."""
    said = chances.note(m, roll, action, exact)
    return {} if said is None else {"note": said}


def odds_after(system: str, roll: Any, action: Any) -> dict:
    """The exact odds of the final outcome if `action` (any action act() accepts for `roll`) is taken now, the dice on
    the table kept: in odds()' shape, "outcomes" (ability_test: also "scheme_gain" and "setback", a setback that
    stands) as floats, and "exact" with "p/q". An action that rolls no dice (Exertion, negating a setback, a threat's
    reassignment, Pay the Price) is certain: 1 for the outcome it gives. Later choices are not counted.

    ten_again {"spend_will": true} (in a contest also {"spend_will": true, "side": "target"}): {"outcomes": {success,
    failure, botch}} or, in a contest, {"outcomes": {actor, target, tie}}. ability_test {"reroll": [die indexes]},
    {"exert": n}, {"negate_setback": true}: {"outcomes": {success, failure}, "scheme_gain": p, "setback": p}.
    With "note" ({"words", "tone"}) when the action cannot raise the chance it is taken for ("muted") or can only
    lower it ("warn"), as the procedure words it (chances.note); a roll's choices carry the same in their "odds".
    """
    m = _procedure(system)
    _check_follow_up(m, roll, action)
    exact = chances.odds_after(m, copy.deepcopy(roll), copy.deepcopy(action))
    return {**_public(exact), **_note(m, copy.deepcopy(roll), copy.deepcopy(action), exact)}


def luck(system: str, roll: Any) -> dict:
    """How lucky `roll` was as first rolled (before any follow-up): {"percentile": P(worse) + ½ P(same rank), "p_worse",
    "p_same", "p_outcome" (the chance of its outcome), "p_success", "success": bool, "outcome", "rank" (words),
    "order": [outcome keys, worst first], "exact": the chances as "p/q"}. Over all rolls the mean percentile is ½.

    Orders: ten_again botch < failure < success, ranked by successes (a contest: target < tie < actor); ability_test
    failure < success, ranked by Ability − total; arbitration its tiers; two_dice failure < success (target < actor);
    luck "0" < … < "6"; threat happens < lessened < avoided, threat by threat in priority order."""
    m = _procedure(system)
    out = chances.luck(m, copy.deepcopy(roll))
    exact = {k: v for k, v in out.items() if isinstance(v, Fraction)}
    result = {k: (float(v) if isinstance(v, Fraction) else v) for k, v in out.items()}
    result["percentile"] = float(out["p_worse"] + out["p_same"] / 2)
    result["exact"] = {"percentile": exact_str(out["p_worse"] + out["p_same"] / 2), **_strings(exact)}
    return result


def luck_entry(system: str, roll: Any) -> dict:
    """What a log entry keeps of luck() at roll time (its "luck" field, records.LOG_LUCK_CHARS at most as JSON: the
    largest, a threat roll of 8 threats, fits): luck() without its exact strings."""
    return {k: v for k, v in luck(system, roll).items() if k != "exact"}


def fairness_summary(entries: Any) -> dict:
    """Are my dice fair? From log entries (oldest first, as for luck_summary): {"groups": [{"character" ({id, name} or
    null), "sides", "fairness" (fairness()'s answer for their faces)}]}: per character and die kind, the roller's own
    faces of every roll made with the table's dice (a contest's other side and the Narrator's Scheme die left out;
    tally.table_faces), in the order each first rolled."""
    sides = {m.ID: m.SIDES for m in PROCEDURES.values()}
    groups = tally.table_faces(entries, sides, records.LOG_MAX)
    return {
        "groups": [
            {"character": g["character"], "sides": g["sides"], "fairness": fairness(g["faces"], g["sides"])}
            for g in groups
        ]
    }


def luck_summary(entries: Any) -> dict:
    """How lucky the table has been, from log entries (oldest first, as the log's export holds them): {"groups": [{
    "character" ({id, name} or null), "system", "title", "rolls", "mean_percentile" (½ is average), "successes",
    "expected_successes", "luckier" and "unluckier" (the rolls above and below average luck), "band" ([low, high]: where
    chance alone keeps the mean of that many rolls about 9 times in 10), "standing" (the mean "below", "within" or
    "above" its band), "points" ([{time, percentile, mean, low, high}] per roll, the running mean and its band),
    "exact" (the mean and the expected successes as "p/q")}]}, per character and procedure (tally.py)."""
    return tally.summary(entries, {m.ID: m.TITLE for m in PROCEDURES.values()}, records.LOG_MAX)


def fairness(faces: Any, sides: Any) -> dict:
    """Are these table dice fair? `faces`: every face the table rolled of one die kind, a d`sides` (a die some
    procedure rolls: 6 or 10). {"sides", "n", "counts" (of faces 1..sides), "expected" (n/sides for each face),
    "enough" (every face expected at least "min_expected" times), "more_needed" (faces until it is), "chi_square"
    (Pearson's X²), "p_value" (Q((k−1)/2, X²/2)) and "p" (how the words say it: "p = 0.41", "p < 0.001"), "unfair"
    (p < "alpha"), all four null until enough; "residuals" ((count − expected)/√expected per face, null with no faces),
    "named" (the faces the words name, when unfair: furthest from their expectation, either way) and "way" ("more"
    or "fewer": which way they are off; null when fair), "words" ("143 d10 faces: nothing
    chance does not explain, p = 0.41", "more 1s than chance explains, p = 0.003", "38 more faces to say"),
    "faces_to_find_a_loaded_die" (about how many faces this test needs to catch, at "alpha", at least "power_wanted"
    of the time, a die whose one face comes up twice as often as each other face: "loaded_die", its face chances; the
    smallest count from which the test's simulated power stays at or above it: fairness_power.py), "power" (the
    simulated power at that count) and "power_error" (its standard error), and "exact" ("p/q" of the exact ones)."""
    checked, k = read_faces(faces, sides, dice_sides())
    f = Fairness.of(checked, k)
    loaded = loaded_die(k)
    needed, power = faces_to_find(k)
    exact = {
        "expected": f.expected,
        "chi_square": f.chi_square if f.enough else None,
        "alpha": ALPHA,
        "power_wanted": POWER,
        "loaded_die": {"face": loaded[0], "other": loaded[1]},
    }
    return {
        "sides": k,
        "n": f.n,
        "counts": list(f.counts),
        "expected": float(f.expected),
        "min_expected": MIN_EXPECTED,
        "enough": f.enough,
        "more_needed": f.more_needed,
        "chi_square": float(f.chi_square) if f.enough else None,
        "p_value": f.p_value if f.enough else None,
        "p": f.p_said(),
        "unfair": f.unfair if f.enough else None,
        "residuals": list(f.residuals) if f.n else None,
        "named": list(f.furthest[1]) if f.unfair else [],
        "way": f.furthest[0] if f.unfair else None,
        "words": str(f),
        "faces_to_find_a_loaded_die": needed,
        "alpha": float(ALPHA),
        "power": power,
        "power_wanted": float(POWER),
        "power_error": power_error(k),
        "loaded_die": _floats(exact["loaded_die"]),
        "exact": _strings(exact),
    }


def dice_sides() -> tuple[int, ...]:
    """The dice the procedures roll (each declares its SIDES): the only dice fairness() tests."""
    return tuple(sorted({m.SIDES for m in PROCEDURES.values()}))


def _check_follow_up(m, roll: Any, action: Any) -> None:
    if not isinstance(roll, dict) or roll.get("system") != m.ID:
        raise RulesError(f"'roll' must be {fields.a(m.ID)} roll as returned by roll() or act()")
    if not isinstance(action, dict) or not action:
        names = ", ".join(a["name"] for a in m.ACTIONS) or f"none ({fields.a(m.TITLE)} has no follow-up choices)"
        raise RulesError(f"'action' must be an object naming one follow-up choice; allowed: {names}")


def _public(exact: dict) -> dict:
    out = _floats(exact)
    out["exact"] = _strings(exact)
    return out


def odds(system: str, request: Any) -> dict:
    """Exact probabilities as floats, plus `exact`: the same shape with "p/q" strings; and "what_if": for each
    resource the player could still add to this request, {"label", "change": {field: new value}, "outcomes" (floats;
    ability_test also "scheme_gain", "setback"), "exact": the same as "p/q"}, equal to odds() of the changed request
    (ten_again: Expend a Will; ability_test: a Scheme die, a Conviction of each Significance with its "significance",
    one more Mastery). Python decides which exist; none for the other procedures. "headline" is the main
    outcome's chance, the one shown beside Roll (each procedure's headline(), procedures.py)."""
    m = _procedure(system)
    req = fields.parse(m.FIELDS, request)
    exact = m.odds(req)
    exact["headline"] = m.headline(exact)
    out = _public(exact)
    what_ifs = []
    for entry in chances.what_if(m, req):
        plain = {k: v for k, v in entry.items() if not _has_fraction(v)}
        what_ifs.append({**plain, **_public({k: v for k, v in entry.items() if _has_fraction(v)})})
    out["what_if"] = what_ifs
    return out


def table(system: str, op: Any, state: Any, args: Any = None) -> dict:
    """Apply one table-state rule (spend Will, a night of rest, earn XP, a struggle's turn...) to `state`.

    Returns the new state (with a "note" for the log where useful); `state` and `args` are never changed.
    Odds come as floats plus `exact`, as from odds(). A procedure without table rules allows no op.
    """
    m = _procedure(system)
    ops = m.TABLE
    if not isinstance(op, str) or op not in ops:
        names = ", ".join(ops) or f"none ({fields.a(m.TITLE)} keeps no table state)"
        raise RulesError(f"'op' must be one of: {names}; got {op!r:.100}")
    result = ops[op](copy.deepcopy(state), copy.deepcopy(args))
    if not _has_fraction(result):
        return result
    out = _floats(result)
    out["exact"] = _strings(result)
    return out


# --- the table: what it keeps, what a roll costs and what follows it, the request a sheet fills ------------------


def table_spec() -> dict:
    """The table's own records (a character, the Scheme, the Situations' marks, a struggle, a log entry, the store's
    meta) as declarations, the kinds of character, and the roll log's and a table file's sizes."""
    return records.spec()


def check_sheet(system: str, sheet: Any) -> dict:
    """`sheet` checked field by field as the character sheet that rolls `system` (Luck's is the threat sheet)."""
    return records.check_sheet(_sheet_of(_procedure(system)).ID, sheet)


def check_record(name: str, data: Any) -> dict:
    """One of the table's records checked field by field; `name` is a key of table_spec()["records"]."""
    return records.check_record(name, data)


def costs(system: str, request: Any, action: Any = None, choices: Any = None) -> list[dict]:
    """What a roll of `request` (no `action`), or the follow-up `action`, costs on the table, in the order paid:
    api.table ops on the rolling character's sheet ("by": "character") or the shared Scheme ("by": "scheme").
    `choices`: what was picked on the sheet that filled `request` (systems()' "sheet_choices"), when it did; the ops
    then name what they are paid for (the Convictions activated, by id). With an action, `request` and `choices` are
    not read."""
    m = _procedure(system)
    if action is not None and not isinstance(action, dict):
        raise RulesError(f"'action' must be an object naming one follow-up choice, or null, got {action!r:.100}")
    req = fields.parse(m.FIELDS, request) if action is None else None
    picked = fields.parse(m.CHOICES, choices, "choices") if action is None and choices is not None else None
    return m.costs(req, action, picked)


def after_roll(system: str, roll: Any, action: Any = None, earned: Any = False, choices: Any = None) -> dict:
    """Everything the table does once `roll` is made (after `action` when it is a follow-up): "pay", its costs;
    "then", ops that follow from the dice (each says what "earned" becomes once paid); "marked", the Situation's Pay
    the Price marks from now on, or null. `earned`: an earlier step of this roll added a die to the Scheme;
    `choices`: what was picked on the sheet that filled the roll's request, as for costs()."""
    m = _procedure(system)
    if not isinstance(roll, dict) or roll.get("system") != m.ID:
        raise RulesError(f"'roll' must be {fields.a(m.ID)} roll as returned by roll() or act()")
    if not isinstance(earned, bool):
        raise RulesError(f"'earned' must be true or false, got {earned!r:.100}")
    pay = costs(system, roll.get("request"), action, choices)
    then, marked = follows(system, roll, action, earned)
    return {"pay": pay, "then": then, "marked": marked}


def follows(system: str, roll: dict, action: Any, earned: bool) -> tuple[list[dict], dict | None]:
    """What the table does once `roll` (checked by the caller as `system`'s) is made, past its costs: the ops that
    follow from the dice and the Situation's marks from now on, or null (after_roll's "then" and "marked")."""
    m = _procedure(system)
    earned = earned and action is not None  # a new roll starts a new chain: nothing earned yet
    return m.follows(copy.deepcopy(roll), earned)


def request_from_sheet(system: str, sheet: Any, choices: Any = None) -> dict | None:
    """The fields of `system`'s form that the character `sheet` fills, from the player's `choices` (published as
    systems()' "sheet_choices"); null when the sheet fills nothing (Luck)."""
    m = _procedure(system)
    checked = records.check_sheet(_sheet_of(m).ID, sheet)
    picked = fields.parse(m.CHOICES, {} if choices is None else choices, "choices")
    out = m.request_from_sheet(checked, picked)
    if out is not None:
        by_name = {f.name: f for f in m.FIELDS}
        for name, value in out.items():
            by_name[name].parse(value, name)
    return out


def _has_fraction(tree) -> bool:
    if isinstance(tree, Fraction):
        return True
    if isinstance(tree, dict):
        return any(_has_fraction(v) for v in tree.values())
    if isinstance(tree, (list, tuple)):
        return any(_has_fraction(v) for v in tree)
    return False


def _each_fraction(tree, leaf):
    """`tree` with each Fraction replaced by `leaf(it)`, its tuples as lists (JSON's shape)."""
    if isinstance(tree, Fraction):
        return leaf(tree)
    if isinstance(tree, dict):
        return {k: _each_fraction(v, leaf) for k, v in tree.items()}
    if isinstance(tree, (list, tuple)):
        return [_each_fraction(v, leaf) for v in tree]
    return tree


def _floats(tree):
    return _each_fraction(tree, float)


def _strings(tree):
    return _each_fraction(tree, exact_str)
