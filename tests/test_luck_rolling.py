"""Tests for arbiter.luck.rolling (seed 002): a pool of d6 plus factors in favor minus factors against; the
highest die is the result; no follow-ups, bad input, the tone, each die's marks and the draw order."""

import copy
import json

import pytest

from arbiter import RulesError, fields, luck
from scripted import ScriptedDice
from luck_helpers import parse, scripted_roll


# --- pool ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "dice, for_, against, pool",
    [
        (1, 0, 0, 1),
        (3, 0, 0, 3),
        (2, 2, 0, 4),
        (2, 0, 1, 1),
        (2, 3, 1, 4),
        (0, 1, 0, 1),
        (10, 10, 0, 20),
    ],
)
def test_pool_adds_a_die_for_each_factor_in_favor_and_removes_one_against_luck_1(dice, for_, against, pool):
    """luck-1: the pool is dice + one d6 per factor in favor − one per factor against, and that many are rolled."""
    r = scripted_roll(parse(dice, for_, against), *[3] * pool)
    assert r["pool"] == pool and r["dice"] == [3] * pool
    count = {n: f"{n} {'die' if n == 1 else 'dice'}" for n in (dice, pool)}
    assert r["steps"][0] == f"Pool: {count[dice]} + {for_} for − {against} against = {count[pool]}"


@pytest.mark.parametrize(
    "request_, field",
    [
        ({"dice": 11}, "'dice'"),
        ({"dice": -1}, "'dice'"),
        ({"dice": True}, "'dice'"),
        ({"dice": "2"}, "'dice'"),
        ({"for": 11}, "'for'"),
        ({"for": False}, "'for'"),
        ({"for": 1.5}, "'for'"),
        ({"against": 11}, "'against'"),
        ({"against": -1}, "'against'"),
        ({"against": None}, "'against'"),
    ],
)
def test_bad_values_are_refused_luck_1(request_, field):
    """luck-1: each input is a whole number from 0 to 10; anything else is refused, naming the field and range."""
    with pytest.raises(RulesError, match=field) as err:
        fields.parse(luck.FIELDS, request_)
    assert "0 to 10" in str(err.value)


@pytest.mark.parametrize(
    "request_, match",
    [
        ({"factors": 1}, "'factors'; allowed: dice, for, against"),
        (None, "object"),
        ([], "object"),
        ("dice=3", "object"),
        (3, "object"),
    ],
)
def test_unknown_fields_and_non_objects_are_refused(request_, match):
    """An unknown field or a request that is not an object is refused."""
    with pytest.raises(RulesError, match=match):
        fields.parse(luck.FIELDS, request_)


def test_published_limits_luck_1():
    """luck-1: the fields publish dice, for and against as 0..10, and the defaults parse."""
    schema = {f.name: f.schema() for f in luck.FIELDS}
    assert {n: (s["min"], s["max"]) for n, s in schema.items()} == {"dice": (0, 10), "for": (0, 10), "against": (0, 10)}
    assert fields.parse(luck.FIELDS, fields.defaults(luck.FIELDS)) == {"dice": 1, "for": 0, "against": 0}


# --- result ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("faces, result", [((4,), 4), ((2, 5, 1), 5), ((1, 1), 1), ((6, 6, 2), 6), ((3, 2, 1, 2), 3)])
def test_the_result_is_the_highest_die_luck_2(faces, result):
    """luck-2: Higher results are better outcomes: the result is the highest die rolled."""
    r = scripted_roll(parse(len(faces)), *faces)
    assert r["result"] == result and r["outcome"] == str(result)
    assert r["steps"][-1] == f"Highest die: {result}"


@pytest.mark.parametrize("dice, for_, against", [(0, 0, 0), (1, 0, 1), (2, 1, 3), (0, 0, 10)])
def test_a_pool_of_zero_or_less_rolls_nothing_and_is_the_worst_outcome_luck_3(dice, for_, against):
    """luck-3: with a pool of 0 or less nothing is rolled and the result is the worst one, 0."""
    r = scripted_roll(parse(dice, for_, against))  # no face scripted: asking for a die fails the test
    assert r["pool"] == dice + for_ - against <= 0
    assert (r["dice"], r["result"], r["outcome"]) == ([], 0, "0")
    assert r["steps"][-1] == "No dice: the worst outcome"


def test_no_dice_is_worse_than_any_die_luck_3():
    """luck-3: the worst outcome of no dice is below the lowest face: one die showing 1 still beats it."""
    assert scripted_roll(parse(1), 1)["result"] > scripted_roll(parse(0))["result"]


def test_every_outcome_has_a_label_in_the_players_words_luck_3():
    """luck-3: each outcome odds() lists is labelled in extras.outcome_labels; "0" says no dice and the worst
    outcome, a face says it is the highest die."""
    labels = luck.EXTRAS["outcome_labels"]
    assert list(labels) == list(luck.odds(parse(0))["outcomes"]) == [str(v) for v in range(7)]
    assert labels["0"] == "No dice: the worst outcome" and labels["6"] == "Highest die 6"


def test_steps_and_summary_read_like_the_rule():
    """The steps give the pool, the dice and the result; the summary says how the result was read."""
    r = scripted_roll(parse(2, 1, 0), 2, 5, 1)
    assert r["steps"] == ["Pool: 2 dice + 1 for − 0 against = 3 dice", "3 dice: 2 5 1", "Highest die: 5"]
    assert r["summary"] == "Luck Roll: 5, the highest of 3 dice (2 5 1)"
    r = scripted_roll(parse(1, 0, 0), 4)  # one die, said as one
    assert r["steps"] == ["Pool: 1 die + 0 for − 0 against = 1 die", "1 die: 4", "Highest die: 4"]
    r = scripted_roll(parse(0, 0, 2))
    assert r["steps"] == ["Pool: 0 dice + 0 for − 2 against = −2", "No dice: the worst outcome"]
    assert r["summary"] == "Luck Roll: 0, no dice for a pool of −2: the worst outcome"
    assert r["request"] == {"dice": 0, "for": 0, "against": 2} and r["choices"] == []
    assert json.loads(json.dumps(r)) == r


@pytest.mark.parametrize("action", [{"reroll": [0]}, {"spend_will": True}, {}])
def test_there_are_no_follow_up_choices_luck_4(action):
    """luck-4: a Luck Roll has no follow-up choices; any action is refused."""
    r = scripted_roll(parse(2), 3, 4)
    before = copy.deepcopy(r)
    with pytest.raises(RulesError, match="a Luck Roll has no follow-up choices"):
        luck.act(r, action, None)
    assert r == before and luck.ACTIONS == [] and r["choices"] == []


# --- through the API -------------------------------------------------------------------------------


def test_api_roll_odds_and_act():
    """The API rolls and gives odds for a Luck Roll, and refuses any follow-up."""
    from arbiter import api

    r = api.roll("luck", {"dice": 2, "for": 1}, seed=3)
    assert r["system"] == "luck" and len(r["dice"]) == 3 and r["outcome"] == str(max(r["dice"]))
    o = api.odds("luck", {"against": 1})
    assert o["exact"]["outcomes"]["0"] == "1/1" and o["outcomes"]["1"] == 0
    o = api.odds("luck", {"dice": 2})
    assert o["exact"]["outcomes"]["6"] == "11/36" and abs(sum(o["outcomes"].values()) - 1) < 1e-12
    with pytest.raises(RulesError, match="no follow-up choices"):
        api.act("luck", r, {"reroll": [0]})
    spec = next(s for s in api.systems() if s["id"] == "luck")
    assert spec["actions"] == [] and [f["name"] for f in spec["fields"]] == ["dice", "for", "against"]


@pytest.mark.parametrize(
    "dice, faces, tone",
    [
        (0, (), "failure"),
        (1, (1,), "failure"),
        (1, (3,), "failure"),
        (1, (4,), "mixed"),
        (2, (5, 2), "mixed"),
        (3, (1, 6, 2), "success"),
    ],
)
def test_the_tone_reads_the_result_as_the_threat_roll_reads_a_die_luck_5(dice, faces, tone):
    """luck-5: the highest die 6 is a success, 4 or 5 mixed, 1 to 3 or no dice a failure."""
    assert scripted_roll(parse(dice=dice), *faces)["tone"] == tone


# --- each die's marks, as the page draws them (the page compares no face) -----------------------------------------


@pytest.mark.parametrize(
    "faces, marks",
    [
        ((3,), [["kept"]]),
        ((2, 5, 4), [["dim"], ["kept"], ["dim"]]),
        ((6, 2, 6), [["kept"], ["dim"], ["dim"]]),  # equal highest dice: the first is the result's
    ],
)
def test_marks_keep_the_die_that_is_the_result_and_dim_the_others(faces, marks):
    """The highest die (the first of equal ones) is kept, the others dim."""
    assert scripted_roll(parse(dice=len(faces)), *faces)["marks"] == marks


def test_marks_are_empty_with_no_dice():
    """A pool of 0 or less rolls nothing: no die, no marks."""
    assert scripted_roll(parse(dice=1, against=2))["marks"] == []


def test_draw_order_luck_7():
    """luck-7: the pool is drawn in one throw, in order; a pool of 0 or less draws nothing."""
    dice = ScriptedDice(2, 5, 3)
    r = luck.roll(parse(dice=2, for_=1), dice)
    assert r["dice"] == [2, 5, 3] and dice.batches == [(3, 6, "the Luck Roll's pool")]
    dice = ScriptedDice()
    luck.roll(parse(dice=1, against=2), dice)
    assert dice.batches == []
