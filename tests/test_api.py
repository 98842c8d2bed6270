"""The one door: systems, roll, act, odds and table as JSON-safe dicts, errors as RulesError."""

import copy
import json
import random
from fractions import Fraction
from pathlib import Path

import pytest

from arbiter import RulesError, api, ten_again
from arbiter.procedures import PROCEDURES

ROOT = Path(__file__).resolve().parent.parent
IDS = list(PROCEDURES)
EXAMPLES = {m.ID: m.EXAMPLE_REQUESTS for m in PROCEDURES.values()}  # each procedure's requests to try it with

# The largest request each procedure allows (most dice, every option on): what `odds` must answer fast.
LARGEST = {system: examples["largest"] for system, examples in EXAMPLES.items()}


def _leaves(tree, path=()):
    if isinstance(tree, dict):
        for k, v in tree.items():
            yield from _leaves(v, path + (k,))
    elif isinstance(tree, list):
        for i, v in enumerate(tree):
            yield from _leaves(v, path + (i,))
    else:
        yield path, tree


def test_systems_lists_every_procedure_with_its_seed():
    """systems() names every procedure of the registry, each with the seed text it implements (a file of
    docs/seeds/), and every seed text is some procedure's."""
    got = {s["id"]: s["seed"] for s in api.systems()}
    assert list(got) == IDS
    texts = {p.name for p in (ROOT / "docs" / "seeds").glob("*.txt")}
    assert set(got.values()) == texts


def test_systems_gives_each_procedure_a_tab_of_its_own():
    """Issue 20: each procedure has its own tab in the picker, Luck too (it shares Threat's text): the Roll view then
    holds one form and one Roll bar."""
    systems = api.systems()
    assert [s["tab"] for s in systems] == [s["id"] for s in systems]
    assert len({s["seed"] for s in systems if s["id"] in ("threat", "luck")}) == 1


def test_no_procedure_takes_a_word_the_pages_address_keeps_for_a_view():
    """Issue 20: `#table`, `#log` (and `#roll`, `#settings`, `#r`) name the page's views, never a procedure: the
    registry refuses such an id, and static/views.js's views are among the kept words."""
    import re
    import types

    from arbiter import procedures

    coin = types.ModuleType("table")
    coin.ID = "table"
    with pytest.raises(ImportError, match="kept for the page's views"):
        procedures._registry([coin])
    views = Path(__file__).resolve().parents[1] / "static" / "views.js"
    named = re.search(r"export const VIEWS = \[([^\]]*)\]", views.read_text(encoding="utf-8")).group(1)
    assert set(re.findall(r"'([a-z]+)'", named)) <= set(procedures.RESERVED_IDS)
    assert not set(procedures.PROCEDURES) & set(procedures.RESERVED_IDS)


def test_systems_is_json_safe_and_declares_limits():
    """Every input declares a type, and every number a finite range and a default inside it."""
    systems = api.systems()
    assert json.loads(json.dumps(systems)) == systems
    for s in systems:
        assert s["title"] and s["fields"]
        for f in s["fields"]:
            _check_field(f)


FIELD_TYPES = {"int", "int_list", "int_or_word", "bool", "choice", "text", "group", "records", "record", "list", "id"}


def _check_field(f):
    """One declaration: a known type, a label, finite limits, and a default the limits allow."""
    assert f["type"] in FIELD_TYPES and f["label"] and f["name"], f
    if f["type"] in ("int", "int_list", "int_or_word"):
        assert isinstance(f["min"], int) and isinstance(f["max"], int) and f["min"] <= f["max"], f
    if f["type"] in ("int_list", "records", "list"):
        assert 0 <= f["min_len"] <= f["max_len"], f
    if f["type"] in ("record", "list"):
        for sub in f.get("fields", []) + ([f["of"]] if "of" in f else []):
            _check_field(sub)
    default = f.get("default")
    if f["type"] == "int":
        assert isinstance(default, int) and f["min"] <= default <= f["max"], f
    elif f["type"] == "int_list":
        assert f["min_len"] <= len(default) <= f["max_len"] and all(f["min"] <= v <= f["max"] for v in default), f
    elif f["type"] == "int_or_word":
        assert default in f["words"] or (isinstance(default, int) and f["min"] <= default <= f["max"]), f
    elif f["type"] == "bool":
        assert default in (True, False), f
    elif f["type"] == "choice":
        assert default in [o["value"] for o in f["options"]] and all(o["label"] for o in f["options"]), f
    elif f["type"] == "text":
        assert isinstance(default, str) and len(default) <= f["max_len"], f
    for inner in f.get("fields", []):
        _check_field(inner)


@pytest.mark.parametrize("system", IDS)
def test_defaults_roll_and_have_odds(system):
    """The form's default request rolls, and its outcome is one odds() gives a chance to."""
    spec = next(s for s in api.systems() if s["id"] == system)
    r = api.roll(system, spec["defaults"], seed=1)
    assert json.loads(json.dumps(r)) == r
    for key in ("system", "request", "dice", "steps", "outcome", "summary", "tone", "choices"):
        assert key in r, key
    assert r["system"] == system and isinstance(r["steps"], list) and r["steps"]
    o = api.odds(system, spec["defaults"])
    assert json.loads(json.dumps(o)) == o
    if system == "threat":  # the odds are per threat: its outcome has a chance for each
        assert all(o["threats"][i][t["outcome"]] > 0 for i, t in enumerate(r["threats"]))
    else:
        assert o["outcomes"][str(r["outcome"])] > 0


@pytest.mark.parametrize("system", IDS)
def test_seeded_rolls_repeat_and_ignore_global_random(system):
    """The same seed gives the same roll whatever the global random module holds."""
    random.seed(1)
    a = api.roll(system, LARGEST[system], seed=99)
    random.seed(2)
    b = api.roll(system, LARGEST[system], seed=99)
    assert a == b


@pytest.mark.parametrize("system", IDS)
def test_exact_odds_mirror_floats(system):
    """`exact` has the shape of the floats, each "p/q" equal to its float."""
    _mirrors(api.odds(system, LARGEST[system]))


def _mirrors(o: dict, plain=("what_if",)) -> None:
    """`exact` mirrors the floats of `o` (each what-if's own too; its label and change are words, not chances)."""
    o = dict(o)
    for entry in o.pop("what_if", []):
        _mirrors({k: v for k, v in entry.items() if k not in ("label", "change", "significance")})
    exact = o.pop("exact")
    floats = dict(_leaves(o))
    strings = dict(_leaves(exact))
    assert floats.keys() == strings.keys()
    for path, s in strings.items():
        p = Fraction(s)
        assert 0 <= p <= 1, path
        assert float(p) == floats[path], path


# a request of each procedure that has what-ifs (the largest have none: every resource is in them already)
WITH_WHAT_IFS = {system: examples["what_if"] for system, examples in EXAMPLES.items() if "what_if" in examples}


@pytest.mark.parametrize("system", IDS)
def test_what_if_is_the_odds_of_the_changed_request(system):
    """odds()' "what_if": each entry's outcomes (and exact) are odds() of the request with its change; only
    ten_again and ability_test have any."""
    request = WITH_WHAT_IFS.get(system, LARGEST[system])
    o = api.odds(system, request)
    _mirrors(o)
    assert bool(o["what_if"]) == (system in WITH_WHAT_IFS)
    for entry in o["what_if"]:
        changed = api.odds(system, {**request, **entry["change"]})
        for key in ("outcomes", "scheme_gain", "setback"):
            assert entry.get(key) == changed.get(key)
            assert entry["exact"].get(key) == changed["exact"].get(key)
        assert isinstance(entry["label"], str) and entry["label"]


# seeded rolls of every example request but the largest (a Will after the roll, a Test with Masteries, a failure...)
FOLLOWED = [(system, name) for system, examples in EXAMPLES.items() for name in examples if name != "largest"]


@pytest.mark.parametrize("system,name", FOLLOWED)
def test_each_choice_carries_the_odds_of_its_action(system, name):
    """Every roll and act() answer carries "standing" (its outcome with certainty) and, on each choice that suggests
    an action, "odds" equal to odds_after() of that action, its note too (with none, the roll as it stands and the
    note of doing nothing)."""
    request_ = EXAMPLES[system][name]
    for seed in range(12):
        r = api.roll(system, request_, seed=seed)
        while True:
            standing = r["standing"]
            _mirrors(standing)
            if "threats" in standing:  # odds per threat
                assert [max(t, key=t.get) for t in standing["threats"]] == [t["outcome"] for t in r["threats"]]
            else:
                assert standing["outcomes"][r["outcome"]] == 1
            for c in r["choices"]:
                if "odds" in c:
                    odds = dict(c["odds"])
                    action = odds.pop("action")
                    if action:
                        assert odds == api.odds_after(system, r, action)
                    else:
                        assert {k: v for k, v in odds.items() if k != "note"} == standing
            offered = [c["odds"]["action"] for c in r["choices"] if (c.get("odds") or {}).get("action")]
            if not offered:
                break
            r = api.act(system, r, offered[0], seed=seed)


@pytest.mark.parametrize("system", IDS)
def test_the_examples_offer_every_follow_up(system):
    """A procedure's example requests offer each of its follow-up choices (ACTIONS) in some seeded roll, so the tests
    that take them from the examples have each to take."""
    offered = {
        c["name"]
        for request in EXAMPLES[system].values()
        for seed in range(12)
        for c in api.roll(system, request, seed)["choices"]
    }
    assert offered == {a["name"] for a in PROCEDURES[system].ACTIONS}


@pytest.mark.parametrize("system", IDS)
def test_unknown_field_is_refused(system):
    """A field the procedure does not have is named in the error."""
    with pytest.raises(RulesError, match="'nonsense'"):
        api.roll(system, {"nonsense": 1})


@pytest.mark.parametrize("request_", [None, [], "x", 3])
def test_request_must_be_an_object(request_):
    """A request that is not an object is refused, for roll and odds."""
    with pytest.raises(RulesError, match="object"):
        api.roll("luck", request_)
    with pytest.raises(RulesError, match="object"):
        api.odds("luck", request_)


@pytest.mark.parametrize("system", [None, "Luck", "d20", 3])
def test_unknown_system_is_refused(system):
    """An unknown system names the ones allowed."""
    with pytest.raises(RulesError, match="arbitration, two_dice"):
        api.odds(system, {})


def test_act_refuses_a_roll_of_another_system():
    """act() only takes a roll of the same procedure."""
    r = api.roll("luck", {}, seed=1)
    with pytest.raises(RulesError, match="'roll'"):
        api.act("ten_again", r, {"spend_will": True})


@pytest.mark.parametrize("action", [None, {}, [], "spend_will"])
def test_act_refuses_a_non_action(action):
    """An action must be a non-empty object."""
    r = api.roll("ten_again", {"pool": 3}, seed=1)
    with pytest.raises(RulesError, match="'action'"):
        api.act("ten_again", r, action)


@pytest.mark.parametrize("system", IDS)
@pytest.mark.benchmark(group="odds-largest")
def test_bench_odds_largest(benchmark, system):
    """Benchmark: odds() for the largest allowed request of each procedure (figures go in docs/performance.md)."""
    # a first call: ten_again keeps the laws it computed (the page asks again on every change), so clear them first
    result = benchmark.pedantic(api.odds, (system, LARGEST[system]), setup=ten_again.law.cache_clear, rounds=15)
    exact = result["exact"]
    for table in exact["threats"] if system == "threat" else [exact["outcomes"]]:
        assert sum(Fraction(p) for p in table.values()) == 1  # the timed call gave the whole, exact answer


# --- the table door: rules for state that lasts (Will, XP, the Scheme, struggles) ------------------------------

TABLE_OPS = {
    "arbitration": [],
    "two_dice": [],
    "threat": ["lose_insight", "spend_gear", "take_harm"],
    "luck": [],
    "ten_again": ["will_max", "spend_will", "rest", "will_roll", "struggle_turn", "struggle_reset", "struggle_odds"],
    "ability_test": [
        "xp_earn",
        "xp_spend",
        "xp_advance",
        "exert",
        "activate_conviction",
        "new_scene",
        "move_significance",
        "end_session",
        "scheme_add",
        "scheme_spend_die",
        "scheme_negate_setback",
    ],
}

# One allowed call of every op: (system, op, state, args)
TABLE_CALLS = [
    ("ten_again", "will_max", {"resolve": 2, "composure": 3}, None),
    ("ten_again", "spend_will", {"will": 2, "resolve": 2, "composure": 3, "name": "Mara"}, None),
    ("ten_again", "rest", {"will": 2, "resolve": 2, "composure": 3}, {"nights": 2}),
    ("ten_again", "will_roll", {"will": 2, "resolve": 2, "composure": 3}, {"modifier": 1}),
    ("ten_again", "struggle_reset", {"target": 4, "accumulated": 0, "turns": 3, "status": "aborted"}, None),
    ("ten_again", "struggle_odds", {"target": 4, "accumulated": 1}, {"request": {"pool": 3}, "turns": 3}),
    ("ability_test", "xp_earn", {"xp": 2}, {"scenes": 1}),
    ("ability_test", "xp_spend", {"xp": 9}, {"kind": "advance_attribute", "current": 2}),
    ("ability_test", "exert", {"exertion": 4}, {"amount": 2}),
    ("ability_test", "activate_conviction", {"exertion": 4}, None),
    (
        "ability_test",
        "activate_conviction",
        {"exertion": 4, "convictions": [{"id": "c1", "text": "", "significance": 2}], "scene_convictions": ["c1"]},
        {"conviction": "c1"},
    ),
    ("ability_test", "new_scene", {"xp": 4, "scene_convictions": ["c1"]}, None),
    (
        "ability_test",
        "move_significance",
        {"convictions": [{"text": "a", "significance": 2}, {"text": "b", "significance": 2}]},
        {"from": 0, "to": 1},
    ),
    ("ability_test", "end_session", {"moved_this_session": True}, None),
    (
        "ability_test",
        "xp_advance",
        {
            "xp": 3,
            "skills": [],
            "items": [],
            "name": "Ines",
            "attributes": {
                a: 2 for a in ("Mental", "Physical", "Social", "Weird", "Control", "Endurance", "Power", "Presence")
            },
        },
        {"what": "new_skill", "name": "Swim", "id": "n1"},
    ),
    ("threat", "lose_insight", {"counters": {"renown": 0, "aether": 0, "insight": 2, "gear": 0, "harm": 0}}, None),
    ("threat", "spend_gear", {"counters": {"renown": 0, "aether": 0, "insight": 0, "gear": 1, "harm": 0}}, None),
    ("threat", "take_harm", {"counters": {"renown": 0, "aether": 0, "insight": 0, "gear": 0, "harm": 998}}, None),
    ("ability_test", "scheme_spend_die", {"scheme": 3}, None),
    ("ability_test", "scheme_negate_setback", {"scheme": 3}, {}),
]


def test_systems_publish_their_table_ops():
    """systems() lists each procedure's table ops with a label, help and the state and args they take."""
    got = {s["id"]: s["table_ops"] for s in api.systems()}
    assert {k: [o["name"] for o in v] for k, v in got.items()} == TABLE_OPS
    for ops in got.values():
        for o in ops:
            assert o["label"] and o["help"] and isinstance(o["state"], list) and isinstance(o["args"], list)
            for f in o["state"] + o["args"]:
                if f["type"] != "object":
                    _check_field(f)


def test_every_table_op_has_a_call():
    """The table of calls below covers every op except those that need a roll (tested with their modules)."""
    called = {(s, o) for s, o, _, _ in TABLE_CALLS}
    needs_roll = {("ten_again", "struggle_turn"), ("ability_test", "scheme_add")}
    assert called | needs_roll == {(s, o) for s, ops in TABLE_OPS.items() for o in ops}


@pytest.mark.parametrize("system, op, state, args", TABLE_CALLS, ids=[f"{c[0]}.{c[1]}" for c in TABLE_CALLS])
def test_table_is_json_safe_and_never_changes_its_input(system, op, state, args):
    """api.table answers JSON-safe dicts, the same as the module's rule, and leaves state and args as they were."""
    state_before, args_before = copy.deepcopy(state), copy.deepcopy(args)
    out = api.table(system, op, state, args)
    assert (state, args) == (state_before, args_before)
    assert json.loads(json.dumps(out)) == out
    module = PROCEDURES[system]
    direct = module.TABLE[op](copy.deepcopy(state), copy.deepcopy(args))
    if "exact" in out:
        assert out["exact"] == {
            k: {n: f"{p.numerator}/{p.denominator}" for n, p in v.items()} for k, v in direct.items()
        }
    else:
        assert out == direct


def test_table_odds_mirror_floats():
    """Struggle odds come as floats plus `exact` "p/q" strings of the same shape, each equal to its float."""
    o = api.table(
        "ten_again",
        "struggle_odds",
        {"target": 3, "contest": True},
        {"request": {"pool": 4, "opposed": {"pool": 2, "risky": True}}, "turns": 4},
    )
    exact = o.pop("exact")
    floats, strings = dict(_leaves(o)), dict(_leaves(exact))
    assert floats.keys() == strings.keys() and len(floats) == 8
    for path, s in strings.items():
        assert float(Fraction(s)) == floats[path], path


@pytest.mark.parametrize("system", [m.ID for m in PROCEDURES.values() if not m.TABLE])
def test_table_ops_of_a_procedure_without_table_state_are_refused(system):
    """A procedure that keeps no table state allows no op, and says so."""
    with pytest.raises(RulesError, match="'op' must be one of: none"):
        api.table(system, "spend_will", {})


def test_words_take_an_before_a_vowel():
    """Refusals name a procedure with its article: "an Arbitration", "a Luck Roll", "an ability_test roll"."""
    roll = api.roll("arbitration", {"skills": [2]}, seed=1)
    with pytest.raises(RulesError, match=r"allowed: none \(an Arbitration: dicepool"):
        api.act("arbitration", roll, {})
    with pytest.raises(RulesError, match=r"none \(an Arbitration: dicepool.* keeps no table state\)"):
        api.table("arbitration", "spend_will", {})
    with pytest.raises(RulesError, match=r"none \(a Luck Roll keeps no table state\)"):
        api.table("luck", "spend_will", {})
    with pytest.raises(RulesError, match="'roll' must be an ability_test roll"):
        api.act("ability_test", {"system": "luck"}, {"reroll": [0]})


@pytest.mark.parametrize("op", [None, "Spend_will", "xp_earn", 3, ["rest"]])
def test_unknown_table_op_lists_the_allowed_ones(op):
    """An op the procedure does not have is refused, naming the ops allowed."""
    with pytest.raises(RulesError, match="'op' must be one of: will_max, spend_will, rest"):
        api.table("ten_again", op, {"will": 1, "resolve": 1, "composure": 1})


@pytest.mark.parametrize("system", [None, "Ten_again", "d20"])
def test_table_refuses_an_unknown_system(system):
    """api.table names the systems allowed."""
    with pytest.raises(RulesError, match="'system' must be one of arbitration, two_dice"):
        api.table(system, "rest", {})


@pytest.mark.parametrize(
    "state, args, words",
    [
        (None, None, "'state' must be an object"),
        ([1], None, "'state' must be an object"),
        ({"xp": 1}, [1], "'args' must be an object"),
        ({"xp": 1}, {"scenes": 1, "x": 2}, "unknown field 'args.x'"),
    ],
)
def test_table_refuses_bad_state_and_args(state, args, words):
    """Bad state or args are refused with RulesError naming what is wrong."""
    with pytest.raises(RulesError, match=words):
        api.table("ability_test", "xp_earn", state, args)


@pytest.mark.parametrize(
    "system,request_,action",
    [
        ("ten_again", {"pool": 30, "risky": True, "opposed": {"pool": 30, "risky": True}}, {"spend_will": True}),
        (
            "ability_test",
            {"type1": 5, "type2": 5, "skill": 10, "difficulty": 4, "masteries": 4},
            {"reroll": [0, 1, 2, 3]},
        ),
    ],
)
@pytest.mark.benchmark(group="odds-after-largest")
def test_bench_odds_after_largest(benchmark, system, request_, action):
    """Benchmark: odds_after() for the largest case of each kind (a Will after the roll in a contest of 30 dice a
    side; a reroll of 4 dice with 4 Masteries)."""
    r = api.roll(system, request_, seed=5)
    result = benchmark(api.odds_after, system, r, action)
    assert sum(Fraction(p) for p in result["exact"]["outcomes"].values()) == 1


@pytest.mark.parametrize("system", ["ten_again", "ability_test"])
@pytest.mark.benchmark(group="odds-what-if")
def test_bench_odds_with_what_ifs(benchmark, system):
    """Benchmark: odds() of a large request that still has what-ifs (each one more odds() of a changed request), a
    first call."""
    result = benchmark.pedantic(api.odds, (system, WITH_WHAT_IFS[system]), setup=ten_again.law.cache_clear, rounds=15)
    assert result["what_if"]


@pytest.mark.parametrize("system", ["ten_again", "ability_test"])
@pytest.mark.benchmark(group="roll-with-odds")
def test_bench_roll_with_choice_odds(benchmark, system):
    """Benchmark: roll() of a large request whose choices carry their odds (a contest's two Wills; a reroll)."""
    request_ = WITH_WHAT_IFS[system] if system == "ten_again" else {**WITH_WHAT_IFS[system], "masteries": 4}
    result = benchmark(api.roll, system, request_, 5)
    assert all("odds" in c for c in result["choices"])


# --- the page's way in: call_json and start (static/engine/worker.js calls them through Pyodide) ----------------------


def call(method, *args):
    return json.loads(api.call_json(method, json.dumps(args)))


@pytest.mark.parametrize(
    "method, args",
    [
        ("systems", ()),
        ("odds_after", ("ten_again", api.roll("ten_again", {"pool": 4, "risky": True}, 7), {"spend_will": True})),
        ("luck", ("ability_test", api.roll("ability_test", {"difficulty": 3}, 7))),
        ("roll", ("ten_again", {"pool": 4, "risky": True}, 7)),
        ("odds", ("ability_test", {"difficulty": 2})),
        ("table", ("ten_again", "rest", {"will": 1, "resolve": 2, "composure": 2}, {"nights": 2})),
    ],
)
def test_call_json_answers_ok_with_what_the_door_returns(method, args):
    """call_json answers {"ok": true, "value": ...}, the value being the door's own answer as JSON."""
    assert call(method, *args) == {"ok": True, "value": json.loads(json.dumps(getattr(api, method)(*args)))}


def test_call_json_follows_a_roll_with_act():
    """A roll answered by call_json is what act takes back, as the page sends it."""
    rolled = call("roll", "ten_again", {"pool": 2}, 3)["value"]
    after = call("act", "ten_again", rolled, {"spend_will": True}, 4)
    assert after["ok"] and after["value"] == api.act("ten_again", rolled, {"spend_will": True}, 4)


@pytest.mark.parametrize(
    "method, args, words",
    [
        ("odds", ("no such system", {}), "'system' must be one of"),
        ("roll", ("ten_again", {"pool": 99}), "'pool' must be from 0 to 30"),
        ("table", ("ten_again", "spend_will", {"will": 0, "resolve": 1, "composure": 1}), "no Will remaining"),
    ],
)
def test_call_json_answers_a_rules_error_as_a_value(method, args, words):
    """A RulesError comes back as {"ok": false, "kind": "RulesError", "error": its message}, never raised."""
    answer = call(method, *args)
    assert (answer["ok"], answer["kind"]) == (False, "RulesError") and words in answer["error"]
    with pytest.raises(RulesError) as raised:
        getattr(api, method)(*args)
    assert answer["error"] == str(raised.value)
    assert (answer["path"], answer["says"], answer["holder"]) == (
        raised.value.path,
        raised.value.says,
        raised.value.holder,
    )


def test_call_json_brings_a_rules_errors_path_and_words():
    """A refusal brings the field it names and what it says of it, for the page to word with the field's label."""
    answer = call("roll", "ability_test", {"type1": 9})
    assert (answer["path"], answer["says"], answer["holder"]) == ("type1", "must be from 1 to 5", False)
    answer = call("table", "ten_again", "spend_will", {"will": 0, "resolve": 1, "composure": 1})
    assert (answer["path"], answer["says"], answer["holder"]) == ("state.will", "has no Will left", True)


def test_call_json_brings_every_bad_field_of_a_request():
    """A request with three bad fields is refused with all three in "problems", each with what it says of it."""
    answer = call("odds", "ability_test", {"type1": 9, "difficulty": 7, "masteries": -1})
    assert answer["path"] == "type1"
    assert [p["path"] for p in answer["problems"]] == ["type1", "difficulty", "masteries"]
    assert all(p["says"].startswith("must be") for p in answer["problems"])


@pytest.mark.parametrize(
    "method, args_json, words",
    [
        ("roll", "[]", "Internal error in roll: TypeError: "),
        ("odds", "not json", "Internal error in odds: JSONDecodeError: "),
        ("no_such_method", "[]", "Internal error in no_such_method: AttributeError: "),
        ("systems", "3", "Internal error in systems: TypeError: "),
    ],
)
def test_call_json_answers_any_other_error_as_an_internal_error(method, args_json, words):
    """Anything else (an unknown method, arguments that are not a JSON list of the door's) is an InternalError
    value naming the method and the exception."""
    answer = json.loads(api.call_json(method, args_json))
    assert (answer["ok"], answer["kind"]) == (False, "InternalError") and answer["error"].startswith(words)


def test_call_json_refuses_a_value_json_cannot_carry(monkeypatch):
    """A door's answer that is not strict JSON (NaN) becomes an InternalError, not invalid JSON for the page."""
    monkeypatch.setattr(api, "systems", lambda: [float("nan")])
    answer = json.loads(api.call_json("systems", "[]"))
    assert (answer["ok"], answer["kind"]) == (False, "InternalError") and "ValueError" in answer["error"]


def test_start_reseeds_the_global_random_and_returns_the_version():
    """start() returns the package version and reseeds the global random (every restored page starts alike)."""
    import arbiter

    state = random.getstate()
    try:
        random.seed(1)
        after_seed = random.random()
        random.seed(1)
        assert api.start() == arbiter.__version__
        assert random.random() != after_seed
    finally:
        random.setstate(state)
