"""The table's rules through the one door: sheets and records declared and checked (api.check_sheet,
api.check_record, api.table_spec), what a roll costs and what follows it (api.costs, api.after_roll), and the request
a sheet fills (api.request_from_sheet). The expected values are transcribed from static/store.js and static/table.js
as they were when these rules moved to Python, so the stored data and the page's behaviour stay what they were."""

import copy
import json

import pytest

import ability_test_helpers as ath
from scripted import ScriptedDice
from arbiter import RulesError, api, fields, threat
from arbiter import ability_test as at
from arbiter.ability_test.table import UNNAMED_CONVICTIONS, scheme_follows

KINDS = ["arbitration", "two_dice", "threat", "ten_again", "ability_test"]
RATINGS = ["Charm", "Command", "Finesse", "Muscle", "Rig", "Scout", "Scramble", "Shadow"]
COUNTERS = ["renown", "aether", "insight", "gear", "harm"]
ATTRIBUTES = ["Mental", "Physical", "Social", "Weird", "Control", "Endurance", "Power", "Presence"]

# store.js's T declarations, as (type, limits..., label); a named list's entries hold an id and a Name first.
NAME = ("text", 80, "Name")


def _named(entry, label):
    return ("list", 50, label, {"id": ("id",), "name": NAME, **entry})


STORE_SHEETS = {
    "arbitration": {
        "skills": _named({"value": ("int", 0, 30, "Value")}, "Skills"),
        "traits": _named({"modifier": ("int", -5, 5, "Modifier")}, "Trait modifiers"),
    },
    "two_dice": {
        "traits": _named({"value": ("int", 0, 10, "Value")}, "Malleable traits"),
        "abilities": _named({"value": ("int", -10, 10, "Value")}, "Abilities"),
    },
    "threat": {
        "ratings": ("record", "Ability ratings", {k: ("int", 0, 10, k) for k in RATINGS}),
        "counters": ("record", "Counters", {k: ("int", 0, 999, k.capitalize()) for k in COUNTERS}),
    },
    "ten_again": {
        "attributes": _named({"dots": ("int", 0, 10, "Dots")}, "Attributes"),
        "skills": _named({"dots": ("int", 0, 10, "Dots"), "trained": ("bool", "Trained")}, "Skills"),
        "resolve": ("int", 1, 10, "Resolve"),
        "composure": ("int", 1, 10, "Composure"),
        "will": ("int", 0, 20, "Will (current)"),
    },
    "ability_test": {
        "attributes": ("record", "Attributes", {k: ("int", 1, 5, k) for k in ATTRIBUTES}),
        "skills": _named(
            {
                "level": ("int", 0, 10, "Level"),
                "focused": ("bool", "Focused"),
                "masteries": ("int", 0, 10, "Masteries"),
            },
            "Skills",
        ),
        "items": _named({"unique": ("bool", "Unique"), "level": ("int", 0, 5, "Level")}, "Items"),
        "convictions": (
            "list",
            50,
            "Convictions",
            {"id": ("id",), "text": ("text", 200, "Conviction"), "significance": ("int", 1, 3, "Significance")},
        ),
        "exertion": ("int", 0, 99, "Exertion"),
        "xp": ("int", 0, 99999, "XP"),
        "moved_this_session": ("bool", "Significance moved this Session"),
        "scene_convictions": ("list", 50, "Convictions declared relevant to this Scene", ("id",)),
        "unique_traits": ("int", 0, 10, "Unique Traits"),
    },
}
# store.js's newSheet(kind)
NEW_SHEETS = {
    "arbitration": {"skills": [], "traits": []},
    "two_dice": {"traits": [], "abilities": []},
    "threat": {"ratings": {k: 1 for k in RATINGS}, "counters": {k: 0 for k in COUNTERS}},
    "ten_again": {"attributes": [], "skills": [], "resolve": 2, "composure": 2, "will": 4},
    "ability_test": {
        "attributes": {k: 2 for k in ATTRIBUTES},
        "skills": [],
        "items": [],
        "convictions": [],
        "exertion": 0,
        "xp": 0,
        "moved_this_session": False,
    },
}


def _shape(schema):
    """A published declaration in store.js's terms (key order kept: the page lays fields out in that order)."""
    t = schema["type"]
    if t == "int":
        return ("int", schema["min"], schema["max"], schema["label"])
    if t == "text":
        return ("text", schema["max_len"], schema["label"])
    if t == "bool":
        return ("bool", schema["label"])
    if t == "id":
        return ("id",)
    if t == "list":
        of = _shape(schema["of"])
        return ("list", schema["max_len"], schema["label"], of[2] if of[0] == "record" else of)
    assert t == "record", t
    return ("record", schema["label"], {f["name"]: _shape(f) for f in schema["fields"]})


SPECS = {s["id"]: s for s in api.systems()}


def _sheet(kind):
    return SPECS[kind]["sheet"]


@pytest.mark.parametrize("kind", KINDS)
def test_each_sheet_is_the_one_the_page_stored(kind):
    """Each kind's sheet has store.js's keys in its order, limits and labels, so data saved before stays valid."""
    got = _shape(_sheet(kind))[2]
    assert list(got) == list(STORE_SHEETS[kind])
    assert got == STORE_SHEETS[kind]
    for field in _sheet(kind)["fields"]:
        for key in ("min", "max", "max_len"):
            assert key not in field or isinstance(field[key], int)


@pytest.mark.parametrize("kind", KINDS)
def test_a_fresh_sheet_is_new_sheet_and_valid(kind):
    """A sheet's default is store.js's newSheet(kind), and it passes check_sheet unchanged."""
    assert _sheet(kind)["default"] == NEW_SHEETS[kind]
    assert api.check_sheet(kind, copy.deepcopy(NEW_SHEETS[kind])) == NEW_SHEETS[kind]


def _lists(schema, path=()):
    if schema["type"] == "list":
        yield path, schema
    for f in schema.get("fields", []):
        yield from _lists(f, path + (f["name"],))


def _add_item(entry):
    """table.js's addItem: a number at 3 for a 'value' from 0, else 0, within its limits; 'trained' ticked."""
    out = {}
    for f in entry["fields"]:
        if f["name"] == "id":
            continue
        if f["type"] == "int":
            out[f["name"]] = min(f["max"], max(f["min"], 3 if f["name"] == "value" and f["min"] == 0 else 0))
        else:
            out[f["name"]] = f["name"] == "trained" if f["type"] == "bool" else ""
    return out


@pytest.mark.parametrize("kind", [k for k in KINDS if k != "threat"])
def test_a_new_entry_of_a_list_is_what_the_page_added(kind):
    """Each list's entry default (id aside, which the page makes) is what table.js's addItem put on the sheet."""
    lists = list(_lists(_sheet(kind)))
    assert lists
    for _, schema in lists:
        entry = schema["of"]
        if entry["type"] == "record":  # a list of ids (the Convictions declared this Scene) adds no item
            assert {k: v for k, v in entry["default"].items() if k != "id"} == _add_item(entry)


def _sample(schema, n=0):
    """A valid value with one entry in every list (so every limit can be reached)."""
    t = schema["type"]
    if t == "record":
        return {f["name"]: _sample(f, n) for f in schema["fields"]}
    if t == "list":
        return [_sample(schema["of"], n)]
    if t == "id":
        return f"e{n}"
    return copy.deepcopy(schema["default"])


def _one_past(schema, path=()):
    """(path, a value one past a limit, the words of the refusal) for every limit under `schema`."""
    t = schema["type"]
    if t == "int":
        yield path, schema["max"] + 1, f"must be from {schema['min']} to {schema['max']}, got {schema['max'] + 1}"
        yield path, schema["min"] - 1, f"must be from {schema['min']} to {schema['max']}, got {schema['min'] - 1}"
    elif t == "text":
        yield path, "x" * (schema["max_len"] + 1), f"must be text of at most {schema['max_len']} characters"
    elif t == "bool":
        yield path, 0, "must be true or false"
    elif t == "id":
        yield path, "x" * 65, "must be an id (1 to 64 letters, digits, - or _)"
    elif t == "list":
        many = [_sample(schema["of"], i) for i in range(schema["max_len"] + 1)]
        yield path, many, f"must be a list of {schema['min_len']} to {schema['max_len']} entries"
        yield from _one_past(schema["of"], path + (0,))
    elif t == "record":
        for f in schema["fields"]:
            yield from _one_past(f, path + (f["name"],))


def _where(path):
    return "sheet" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)


CASES = [(kind, path, bad, words) for kind in KINDS for path, bad, words in _one_past(_sheet(kind))]


@pytest.mark.parametrize("kind, path, bad, words", CASES, ids=[f"{c[0]}:{_where(c[1])}:{str(c[2])[:6]}" for c in CASES])
def test_one_past_each_limit_is_refused_naming_the_field(kind, path, bad, words):
    """A value one past any limit of a sheet is refused, naming the field's path and the range allowed."""
    sheet = _sample(_sheet(kind))
    assert api.check_sheet(kind, copy.deepcopy(sheet)) == sheet
    node = sheet
    for p in path[:-1]:
        node = node[p]
    node[path[-1]] = bad
    with pytest.raises(RulesError) as caught:
        api.check_sheet(kind, sheet)
    assert str(caught.value).startswith(f"'{_where(path)}' {words}")


@pytest.mark.parametrize("kind", KINDS)
def test_a_missing_or_unknown_key_is_refused(kind):
    """Every key of a sheet must be there, and no other (as store.js required)."""
    first = _sheet(kind)["fields"][0]["name"]
    sheet = copy.deepcopy(NEW_SHEETS[kind])
    del sheet[first]
    with pytest.raises(RulesError, match=f"'sheet.{first}' is missing"):
        api.check_sheet(kind, sheet)
    with pytest.raises(RulesError, match="unknown field 'sheet.extra'"):
        api.check_sheet(kind, {**NEW_SHEETS[kind], "extra": 1})


def test_luck_is_rolled_by_the_threat_sheet():
    """Luck keeps no sheet of its own: its "kind" is threat, whose sheet check_sheet uses for it."""
    assert SPECS["luck"]["kind"] == "threat" and SPECS["luck"]["sheet"] is None
    assert [s["id"] for s in api.systems() if s["kind"] == s["id"]] == KINDS
    assert api.check_sheet("luck", NEW_SHEETS["threat"]) == NEW_SHEETS["threat"]
    with pytest.raises(RulesError, match="'sheet.ratings.Charm' must be from 0 to 10"):
        api.check_sheet("luck", {**NEW_SHEETS["threat"], "ratings": {**NEW_SHEETS["threat"]["ratings"], "Charm": 11}})


def test_ten_again_publishes_its_thresholds():
    """procedures/index.js marks kept dice with ten_again's published thresholds: 8, and 6 for initiative."""
    assert SPECS["ten_again"]["extras"]["threshold"] == 8
    assert SPECS["ten_again"]["extras"]["initiative_threshold"] == 6


# --- the table's own records ------------------------------------------------------------------------------------

T = "2024-05-01T12:00:00.000Z"
RECORDS = {
    "character": {"kind": "ten_again", "name": "Ana", "created": T, "sheet": NEW_SHEETS["ten_again"]},
    "scheme": {"scheme": 0, "tracked": True},
    "price": {
        "current": "s1",
        "situations": [
            {
                "id": "s1",
                "name": "Situation 1",
                "player": "",
                "marked": [{"option": 0, "by": "Ann"}, {"option": 5, "by": None}],
            }
        ],
    },
    "struggle": {
        "name": "Climb",
        "character": None,
        "created": T,
        "target": 5,
        "accumulated": 0,
        "turns": 0,
        "status": "ongoing",
        "contest": False,
        "notes": ["Turn 1: 2 successes: 2/5"],
    },
    "log": {
        "time": T,
        "character": {"id": "c1", "name": "Ana"},
        "system": "ten_again",
        "kind": "roll",
        "request": {"pool": 3},
        "action": None,
        "dice": [1, 10],
        "outcome": "success",
        "summary": "s",
        "note": "",
    },
    "meta": {"schema": 1, "created": T},
}
# store.js's limits on the records: (record, change, words)
RECORD_LIMITS = [
    ("scheme", lambda d: d.update(scheme=100), "'scheme.scheme' must be from 0 to 99, got 100"),
    ("scheme", lambda d: d.update(scheme=-1), "'scheme.scheme' must be from 0 to 99"),
    (
        "scheme",
        lambda d: d.pop("tracked"),
        "'scheme.tracked' is missing: Track the Scheme on this device, true or false",
    ),
    ("scheme", lambda d: d.update(tracked=1), "'scheme.tracked' must be true or false, got 1"),
    ("price", lambda d: d.update(current="s2"), "'price.current' must be the id of one of the situations"),
    ("price", lambda d: d.update(situations=[]), "'price.situations' must be a list of 1 to 100 entries"),
    (
        "price",
        lambda d: d["situations"][0].update(marked=[{"option": 8, "by": "Ann"}]),
        r"'price.situations\[0\].marked\[0\].option' must be from 0 to 7",
    ),
    (
        "price",
        lambda d: d["situations"][0].update(marked=[{"option": 1, "by": "Ann"}, {"option": 1, "by": "Bo"}]),
        r"'price.situations\[0\].marked\[1\].option' is the option of an earlier entry too: 1",
    ),
    (
        "price",
        lambda d: d["situations"][0].update(marked=[{"option": i, "by": None} for i in (*range(8), 0)]),
        "must be a list of 0 to 8 entries",
    ),
    (
        "price",
        lambda d: d["situations"][0].update(marked=[3]),
        r"'price.situations\[0\].marked\[0\]' must be an object with option, by, got 3",
    ),
    (
        "price",
        lambda d: d["situations"][0].update(marked=[{"option": 3}]),
        r"'price.situations\[0\].marked\[0\].by' is missing: Marked by, null or text of at most 80 characters",
    ),
    (
        "price",
        lambda d: d["situations"][0].update(marked=[{"option": 3, "by": "n" * 81}]),
        r"'price.situations\[0\].marked\[0\].by' must be text of at most 80 characters",
    ),
    (
        "price",
        lambda d: d["situations"][0].update(player="n" * 81),
        r"'price.situations\[0\].player' must be text of at most 80 characters",
    ),
    (
        "price",
        lambda d: d["situations"].extend([{"id": f"t{i}", "name": "", "marked": [], "player": ""} for i in range(100)]),
        "'price.situations' must be a list of 1 to 100 entries",
    ),
    ("struggle", lambda d: d.update(target=51), "'struggle.target' must be from 1 to 50, got 51"),
    ("struggle", lambda d: d.update(target=0), "'struggle.target' must be from 1 to 50, got 0"),
    ("struggle", lambda d: d.update(accumulated=10001), "'struggle.accumulated' must be from 0 to 10000"),
    ("struggle", lambda d: d.update(turns=1001), "'struggle.turns' must be from 0 to 1000"),
    ("struggle", lambda d: d.update(status="won"), "'struggle.status' must be one of ongoing, done, aborted"),
    ("struggle", lambda d: d.update(notes=["n" * 301]), r"'struggle.notes\[0\]' must be text of at most 300"),
    ("struggle", lambda d: d.update(notes=["n"] * 201), "'struggle.notes' must be a list of 0 to 200 entries"),
    ("struggle", lambda d: d.update(character="c 1"), "'struggle.character' must be an id"),
    ("struggle", lambda d: d.update(created="yesterday"), "'struggle.created' must be a time"),
    ("log", lambda d: d.update(system="d20"), "'log.system' must be one of arbitration, two_dice, threat, luck"),
    ("log", lambda d: d.update(kind="odds"), "'log.kind' must be one of roll, follow-up, note"),
    ("log", lambda d: d.update(request={"x": "y" * 4000}), "'log.request' must be JSON of at most 4000 characters"),
    ("log", lambda d: d.update(action={"x": "y" * 1000}), "'log.action' must be JSON of at most 1000 characters"),
    ("log", lambda d: d.update(dice=[11]), r"'log.dice\[0\]' must be from 1 to 10"),
    ("log", lambda d: d.update(dice=[1] * 501), "'log.dice' must be a list of 0 to 500 entries"),
    ("log", lambda d: d.update(outcome="o" * 41), "'log.outcome' must be text of at most 40"),
    ("log", lambda d: d.update(summary="s" * 1001), "'log.summary' must be text of at most 1000"),
    ("log", lambda d: d.update(note="n" * 501), "'log.note' must be text of at most 500"),
    ("log", lambda d: d["character"].update(name="n" * 81), "'log.character.name' must be text of at most 80"),
    ("meta", lambda d: d.update(schema=0), "'meta.schema' must be from 1 to 1000000"),
    ("meta", lambda d: d.update(backup="yesterday"), "'meta.backup' must be a time like 2024-05-01T12:00:00.000Z"),
    (
        "character",
        lambda d: d.update(kind="luck"),
        "'character.kind' must be one of arbitration, two_dice, threat, ten_again, ability_test",
    ),
    ("character", lambda d: d.update(name="n" * 81), "'character.name' must be text of at most 80"),
    ("character", lambda d: d["sheet"].update(will=21), "'character.sheet.will' must be from 0 to 20, got 21"),
    ("character", lambda d: d.update(kind="threat"), "unknown field 'character.sheet.attributes'; allowed: ratings"),
]


@pytest.mark.parametrize("name", list(RECORDS))
def test_each_record_checks_and_comes_back_unchanged(name):
    """A valid record of each kind passes check_record as it is; nullable parts may be null."""
    assert api.check_record(name, copy.deepcopy(RECORDS[name])) == RECORDS[name]
    if name == "log":
        assert api.check_record(name, {**RECORDS[name], "character": None, "request": None})["character"] is None
    if name == "meta":  # the last backup: absent until the first
        assert api.check_record(name, {**RECORDS[name], "backup": T})["backup"] == T


@pytest.mark.parametrize("name, change, words", RECORD_LIMITS, ids=[f"{c[0]}-{i}" for i, c in enumerate(RECORD_LIMITS)])
def test_records_keep_store_js_limits(name, change, words):
    """The records' limits are store.js's: one past any of them is refused, naming the field."""
    data = copy.deepcopy(RECORDS[name])
    change(data)
    with pytest.raises(RulesError, match=words):
        api.check_record(name, data)


def test_table_spec_publishes_every_record_and_the_kinds():
    """table_spec() is JSON with each record's declaration, the kinds of character and the sizes of the log."""
    spec = api.table_spec()
    assert json.loads(json.dumps(spec)) == spec
    assert list(spec["records"]) == ["character", "price", "struggle", "scheme", "log", "meta"]
    assert spec["kinds"] == KINDS and spec["log_max"] == 5000
    assert spec["file_max"] == {"characters": 500, "struggles": 500, "log": 5000}
    assert spec["backup_after"] == {"rolls": 50, "days": 14}
    assert [f["name"] for f in spec["records"]["struggle"]["fields"]] == [
        "name",
        "character",
        "created",
        "target",
        "accumulated",
        "turns",
        "status",
        "contest",
        "notes",
    ]


def test_an_unknown_record_is_refused():
    """check_record names the records it knows."""
    with pytest.raises(RulesError, match="'name' must be one of character, price, struggle, scheme, log, meta"):
        api.check_record("sheet", {})


# --- what a roll costs and what follows it -------------------------------------------------------------------------


def _cost(by, system, op, args=None, times=1, **more):
    return {"by": by, "system": system, "op": op, "args": args, "times": times, **more}


UNNAMED = {"refuse": UNNAMED_CONVICTIONS}  # Convictions not named by the sheet's choices: a character is refused


WILL = _cost("character", "ten_again", "spend_will")
# Every case table.js's costsOf(system, request, action) distinguished, with what it returned.
COSTS = [
    ("ten_again", {"pool": 3}, None, []),
    ("ten_again", {"pool": 3, "will": True}, None, [WILL]),
    ("ten_again", {"pool": 3, "opposed": {"pool": 2, "will": True}}, None, []),
    ("ten_again", {"pool": 3, "will": True}, {"spend_will": True}, [WILL]),
    ("ten_again", {"pool": 3}, {"spend_will": True}, [WILL]),
    ("ten_again", {"pool": 3}, {"spend_will": True, "side": "actor"}, [WILL]),
    ("ten_again", {"pool": 3}, {"spend_will": True, "side": None}, [WILL]),
    ("ten_again", {"pool": 3}, {"spend_will": True, "side": "target"}, []),
    ("ten_again", {"pool": 3}, {"spend_will": 1}, []),
    ("ten_again", {"pool": 3}, {}, []),
    ("ability_test", {}, None, []),
    (
        "ability_test",
        {"convictions": [3]},
        None,
        [_cost("character", "ability_test", "activate_conviction", **UNNAMED)],
    ),
    (
        "ability_test",
        {"convictions": [1, 3, 2]},
        None,
        [_cost("character", "ability_test", "activate_conviction", None, 3, **UNNAMED)],
    ),
    ("ability_test", {"scheme_die": True}, None, [_cost("scheme", "ability_test", "scheme_spend_die")]),
    (
        "ability_test",
        {"convictions": [2], "scheme_die": True},
        None,
        [
            _cost("character", "ability_test", "activate_conviction", **UNNAMED),
            _cost("scheme", "ability_test", "scheme_spend_die"),
        ],
    ),
    (
        "ability_test",
        {"convictions": [2], "scheme_die": True},
        {"exert": 3},
        [_cost("character", "ability_test", "exert", {"amount": 3})],
    ),
    ("ability_test", {}, {"negate_setback": True}, [_cost("scheme", "ability_test", "scheme_negate_setback")]),
    ("ability_test", {"scheme_die": True}, {"reroll": [0]}, []),
    ("arbitration", {}, None, []),
    ("two_dice", {}, None, []),
    ("threat", {}, None, []),
    ("threat", {}, {"assign": [[0]]}, []),
    ("luck", {}, None, []),
]


@pytest.mark.parametrize("system, request_, action, expected", COSTS)
def test_costs_are_what_costs_of_answered(system, request_, action, expected):
    """api.costs names the same table ops, in the same order, as table.js's costsOf did for each case."""
    assert api.costs(system, request_, action) == expected


@pytest.mark.parametrize(
    "system, request_, action, words",
    [
        ("ten_again", {"pool": 31}, None, "'pool' must be from 0 to 30"),
        ("ability_test", {"skill": 0, "masteries": 0, "convictions": [4]}, None, r"'convictions\[0\]' must be from 1"),
        ("ten_again", None, "spend_will", "'action' must be an object naming one follow-up choice, or null"),
        ("d20", {}, None, "'system' must be one of"),
    ],
)
def test_costs_refuse_what_cannot_be_rolled(system, request_, action, words):
    """A request the roll would refuse is refused with the roll's words; an action must be an object."""
    with pytest.raises(RulesError, match=words):
        api.costs(system, request_, action)


def _activate(cid):
    return _cost("character", "ability_test", "activate_conviction", {"conviction": cid})


@pytest.mark.parametrize(
    "request_, choices, expected",
    [
        ({"convictions": [3, 1]}, {"convictions": ["c1", "c2"]}, [_activate("c1"), _activate("c2")]),
        (
            {"convictions": [3, 1], "convictions_declared": 1, "scheme_die": True},
            {"convictions": ["c2", "c1", "c2"]},
            [_activate("c2"), _activate("c1"), _cost("scheme", "ability_test", "scheme_spend_die")],
        ),
        ({"scheme_die": True}, {"skill": "s1"}, [_cost("scheme", "ability_test", "scheme_spend_die")]),
        ({"pool": 3, "will": True}, {"stats": ["a1"]}, [WILL]),
    ],
)
def test_with_the_sheets_choices_each_conviction_is_paid_by_its_id_ability_test_25(request_, choices, expected):
    """ability_test-25: with the choices the sheet filled the request from, each activated Conviction is paid by
    its id, one declared already too (activate_conviction charges it nothing); other costs are as without them."""
    system = "ten_again" if "pool" in request_ else "ability_test"
    assert api.costs(system, request_, None, choices) == expected


@pytest.mark.parametrize(
    "request_, choices, words",
    [
        (
            {"convictions": [3, 1]},
            {"convictions": ["c1"]},
            "'choices.convictions' must name the 2 Convictions the request activates, got 1",
        ),
        ({"convictions": [3]}, {}, "'choices.convictions' must name the 1 Conviction the request activates, got 0"),
        ({"convictions": [3]}, {"convictions": "c1"}, "'choices.convictions' must be a list of 0 to 50 entries"),
        ({"convictions": [3]}, {"conviction": ["c1"]}, "unknown field 'choices.conviction'"),
    ],
)
def test_choices_that_do_not_fill_the_request_are_refused(request_, choices, words):
    """The choices must be the sheet's own (systems()' sheet_choices) and name as many Convictions as the request
    activates."""
    with pytest.raises(RulesError, match=words):
        api.costs("ability_test", request_, None, choices)


def test_a_conviction_paid_by_id_is_free_until_a_new_scene_ability_test_25_26():
    """ability_test-25, -26: paying a Test's costs by id declares the Conviction: the next Test of the Scene fills
    convictions_declared and costs no Exertion; after new_scene it costs one again (and 1 XP is earned)."""
    keys = [f.name for f in at.SHEET.fields]
    sheet = {**at.SHEET.default, "exertion": 2, "convictions": [{"id": "c1", "text": "Duty", "significance": 2}]}
    choices = {"convictions": ["c1"]}

    def test(sheet):
        request = api.request_from_sheet("ability_test", sheet, choices)
        for cost in api.costs("ability_test", request, None, choices):
            for _ in range(cost["times"]):
                out = api.table(cost["system"], cost["op"], sheet, cost["args"])
                sheet = {k: out[k] for k in keys if k in out}
        return request["convictions_declared"], sheet

    declared, sheet = test(sheet)
    assert (declared, sheet["exertion"], sheet["scene_convictions"]) == (0, 1, ["c1"])
    declared, sheet = test(sheet)
    assert (declared, sheet["exertion"], sheet["scene_convictions"]) == (1, 1, ["c1"])
    sheet = {k: v for k, v in api.table("ability_test", "new_scene", sheet).items() if k in keys}
    assert (sheet["xp"], sheet["scene_convictions"]) == (1, [])
    declared, sheet = test(sheet)
    assert (declared, sheet["exertion"], sheet["scene_convictions"]) == (0, 0, ["c1"])


def _gaining():
    """A Test succeeding with a 1 (Ability 7 beats 1 + 2), with one Mastery to reroll."""
    r = ath.roll(ath.base(7, difficulty=2, masteries=1), 1, 2)
    assert r["outcome"] == "success" and r["scheme_gain"]
    return r


def _scheme(op, args=None, **more):
    return {**_cost("scheme", "ability_test", op, args), **more}


def test_a_success_with_a_1_earns_a_scheme_die_once_per_roll():
    """A roll that gains adds a die (earned from then on); its follow-ups that still gain add none."""
    r = _gaining()
    out = api.after_roll("ability_test", r)
    assert out == {"pay": [], "then": [_scheme("scheme_add", {"roll": r}, earned=True)], "marked": None}
    kept = ath.act(r, {"reroll": [1]}, 3)
    assert kept["scheme_gain"]
    assert api.after_roll("ability_test", kept, {"reroll": [1]}, True)["then"] == []
    # a new roll starts a new chain whatever the page still holds
    assert api.after_roll("ability_test", r, None, True)["then"] == [_scheme("scheme_add", {"roll": r}, earned=True)]


@pytest.mark.parametrize(
    "gain, earned, then",
    [
        (True, False, [_scheme("scheme_add", {"roll": {"r": 1}}, earned=True)]),
        (True, True, []),
        (False, False, []),
        (
            False,
            True,
            [
                _scheme(
                    "scheme_spend_die",
                    earned=False,
                    note="A reroll took back the 1 on a success: the die it earned leaves the Scheme again",
                )
            ],
        ),
    ],
)
def test_the_scheme_die_follows_the_roll_as_scheme_gain_did(gain, earned, then):
    """table.js's schemeGain: a die when the roll gains and its chain has not earned one yet; the die back when a
    follow-up no longer gains after the chain earned it; nothing otherwise."""
    assert scheme_follows(gain, earned, {"r": 1}) == then


def test_after_roll_pays_what_costs_names():
    """after_roll's "pay" is costs() of the roll's request, or of the follow-up when there is one."""
    r = ath.roll({**ath.base(7, difficulty=1), "convictions": [2], "scheme_die": True}, 6, 6)
    assert api.after_roll("ability_test", r)["pay"] == api.costs("ability_test", r["request"])
    assert len(api.after_roll("ability_test", r)["pay"]) == 2
    exert = {"exert": 2}
    assert api.after_roll("ability_test", r, exert, False)["pay"] == api.costs("ability_test", None, exert)
    choices = {"convictions": ["c1"]}
    assert (
        api.after_roll("ability_test", r, None, False, choices)["pay"]
        == api.costs("ability_test", r["request"], None, choices)
        == [_activate("c1"), api.costs("ability_test", r["request"])[1]]
    )
    assert api.after_roll("ability_test", r, exert, False, choices)["pay"] == api.costs("ability_test", None, exert)


def test_paying_the_price_marks_the_situation():
    """After Pay the Price, the current Situation's marks are the roll's; a plain Threat Roll leaves them."""
    r = threat.roll(fields.parse(threat.FIELDS, {"rating": 1}), ScriptedDice(4))  # a 4: narrowly avoided
    assert api.after_roll("threat", r) == {"pay": [], "then": [], "marked": None}
    paid = api.act("threat", r, {"pay_the_price": 2, "marked": [5, 0]})
    out = api.after_roll("threat", paid, {"pay_the_price": 2, "marked": [5, 0]})
    assert out == {"pay": [], "then": [], "marked": paid["pay_the_price"]["marked"]} and len(out["marked"]) == 3
    every = api.act("threat", r, {"pay_the_price": 7, "marked": list(range(7))})
    assert api.after_roll("threat", every, {"pay_the_price": 7, "marked": list(range(7))})["marked"] == []
    with pytest.raises(RulesError, match="'roll.pay_the_price.marked' must be a list of at most 8 marks"):
        api.after_roll("threat", {**paid, "pay_the_price": {"marked": 3}})


def test_the_situation_keeps_the_marks_as_the_roll_reports_them():
    """The marks after a pick, named or not, are what the Situation's record holds, and act reads them back."""
    r = threat.roll(fields.parse(threat.FIELDS, {"rating": 1}), ScriptedDice(5))
    paid = api.act("threat", r, {"pay_the_price": 2, "by": " Ann ", "marked": [{"option": 0, "by": None}]})
    marked = api.after_roll("threat", paid, {"pay_the_price": 2})["marked"]
    assert marked == [{"option": 0, "by": None}, {"option": 2, "by": "Ann"}]
    situation = {"id": "s1", "name": "", "player": "", "marked": marked}
    assert api.check_record("price", {"current": "s1", "situations": [situation]})["situations"][0] == situation
    again = api.act("threat", r, {"pay_the_price": 2, "by": "ann", "marked": marked})
    assert again["pay_the_price"]["marked"] == marked
    with pytest.raises(RulesError, match="is marked by Ann"):
        api.act("threat", r, {"pay_the_price": 2, "by": "Bo", "marked": marked})


@pytest.mark.parametrize("system", ["arbitration", "two_dice", "luck", "ten_again"])
def test_other_rolls_bring_nothing_after_them(system):
    """Only the Ability Test's Scheme and Threat's marks follow a roll; others only pay their costs."""
    r = api.roll(system, SPECS[system]["defaults"], 3)
    assert api.after_roll(system, r) == {"pay": [], "then": [], "marked": None}


@pytest.mark.parametrize(
    "system, roll, earned, words",
    [
        ("ability_test", {"system": "threat"}, False, "'roll' must be an ability_test roll"),
        ("ability_test", None, False, "'roll' must be an ability_test roll"),
        ("ability_test", {"system": "ability_test", "request": {}}, False, "'roll.scheme_roll'|'roll"),
        ("threat", "roll", False, "'roll' must be a threat roll"),
    ],
)
def test_after_roll_refuses_what_is_not_a_roll(system, roll, earned, words):
    """after_roll reads only a roll of its own system, rebuilt and checked die by die."""
    with pytest.raises(RulesError, match=words):
        api.after_roll(system, roll, None, earned)


def test_after_roll_takes_earned_as_a_bool():
    """'earned' is true or false."""
    with pytest.raises(RulesError, match="'earned' must be true or false"):
        api.after_roll("ability_test", _gaining(), {"reroll": [0]}, 1)


# --- the request a sheet fills -------------------------------------------------------------------------------------


def _entry(i, **fields):
    return {"id": f"e{i}", "name": f"N{i}", **fields}


ARB = {
    "skills": [_entry(1, value=4), _entry(2, value=2), _entry(3, value=9)],
    "traits": [_entry(4, modifier=-1), _entry(5, modifier=2)],
}
TWO = {"traits": [_entry(1, value=4), _entry(2, value=6)], "abilities": [_entry(3, value=-2), _entry(4, value=3)]}
THREAT = {"ratings": {**NEW_SHEETS["threat"]["ratings"], "Rig": 4}, "counters": NEW_SHEETS["threat"]["counters"]}
TEN = {
    "attributes": [_entry(1, dots=3), _entry(2, dots=2)],
    "skills": [_entry(3, dots=2, trained=True), _entry(4, dots=1, trained=False)],
    "resolve": 2,
    "composure": 2,
    "will": 4,
}
ABI = {
    **NEW_SHEETS["ability_test"],
    "attributes": {**NEW_SHEETS["ability_test"]["attributes"], "Social": 4, "Power": 3},
    "skills": [_entry(1, level=3, focused=False, masteries=2), _entry(2, level=0, focused=False, masteries=1)],
    "items": [_entry(3, unique=False, level=2)],
    "convictions": [{"id": "c1", "text": "a", "significance": 3}, {"id": "c2", "text": "b", "significance": 1}],
}

FILLS = [
    ("arbitration", ARB, {"skills": ["e3", "e1"], "traits": ["e5"]}, {"skills": [4, 9], "modifiers": [2]}),
    ("arbitration", ARB, {"skills": ["e2", "gone"]}, {"skills": [2], "modifiers": []}),
    ("two_dice", TWO, {"trait": "e2", "abilities": ["e4", "e3"]}, {"trait": 6, "abilities": [-2, 3]}),
    ("two_dice", TWO, {}, {"trait": 0, "abilities": []}),
    ("two_dice", TWO, {"trait": "gone"}, {"trait": 0, "abilities": []}),
    ("threat", THREAT, {"rating": "Rig"}, {"rating": 4}),
    ("threat", THREAT, {}, {"rating": 1}),
    ("luck", THREAT, {}, None),
    ("ten_again", TEN, {"stats": ["e1", "e3"]}, {"pool": 5, "unskilled": False}),
    ("ten_again", TEN, {"stats": ["e2", "e4"]}, {"pool": 3, "unskilled": True}),
    (
        "ability_test",
        ABI,
        {"type1": "Social", "type2": "Power", "skill": "e1", "item": "e3", "convictions": ["c2", "c1"]},
        {
            "type1": 4,
            "type2": 3,
            "skill": 3,
            "masteries": 2,
            "item": 2,
            "convictions": [3, 1],
            "convictions_declared": 0,
            "unique_traits": 0,
        },
    ),
    (
        "ability_test",
        ABI,
        {"skill": "e1", "masteries": False},
        {
            "type1": 2,
            "type2": 2,
            "skill": 3,
            "masteries": 0,
            "item": 0,
            "convictions": [],
            "convictions_declared": 0,
            "unique_traits": 0,
        },
    ),
    (
        "ability_test",
        ABI,
        {"skill": "", "item": ""},
        {
            "type1": 2,
            "type2": 2,
            "skill": 0,
            "masteries": 0,
            "item": 0,
            "convictions": [],
            "convictions_declared": 0,
            "unique_traits": 0,
        },
    ),
    (
        "ability_test",
        {**ABI, "unique_traits": 4},
        {"skill": "", "item": ""},
        {
            "type1": 2,
            "type2": 2,
            "skill": 0,
            "masteries": 0,
            "item": 0,
            "convictions": [],
            "convictions_declared": 0,
            "unique_traits": 4,
        },
    ),
]


@pytest.mark.parametrize("system, sheet, choices, expected", FILLS)
def test_a_sheet_fills_its_form_as_the_table_did(system, sheet, choices, expected):
    """The form's fields from a sheet and the player's choices, as table.js's "Fill the … form" made them (chosen
    entries in the sheet's order; ids no longer on the sheet ignored); every filled field within its form's range."""
    out = api.request_from_sheet(system, copy.deepcopy(sheet), choices)
    assert out == expected
    if out is not None:
        api.odds(system, out)


@pytest.mark.parametrize(
    "system, sheet, choices, words",
    [
        ("arbitration", ARB, {}, r"^Choose at least one relevant skill\.$"),
        (
            "arbitration",
            {**ARB, "skills": [_entry(i, value=1) for i in range(6)]},
            {"skills": [f"e{i}" for i in range(6)]},
            r"^Choose at most 5 skills \(the form holds 5\)\.$",
        ),
        (
            "arbitration",
            {**ARB, "traits": [_entry(i, modifier=1) for i in range(5)]},
            {"skills": ["e1"], "traits": [f"e{i}" for i in range(5)]},
            r"^Choose at most 4 trait modifiers \(the form holds 4\)\.$",
        ),
        (
            "two_dice",
            {**TWO, "abilities": [_entry(i, value=1) for i in range(6)]},
            {"abilities": [f"e{i}" for i in range(6)]},
            r"^Choose at most 5 abilities \(the form holds 5\)\.$",
        ),
        ("ten_again", TEN, {"stats": []}, r"^Choose the statistics named for the roll\.$"),
        (
            "ten_again",
            {**TEN, "attributes": [_entry(i, dots=10) for i in range(4)]},
            {"stats": [f"e{i}" for i in range(4)]},
            "^'pool' must be from 0 to 30, got 42$",
        ),
        (
            "ability_test",
            {**ABI, "convictions": [{"id": f"c{i}", "text": "", "significance": 1} for i in range(7)]},
            {"convictions": [f"c{i}" for i in range(7)]},
            r"^Activate at most 6 Convictions \(the form holds 6\)\.$",
        ),
        ("ability_test", ABI, {"skill": "e2"}, "^'masteries': Masteries need a relevant Skill"),
        ("ability_test", ABI, {"type1": "Power"}, "^'choices.type1' must be one of Mental, Physical, Social, Weird"),
        ("threat", THREAT, {"rating": "Luck"}, "^'choices.rating' must be one of Charm, Command"),
        ("threat", THREAT, {"rate": "Rig"}, "^unknown field 'choices.rate'; allowed: rating"),
        ("threat", {**THREAT, "ratings": {}}, {}, r"^'sheet.ratings.Charm' is missing"),
        ("luck", {}, {}, "^'sheet.ratings' is missing"),
        ("ten_again", TEN, {"stats": "e1"}, "^'choices.stats' must be a list of 0 to 100 entries"),
    ],
)
def test_a_sheet_that_cannot_fill_the_form_says_why(system, sheet, choices, words):
    """The table's refusals, word for word, and any bad sheet or choice named by its path."""
    with pytest.raises(RulesError, match=words):
        api.request_from_sheet(system, copy.deepcopy(sheet), choices)


@pytest.mark.parametrize("system", list(SPECS))
def test_sheet_choices_are_published_and_default(system):
    """systems() lists each procedure's sheet choices; with none given, a fresh sheet fills what it can."""
    choices = SPECS[system]["sheet_choices"]
    assert json.loads(json.dumps(choices)) == choices
    sheet = NEW_SHEETS[SPECS[system]["kind"]]
    if system in ("arbitration", "ten_again"):
        with pytest.raises(RulesError, match="^Choose"):
            api.request_from_sheet(system, sheet)
    else:
        api.request_from_sheet(system, sheet)


@pytest.mark.parametrize(
    "method, args",
    [
        ("table_spec", ()),
        ("check_sheet", ("ten_again", NEW_SHEETS["ten_again"])),
        ("check_record", ("scheme", {"scheme": 3, "tracked": False})),
        ("costs", ("ability_test", {"convictions": [1]}, None)),
        ("costs", ("ability_test", {"convictions": [1]}, None, {"convictions": ["c1"]})),
        ("after_roll", ("luck", api.roll("luck", {}, 1))),
        ("request_from_sheet", ("threat", THREAT, {"rating": "Rig"})),
    ],
)
def test_the_new_doors_answer_through_call_json(method, args):
    """The page reaches each new door through call_json, as JSON, equal to the door's own answer."""
    out = json.loads(api.call_json(method, json.dumps(args)))
    assert out == {"ok": True, "value": getattr(api, method)(*args)}


def test_a_log_entry_may_keep_the_luck_of_its_roll():
    """A log entry may keep api.luck's answer (without "exact") from when the roll was made; one kept before that
    field, a follow-up or a note has none; an oversized one is refused by its name."""
    r = api.roll("ten_again", {"pool": 30, "risky": True, "opposed": {"pool": 30, "risky": True}}, seed=4)
    luck = {k: v for k, v in api.luck("ten_again", r).items() if k != "exact"}
    entry = dict(RECORDS["log"], luck=luck)
    assert api.check_record("log", entry)["luck"] == luck
    assert "luck" not in api.check_record("log", RECORDS["log"])
    with pytest.raises(RulesError, match="'log.luck' must be JSON of at most 1000 characters"):
        api.check_record("log", dict(entry, luck={"rank": "x" * 1000}))
