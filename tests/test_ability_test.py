"""Ability Test (seed 004): Ability against 1-4 difficulty d6, Masteries, Exertion, the Scheme, setbacks, XP."""

import copy
import itertools
import json
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import strategies
from arbiter import RulesError, fields
from arbiter import ability_test as at
from scripted import ScriptedDice
from stats import assert_fits

SEED_TEXT = " ".join((Path(__file__).resolve().parent.parent / "docs" / "seeds" / at.SEED)
                     .read_text(encoding="utf-8").split())

LARGEST = {"type1": 5, "type2": 5, "skill": 10, "item": 5, "convictions": [3] * 6, "difficulty": 4,
           "masteries": 10, "scheme_die": True}


def parse(request: dict) -> dict:
    return fields.parse(at.FIELDS, request)


def base(ability: int, **more) -> dict:
    """A request whose Ability before any Scheme die is `ability` (from 2 to 20)."""
    type1 = min(5, ability - 1)
    type2 = min(5, ability - type1)
    return {"type1": type1, "type2": type2, "skill": ability - type1 - type2, **more}


def roll(request: dict, *faces: int) -> dict:
    dice = ScriptedDice(*faces)
    result = at.roll(parse(request), dice)
    assert dice.left == []
    return result


def act(result: dict, action: dict, *faces: int) -> dict:
    dice = ScriptedDice(*faces)
    before = copy.deepcopy(result)
    nxt = at.act(result, action, dice)
    assert dice.left == []
    assert result == before
    return nxt


def names(result: dict) -> list[str]:
    return [c["name"] for c in result["choices"]]


# --- the module contract ------------------------------------------------------------------------------------------

def test_module_names_its_seed_and_actions():
    """The module names its id, seed file and the three follow-ups the issue fixes."""
    assert (at.ID, at.SEED) == ("ability_test", "004_53ed85965f1883a3.txt")
    assert [a["name"] for a in at.ACTIONS] == ["reroll", "exert", "negate_setback"]
    assert all(a["label"] and a["help"] for a in at.ACTIONS)


@pytest.mark.parametrize("name, lo, hi, default", [
    ("type1", 1, 5, 2), ("type2", 1, 5, 2), ("skill", 0, 10, 0), ("item", 0, 5, 0),
    ("difficulty", 1, 4, 2), ("masteries", 0, 10, 0),
])
def test_int_fields_have_the_ranges_of_the_text(name, lo, hi, default):
    """ability_test-2: Attributes 1..5, Skill 0..10, Item 0..5, difficulty 1..4 dice, masteries 0..10."""
    schema = next(f.schema() for f in at.FIELDS if f.name == name)
    assert (schema["type"], schema["min"], schema["max"], schema["default"]) == ("int", lo, hi, default)
    assert schema["label"]


def test_convictions_field_takes_up_to_six_significances():
    """ability_test-1: convictions is a list of 0 to 6 Significances, each 1 to 3."""
    schema = next(f.schema() for f in at.FIELDS if f.name == "convictions")
    assert (schema["type"], schema["min"], schema["max"], schema["min_len"], schema["max_len"]) == \
        ("int_list", 1, 3, 0, 6)
    assert parse({"convictions": [1, 2, 3, 3, 2, 1]})["convictions"] == (1, 2, 3, 3, 2, 1)
    with pytest.raises(RulesError, match="'convictions' must be a list of 0 to 6"):
        parse({"convictions": [1] * 7})


def test_extras_are_json_safe_and_quote_the_text():
    """EXTRAS is JSON-safe, and its difficulty and Significance labels and examples are the text's own words."""
    assert json.loads(json.dumps(at.EXTRAS)) == at.EXTRAS
    assert [d["label"] for d in at.EXTRAS["difficulty"]] == \
        ["Unusually Easy", "Standard Difficulty", "Unusually Difficult", "Effectively Impossible"]
    assert [s["label"] for s in at.EXTRAS["significance"]] == ["Valued", "Momentous", "Pivotal"]
    for entry in at.EXTRAS["difficulty"] + at.EXTRAS["significance"]:
        assert f"{entry['value']}: {entry['label']}" in SEED_TEXT
        assert entry["example"] in SEED_TEXT
    for kind in at.EXTRAS["attributes"].values():
        for a in kind:
            assert f"{a['name']}: {a['help']}" in SEED_TEXT


# --- Ability against the total ------------------------------------------------------------------------------------

def test_ability_is_the_sum_of_attributes_skill_item_and_convictions():
    """Ability = Type I + Type II + Skill + Item + each activated Conviction's Significance."""
    r = roll({"type1": 3, "type2": 2, "skill": 4, "item": 1, "convictions": [1, 3], "difficulty": 1}, 6)
    assert r["ability"] == 3 + 2 + 4 + 1 + 1 + 3
    assert r["steps"][0].startswith("Ability 14 = 3 (Type I) + 2 (Type II) + 4 (Skill) + 1 (Item)")


def test_attribute_grades_add_to_ability_and_roll_no_dice():
    """ability_test-3: Attributes add their grade to Ability; only the difficulty dice are rolled."""
    r = roll({"type1": 5, "type2": 5, "difficulty": 1}, 4)
    assert r["ability"] == 10 and r["dice"] == [4]


@pytest.mark.parametrize("difficulty", [1, 2, 3, 4])
def test_difficulty_is_that_many_dice(difficulty):
    """The Player assembles a number of dice equal to the assigned difficulty, and rolls."""
    faces = [2, 3, 4, 5][:difficulty]
    r = roll({"difficulty": difficulty}, *faces)
    assert r["dice"] == r["rolled"] == faces and r["total"] == sum(faces)
    assert at.DIFFICULTY[difficulty - 1][1] in r["steps"][1]


@pytest.mark.parametrize("ability, faces, outcome", [
    (7, (3, 3), "success"),   # Ability higher than the rolled total
    (7, (3, 4), "failure"),   # the total equals Ability: they fail
    (7, (4, 4), "failure"),   # the total exceeds Ability
    (2, (1,), "success"),
    (2, (2,), "failure"),
    (20, (5, 5, 5, 4), "success"),
    (20, (5, 5, 5, 5), "failure"),
])
def test_success_only_when_ability_beats_the_total(ability, faces, outcome):
    """If the rolled total equals or exceeds their Ability, they fail; if Ability is higher, they succeed."""
    r = roll(base(ability, difficulty=len(faces)), *faces)
    assert (r["ability"], r["total"], r["outcome"]) == (ability, sum(faces), outcome)
    assert r["summary"].startswith(outcome.capitalize())


def test_summary_and_steps_read_like_the_rule():
    """The summary and steps name Ability, the dice, the total and the verdict in the text's words."""
    r = roll(base(9, difficulty=2), 1, 5)
    assert r["summary"] == "Success: Ability 9 beats 6 = 1+5 (Standard Difficulty); a 1 rolled: add one die to the Scheme"
    assert r["steps"][1:] == ["2 difficulty dice (Standard Difficulty): 1 5, total 6", "Ability 9 > 6: success",
                              "a 1 on a success: add one die to the Scheme"]


# --- the Scheme ---------------------------------------------------------------------------------------------------

def test_scheme_die_is_rolled_first_and_added_to_ability():
    """ability_test-6: the Narrator rolls the Scheme die before the Difficulty dice; its result adds to Ability."""
    r = roll(base(6, difficulty=2, scheme_die=True), 4, 5, 4)
    assert (r["scheme_roll"], r["dice"], r["ability"]) == (4, [5, 4], 10)
    assert r["outcome"] == "success"  # 10 > 9, though 6 alone would fail
    assert r["steps"][1] == "Scheme die: 4, Ability 10"


def test_no_scheme_die_means_null_scheme_roll():
    """ability_test-6: scheme_roll is null when no Scheme die is used, and only the difficulty dice are rolled."""
    r = roll(base(6, difficulty=2), 5, 4)
    assert r["scheme_roll"] is None and r["ability"] == 6


@pytest.mark.parametrize("request_, faces, gain", [
    (base(9, difficulty=2), (1, 5), True),                     # success with a 1
    (base(9, difficulty=2), (2, 5), False),                    # success without a 1
    (base(3, difficulty=2), (1, 5), False),                    # a 1 on a failure earns nothing
    (base(9, difficulty=2, scheme_die=True), (3, 1, 5), False),  # a Scheme die was used
    (base(9, difficulty=2, scheme_die=True), (1, 2, 5), False),  # the Scheme die's own 1 does not count
])
def test_a_one_on_a_success_earns_a_scheme_die(request_, faces, gain):
    """ability_test-7: a success with a 1 among the difficulty dice earns a die, unless a Scheme die was used."""
    r = roll(request_, *faces)
    assert r["scheme_gain"] is gain


@pytest.mark.parametrize("request_, faces, setback", [
    (base(5, difficulty=2), (6, 1), True),                     # failure with a 6
    (base(5, difficulty=2), (5, 4), False),                    # failure without a 6
    (base(8, difficulty=2), (6, 1), False),                    # a 6 on a success brings nothing
    (base(2, difficulty=2, scheme_die=True), (6, 5, 4), False),  # the Scheme die's 6 does not count
    (base(2, difficulty=2, scheme_die=True), (1, 6, 4), True),
])
def test_a_six_on_a_failure_brings_a_setback(request_, faces, setback):
    """ability_test-7: a failure with a 6 among the difficulty dice brings a setback; the Scheme die never does."""
    r = roll(request_, *faces)
    assert r["setback"] is setback
    assert ("negate_setback" in names(r)) is setback


# --- Masteries ----------------------------------------------------------------------------------------------------

def test_reroll_replaces_the_chosen_dice_and_keeps_the_history():
    """ability_test-4: a reroll rolls the chosen dice again; rolled, rerolled and dice keep the history."""
    r = roll(base(8, difficulty=3, masteries=2), 5, 6, 2)
    assert r["outcome"] == "failure"
    n = act(r, {"reroll": [1, 0]}, 1, 3)
    assert (n["rolled"], n["rerolled"], n["dice"]) == ([5, 6, 2], [0, 1], [1, 3, 2])
    assert (n["total"], n["outcome"], n["scheme_gain"]) == (6, "success", True)
    assert "rerolled 2 dice (Masteries): 5 → 1, 6 → 3" in n["steps"][-3]


def test_reroll_choice_says_how_many_dice_and_suggests_the_best():
    """ability_test-4: the reroll choice allows min(masteries, difficulty) dice and suggests the highest ones."""
    r = roll(base(8, difficulty=2, masteries=10), 6, 5)
    (choice,) = [c for c in r["choices"] if c["name"] == "reroll"]
    assert choice["max"] == 2
    assert choice["suggested"] == [0, 1]


def test_a_one_rerolled_away_no_longer_earns_a_scheme_die():
    """ability_test-7: the Scheme gain reads the final dice: a 1 rerolled away no longer counts."""
    r = roll(base(12, difficulty=2, masteries=1), 1, 4)
    assert r["scheme_gain"] is True
    n = act(r, {"reroll": [0]}, 3)
    assert (n["outcome"], n["scheme_gain"]) == ("success", False)


def test_a_six_rerolled_away_lifts_the_setback():
    """ability_test-7: the setback reads the final dice: a 6 rerolled away on a failure no longer counts."""
    r = roll(base(4, difficulty=2, masteries=1), 6, 5)
    n = act(r, {"reroll": [0]}, 4)
    assert (n["outcome"], n["setback"]) == ("failure", False)
    assert "negate_setback" not in names(n)


@pytest.mark.parametrize("request_, faces, action, words", [
    (base(8, difficulty=2, masteries=1), (6, 5), {"reroll": [0, 1]}, "list of 1 to 1 different die indexes from 0 to 1"),
    (base(8, difficulty=2, masteries=10), (6, 5), {"reroll": [2]}, "from 0 to 1"),
    (base(8, difficulty=2, masteries=10, scheme_die=True), (3, 6, 5), {"reroll": [2]}, "from 0 to 1"),
    (base(8, difficulty=2, masteries=2), (6, 5), {"reroll": [0, 0]}, "different die indexes"),
    (base(8, difficulty=2, masteries=2), (6, 5), {"reroll": []}, "list of 1 to 2"),
    (base(8, difficulty=2, masteries=2), (6, 5), {"reroll": [True]}, "'action.reroll'"),
    (base(8, difficulty=2, masteries=2), (6, 5), {"reroll": 0}, "'action.reroll'"),
    (base(8, difficulty=2, masteries=0), (6, 5), {"reroll": [0]}, "'masteries' is 0"),
])
def test_reroll_refuses_what_masteries_do_not_allow(request_, faces, action, words):
    """ability_test-4: a reroll takes 1 to min(masteries, difficulty) different difficulty dice, never the Scheme die."""
    r = roll(request_, *faces)
    with pytest.raises(RulesError, match=words):
        at.act(r, action, ScriptedDice())


def test_only_one_reroll_per_test():
    """ability_test-4: you may only perform one reroll per test."""
    r = roll(base(8, difficulty=3, masteries=3), 6, 5, 4)
    n = act(r, {"reroll": [0]}, 6)
    assert "reroll" not in names(n)
    with pytest.raises(RulesError, match="only one reroll per test"):
        at.act(n, {"reroll": [1]}, ScriptedDice(1))


def test_masteries_are_taken_as_given_without_a_skill():
    """ability_test-5: masteries are the relevant ones as given, even when skill is 0."""
    r = roll({"type1": 2, "type2": 2, "skill": 0, "difficulty": 1, "masteries": 1}, 6)
    n = act(r, {"reroll": [0]}, 1)
    assert n["outcome"] == "success"


@pytest.mark.parametrize("faces, ability, rerolls, expected", [
    ((6, 5), 8, 2, (0, 1)),      # keeping the 5 succeeds 12 in 36, rerolling both 21 in 36
    ((2, 2), 8, 2, ()),          # already a success that no reroll makes surer
    ((6, 6, 6, 6), 3, 4, ()),    # nothing can succeed: no reroll
    ((1, 6, 2), 8, 1, (1,)),     # the 6 is the die to reroll
    ((3, 6, 6), 9, 2, (1, 2)),
])
def test_best_reroll_rerolls_the_highest_dice_that_help(faces, ability, rerolls, expected):
    """ability_test-12: the best reroll is the k highest dice for the best k; no reroll when none helps."""
    assert at.best_reroll(faces, ability, rerolls) == expected


# --- Exertion -----------------------------------------------------------------------------------------------------

def test_exertion_raises_ability_and_can_turn_a_failure_into_a_success():
    """Spending n Exertion increases Ability by the same amount before declaring."""
    r = roll(base(7, difficulty=2), 4, 4)
    assert (r["outcome"], r["exert_needed"]) == ("failure", 2)
    (choice,) = [c for c in r["choices"] if c["name"] == "exert"]
    assert (choice["min"], choice["max"], choice["exert_needed"]) == (1, 2, 2)
    n = act(r, {"exert": 2})
    assert (n["ability"], n["exertion"], n["outcome"], n["exert_needed"]) == (9, 2, "success", 0)
    assert n["steps"][-2:] == ["exerted 2: Ability 9", "Ability 9 > 8: success"]


def test_exertion_may_be_spent_several_times_adding_up():
    """ability_test-9: several exert actions add up while the Test is still failing."""
    r = roll(base(5, difficulty=2), 4, 4)
    n = act(r, {"exert": 1})
    assert (n["outcome"], n["exertion"], n["exert_needed"]) == ("failure", 1, 3)
    n = act(n, {"exert": 3})
    assert (n["outcome"], n["exertion"], n["ability"]) == ("success", 4, 9)


@pytest.mark.parametrize("value, words", [
    (3, "from 1 to 2"), (0, "from 1 to 2"), (-1, "from 1 to 2"), (True, "'action.exert'"), ("2", "'action.exert'"),
])
def test_exertion_is_at_most_what_makes_a_success(value, words):
    """ability_test-8: exert takes 1 up to exert_needed = total − Ability + 1."""
    r = roll(base(7, difficulty=2), 4, 4)
    with pytest.raises(RulesError, match=words):
        at.act(r, {"exert": value}, ScriptedDice())


def test_exertion_is_refused_on_a_success():
    """ability_test-8: exert is neither offered nor allowed once the Test stands as a success."""
    r = roll(base(9, difficulty=2), 4, 4)
    assert r["exert_needed"] == 0 and "exert" not in names(r)
    with pytest.raises(RulesError, match="already a success"):
        at.act(r, {"exert": 1}, ScriptedDice())


def test_reroll_and_exertion_come_in_either_order():
    """ability_test-10: a reroll may follow Exertion, and Exertion may follow a reroll."""
    r = roll(base(6, difficulty=2, masteries=1), 6, 5)
    a = act(act(r, {"exert": 2}), {"reroll": [0]}, 6)
    b = act(act(r, {"reroll": [0]}, 6), {"exert": 2})
    for n in (a, b):
        assert (n["ability"], n["dice"], n["outcome"]) == (8, [6, 5], "failure")
        assert "reroll" not in names(n)


def test_reroll_is_offered_on_a_success_too():
    """ability_test-10: the reroll stays open on a success, at the player's risk."""
    r = roll(base(9, difficulty=2, masteries=1), 3, 4)
    assert r["outcome"] == "success" and "reroll" in names(r)
    n = act(r, {"reroll": [1]}, 6)
    assert n["outcome"] == "failure" and n["setback"] is True


def test_exertion_spent_counts_convictions_and_exertion():
    """ability_test-13: each activated Conviction costs one Exertion, plus the Exertion added after the roll."""
    r = roll({"type1": 1, "type2": 1, "convictions": [1, 2], "difficulty": 2}, 5, 5)
    assert r["exertion_spent"] == 2 and "2 Exertion spent to activate 2 Convictions" in r["steps"][0]
    n = act(r, {"exert": 3})
    assert n["exertion_spent"] == 5


# --- the setback --------------------------------------------------------------------------------------------------

def test_negating_the_setback_declares_the_failure():
    """ability_test-11: negating costs two Scheme dice, records setback_negated and closes every choice."""
    r = roll(base(5, difficulty=2, masteries=1), 6, 2)
    assert names(r) == ["reroll", "exert", "negate_setback"]
    (choice,) = [c for c in r["choices"] if c["name"] == "negate_setback"]
    assert choice["cost"] == 2
    n = act(r, {"negate_setback": True})
    assert (n["outcome"], n["setback"], n["setback_negated"], n["choices"]) == ("failure", True, True, [])
    assert "negated" in n["summary"]
    for action, words in [({"reroll": [0]}, "no reroll now"), ({"exert": 1}, "no Exertion now"),
                          ({"negate_setback": True}, "already negated")]:
        with pytest.raises(RulesError, match=words):
            at.act(n, action, ScriptedDice(1))


@pytest.mark.parametrize("faces, value, words", [
    ((5, 2), True, "no setback"),        # a failure without a 6
    ((6, 2), False, "must be true"),
    ((6, 2), 1, "must be true"),
])
def test_negate_setback_needs_a_setback_and_true(faces, value, words):
    """ability_test-11: negate_setback is only for a failure with a 6, and takes true."""
    r = roll(base(5, difficulty=2), *faces)
    with pytest.raises(RulesError, match=words):
        at.act(r, {"negate_setback": value}, ScriptedDice())


# --- bad input ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("request_, words", [
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
])
def test_bad_requests_name_the_field_and_range(request_, words):
    """Wrong types, bools for ints, out-of-range values and unknown fields name the field and its range."""
    with pytest.raises(RulesError, match=words):
        parse(request_)


def test_unique_traits_have_no_field():
    """ability_test-14: the text gives Unique Traits no number, so a unique_traits field is refused as unknown."""
    with pytest.raises(RulesError, match="unknown field 'unique_traits'"):
        parse({"unique_traits": 1})


@pytest.mark.parametrize("request_", [None, [], "type1", 3])
def test_request_must_be_an_object(request_):
    """A request that is not an object is refused."""
    with pytest.raises(RulesError, match="object"):
        parse(request_)


def _set(key, value):
    def change(r):
        r[key] = value
    return change


def _set_request(key, value):
    def change(r):
        r["request"][key] = value
    return change


def _del(key):
    def change(r):
        del r[key]
    return change


@pytest.mark.parametrize("change, words", [
    (_set("system", "luck"), "'roll' must be an ability_test roll"),
    (_set_request("difficulty", 9), "'roll.request.difficulty' must be from 1 to 4"),
    (_set_request("difficulty", 3), "'roll.rolled' must be a list of 3 faces"),
    (_set_request("scheme_die", True), "'roll.scheme_roll' must be a face from 1 to 6"),
    (_set("request", []), "'roll.request' must be an object"),
    (_set("scheme_roll", 3), "'roll.scheme_roll' must be null"),
    (_set("dice", [7, 1]), "'roll.dice' must be a list of 2 faces from 1 to 6"),
    (_set("dice", [6]), "'roll.dice' must be a list of 2 faces"),
    (_set("dice", [1, 1]), "'roll.dice' must keep the rolled faces"),
    (_set("rolled", [6, "2"]), "'roll.rolled'"),
    (_set("rerolled", [5]), "'roll.rerolled'"),
    (_set("rerolled", [0, 1]), "'roll.rerolled' must be a sorted list of at most 1"),
    (_set("exertion", -1), "'roll.exertion' must be a whole number from 0 to 23"),
    (_set("exertion", True), "'roll.exertion'"),
    (_set("setback_negated", "yes"), "'roll.setback_negated' must be true or false"),
    (_set("steps", "x"), "'roll.steps'"),
    (_set("ability", 99), "'roll.ability' does not match"),
    (_set("total", 3), "'roll.total' does not match"),
    (_set("outcome", "success"), "'roll.outcome' does not match"),
    (_set("setback", False), "'roll.setback' does not match"),
    (_set("scheme_gain", True), "'roll.scheme_gain' does not match"),
    (_set("exert_needed", 1), "'roll.exert_needed' does not match"),
    (_del("exertion"), "'roll.exertion'"),
])
def test_act_refuses_a_tampered_roll(change, words):
    """act() rebuilds the Test from the roll and names the first field that no roll could have."""
    r = roll(base(5, difficulty=2, masteries=1), 6, 2)
    change(r)
    with pytest.raises(RulesError, match=words):
        at.act(r, {"exert": 1}, ScriptedDice())


def test_act_refuses_a_negated_flag_without_a_setback():
    """A roll claiming a negated setback where there is none is refused."""
    r = roll(base(5, difficulty=2), 5, 2)
    r["setback_negated"] = True
    with pytest.raises(RulesError, match="'roll.setback_negated' can only be true"):
        at.act(r, {"exert": 1}, ScriptedDice())


@pytest.mark.parametrize("action, words", [
    ({"spend_will": True}, "unknown action 'spend_will'; allowed: reroll, exert, negate_setback"),
    ({"exert": 1, "reroll": [0]}, "'action' must be an object with one of: reroll, exert, negate_setback"),
    ({}, "'action' must be an object"),
    ([("exert", 1)], "'action' must be an object"),
    (None, "'action' must be an object"),
])
def test_act_refuses_unknown_actions(action, words):
    """An unknown, empty or doubled action lists the allowed actions."""
    r = roll(base(5, difficulty=2, masteries=1), 6, 2)
    with pytest.raises(RulesError, match=words):
        at.act(r, action, ScriptedDice())


# --- XP -----------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind, current, cost", [
    ("new_skill", 0, 2), ("new_item", 0, 3),
    ("advance_skill", 1, 3), ("advance_skill", 9, 11),
    ("advance_standard_item", 1, 3), ("advance_standard_item", 4, 6),
    ("advance_attribute", 1, 4), ("advance_attribute", 2, 5), ("advance_attribute", 4, 7),
])
def test_xp_costs_follow_the_text(kind, current, cost):
    """New Skill 2 XP, new Item 3, Skill or Standard Item 2 + current rank, Attribute 3 + current score."""
    assert at.xp_cost(kind, current) == cost


@pytest.mark.parametrize("kind, current, words", [
    ("advance_skill", 10, "from 1 to 9 for advance_skill .A character may have a maximum of 10 levels"),
    ("advance_standard_item", 5, "from 1 to 4 for advance_standard_item .Items have a maximum of 5 levels"),
    ("advance_attribute", 5, "from 1 to 4 for advance_attribute .All Attributes are graded on a scale of 1 to 5"),
    ("advance_skill", 0, "from 1 to 9"),
    ("new_skill", 1, "from 0 to 0 for new_skill"),
    ("new_item", 3, "from 0 to 0 for new_item"),
    ("advance_attribute", True, "'current' must be a whole number"),
    ("advance_attribute", "2", "'current' must be a whole number"),
])
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
    assert [r["kind"] for r in rows] == \
        ["new_skill", "new_item", "advance_skill", "advance_standard_item", "advance_attribute"]
    for row in rows:
        for c in row["costs"]:
            assert at.xp_cost(row["kind"], c["current"]) == c["cost"]
    assert {r["kind"] for r in at.EXTRAS["xp_unpriced"]} == {"advance_unique_item", "advance_focused_skill"}


# --- exact odds ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("request_, success, gain, setback", [
    ({"type1": 1, "type2": 1, "difficulty": 1}, Fraction(1, 6), Fraction(1, 6), Fraction(1, 6)),
    (base(7, difficulty=2), Fraction(15, 36), Fraction(9, 36), Fraction(11, 36)),
    ({"type1": 5, "type2": 5, "skill": 10, "item": 5, "difficulty": 4}, Fraction(1), Fraction(671, 1296),
     Fraction(0)),
    (base(4, difficulty=4), Fraction(0), Fraction(0), Fraction(671, 1296)),
    ({"type1": 1, "type2": 1, "difficulty": 1, "scheme_die": True}, Fraction(26, 36), Fraction(0), Fraction(4, 36)),
    ({"type1": 1, "type2": 1, "difficulty": 1, "masteries": 1}, Fraction(11, 36), Fraction(11, 36), Fraction(5, 36)),
])
def test_odds_match_hand_counts(request_, success, gain, setback):
    """Odds agree with counts by hand (e.g. 2d6 below 7 in 15 of 36 ways; one reroll gives 1/6 + 5/6 × 1/6)."""
    o = at.odds(parse(request_))
    assert o == {"outcomes": {"success": success, "failure": 1 - success}, "scheme_gain": gain, "setback": setback}


def _brute_force(request: dict) -> dict:
    """Odds by enumerating every face and every subset of dice to reroll, picking the subset with the best chance
    of success (ties: fewer dice), checking every tied subset gives the same Scheme gain and setback."""
    r = at.Request.of(parse(request))
    d, n = r.difficulty, min(r.masteries, r.difficulty)
    all_faces = range(1, 7)
    success = gain = setback = Fraction(0)
    scheme = list(all_faces) if r.scheme_die else [0]
    for s in scheme:
        ability = r.base_ability + s
        for faces in itertools.product(all_faces, repeat=d):
            options = []
            for size in range(n + 1):
                for subset in itertools.combinations(range(d), size):
                    ok = g = sb = 0
                    for new in itertools.product(all_faces, repeat=size):
                        final = list(faces)
                        for i, f in zip(subset, new):
                            final[i] = f
                        won = ability > sum(final)
                        ok += won
                        g += won and 1 in final and not r.scheme_die
                        sb += not won and 6 in final
                    w = Fraction(1, 6 ** size)
                    options.append((ok * w, size, g * w, sb * w))
            best = max(options, key=lambda o: (o[0], -o[1]))
            tied = {(o[2], o[3]) for o in options if o[:2] == best[:2]}
            assert len(tied) == 1, (faces, ability, options)
            weight = Fraction(1, 6 ** d * len(scheme))
            success += best[0] * weight
            gain += best[2] * weight
            setback += best[3] * weight
    return {"outcomes": {"success": success, "failure": 1 - success}, "scheme_gain": gain, "setback": setback}


SMALL = [base(a, difficulty=d, masteries=m) for d in (1, 2, 3) for m in range(d + 1) for a in (2, 4, 7, 9, 12, 16)]
SMALL += [base(a, difficulty=d, masteries=m, scheme_die=True) for d in (1, 2) for m in range(d + 1) for a in (2, 5, 9)]


@pytest.mark.parametrize("request_", SMALL, ids=lambda r: "-".join(f"{k}{v}" for k, v in r.items()))
def test_odds_match_brute_force_over_every_reroll(request_):
    """ability_test-12: exact odds equal an enumeration over every subset of dice to reroll, under the best policy."""
    assert at.odds(parse(request_)) == _brute_force(request_)


def _success_of_reroll(faces, subset, ability) -> Fraction:
    ways = 0
    for new in itertools.product(range(1, 7), repeat=len(subset)):
        final = list(faces)
        for i, f in zip(subset, new):
            final[i] = f
        ways += ability > sum(final)
    return Fraction(ways, 6 ** len(subset))


@pytest.mark.parametrize("d", [1, 2, 3])
def test_best_reroll_is_as_good_as_any_subset(d):
    """ability_test-12: rerolling the k highest dice for the best k is as good as the best of all subsets."""
    for faces in itertools.product(range(1, 7), repeat=d):
        for ability in range(2, 6 * d + 3):
            for n in range(1, d + 1):
                best = max(_success_of_reroll(faces, s, ability)
                           for size in range(n + 1) for s in itertools.combinations(range(d), size))
                chosen = at.best_reroll(faces, ability, n)
                assert len(chosen) <= n
                assert _success_of_reroll(faces, chosen, ability) == best, (faces, ability, n)


@pytest.mark.parametrize("request_, seed", [
    (base(9, difficulty=3, masteries=2), 4004),
    (base(6, difficulty=3, masteries=1, scheme_die=True), 4005),
    (base(8, difficulty=2), 4006),
])
def test_sampled_rolls_fit_the_odds(request_, seed):
    """20 000 seeded rolls, rerolled as odds assume, fit the exact joint chances (chi-square)."""
    req = parse(request_)
    o = at.odds(req)
    probs = {("success", True): o["scheme_gain"],
             ("success", False): o["outcomes"]["success"] - o["scheme_gain"],
             ("failure", True): o["setback"],
             ("failure", False): o["outcomes"]["failure"] - o["setback"]}
    dice = random.Random(seed)
    seen = Counter()
    n = 20_000
    for _ in range(n):
        r = at.roll(req, dice)
        choice = next((c for c in r["choices"] if c["name"] == "reroll"), None)
        if choice and choice["suggested"]:
            r = at.act(r, {"reroll": choice["suggested"]}, dice)
        seen[(r["outcome"], r["scheme_gain"] if r["outcome"] == "success" else r["setback"])] += 1
    assert_fits(seen, {k: float(v) for k, v in probs.items()}, n)


# --- properties ---------------------------------------------------------------------------------------------------

REQUESTS = strategies.request(at.FIELDS)


@settings(max_examples=150, deadline=None)
@given(REQUESTS)
def test_odds_partition_and_bound_their_parts(request_):
    """Success and failure sum to exactly 1; the Scheme gain lies within success and the setback within failure."""
    o = at.odds(parse(request_))
    s, f = o["outcomes"]["success"], o["outcomes"]["failure"]
    assert s + f == 1 and 0 <= s <= 1
    assert 0 <= o["scheme_gain"] <= s and 0 <= o["setback"] <= f
    if request_["scheme_die"]:
        assert o["scheme_gain"] == 0


def _success(request_: dict) -> Fraction:
    return at.odds(parse(request_))["outcomes"]["success"]


@settings(max_examples=100, deadline=None)
@given(REQUESTS, st.sampled_from(["masteries", "skill", "item", "type1", "type2"]))
def test_more_ability_or_masteries_never_lowers_success(request_, field):
    """One more Mastery, Skill, Item or Attribute level never lowers the chance of success."""
    spec = next(f for f in at.FIELDS if f.name == field)
    if request_[field] < spec.max:
        assert _success({**request_, field: request_[field] + 1}) >= _success(request_)


@settings(max_examples=100, deadline=None)
@given(REQUESTS)
def test_a_scheme_die_never_lowers_success(request_):
    """Adding a Scheme die's d6 to Ability never lowers the chance of success."""
    assert _success({**request_, "scheme_die": True}) >= _success({**request_, "scheme_die": False})


@settings(max_examples=100, deadline=None)
@given(REQUESTS)
def test_one_more_difficulty_die_never_raises_success(request_):
    """One more difficulty die never raises the chance of success, Masteries or not."""
    if request_["difficulty"] < at.MAX_DIFFICULTY:
        assert _success({**request_, "difficulty": request_["difficulty"] + 1}) <= _success(request_)


@settings(max_examples=150, deadline=None)
@given(REQUESTS, st.integers(0, 2**32), st.lists(st.integers(0, 2), max_size=4))
def test_act_never_changes_its_input_and_rolls_stay_possible(request_, seed, picks):
    """Any chain of allowed follow-ups leaves each input unchanged, and every outcome has non-zero odds."""
    req = parse(request_)
    o = at.odds({**req, "masteries": 0})
    dice = random.Random(seed)
    r = at.roll(req, dice)
    assert o["outcomes"][r["outcome"]] > 0
    for pick in picks:
        if not r["choices"]:
            break
        choice = r["choices"][pick % len(r["choices"])]
        action = {"reroll": {"reroll": list(range(choice.get("max", 0)))},
                  "exert": {"exert": choice.get("max")},
                  "negate_setback": {"negate_setback": True}}[choice["name"]]
        before = copy.deepcopy(r)
        nxt = at.act(r, action, dice)
        assert r == before
        assert json.loads(json.dumps(nxt)) == nxt
        if choice["name"] == "exert":
            assert nxt["outcome"] == "success"
        r = nxt


# --- through the API ----------------------------------------------------------------------------------------------

def test_api_rolls_acts_and_gives_exact_odds():
    """The API rolls with a seed, acts on the roll and answers odds with "p/q" strings."""
    from arbiter import api
    request_ = base(7, difficulty=2, masteries=1)
    r = api.roll("ability_test", request_, seed=3)
    assert r == api.roll("ability_test", request_, seed=3)
    assert r["system"] == "ability_test" and r["request"] == {**parse(request_), "convictions": []}
    n = api.act("ability_test", r, {"reroll": [0]}, seed=4)
    assert n["rerolled"] == [0] and n["rolled"] == r["rolled"]
    o = api.odds("ability_test", request_)
    assert Fraction(o["exact"]["outcomes"]["success"]) == at.odds(parse(request_))["outcomes"]["success"]
    spec = next(s for s in api.systems() if s["id"] == "ability_test")
    assert spec["extras"]["xp_costs"] == at.EXTRAS["xp_costs"]


@pytest.mark.benchmark(group="odds")
def test_bench_odds_largest(benchmark):
    """Benchmark: odds() for the largest allowed request (4 dice, 10 Masteries, a Scheme die)."""
    req = parse(LARGEST)
    result = benchmark(at.odds, req)
    assert result["outcomes"]["success"] + result["outcomes"]["failure"] == 1


# --- table state: XP ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("xp, scenes, after", [(0, 1, 1), (5, 3, 8), (0, 20, 20), (99_998, 1, 99_999)])
def test_xp_is_earned_at_one_per_scene_ability_test_17(xp, scenes, after):
    """ability_test-17: Experience is awarded at the rate of 1 per Scene."""
    out = at.xp_earn({"xp": xp}, {"scenes": scenes})
    assert out["xp"] == after and f"{after} XP" in out["note"]


@pytest.mark.parametrize("state, args, words", [
    ({"xp": 0}, {"scenes": 0}, "'args.scenes' must be from 1 to 20"),
    ({"xp": 0}, {"scenes": 21}, "'args.scenes' must be from 1 to 20"),
    ({"xp": 0}, {"scenes": 1.0}, "'args.scenes' must be a whole number"),
    ({"xp": 0}, {"scene": 1}, "unknown field 'args.scene'"),
    ({}, None, "'state.xp' is missing: Experience"),
    ({"xp": -1}, None, "'state.xp' must be from 0 to 99999"),
    ({"xp": 99_999}, None, "'state.xp' would go above 99999"),
    ({"xp": "3"}, None, "'state.xp' must be a whole number"),
])
def test_xp_earn_refuses_bad_input_ability_test_17(state, args, words):
    """ability_test-17: scenes are 1 to 20 and the sheet keeps 0 to 99 999 XP; anything else names the field."""
    with pytest.raises(RulesError, match=words):
        at.xp_earn(state, args)


@pytest.mark.parametrize("kind, current, xp, left", [
    ("new_skill", 0, 2, 0), ("new_item", 0, 10, 7), ("advance_skill", 3, 5, 0), ("advance_skill", 9, 20, 9),
    ("advance_standard_item", 4, 6, 0), ("advance_attribute", 2, 9, 4),
])
def test_xp_spend_uses_the_texts_prices_ability_test_18(kind, current, xp, left):
    """ability_test-18: spending XP costs what xp_cost says and returns the XP left and the cost."""
    out = at.xp_spend({"xp": xp, "name": "Ines"}, {"kind": kind, "current": current})
    assert (out["xp"], out["cost"], out["name"]) == (left, at.xp_cost(kind, current), "Ines")
    assert out["note"].startswith(f"Spent {out['cost']} XP")


def test_xp_spend_refuses_what_cannot_be_afforded_ability_test_18():
    """ability_test-18: a cost above the XP held is refused, naming the cost and the XP held."""
    with pytest.raises(RulesError, match=r"costs 5 XP, but only 4 XP are held"):
        at.xp_spend({"xp": 4}, {"kind": "advance_skill", "current": 3})
    with pytest.raises(RulesError, match=r"costs 2 XP, but only 1 XP is held"):
        at.xp_spend({"xp": 1}, {"kind": "new_skill"})


@pytest.mark.parametrize("args, words", [
    ({"kind": "advance_unique_item", "current": 1}, "'args.kind' advance_unique_item has no price"),
    ({"kind": "advance_focused_skill", "current": 1}, "'args.kind' advance_focused_skill has no price"),
    ({"kind": "advance_item", "current": 1}, "'args.kind' must be one of new_skill, new_item"),
    ({"kind": "advance_skill", "current": 10}, r"'args.current' must be from 1 to 9 for advance_skill"),
    ({"kind": "advance_attribute", "current": 5}, r"'args.current' must be from 1 to 4 for advance_attribute"),
    ({"kind": "new_item", "current": 1}, r"'args.current' must be from 0 to 0 for new_item"),
    ({"kind": "advance_skill", "current": True}, "'args.current' must be a whole number"),
    ({"kind": "new_skill", "rank": 0}, "unknown field 'args.rank'"),
    ({"current": 2}, "'args.kind' is missing"),
])
def test_xp_spend_refuses_unpriced_or_impossible_purchases_ability_test_18(args, words):
    """ability_test-18: unpriced kinds (ability_test-15) and ranks past the maximum (ability_test-16) are refused."""
    with pytest.raises(RulesError, match=words):
        at.xp_spend({"xp": 50}, args)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(at.XP_COSTS), st.integers(0, 10), st.integers(0, 40))
def test_xp_spend_never_goes_below_zero_ability_test_18(cost, current, xp):
    """ability_test-18: spending succeeds exactly when the cost is affordable, and XP never goes below 0."""
    if not cost.current_min <= current <= cost.current_max:
        return
    price = at.xp_cost(cost.kind, current)
    if price > xp:
        with pytest.raises(RulesError, match="'state.xp'"):
            at.xp_spend({"xp": xp}, {"kind": cost.kind, "current": current})
    else:
        assert at.xp_spend({"xp": xp}, {"kind": cost.kind, "current": current})["xp"] == xp - price >= 0


# --- table state: Exertion and Convictions ------------------------------------------------------------------------

@pytest.mark.parametrize("exertion, amount, left", [(3, 1, 2), (3, 3, 0), (99, 40, 59)])
def test_exert_subtracts_from_the_pool_ability_test_19(exertion, amount, left):
    """ability_test-19: spending Exertion subtracts that number from the pool."""
    assert at.exert({"exertion": exertion}, {"amount": amount})["exertion"] == left


@pytest.mark.parametrize("state, args, words", [
    ({"exertion": 2}, {"amount": 3}, r"'args.amount' must be from 1 to 2 \(the Exertion left\)"),
    ({"exertion": 0}, {"amount": 1}, "'state.exertion' is 0: no Exertion left"),
    ({"exertion": 2}, {"amount": 0}, "'args.amount' must be from 1 to 99"),
    ({"exertion": 100}, None, "'state.exertion' must be from 0 to 99"),
    ({"exertion": -1}, None, "'state.exertion' must be from 0 to 99"),
    ({}, None, "'state.exertion' is missing"),
])
def test_exert_never_goes_below_zero_ability_test_19(state, args, words):
    """ability_test-19: the Exertion pool is 0 to 99 and never goes below 0."""
    with pytest.raises(RulesError, match=words):
        at.exert(state, args)


def test_activating_a_conviction_costs_one_exertion_ability_test_20():
    """ability_test-20: declaring a Conviction relevant spends one Exertion, refused with none left."""
    out = at.activate_conviction({"exertion": 2, "xp": 4})
    assert out == {"exertion": 1, "xp": 4, "note": "Spent 1 Exertion to activate a Conviction (1 left)"}
    with pytest.raises(RulesError, match="'state.exertion' is 0: activating a Conviction costs one Exertion"):
        at.activate_conviction({"exertion": 0})
    with pytest.raises(RulesError, match="activate_conviction takes no arguments"):
        at.activate_conviction({"exertion": 2}, {"amount": 1})


CONVICTIONS = [{"text": "The mission always comes first", "significance": 3},
               {"text": "physical pleasures are for the weak", "significance": 1},
               {"text": "those who cannot protect their things do not deserve to keep them", "significance": 2}]


def test_moving_significance_moves_one_point_ability_test_21():
    """ability_test-21: 1 point of Significance moves from one Conviction to another, once per Session."""
    state = {"convictions": copy.deepcopy(CONVICTIONS), "xp": 3}
    before = copy.deepcopy(state)
    out = at.move_significance(state, {"from": 0, "to": 1})
    assert state == before
    assert [c["significance"] for c in out["convictions"]] == [2, 2, 2]
    assert out["moved_this_session"] is True and out["xp"] == 3
    assert out["note"] == ("Moved 1 point of Significance from “The mission always comes first” (3 → 2) to "
                           "“physical pleasures are for the weak” (1 → 2)")
    with pytest.raises(RulesError, match="'state.moved_this_session' is true"):
        at.move_significance(out, {"from": 2, "to": 1})
    ended = at.end_session(out)
    assert ended["moved_this_session"] is False and ended["convictions"] == out["convictions"]
    assert [c["significance"] for c in at.move_significance(ended, {"from": 2, "to": 1})["convictions"]] == [2, 3, 1]


@pytest.mark.parametrize("args, words", [
    ({"from": 1, "to": 2}, r"'args.from': Conviction 1 has Significance 1, the lowest"),
    ({"from": 2, "to": 0}, r"'args.to': Conviction 0 has Significance 3, the highest"),
    ({"from": 2, "to": 2}, r"'args.to' must be another Conviction than 'args.from' \(both 2\)"),
    ({"from": 3, "to": 1}, r"'args.from' must be from 0 to 2 \(the Convictions listed\)"),
    ({"from": 0, "to": 7}, r"'args.to' must be from 0 to 2"),
    ({"from": -1, "to": 1}, "'args.from' must be from 0 to 49"),
    ({"from": 0}, "'args.to' is missing"),
    ({"to": 1}, "'args.from' is missing"),
])
def test_significance_stays_within_one_to_three_ability_test_21(args, words):
    """ability_test-21: a move that would leave 1 to 3, or stays on one Conviction, is refused."""
    with pytest.raises(RulesError, match=words):
        at.move_significance({"convictions": CONVICTIONS}, args)


@pytest.mark.parametrize("state, words", [
    ({}, "'state.convictions' is missing"),
    ({"convictions": "many"}, "'state.convictions' must be a list of 0 to 50"),
    ({"convictions": [{"text": "x", "significance": 1}] * 51}, "'state.convictions' must be a list of 0 to 50"),
    ({"convictions": [CONVICTIONS[0], {"text": "x"}]}, r"'state.convictions\[1\].significance' is missing"),
    ({"convictions": [CONVICTIONS[0], {"text": "x", "significance": 4}]},
     r"'state.convictions\[1\].significance' must be from 1 to 3"),
    ({"convictions": [CONVICTIONS[0], {"text": "x" * 201, "significance": 1}]},
     r"'state.convictions\[1\].text' must be text of at most 200"),
    ({"convictions": [CONVICTIONS[0], "x"]}, r"'state.convictions\[1\]' must be an object"),
    ({"convictions": [CONVICTIONS[0]]}, "at least 2 Convictions"),
    ({"convictions": CONVICTIONS, "moved_this_session": "no"}, "'state.moved_this_session' must be true or false"),
])
def test_the_sheets_convictions_are_checked_ability_test_22(state, words):
    """ability_test-22: a sheet lists 0 to 50 Convictions, each a text and a Significance of 1 to 3."""
    with pytest.raises(RulesError, match=words):
        at.move_significance(state, {"from": 0, "to": 1})


def test_a_convictions_other_keys_are_kept_ability_test_22():
    """ability_test-22: keys the page keeps on a Conviction (an id) survive a move unchanged."""
    state = {"convictions": [{**c, "id": i} for i, c in enumerate(CONVICTIONS)]}
    out = at.move_significance(state, {"from": 0, "to": 1})
    assert [c["id"] for c in out["convictions"]] == [0, 1, 2]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 3), min_size=2, max_size=6), st.integers(0, 5), st.integers(0, 5))
def test_a_move_keeps_the_total_and_the_range_ability_test_21(significances, i, j):
    """ability_test-21: any allowed move keeps the total Significance and every Conviction within 1 to 3."""
    state = {"convictions": [{"text": f"c{k}", "significance": s} for k, s in enumerate(significances)]}
    try:
        out = at.move_significance(state, {"from": i, "to": j})
    except RulesError:
        n = len(significances)
        assert i >= n or j >= n or i == j or significances[i] == 1 or significances[j] == 3
        return
    after = [c["significance"] for c in out["convictions"]]
    assert sum(after) == sum(significances) and all(1 <= s <= 3 for s in after)
    assert after[i] == significances[i] - 1 and after[j] == significances[j] + 1


# --- table state: the Scheme --------------------------------------------------------------------------------------

def test_a_success_with_a_one_adds_a_die_to_the_scheme_ability_test_23():
    """ability_test-23: a Test succeeded with at least one 1 adds one die to the shared Scheme."""
    r = roll(base(7), 1, 3)
    assert r["scheme_gain"]
    out = at.scheme_add({"scheme": 2}, {"roll": r})
    assert out == {"scheme": 3, "note": "A 1 on a success: one die added to the Scheme (3 dice)"}


@pytest.mark.parametrize("request_, faces, words", [
    (base(3), (6, 1), "earns no die for the Scheme: it needs at least one 1"),  # a failure
    (base(9), (2, 3), "earns no die for the Scheme: it needs at least one 1"),  # a success without a 1
    ({**base(3), "scheme_die": True}, (4, 1, 2), "earns no die for the Scheme: a Scheme die was used"),
])
def test_only_a_roll_that_earned_it_adds_a_die_ability_test_23(request_, faces, words):
    """ability_test-23: a roll without scheme_gain (a failure, no 1, or a Scheme die used) adds nothing."""
    with pytest.raises(RulesError, match=words):
        at.scheme_add({"scheme": 2}, {"roll": roll(request_, *faces)})


def _earning_roll(change=None):
    r = roll(base(7), 1, 3)
    if change:
        change(r)
    return r


@pytest.mark.parametrize("state, args, words", [
    ({"scheme": 2}, {}, "'args.roll' is missing"),
    ({"scheme": 2}, {"roll": 3}, "'args.roll' must be an object"),
    ({"scheme": 2}, {"roll": {"system": "luck"}}, "'args.roll' must be an ability_test roll"),
    ({"scheme": 2}, {"roll": _earning_roll(lambda r: r.update(dice=[1, 7]))}, "'args.roll.dice' must be a list"),
    ({"scheme": 2}, {"roll": _earning_roll(lambda r: r.update(scheme_gain=False))},
     "'args.roll.scheme_gain' does not match"),
    ({"scheme": 2}, {"roll": _earning_roll(lambda r: r.update(rolled=[2, 3], dice=[2, 3]))},
     "'args.roll.total' does not match"),
    ({"scheme": 99}, {"roll": _earning_roll()}, "'state.scheme' is already 99"),
    ({}, {"roll": _earning_roll()}, "'state.scheme' is missing"),
    ({"scheme": 100}, {"roll": _earning_roll()}, "'state.scheme' must be from 0 to 99"),
])
def test_scheme_add_checks_the_roll_and_the_pool_ability_test_23(state, args, words):
    """ability_test-23: the roll must be an ability_test roll the dice could give; the Scheme holds 0 to 99 dice."""
    with pytest.raises(RulesError, match=words):
        at.scheme_add(state, args)


def test_scheme_dice_leave_one_before_a_test_and_two_against_a_setback_ability_test_24():
    """ability_test-24: one die is removed before a Test, two negate a setback; never below 0."""
    assert at.scheme_spend_die({"scheme": 1})["scheme"] == 0
    assert at.scheme_negate_setback({"scheme": 2})["scheme"] == 0
    assert at.scheme_negate_setback({"scheme": 5})["note"].startswith("Subtracted 2 dice from the Scheme")
    with pytest.raises(RulesError, match="'state.scheme' is 0: there is no die in the Scheme"):
        at.scheme_spend_die({"scheme": 0})
    with pytest.raises(RulesError, match="'state.scheme' is 1: negating a setback takes 2 dice"):
        at.scheme_negate_setback({"scheme": 1})


SCHEME_OPS = st.lists(st.sampled_from(["add", "spend", "negate"]), max_size=30)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 99), SCHEME_OPS)
def test_the_scheme_stays_within_its_range_ability_test_24(start, ops):
    """ability_test-24: any run of adds, spends and negations (refusals skipped) keeps the Scheme within 0 to 99."""
    earning = _earning_roll()
    state = {"scheme": start}
    for op in ops:
        before = state["scheme"]
        try:
            if op == "add":
                state = at.scheme_add(state, {"roll": earning})
            elif op == "spend":
                state = at.scheme_spend_die(state)
            else:
                state = at.scheme_negate_setback(state)
        except RulesError:
            assert (op, before) in {("add", 99), ("spend", 0), ("negate", 0), ("negate", 1)}
            continue
        assert state["scheme"] - before == {"add": 1, "spend": -1, "negate": -2}[op]
        assert 0 <= state["scheme"] <= 99


def test_api_table_ability_test():
    """Through the API: XP earned and spent, a Scheme die added from a rolled Test; inputs are never changed."""
    from arbiter import api
    sheet = {"xp": 1, "exertion": 2, "name": "Ines"}
    before = copy.deepcopy(sheet)
    out = api.table("ability_test", "xp_earn", sheet, {"scenes": 2})
    assert out["xp"] == 3 and sheet == before
    out = api.table("ability_test", "xp_spend", out, {"kind": "new_skill"})
    assert (out["xp"], out["cost"]) == (1, 2)
    r = api.roll("ability_test", base(12), seed=1)
    if r["scheme_gain"]:
        assert api.table("ability_test", "scheme_add", {"scheme": 0}, {"roll": r})["scheme"] == 1
    else:
        with pytest.raises(RulesError, match="earns no die"):
            api.table("ability_test", "scheme_add", {"scheme": 0}, {"roll": r})
    spec = next(s for s in api.systems() if s["id"] == "ability_test")
    assert [o["name"] for o in spec["table_ops"]] == list(at.TABLE)
