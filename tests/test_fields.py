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
    fields.Records("threats", "Threats", (fields.Text("name", "Name"), fields.Bool("desperate", "Desperate")), 1, 8,
                   default=({"name": "Dodge", "desperate": False},)),
)


def test_defaults_fill_missing_fields():
    """An empty request takes every default; an absent optional group is None."""
    got = fields.parse(DECLS, {})
    assert got == {"pool": 3, "will": False, "complexity": "moderate", "skills": (2,), "difficulty": 0, "name": "",
                   "opposed": None, "threats": ({"name": "Dodge", "desperate": False},)}


def test_valid_values_pass_through():
    """Valid values come back parsed (lists as tuples, groups as dicts)."""
    got = fields.parse(DECLS, {"pool": 30, "skills": [0, 5], "difficulty": "impossible", "opposed": {"pool": 2}})
    assert got["pool"] == 30 and got["skills"] == (0, 5) and got["difficulty"] == "impossible"
    assert got["opposed"] == {"pool": 2}


@pytest.mark.parametrize("request_, words", [
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
])
def test_bad_input_names_field_and_range(request_, words):
    """Every kind of bad input raises RulesError naming the field and what is allowed."""
    with pytest.raises(RulesError) as err:
        fields.parse(DECLS, request_)
    for w in words:
        assert w in str(err.value)


def test_rules_error_is_value_error():
    """RulesError is a ValueError, so callers can catch either."""
    assert issubclass(RulesError, ValueError)


def test_schema_is_json_safe_and_complete():
    """Every declaration publishes its type, limits and default as plain JSON."""
    import json
    schema = [f.schema() for f in DECLS]
    assert json.loads(json.dumps(schema)) == schema
    by_name = {s["name"]: s for s in schema}
    assert by_name["pool"] == {"name": "pool", "label": "Dice", "type": "int", "min": 0, "max": 30, "default": 3,
                               "help": ""}
    assert by_name["threats"]["default"] == [{"name": "Dodge", "desperate": False}]
    assert by_name["opposed"]["fields"][0]["max"] == 30
