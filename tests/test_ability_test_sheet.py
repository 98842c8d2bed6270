"""Tests for arbiter.ability_test.sheet: the request's fields and their ranges, the text's tables, the XP costs."""

import json
from pathlib import Path

import pytest

from ability_test_helpers import parse, roll
from arbiter import RulesError
from arbiter import ability_test as at

SEED_TEXT = " ".join(
    (Path(__file__).resolve().parent.parent / "docs" / "seeds" / at.SEED).read_text(encoding="utf-8").split()
)


# --- the request's fields and the text's tables -------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, lo, hi, default",
    [
        ("type1", 1, 5, 2),
        ("type2", 1, 5, 2),
        ("skill", 0, 10, 0),
        ("item", 0, 5, 0),
        ("difficulty", 1, 4, 2),
        ("masteries", 0, 10, 0),
    ],
)
def test_int_fields_have_the_ranges_of_the_text(name, lo, hi, default):
    """ability_test-2: Attributes 1..5, Skill 0..10, Item 0..5, difficulty 1..4 dice, masteries 0..10."""
    schema = next(f.schema() for f in at.FIELDS if f.name == name)
    assert (schema["type"], schema["min"], schema["max"], schema["default"]) == ("int", lo, hi, default)
    assert schema["label"]


def test_convictions_field_takes_up_to_six_significances():
    """ability_test-1: convictions is a list of 0 to 6 Significances, each 1 to 3."""
    schema = next(f.schema() for f in at.FIELDS if f.name == "convictions")
    assert (schema["type"], schema["min"], schema["max"], schema["min_len"], schema["max_len"]) == (
        "int_list",
        1,
        3,
        0,
        6,
    )
    assert parse({"convictions": [1, 2, 3, 3, 2, 1]})["convictions"] == (1, 2, 3, 3, 2, 1)
    with pytest.raises(RulesError, match="'convictions' must be a list of 0 to 6"):
        parse({"convictions": [1] * 7})


def test_extras_are_json_safe_and_quote_the_text():
    """EXTRAS is JSON-safe, and its difficulty and Significance labels and examples are the text's own words."""
    assert json.loads(json.dumps(at.EXTRAS)) == at.EXTRAS
    assert [d["label"] for d in at.EXTRAS["difficulty"]] == [
        "Unusually Easy",
        "Standard Difficulty",
        "Unusually Difficult",
        "Effectively Impossible",
    ]
    assert [s["label"] for s in at.EXTRAS["significance"]] == ["Valued", "Momentous", "Pivotal"]
    for entry in at.EXTRAS["difficulty"] + at.EXTRAS["significance"]:
        assert f"{entry['value']}: {entry['label']}" in SEED_TEXT
        assert entry["example"] in SEED_TEXT
    for kind in at.EXTRAS["attributes"].values():
        for a in kind:
            assert f"{a['name']}: {a['help']}" in SEED_TEXT


# --- bad input ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "request_, words",
    [
        ({"type1": 0}, "'type1' must be from 1 to 5"),
        ({"type2": 6}, "'type2' must be from 1 to 5"),
        ({"type1": True}, "'type1' must be a whole number from 1 to 5"),
        ({"skill": "3"}, "'skill' must be a whole number from 0 to 10"),
        ({"skill": 11}, "'skill' must be from 0 to 10"),
        ({"item": 6}, "'item' must be from 0 to 5"),
        ({"item": 2.0}, "'item' must be a whole number"),
        ({"convictions": [4]}, r"'convictions\[0\]' must be from 1 to 3"),
        ({"convictions": [False]}, r"'convictions\[0\]' must be a whole number"),
        ({"convictions": 3}, "'convictions' must be a list"),
        ({"difficulty": 0}, "'difficulty' must be from 1 to 4"),
        ({"difficulty": 5}, "'difficulty' must be from 1 to 4"),
        ({"masteries": 11}, "'masteries' must be from 0 to 10"),
        ({"masteries": -1}, "'masteries' must be from 0 to 10"),
        ({"scheme_die": 1}, "'scheme_die' must be true or false"),
        ({"exertion": 2}, "unknown field 'exertion'"),
    ],
)
def test_bad_requests_name_the_field_and_range(request_, words):
    """Wrong types, bools for ints, out-of-range values and unknown fields name the field and its range."""
    with pytest.raises(RulesError, match=words):
        parse(request_)


@pytest.mark.parametrize("unique_traits", [0, 1, 4, 10])
def test_unique_traits_add_to_ability_like_an_item_ability_test_14(unique_traits):
    """ability_test-14: Unique Traits are a whole number 0 to 10 added to Ability like Item levels: the roll's
    Ability, its step and the odds are those of the same number of Item levels."""
    with_traits = {"type1": 2, "type2": 1, "unique_traits": unique_traits, "difficulty": 3}
    as_item = {
        "type1": 2,
        "type2": 1,
        "item": min(unique_traits, 5),
        "skill": max(0, unique_traits - 5),
        "difficulty": 3,
    }
    assert at.odds(parse(with_traits)) == at.odds(parse(as_item))
    r = roll(with_traits, 3, 4, 5)
    assert r["ability"] == 3 + unique_traits and r["request"]["unique_traits"] == unique_traits
    assert ("(Unique Traits)" in r["steps"][0]) == bool(unique_traits)


@pytest.mark.parametrize("value", [-1, 11, True, 1.5, "2"])
def test_unique_traits_out_of_range_are_refused_ability_test_14(value):
    """ability_test-14: Unique Traits outside 0 to 10 are refused, naming the field and its range."""
    with pytest.raises(RulesError, match="'unique_traits' must be (a whole number )?from 0 to 10"):
        parse({"unique_traits": value})


def test_a_sheet_keeps_unique_traits_and_fills_the_form_ability_test_14():
    """ability_test-14: the sheet keeps Unique Traits (absent in a character stored before: 0) and fills them in."""
    from arbiter import api

    sheet = {
        "attributes": {a: 2 for a in at.ATTRIBUTES},
        "skills": [],
        "items": [],
        "convictions": [],
        "exertion": 0,
        "xp": 0,
        "moved_this_session": False,
    }
    assert api.request_from_sheet("ability_test", sheet)["unique_traits"] == 0
    assert api.check_sheet("ability_test", sheet) == sheet
    assert api.request_from_sheet("ability_test", {**sheet, "unique_traits": 3})["unique_traits"] == 3
    with pytest.raises(RulesError, match="'sheet.unique_traits' must be (a whole number )?from 0 to 10"):
        api.check_sheet("ability_test", {**sheet, "unique_traits": 11})


@pytest.mark.parametrize("request_", [None, [], "type1", 3])
def test_request_must_be_an_object(request_):
    """A request that is not an object is refused."""
    with pytest.raises(RulesError, match="object"):
        parse(request_)


# --- XP -----------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kind, current, cost",
    [
        ("new_skill", 0, 2),
        ("new_item", 0, 3),
        ("advance_skill", 1, 3),
        ("advance_skill", 9, 11),
        ("advance_standard_item", 1, 3),
        ("advance_standard_item", 4, 6),
        ("advance_attribute", 1, 4),
        ("advance_attribute", 2, 5),
        ("advance_attribute", 4, 7),
    ],
)
def test_xp_costs_follow_the_text(kind, current, cost):
    """New Skill 2 XP, new Item 3, Skill or Standard Item 2 + current rank, Attribute 3 + current score."""
    assert at.xp_cost(kind, current) == cost


@pytest.mark.parametrize(
    "kind, current, words",
    [
        ("advance_skill", 10, "from 1 to 9 for advance_skill .A character may have a maximum of 10 levels"),
        ("advance_standard_item", 5, "from 1 to 4 for advance_standard_item .Items have a maximum of 5 levels"),
        ("advance_attribute", 5, "from 1 to 4 for advance_attribute .All Attributes are graded on a scale of 1 to 5"),
        ("advance_skill", 0, "from 1 to 9"),
        ("new_skill", 1, "from 0 to 0 for new_skill"),
        ("new_item", 3, "from 0 to 0 for new_item"),
        ("advance_attribute", True, "'current' must be a whole number"),
        ("advance_attribute", "2", "'current' must be a whole number"),
    ],
)
def test_xp_refuses_beyond_the_maximum_or_new_at_a_rank(kind, current, words):
    """ability_test-16: new things start at 0; advancing past Skill 10, Item 5 or Attribute 5 is refused."""
    with pytest.raises(RulesError, match=words):
        at.xp_cost(kind, current)


@pytest.mark.parametrize("kind", ["advance_unique_item", "advance_focused_skill"])
def test_xp_refuses_to_price_unique_items_and_focused_skills(kind):
    """ability_test-15: 'less XP' gives no number, so Unique items and Focused Skills are not priced."""
    with pytest.raises(RulesError, match="gives no number"):
        at.xp_cost(kind, 1)


@pytest.mark.parametrize("kind", [None, "advance_item", ["new_skill"], 2])
def test_xp_refuses_unknown_kinds(kind):
    """An unknown kind lists the kinds that have a price."""
    with pytest.raises(RulesError, match="'kind' must be one of new_skill, new_item, advance_skill"):
        at.xp_cost(kind, 1)


def test_extras_xp_table_matches_xp_cost():
    """The XP table the page shows agrees with xp_cost, row by row."""
    rows = at.EXTRAS["xp_costs"]
    assert [r["kind"] for r in rows] == [
        "new_skill",
        "new_item",
        "advance_skill",
        "advance_standard_item",
        "advance_attribute",
    ]
    for row in rows:
        for c in row["costs"]:
            assert at.xp_cost(row["kind"], c["current"]) == c["cost"]
    assert {r["kind"] for r in at.EXTRAS["xp_unpriced"]} == {"advance_unique_item", "advance_focused_skill"}
