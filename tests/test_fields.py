"""The field declarations check requests and publish their limits."""

import pytest

from arbiter import RulesError, fields

DECLS = (
    fields.Int("pool", "Dice", 0, 30, default=3),
    fields.Bool("will", "Will"),
    fields.Choice("complexity", "Complexity", (("easy", "Easy"), ("moderate", "Moderate")), default="moderate"),
    fields.IntList("skills", "Skills", 0, 30, 1, 5, default=(2,)),
    fields.IntOrWord("difficulty", "Difficulty", -7, 3, ("impossible",)),
    fields.Text("name", "Name", max_len=10),
    fields.Group("opposed", "Opposed", (fields.Int("pool", "Dice", 0, 30),)),
    fields.Records(
        "threats",
        "Threats",
        (fields.Text("name", "Name"), fields.Bool("desperate", "Desperate")),
        1,
        8,
        default=({"name": "Dodge", "desperate": False},),
    ),
)


def test_defaults_fill_missing_fields():
    """An empty request takes every default; an absent optional group is None."""
    got = fields.parse(DECLS, {})
    assert got == {
        "pool": 3,
        "will": False,
        "complexity": "moderate",
        "skills": (2,),
        "difficulty": 0,
        "name": "",
        "opposed": None,
        "threats": ({"name": "Dodge", "desperate": False},),
    }


def test_valid_values_pass_through():
    """Valid values come back parsed (lists as tuples, groups as dicts)."""
    got = fields.parse(DECLS, {"pool": 30, "skills": [0, 5], "difficulty": "impossible", "opposed": {"pool": 2}})
    assert got["pool"] == 30 and got["skills"] == (0, 5) and got["difficulty"] == "impossible"
    assert got["opposed"] == {"pool": 2}


@pytest.mark.parametrize(
    "request_, words",
    [
        ([], ["'request'", "object"]),
        ({"pool": 31}, ["'pool'", "0 to 30", "31"]),
        ({"pool": -1}, ["'pool'", "0 to 30"]),
        ({"pool": True}, ["'pool'", "whole number"]),
        ({"pool": 2.5}, ["'pool'", "whole number"]),
        ({"pool": "3"}, ["'pool'", "whole number"]),
        ({"will": 1}, ["'will'", "true or false"]),
        ({"complexity": "hard"}, ["'complexity'", "easy, moderate"]),
        ({"skills": []}, ["'skills'", "1 to 5"]),
        ({"skills": [1, 99]}, ["'skills[1]'", "0 to 30"]),
        ({"difficulty": -8}, ["'difficulty'", "-7 to 3", "impossible"]),
        ({"name": "x" * 11}, ["'name'", "10 characters"]),
        ({"opposed": {"pool": 40}}, ["'opposed.pool'", "0 to 30"]),
        ({"opposed": {"dice": 1}}, ["'opposed.dice'", "allowed: pool"]),
        ({"threats": [{"name": "A", "desperate": "yes"}]}, ["'threats[0].desperate'", "true or false"]),
        ({"threats": [{}] * 9}, ["'threats'", "1 to 8"]),
        ({"bogus": 1}, ["'bogus'", "unknown"]),
    ],
)
def test_bad_input_names_field_and_range(request_, words):
    """Every kind of bad input raises RulesError naming the field and what is allowed."""
    with pytest.raises(RulesError) as err:
        fields.parse(DECLS, request_)
    for w in words:
        assert w in str(err.value)


@pytest.mark.parametrize(
    "request_, path, says",
    [
        ({"pool": 99}, "pool", "must be from 0 to 30"),
        ({"pool": "3"}, "pool", "must be a whole number from 0 to 30"),
        ({"skills": [1, 99]}, "skills[1]", "must be from 0 to 30"),
        ({"opposed": {"pool": 40}}, "opposed.pool", "must be from 0 to 30"),
        ({"difficulty": -8}, "difficulty", 'must be a whole number from -7 to 3 or "impossible"'),
        ({"name": "x" * 11}, "name", "must be text of at most 10 characters"),
        ({"complexity": "hard"}, "complexity", "must be one of easy, moderate, got 'hard'"),
        ({"bogus": 1}, None, "unknown field 'bogus'; allowed: " + ", ".join(f.name for f in DECLS)),
    ],
)
def test_rules_error_carries_the_path_and_what_it_says_of_it(request_, path, says):
    """A refusal carries the field's path and what it says of it, without the path (for the page to put the field's
    label before it); a message that names no field first is said whole."""
    with pytest.raises(RulesError) as err:
        fields.parse(DECLS, request_)
    assert (err.value.path, err.value.says, err.value.holder) == (path, says, False)
    if path:
        assert str(err.value).startswith(f"'{path}' ")


def test_every_bad_field_is_reported_at_once():
    """A request with several bad fields, nested ones too, is refused once: the first problem's message, and every
    bad field in `problems` in the form's order, each with what it says of it."""
    request_ = {"pool": 99, "skills": [1, -1, 40], "opposed": {"pool": 31}, "threats": [{"name": "A", "desperate": 1}]}
    with pytest.raises(RulesError) as err:
        fields.parse(DECLS, request_)
    assert str(err.value) == "'pool' must be from 0 to 30, got 99"
    assert [(p["path"], p["says"]) for p in err.value.problems] == [
        ("pool", "must be from 0 to 30"),
        ("skills[1]", "must be from 0 to 30"),
        ("skills[2]", "must be from 0 to 30"),
        ("opposed.pool", "must be from 0 to 30"),
        ("threats[0].desperate", "must be true or false, got 1"),
    ]


def test_one_bad_field_is_its_own_only_problem():
    """A refusal of one field lists that field alone."""
    with pytest.raises(RulesError) as err:
        fields.parse(DECLS, {"pool": 99})
    assert err.value.problems == ({"path": "pool", "says": "must be from 0 to 30"},)


def test_rules_error_is_value_error():
    """RulesError is a ValueError, so callers can catch either."""
    assert issubclass(RulesError, ValueError)


def test_schema_is_json_safe_and_complete():
    """Every declaration publishes its type, limits and default as plain JSON."""
    import json

    schema = [f.schema() for f in DECLS]
    assert json.loads(json.dumps(schema)) == schema
    by_name = {s["name"]: s for s in schema}
    assert by_name["pool"] == {
        "name": "pool",
        "label": "Dice",
        "type": "int",
        "min": 0,
        "max": 30,
        "default": 3,
        "help": "",
    }
    assert by_name["threats"]["default"] == [{"name": "Dodge", "desperate": False}]
    assert by_name["opposed"]["fields"][0]["max"] == 30


def test_as_json_turns_tuples_into_lists():
    """A parsed request goes back to JSON form, nested tuples included."""
    assert fields.as_json({"a": (1, 2), "b": ({"c": (3,)},), "d": None}) == {"a": [1, 2], "b": [{"c": [3]}], "d": None}


def test_read_state_and_args_check_declarations():
    """Table ops read their state and args through declarations: missing, unknown and out-of-range are named."""
    decls = (fields.Int("will", "Will", 0, 20),)
    assert fields.read_state({"will": 3, "other": "kept"}, decls, ("will",)) == {"will": 3}
    with pytest.raises(RulesError, match=r"'state.will' is missing: Will, a whole number from 0 to 20"):
        fields.read_state({}, decls, ("will",))
    with pytest.raises(RulesError, match=r"'args.will' must be from 0 to 20"):
        fields.read_args({"will": 21}, decls, "rest")
    with pytest.raises(RulesError, match="takes no arguments"):
        fields.read_args({"x": 1}, (), "spend_will")
    assert fields.new_state({"will": 3}, "Spent", will=2) == {"will": 2, "note": "Spent"}
