"""Tests for arbiter.ability_test.rolling: Ability against 1-4 difficulty d6, Masteries, Exertion, the Scheme die
and setbacks, and a roll read back from JSON."""

import copy
import json
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import strategies
from ability_test_helpers import act, base, parse, roll, valid
from arbiter import RulesError
from arbiter import ability_test as at
from scripted import ScriptedDice


def names(result: dict) -> list[str]:
    return [c["name"] for c in result["choices"]]


# --- the module contract ------------------------------------------------------------------------------------------


def test_module_names_its_seed_and_actions():
    """The module names its id, seed file and the three follow-ups the issue fixes."""
    assert (at.ID, at.SEED) == ("ability_test", "004_53ed85965f1883a3.txt")
    assert [a["name"] for a in at.ACTIONS] == ["reroll", "exert", "negate_setback"]
    assert all(a["label"] and a["help"] for a in at.ACTIONS)


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


@pytest.mark.parametrize(
    "ability, faces, outcome",
    [
        (7, (3, 3), "success"),  # Ability higher than the rolled total
        (7, (3, 4), "failure"),  # the total equals Ability: they fail
        (7, (4, 4), "failure"),  # the total exceeds Ability
        (2, (1,), "success"),
        (2, (2,), "failure"),
        (20, (5, 5, 5, 4), "success"),
        (20, (5, 5, 5, 5), "failure"),
    ],
)
def test_success_only_when_ability_beats_the_total(ability, faces, outcome):
    """If the rolled total equals or exceeds their Ability, they fail; if Ability is higher, they succeed."""
    r = roll(base(ability, difficulty=len(faces)), *faces)
    assert (r["ability"], r["total"], r["outcome"]) == (ability, sum(faces), outcome)
    assert r["summary"].startswith(outcome.capitalize())


def test_summary_and_steps_read_like_the_rule():
    """The summary and steps name Ability, the dice, the total and the verdict in the text's words."""
    r = roll(base(9, difficulty=2), 1, 5)
    assert (
        r["summary"] == "Success: Ability 9 beats 6 = 1+5 (Standard Difficulty); a 1 rolled: add one die to the Scheme"
    )
    assert r["steps"][1:] == [
        "2 difficulty dice (Standard Difficulty): 1 5, total 6",
        "Ability 9 > 6: success",
        "a 1 rolled on a success: add one die to the Scheme",
    ]


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


@pytest.mark.parametrize(
    "request_, faces, gain",
    [
        (base(9, difficulty=2), (1, 5), True),  # success with a 1
        (base(9, difficulty=2), (2, 5), False),  # success without a 1
        (base(3, difficulty=2), (1, 5), False),  # a 1 on a failure earns nothing
        (base(9, difficulty=2, scheme_die=True), (3, 1, 5), False),  # a Scheme die was used
        (base(9, difficulty=2, scheme_die=True), (1, 2, 5), False),  # the Scheme die's own 1 does not count
    ],
)
def test_a_one_on_a_success_earns_a_scheme_die(request_, faces, gain):
    """ability_test-7: a success with a 1 rolled among the difficulty dice earns a die, unless a Scheme die was used."""
    r = roll(request_, *faces)
    assert r["scheme_gain"] is gain


@pytest.mark.parametrize(
    "request_, faces, setback",
    [
        (base(5, difficulty=2), (6, 1), True),  # failure with a 6
        (base(5, difficulty=2), (5, 4), False),  # failure without a 6
        (base(8, difficulty=2), (6, 1), False),  # a 6 on a success brings nothing
        (base(2, difficulty=2, scheme_die=True), (6, 5, 4), False),  # the Scheme die's 6 does not count
        (base(2, difficulty=2, scheme_die=True), (1, 6, 4), True),
    ],
)
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


@pytest.mark.parametrize(
    "request_, faces, suggested",
    [
        (base(20, difficulty=2, masteries=1), (3, 4), [1]),  # a sure success: hunt a 1 with the 4
        (base(20, difficulty=2, masteries=1), (1, 4), []),  # its 1 is rolled already
        (base(20, difficulty=2, masteries=1, scheme_die=True), (2, 3, 4), []),  # no 1 earns a die with a Scheme die
        (base(8, difficulty=2, masteries=2), (6, 5), [0, 1]),  # the best chance of success first
    ],
)
def test_the_suggested_reroll_follows_the_odds_policy(request_, faces, suggested):
    """ability_test-12: the reroll a roll suggests is the odds' policy: success, then no setback, then a Scheme die."""
    (choice,) = [c for c in roll(request_, *faces)["choices"] if c["name"] == "reroll"]
    assert choice["suggested"] == suggested


def test_a_one_rerolled_away_still_earns_a_scheme_die():
    """ability_test-7: a 1 rerolled away was still rolled during the Test: on a success it still earns a die."""
    r = roll(base(12, difficulty=2, masteries=1), 1, 4)
    assert r["scheme_gain"] is True
    n = act(r, {"reroll": [0]}, 3)
    assert (n["dice"], n["rerolled_from"], n["outcome"], n["scheme_gain"]) == ([3, 4], [1], "success", True)
    assert n["steps"][-1] == (
        "a 1 rolled (rerolled away, still rolled during the Test) on a success: add one die to the Scheme"
    )
    assert n["summary"].endswith("a 1 rolled (rerolled away, still rolled during the Test): add one die to the Scheme")


def test_a_one_rerolled_away_earns_nothing_with_a_scheme_die_or_on_a_failure():
    """ability_test-7: the 1 rerolled away earns no die when a Scheme die was used, nor when the Test fails."""
    r = roll(base(9, difficulty=2, masteries=1, scheme_die=True), 1, 1, 4)
    n = act(r, {"reroll": [0]}, 3)
    assert (n["outcome"], n["scheme_gain"]) == ("success", False)
    r = roll(base(5, difficulty=2, masteries=1), 1, 4)
    n = act(r, {"reroll": [0]}, 3)
    assert (n["outcome"], n["scheme_gain"], n["setback"]) == ("failure", False, False)


def test_a_one_brought_by_the_reroll_earns_a_scheme_die():
    """ability_test-7: a 1 the reroll brings is rolled during the Test too."""
    r = roll(base(9, difficulty=2, masteries=1), 6, 4)
    n = act(r, {"reroll": [0]}, 1)
    assert (n["rerolled_from"], n["dice"], n["outcome"], n["scheme_gain"]) == ([6], [1, 4], "success", True)


def test_a_six_rerolled_away_still_brings_the_setback():
    """ability_test-7: a 6 rerolled away was still rolled during the Test: on a failure it still brings the setback,
    which two Scheme dice may negate."""
    r = roll(base(4, difficulty=2, masteries=1), 6, 5)
    n = act(r, {"reroll": [0]}, 4)
    assert (n["rolled"], n["rerolled_from"], n["dice"]) == ([6, 5], [6], [4, 5])
    assert (n["outcome"], n["setback"]) == ("failure", True)
    assert "negate_setback" in names(n)
    assert n["steps"][-1] == "a 6 rolled (rerolled away, still rolled during the Test) on a failure: a minor setback"
    assert act(n, {"negate_setback": True})["setback_negated"] is True


def test_a_six_rerolled_away_brings_nothing_on_a_success():
    """ability_test-7: a 6 rerolled away on a Test that then succeeds brings no setback."""
    r = roll(base(8, difficulty=2, masteries=1), 6, 5)
    n = act(r, {"reroll": [0]}, 2)
    assert (n["outcome"], n["setback"]) == ("success", False)


def test_a_roll_kept_before_rerolled_from_is_still_read():
    """ability_test-7: a roll stored without rerolled_from (older data) is read back; a wrong one is refused."""
    r = roll(base(4, difficulty=2, masteries=1), 6, 5)
    n = act(r, {"reroll": [0]}, 4)
    old = {k: v for k, v in n.items() if k != "rerolled_from"}
    assert act(old, {"negate_setback": True})["setback_negated"] is True
    with pytest.raises(RulesError, match="'roll.rerolled_from' does not match the dice"):
        at.act({**n, "rerolled_from": [5]}, {"negate_setback": True}, ScriptedDice())


@pytest.mark.parametrize(
    "request_, faces, action, words",
    [
        (
            base(8, difficulty=2, masteries=1),
            (6, 5),
            {"reroll": [0, 1]},
            "list of 1 to 1 different die indexes from 0 to 1",
        ),
        (base(8, difficulty=2, masteries=10), (6, 5), {"reroll": [2]}, "from 0 to 1"),
        (base(8, difficulty=2, masteries=10, scheme_die=True), (3, 6, 5), {"reroll": [2]}, "from 0 to 1"),
        (base(8, difficulty=2, masteries=2), (6, 5), {"reroll": [0, 0]}, "different die indexes"),
        (base(8, difficulty=2, masteries=2), (6, 5), {"reroll": []}, "list of 1 to 2"),
        (base(8, difficulty=2, masteries=2), (6, 5), {"reroll": [True]}, "'action.reroll'"),
        (base(8, difficulty=2, masteries=2), (6, 5), {"reroll": 0}, "'action.reroll'"),
        (base(8, difficulty=2, masteries=0), (6, 5), {"reroll": [0]}, "'masteries' is 0"),
    ],
)
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


@pytest.mark.parametrize("door", ["roll", "odds"])
def test_masteries_need_their_skill(door):
    """ability_test-5: Masteries above 0 with skill 0 are refused, by roll and by odds alike."""
    request_ = parse({"type1": 2, "type2": 2, "skill": 0, "difficulty": 1, "masteries": 1})
    refused = r"^'masteries': Masteries need a relevant Skill \(Skill levels 1 or more\)"
    with pytest.raises(RulesError, match=refused) as e:
        at.roll(request_, ScriptedDice()) if door == "roll" else at.odds(request_)
    # the page says it by the Masteries field, after its label: "Masteries need a relevant Skill …"
    assert (e.value.path, e.value.says) == (
        "masteries",
        "need a relevant Skill (Skill levels 1 or more), got 1 with Skill levels 0",
    )


def test_masteries_with_a_skill_level_reroll():
    """ability_test-5: with one Skill level the Masteries reroll as usual; without Masteries no Skill is needed."""
    r = roll({"type1": 2, "type2": 2, "skill": 1, "difficulty": 1, "masteries": 1}, 6)
    n = act(r, {"reroll": [0]}, 1)
    assert n["outcome"] == "success"
    assert roll({"type1": 2, "type2": 2, "skill": 0, "difficulty": 1, "masteries": 0}, 1)["outcome"] == "success"


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


@pytest.mark.parametrize(
    "value, words",
    [
        (3, "from 1 to 2"),
        (0, "from 1 to 2"),
        (-1, "from 1 to 2"),
        (True, "'action.exert'"),
        ("2", "'action.exert'"),
    ],
)
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
    assert choice["cost"] == 2 and choice["action"] == {"negate_setback": True}  # what the page sends to take it
    n = act(r, choice["action"])
    assert (n["outcome"], n["setback"], n["setback_negated"], n["choices"]) == ("failure", True, True, [])
    assert "negated" in n["summary"]
    for action, words in [
        ({"reroll": [0]}, "no reroll now"),
        ({"exert": 1}, "no Exertion now"),
        ({"negate_setback": True}, "already negated"),
    ]:
        with pytest.raises(RulesError, match=words):
            at.act(n, action, ScriptedDice(1))


@pytest.mark.parametrize(
    "faces, value, words",
    [
        ((5, 2), True, "no setback"),  # a failure without a 6
        ((6, 2), False, "must be true"),
        ((6, 2), 1, "must be true"),
    ],
)
def test_negate_setback_needs_a_setback_and_true(faces, value, words):
    """ability_test-11: negate_setback is only for a failure with a 6, and takes true."""
    r = roll(base(5, difficulty=2), *faces)
    with pytest.raises(RulesError, match=words):
        at.act(r, {"negate_setback": value}, ScriptedDice())


# --- a roll read back from JSON -----------------------------------------------------------------------------------


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


@pytest.mark.parametrize(
    "change, words",
    [
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
    ],
)
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


@pytest.mark.parametrize(
    "action, words",
    [
        ({"spend_will": True}, "unknown action 'spend_will'; allowed: reroll, exert, negate_setback"),
        ({"exert": 1, "reroll": [0]}, "'action' must be an object with one of: reroll, exert, negate_setback"),
        ({}, "'action' must be an object"),
        ([("exert", 1)], "'action' must be an object"),
        (None, "'action' must be an object"),
    ],
)
def test_act_refuses_unknown_actions(action, words):
    """An unknown, empty or doubled action lists the allowed actions."""
    r = roll(base(5, difficulty=2, masteries=1), 6, 2)
    with pytest.raises(RulesError, match=words):
        at.act(r, action, ScriptedDice())


# --- properties ---------------------------------------------------------------------------------------------------

REQUESTS = strategies.request(at.FIELDS).map(valid)


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
        action = {
            "reroll": {"reroll": list(range(choice.get("max", 0)))},
            "exert": {"exert": choice.get("max")},
            "negate_setback": {"negate_setback": True},
        }[choice["name"]]
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


# --- each die's marks, as the page draws them (the page compares no face) -----------------------------------------


@pytest.mark.parametrize(
    "request_, faces, scheme_marks, marks",
    [
        (base(9, difficulty=2), (1, 5), None, [["kept"], []]),  # a 1 on a success earns a die
        (base(9, difficulty=3), (1, 1, 5), None, [["kept"], ["kept"], []]),
        (base(3, difficulty=2), (1, 5), None, [[], []]),  # a 1 on a failure earns nothing
        (base(5, difficulty=2), (6, 1), None, [["kept"], []]),  # a 6 on a failure: the setback
        (base(8, difficulty=2), (6, 1), None, [[], ["kept"]]),  # a 6 on a success brings nothing
        (base(9, difficulty=2, scheme_die=True), (3, 1, 5), ["kept"], [[], []]),  # a Scheme die was used: no gain
        (base(2, difficulty=2, scheme_die=True), (6, 5, 4), ["kept"], [[], []]),  # the Scheme die's 6 is no setback
    ],
)
def test_marks_keep_the_dice_that_earn_a_scheme_die_or_bring_the_setback(request_, faces, scheme_marks, marks):
    """Each difficulty die's marks: a 1 kept when it earns a Scheme die, a 6 kept when it brings the setback; the
    Scheme die, when used, is kept (it adds to Ability)."""
    r = roll(request_, *faces)
    assert (r["scheme_marks"], r["marks"]) == (scheme_marks, marks)


def test_marks_show_the_rerolled_dice_new_and_the_negated_setback_no_more():
    """A die the reroll brought is new; once the setback is negated, its 6 is no longer kept."""
    r = roll(base(4, difficulty=2, masteries=1), 5, 2)
    n = act(r, {"reroll": [0]}, 6)
    assert n["marks"] == [["new", "kept"], []]
    assert act(n, {"negate_setback": True})["marks"] == [["new"], []]


def test_marks_arriving_with_a_roll_are_recomputed_never_trusted():
    """A roll that carries marks (as roll() returns it) is accepted by act, and its marks come from the dice."""
    r = roll(base(8, difficulty=2, masteries=1), 6, 5)
    tampered = {**r, "marks": [["kept", "botch"], ["removed"]], "scheme_marks": ["kept"]}
    n = act(tampered, {"exert": 4})
    assert (n["outcome"], n["marks"], n["scheme_marks"]) == ("success", [[], []], None)


def test_draw_order_ability_test_30():
    """ability_test-30: the Narrator's Scheme die is drawn first, then the difficulty dice; a Masteries reroll draws
    the picked dice in the order of their places, however picked; Exertion draws nothing."""
    dice = ScriptedDice(1, 4, 5, 6)
    r = at.roll(parse(base(3, difficulty=3, scheme_die=True, masteries=2)), dice)
    assert (r["scheme_roll"], r["dice"], r["outcome"]) == (1, [4, 5, 6], "failure")
    assert dice.batches == [(1, 6, "the Narrator's Scheme die"), (3, 6, "the difficulty dice")]
    dice = ScriptedDice(2, 3)
    again = at.act(r, {"reroll": [2, 0]}, dice)
    assert again["dice"] == [2, 5, 3] and dice.batches == [(2, 6, "the dice rerolled with Masteries")]
    dice = ScriptedDice()
    at.act(r, {"exert": 1}, dice)
    assert dice.batches == []
