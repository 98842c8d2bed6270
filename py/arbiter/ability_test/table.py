"""Ability Test (seed 004), table state (`TABLE`, for api.table): XP earned per Scene and spent at the sheet's
costs, the Exertion pool, moving Significance between Convictions once per Session, and the shared Scheme pool.

Pure rules over what the page keeps: each op takes `state` (the part of a sheet, or the shared Scheme, as a plain
dict) and `args`, and returns the new state. Keys of `state` an op does not read are returned as they were, so the
page may pass a whole sheet; a "note" says what happened, for the roll log.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import fields
from ..errors import RulesError
from ..fields import table_op
from ..stored import Id, MayBeAbsent, Payer, Record
from .rolling import ID, Outcome, roll_from_json
from .scene import TABLE as SCENE_TABLE
from .scene import TABLE_OPS as SCENE_TABLE_OPS
from .scene import activate_conviction  # noqa: F401 (the package exports it from here)
from .sheet import (
    ATTRIBUTES,
    MAX_CONVICTION_TEXT,
    MAX_EXERTION_POOL,
    MAX_SHEET_CONVICTIONS,
    MAX_SKILL,
    MAX_XP,
    NEGATE_COST,
    SHEET,
    XP_BY_KIND,
    XP_COSTS,
    XP_PER_SCENE,
    XP_UNPRICED,
    xp_cost,
)

MAX_SCENES = 20
MAX_SCHEME = 99  # the text gives the Scheme no size (ability_test-23)


# XP ---------------------------------------------------------------------------------------------------------------

_XP_STATE = fields.Int(
    "xp",
    "Experience (XP)",
    0,
    MAX_XP,
    0,
    help="Experience can be stored indefinitely, and spent at any time (including in between tests).",
)
_SCENES = fields.Int(
    "scenes", "Scenes", 1, MAX_SCENES, 1, help="Experience (XP) is awarded at the rate of 1 per Scene."
)
_KIND = fields.Choice("kind", "Spend XP on", tuple((c.kind, c.label) for c in XP_COSTS), XP_COSTS[0].kind)
_CURRENT = fields.Int("current", "Current rank or score (0 for something new)", 0, MAX_SKILL, 0)


def xp_earn(state: Any, args: Any = None) -> dict:
    """XP is awarded at the rate of 1 per Scene: the state with `xp` up by the scenes played."""
    scenes = fields.read_args(args, (_SCENES,), "xp_earn")["scenes"]
    xp = fields.read_state(state, (_XP_STATE,), ("xp",))["xp"]
    earned = scenes * XP_PER_SCENE
    if xp + earned > MAX_XP:
        raise RulesError(f"'state.xp' would go above {MAX_XP}, the most the sheet holds ({xp} + {earned})")
    return fields.new_state(
        state, f"Earned {earned} XP for {scenes} Scene{'s' if scenes > 1 else ''}: {xp + earned} XP", xp=xp + earned
    )


def xp_spend(state: Any, args: Any = None) -> dict:
    """Spend XP at the text's prices (`xp_cost`), refusing what cannot be afforded: {"xp": xp - cost, "cost": cost}."""
    if isinstance(args, dict) and isinstance(args.get("kind"), str) and args["kind"] in XP_UNPRICED:
        raise RulesError(f"'args.kind' {args['kind']} has no price: {XP_UNPRICED[args['kind']]}")
    a = fields.read_args(args, (_KIND, _CURRENT), "xp_spend", ("kind",))
    c = XP_BY_KIND[a["kind"]]
    if not c.current_min <= a["current"] <= c.current_max:
        raise RulesError(
            f"'args.current' must be from {c.current_min} to {c.current_max} for {c.kind} ({c.limit}), "
            f"got {a['current']}"
        )
    cost = xp_cost(c.kind, a["current"])
    xp = fields.read_state(state, (_XP_STATE,), ("xp",))["xp"]
    what = c.label + (f" (now {a['current']})" if c.plus_current else "")
    if cost > xp:
        raise RulesError(f"'state.xp': {what} costs {cost} XP, but only {xp} XP {'is' if xp == 1 else 'are'} held")
    return fields.new_state(state, f"Spent {cost} XP: {what}; {xp - cost} XP left", xp=xp - cost, cost=cost)


_XP_SHEET = tuple(f for f in SHEET.fields if f.name in ("attributes", "skills", "items", "xp"))
_WHAT = fields.Text(
    "what", "Spend XP on: new_skill, new_item, skill:<id>, item:<id> or attr:<Attribute>", 80, "new_skill"
)
_NEW_NAME = fields.Text("name", "Name of the new Skill or Item", 80)
_NEW_UNIQUE = fields.Bool("unique", "The new Item is Unique")
_NEW_ID = Id("id", "Id of the new Skill or Item (the page makes it)", optional=True)


def xp_advance(state: Any, args: Any = None) -> dict:
    """Spend XP on the sheet: a new Skill or Item with 1 rank, or one more rank of a Skill, an Item or an Attribute,
    at the text's price for what it is (none for a Focused Skill or a Unique Item); the sheet advanced, XP lowered."""
    a = fields.read_args(args, (_WHAT, _NEW_NAME, _NEW_UNIQUE, _NEW_ID), "xp_advance", ("what",))
    s = fields.read_state(state, _XP_SHEET, tuple(f.name for f in _XP_SHEET))
    skills, items, attributes = [dict(x) for x in s["skills"]], [dict(x) for x in s["items"]], dict(s["attributes"])
    target, _, key = a["what"].partition(":")
    if target in ("new_skill", "new_item") and not key:
        noun, entries = ("Skill", skills) if target == "new_skill" else ("Item", items)
        if not a["name"].strip():
            raise RulesError(f"Name the new {noun} first.")
        if not a["id"] or any(x["id"] == a["id"] for x in entries):
            raise RulesError(
                f"'args.id' must be the new {noun}'s own id (1 to 64 letters, digits, - or _), got {a['id']!r}"
            )
        kind, current = target, 0
        entries.append(
            {"id": a["id"], "name": a["name"].strip(), "level": 1, "focused": False, "masteries": 0}
            if target == "new_skill"
            else {"id": a["id"], "name": a["name"].strip(), "unique": a["unique"], "level": 1}
        )
    elif target in ("skill", "item"):
        noun, entries = ("Skill", skills) if target == "skill" else ("Item", items)
        entry = next((x for x in entries if x["id"] == key), None)
        if entry is None:
            raise RulesError(f"That {noun} is no longer on the sheet.")
        if target == "skill":
            kind = "advance_focused_skill" if entry["focused"] else "advance_skill"
        else:
            kind = "advance_unique_item" if entry["unique"] else "advance_standard_item"
        current = entry["level"]
        if current == 0 and kind in ("advance_skill", "advance_standard_item"):
            kind = "new_" + target  # at rank 0 it is begun with 1 rank: a Skill 2 XP, an Item 3 (ability_test-16)
        entry["level"] += 1
    elif target == "attr" and key in ATTRIBUTES:
        kind, current = "advance_attribute", attributes[key]
        attributes[key] += 1
    else:
        raise RulesError(
            f"'args.what' must be new_skill, new_item, skill:<id>, item:<id> or attr:<one of "
            f"{', '.join(ATTRIBUTES)}>, got {a['what']!r}"
        )
    paid = xp_spend({"xp": s["xp"]}, {"kind": kind, "current": current})
    return fields.new_state(
        state, paid["note"], xp=paid["xp"], cost=paid["cost"], skills=skills, items=items, attributes=attributes
    )


# Exertion and Convictions -----------------------------------------------------------------------------------------

_EXERTION_STATE = fields.Int(
    "exertion",
    "Exertion",
    0,
    MAX_EXERTION_POOL,
    0,
    help="Subtract a number of Exertion to increase Ability by the same amount; one Exertion activates a Conviction.",
)
_AMOUNT = fields.Int("amount", "Exertion to spend", 1, MAX_EXERTION_POOL, 1)


def exert(state: Any, args: Any = None) -> dict:
    """Subtract a number of Exertion (never below 0): the state with `exertion` lower by `amount`."""
    amount = fields.read_args(args, (_AMOUNT,), "exert")["amount"]
    exertion = fields.read_state(state, (_EXERTION_STATE,), ("exertion",))["exertion"]
    if amount > exertion:
        raise RulesError(
            f"'args.amount' must be from 1 to {exertion} (the Exertion left), got {amount}"
            if exertion
            else "'state.exertion' is 0: no Exertion left to spend",
            says=f"has {exertion} Exertion left" if exertion else "has no Exertion left",
            holder=True,
            left=exertion,
        )
    return fields.new_state(state, f"Spent {amount} Exertion ({exertion - amount} left)", exertion=exertion - amount)


@dataclass(frozen=True, slots=True)
class Conviction:
    """A description of something significant to the character, and its Significance (1 to 3)."""

    text: str
    significance: int

    def __str__(self) -> str:
        return f"“{self.text}”" if self.text else "a Conviction"


_CONVICTIONS_STATE = fields.Records(
    "convictions",
    "Convictions",
    (fields.Text("text", "Conviction", MAX_CONVICTION_TEXT), fields.Int("significance", "Significance", 1, 3, 1)),
    0,
    MAX_SHEET_CONVICTIONS,
    help="Significance is measured on a scale of 1 to 3: 1 Valued, 2 Momentous, 3 Pivotal.",
)
_MOVED_STATE = fields.Bool("moved_this_session", "Significance moved this Session", False)
_FROM = fields.Int("from", "Move 1 point of Significance from Conviction (index)", 0, MAX_SHEET_CONVICTIONS - 1, 0)
_TO = fields.Int("to", "to Conviction (index)", 0, MAX_SHEET_CONVICTIONS - 1, 1)


def _convictions(state: dict) -> tuple[Conviction, ...]:
    """The sheet's Convictions: each an object with text and significance (other keys kept as they are)."""
    value = state["convictions"]
    decl = _CONVICTIONS_STATE
    if not isinstance(value, list) or len(value) > decl.max_len:
        raise RulesError(f"'state.convictions' must be a list of 0 to {decl.max_len} Convictions, got {value!r:.100}")
    out = []
    for i, c in enumerate(value):
        if not isinstance(c, dict):
            raise RulesError(f"'state.convictions[{i}]' must be an object with text and significance, got {c!r:.100}")
        known = {k: c[k] for k in ("text", "significance") if k in c}
        if "significance" not in known:
            raise RulesError(
                f"'state.convictions[{i}].significance' is missing: Significance, a whole number from 1 to 3"
            )
        parsed = fields.parse(decl.fields, known, f"state.convictions[{i}]")
        out.append(Conviction(parsed["text"], parsed["significance"]))
    return tuple(out)


def move_significance(state: Any, args: Any = None) -> dict:
    """At the end of each Session, move 1 point of Significance from one Conviction to another (once per Session,
    each staying within 1 to 3)."""
    a = fields.read_args(args, (_FROM, _TO), "move_significance", ("from", "to"))
    moved_already = fields.read_state(state, (_MOVED_STATE,), ())["moved_this_session"]
    if "convictions" not in state:
        raise RulesError(
            f"'state.convictions' is missing: a list of 0 to {MAX_SHEET_CONVICTIONS} Convictions, "
            f"each with text and significance"
        )
    convictions = _convictions(state)
    if moved_already:
        raise RulesError(
            "'state.moved_this_session' is true: only 1 point of Significance may be moved at the end "
            "of each Session (end_session starts the next)"
        )
    n = len(convictions)
    if n < 2:
        raise RulesError(f"'state.convictions' must hold at least 2 Convictions to move Significance between, got {n}")
    for key in ("from", "to"):
        if a[key] >= n:
            raise RulesError(f"'args.{key}' must be from 0 to {n - 1} (the Convictions listed), got {a[key]}")
    i, j = a["from"], a["to"]
    if i == j:
        raise RulesError(f"'args.to' must be another Conviction than 'args.from' (both {i})")
    if convictions[i].significance == 1:
        raise RulesError(
            f"'args.from': Conviction {i} has Significance 1, the lowest "
            f"(Significance is measured on a scale of 1 to 3)"
        )
    if convictions[j].significance == 3:
        raise RulesError(
            f"'args.to': Conviction {j} has Significance 3, the highest (Significance is measured on a scale of 1 to 3)"
        )
    moved = [dict(c) for c in state["convictions"]]
    moved[i]["significance"] -= 1
    moved[j]["significance"] += 1
    note = (
        f"Moved 1 point of Significance from {convictions[i]} ({convictions[i].significance} → "
        f"{convictions[i].significance - 1}) to {convictions[j]} ({convictions[j].significance} → "
        f"{convictions[j].significance + 1})"
    )
    return fields.new_state(state, note, convictions=moved, moved_this_session=True)


def end_session(state: Any, args: Any = None) -> dict:
    """Close the Session: 1 point of Significance may be moved again at the end of the next one."""
    fields.read_args(args, (), "end_session")
    fields.read_state(state, (_MOVED_STATE,), ())
    return fields.new_state(
        state,
        "Session ended: 1 point of Significance may be moved at the end of the next Session",
        moved_this_session=False,
    )


# The Scheme: a shared pool ----------------------------------------------------------------------------------------

SCHEME_STATE = fields.Int(
    "scheme", "Dice in the Scheme", 0, MAX_SCHEME, 0, help="A shared pool that all players have equal access to."
)
_TEST_ARG = fields.Object(
    "roll",
    "An ability_test roll as returned by roll() or act()",
    help="A Test on which the player succeeded with at least one 1 rolled during the Test.",
)


def _many_dice(n: int) -> str:
    return f"{n} {'die' if n == 1 else 'dice'}"


def scheme_add(state: Any, args: Any = None) -> dict:
    """A success with at least one 1 adds one die to the Scheme (no die back on a Test that used a Scheme die).

    The page calls it once per roll; a roll that earns no die is refused.
    """
    value = fields.read_args(args, (_TEST_ARG,), "scheme_add")["roll"]
    if value is None:
        raise RulesError(f"'args.roll' is missing: {_TEST_ARG.label}")
    test, _ = roll_from_json(value, "args.roll")
    scheme = fields.read_state(state, (SCHEME_STATE,), ("scheme",))["scheme"]
    if not test.scheme_gain:
        why = (
            "a Scheme die was used on this Test"
            if test.request.scheme_die and test.outcome is Outcome.SUCCESS and test.rolled_one
            else "it needs at least one 1 rolled during a Test the player succeeds at"
        )
        raise RulesError(f"'args.roll' earns no die for the Scheme: {why}")
    if scheme == MAX_SCHEME:
        raise RulesError(f"'state.scheme' is already {MAX_SCHEME}, the most the page keeps")
    return fields.new_state(
        state, f"A 1 on a success: one die added to the Scheme ({_many_dice(scheme + 1)})", scheme=scheme + 1
    )


def scheme_spend_die(state: Any, args: Any = None) -> dict:
    """Before rolling for a test, remove 1 die from the Scheme (its d6 is added to Ability): refused at 0."""
    fields.read_args(args, (), "scheme_spend_die")
    scheme = fields.read_state(state, (SCHEME_STATE,), ("scheme",))["scheme"]
    if scheme == 0:
        raise RulesError(
            "'state.scheme' is 0: there is no die in the Scheme to remove", says="has no die left", holder=True
        )
    return fields.new_state(
        state, f"Removed 1 die from the Scheme for this Test ({_many_dice(scheme - 1)} left)", scheme=scheme - 1
    )


def scheme_negate_setback(state: Any, args: Any = None) -> dict:
    """Subtract two dice from the Scheme to negate a declared setback: refused with fewer than two."""
    fields.read_args(args, (), "scheme_negate_setback")
    scheme = fields.read_state(state, (SCHEME_STATE,), ("scheme",))["scheme"]
    if scheme < NEGATE_COST:
        raise RulesError(
            f"'state.scheme' is {scheme}: negating a setback takes {NEGATE_COST} dice from the Scheme",
            says=f"has {_many_dice(scheme)} left: negating a setback takes {NEGATE_COST}",
            holder=True,
        )
    return fields.new_state(
        state,
        f"Subtracted {NEGATE_COST} dice from the Scheme to negate the setback "
        f"({_many_dice(scheme - NEGATE_COST)} left)",
        scheme=scheme - NEGATE_COST,
    )


# What a Test costs on the table, and what follows it --------------------------------------------------------------

UNNAMED_CONVICTIONS = (
    "pick the Convictions to declare on the sheet (Roll as this character, then tick them): a character declares "
    "one of their own Convictions relevant to the Scene, for one Exertion"
)
TAKEN_BACK = "A reroll took back the 1 on a success: the die it earned leaves the Scheme again"


def costs(request: dict | None, action: dict | None, choices: dict | None = None) -> list[dict]:
    """Rolling the Test takes one Exertion per Conviction activated (but those declared relevant to this Scene
    already) and, with "Scheme die" ticked, a die from the Scheme; after it, Exertion spent comes off the sheet and
    negating the setback takes two dice from the Scheme.

    With the sheet's `choices` the request was filled from, each activated Conviction is declared by its id
    (`activate_conviction` records it, and charges nothing for one declared already this Scene, ability_test-25);
    without them the request names no Conviction of the sheet: a character rolling it is refused (`refuse`: the
    words asking to pick them on the sheet), and a roll as nobody declares them freely (no sheet to pay from)."""
    if action is None:
        return _conviction_costs(request, choices) + (
            [fields.pay("scheme", ID, "scheme_spend_die")] if request["scheme_die"] else []
        )
    if "exert" in action:
        return [fields.pay("character", ID, "exert", {"amount": action["exert"]})]
    if "negate_setback" in action:
        return [fields.pay("scheme", ID, "scheme_negate_setback")]
    return []


def _conviction_costs(request: dict, choices: dict | None) -> list[dict]:
    """activate_conviction for each Conviction the request activates: by id when `choices` names them (as many as the
    request holds), else once for each not declared already."""
    if choices is None:  # nothing names them: a character is asked to pick them on the sheet (ability_test-13)
        n = len(request["convictions"]) - request.get("convictions_declared", 0)
        return [fields.pay("character", ID, "activate_conviction", None, n, refuse=UNNAMED_CONVICTIONS)] if n else []
    ids = list(dict.fromkeys(choices["convictions"]))
    n = len(request["convictions"])
    if len(ids) != n:
        raise RulesError(
            f"'choices.convictions' must name the {n} Conviction{'' if n == 1 else 's'} the request "
            f"activates, got {len(ids)}"
        )
    return [fields.pay("character", ID, "activate_conviction", {"conviction": cid}) for cid in ids]


def follows(roll: dict, earned: bool) -> tuple[list[dict], None]:
    """What follows a Test on the table (`scheme_follows`), read from the roll checked die by die."""
    test, _ = roll_from_json(roll)
    return scheme_follows(test.scheme_gain, earned, roll), None


def earned(roll: dict) -> bool:
    """Whether the steps up to `roll` left this Test's die in the Scheme: one die per Test, held while it stands a
    success with a 1 (ability_test-8), so a follow-up of `roll` starts from its `scheme_gain`, read die by die. On a
    table that does not track the Scheme nothing is paid either way, so the same reading serves every table: a tap
    (tap.turn) and a shared roll replayed from its first step (receive.py) chain it alike."""
    test, _ = roll_from_json(roll)
    return test.scheme_gain


def scheme_follows(gain: bool, earned: bool, roll: dict) -> list[dict]:
    """A success with a 1 adds a die to the Scheme, once per roll and its follow-ups (`earned`: an earlier step of
    this roll added it); a follow-up that no longer earns it takes the die back. Each op says what `earned` becomes
    once paid (a refused op leaves it as it was)."""
    if gain and not earned:
        return [fields.pay("scheme", ID, "scheme_add", {"roll": roll}, earned=True)]
    if not gain and earned:
        return [fields.pay("scheme", ID, "scheme_spend_die", earned=False, note=TAKEN_BACK)]
    return []


TABLE = {
    "xp_earn": xp_earn,
    "xp_spend": xp_spend,
    "xp_advance": xp_advance,
    "exert": exert,
    **SCENE_TABLE,
    "move_significance": move_significance,
    "end_session": end_session,
    "scheme_add": scheme_add,
    "scheme_spend_die": scheme_spend_die,
    "scheme_negate_setback": scheme_negate_setback,
}

TABLE_OPS = [
    table_op("xp_earn", "Earn XP", "Experience (XP) is awarded at the rate of 1 per Scene.", (_XP_STATE,), (_SCENES,)),
    table_op(
        "xp_spend",
        "Spend XP",
        "At the text's prices (see extras.xp_costs); refuses what cannot be afforded. "
        'Returns the state with xp lowered and "cost".',
        (_XP_STATE,),
        (_KIND, _CURRENT),
    ),
    table_op(
        "xp_advance",
        "Spend XP on the sheet",
        "A new Skill or Item with 1 rank (named; the page gives its id), "
        "or one more rank of a Skill (skill:<id>), an Item (item:<id>) or an Attribute (attr:<name>), at the "
        "price of what it is (a Focused Skill or a Unique Item has none). Returns the state with xp lowered, "
        'the sheet advanced and "cost".',
        _XP_SHEET,
        (_WHAT, _NEW_NAME, _NEW_UNIQUE, _NEW_ID),
    ),
    table_op(
        "exert", "Spend Exertion", "Subtract a number of Exertion (never below 0).", (_EXERTION_STATE,), (_AMOUNT,)
    ),
    *SCENE_TABLE_OPS,
    table_op(
        "move_significance",
        "Move Significance",
        "At the end of each Session, move 1 point of Significance "
        "from one Conviction to another (each stays within 1 to 3; once per Session).",
        (_CONVICTIONS_STATE, _MOVED_STATE),
        (_FROM, _TO),
    ),
    table_op(
        "end_session",
        "End the Session",
        "Close the Session: Significance may be moved again at the end of the next one.",
        (_MOVED_STATE,),
    ),
    table_op(
        "scheme_add",
        "Add a die to the Scheme",
        "A success with at least one 1 rolled during the Test adds "
        "one die (not on a Test that used a Scheme die). Call once per roll.",
        (SCHEME_STATE,),
        (_TEST_ARG,),
    ),
    table_op(
        "scheme_spend_die",
        "Use a Scheme die",
        "Before rolling for a test, remove 1 die from the Scheme.",
        (SCHEME_STATE,),
    ),
    table_op(
        "scheme_negate_setback",
        "Negate a setback",
        f"Subtract {NEGATE_COST} dice from the Scheme to negate a declared setback.",
        (SCHEME_STATE,),
    ),
]


# The Scheme, and whether this device keeps it: off, the table keeps its Scheme elsewhere (on paper), so a Scheme die
# or a negation is neither checked against this count nor taken from it, and no die is added to it.
SCHEME = Record(
    "scheme",
    "The Scheme",
    (
        SCHEME_STATE,
        fields.Bool(
            "tracked",
            "Track the Scheme on this device",
            True,
            help="Off: the Scheme is kept elsewhere; no roll is checked against this count or changes it.",
        ),
        # false: this device's count was never set (by hand, by a roll, or from the Host's table), so an empty Scheme
        # here may only be one never shared to it; absent on a Scheme kept before schema 8 and in older table links
        MayBeAbsent(fields.Bool("set", "The Scheme was set on this device", False)),
    ),
)
RECORDS = (SCHEME,)  # the table's records this procedure declares (records.py gathers them)

# The Scheme pays what a Test costs it (a Scheme die, negating a setback) whoever rolls, while this device tracks it:
# declared here (as RECORDS), so the table's tap (tap.py) words no Scheme of its own.
PAYERS = (
    Payer(
        SCHEME,
        holder="The Scheme",  # "The Scheme has no die left"
        count=SCHEME_STATE.name,
        unit=("Scheme die", "Scheme dice"),  # Roll says "1 Scheme die (3 left)"
        tracked="tracked",
        unset="set",
        # what an empty Scheme never set on this device adds to its refusal: where it lives, and the two ways out
        never_set=(
            ": it was never set on this phone. The Scheme lives on the Host's phone: get the Host's table (Share the "
            "table there, then open or scan it here), or set the Scheme here on the Table."
        ),
        never_set_host=": it was never set on this phone. Set the Scheme on the Table first, then add the roll.",
        host_holder="The Host's Scheme",  # on a live table, the Scheme a player's tap is checked against (issue 32)
    ),
)
