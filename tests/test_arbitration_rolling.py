"""Tests for arbiter.arbitration.rolling (seed 000): the dicepool, remove the 1s, sum into quality tiers,
opposed rolls, no follow-ups, bad input, each die's marks and the draw order."""

from __future__ import annotations

import copy
import json
import random
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter import RulesError, arbitration
from scripted import ScriptedDice
from arbitration_helpers import LARGEST_SIDE, OUTCOMES, REQUESTS, parse, pool_of, probs, rolled


ROOT = Path(__file__).resolve().parent.parent


# --- the module contract -----------------------------------------------------------------------------


def test_module_contract():
    """The module names its id, title, seed file, fields, no actions, and JSON-safe extras."""
    assert arbitration.ID == "arbitration"
    assert (ROOT / "docs" / "seeds" / arbitration.SEED).exists()
    assert [f.name for f in arbitration.FIELDS] == ["skills", "modifiers", "complexity", "opposed"]
    assert arbitration.ACTIONS == []
    assert json.loads(json.dumps(arbitration.EXTRAS)) == arbitration.EXTRAS
    assert [f.schema()["name"] for f in arbitration.FIELDS]


def test_field_ranges_arbitration_1():
    """arbitration-1: skills take 1..5 values 0..30, modifiers 0..4 values -5..+5, complexity defaults to moderate."""
    skills, modifiers, complexity, opposed = arbitration.FIELDS
    assert (skills.min, skills.max, skills.min_len, skills.max_len) == (0, 30, 1, 5)
    assert (modifiers.min, modifiers.max, modifiers.min_len, modifiers.max_len) == (-5, 5, 0, 4)
    assert complexity.default == "moderate"
    assert [f.name for f in opposed.fields] == ["skills", "modifiers", "complexity"]
    assert arbitration.Pool.of(parse(LARGEST_SIDE)).size == 52


def test_roll_is_json_safe():
    """A roll survives a JSON round trip unchanged and carries every documented key."""
    out = rolled({"skills": [2], "opposed": {"skills": [1]}}, 1, 4, 6)
    assert json.loads(json.dumps(out)) == out
    assert {
        "system",
        "request",
        "pool",
        "dice",
        "ones",
        "kept",
        "sum",
        "result",
        "outcome",
        "automatic_failure",
        "defender",
        "steps",
        "summary",
        "choices",
    } <= set(out)
    assert set(out["defender"]) >= {"dice", "ones", "sum", "outcome"}
    assert out["request"]["opposed"] == {"skills": [1], "modifiers": [], "complexity": "moderate"}


# --- the dicepool ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "request_, pool",
    [
        ({"skills": [3]}, 3),
        ({"skills": [4, 2, 6]}, 2),  # the lowest of the relevant trait values
        ({"skills": [3], "modifiers": [-1]}, 2),  # one-eyed: a -1 penalty
        ({"skills": [3], "modifiers": [2, -1, 1]}, 5),
        ({"skills": [3], "complexity": "very_easy"}, 5),
        ({"skills": [3], "complexity": "easy"}, 4),
        ({"skills": [3], "complexity": "moderate"}, 3),
        ({"skills": [3], "complexity": "tricky"}, 2),
        ({"skills": [3], "complexity": "difficult"}, 1),
        ({"skills": [5, 4], "modifiers": [-1], "complexity": "very_difficult"}, 0),
    ],
)
def test_dicepool_arbitration_1(request_, pool):
    """arbitration-1: the lowest relevant skill, plus further traits, plus the complexity's dice, is the pool."""
    out = rolled(request_, *[6] * max(pool, 0))
    assert out["pool"] == pool
    assert len(out["dice"]) == pool


@pytest.mark.parametrize(
    "request_",
    [
        {"skills": [0]},
        {"skills": [2], "complexity": "difficult"},
        {"skills": [1], "modifiers": [-5, -5], "complexity": "very_difficult"},
    ],
)
def test_pool_zero_or_less_is_automatic_failure_arbitration_2(request_):
    """arbitration-2: a dicepool of zero or less rolls no dice and is a failure, not a fumble."""
    out = rolled(request_)
    assert out["dice"] == [] and out["pool"] <= 0
    assert out["outcome"] == "failure"
    assert out["automatic_failure"] is True
    assert out["sum"] is None and out["result"] is None
    assert out["summary"].startswith("Failure: automatic")
    assert probs(request_) == {o: Fraction(o == "failure") for o in OUTCOMES}


# --- remove the 1s, sum the rest ---------------------------------------------------------------------


def test_remove_ones_and_sum():
    """The 1s are removed and counted; the rest are summed into a tier (the briefing's worked example)."""
    out = rolled({"skills": [4]}, 1, 3, 6, 6)
    assert out["dice"] == [1, 3, 6, 6]
    assert out["ones"] == 1 and out["kept"] == [3, 6, 6]
    assert out["sum"] == 15 and out["result"] == 15
    assert out["outcome"] == "fair"
    assert out["summary"] == "Fair success: 15 = 3+6+6, one 1 removed"
    assert out["steps"][1:] == [
        "4 dice: 1 3 6 6",
        "removed one 1 (1 consequence for the Host)",
        "sum 15 = 3+6+6",
        "15: Success (Fair)",
    ]
    assert out["choices"] == []


@pytest.mark.parametrize(
    "faces, ones, words",
    [
        ((2, 3, 4), 0, "no 1s to remove"),
        ((1, 1, 4), 2, "removed two 1s (2 consequences for the Host)"),
        ((1, 1, 1, 6), 3, "removed three 1s (3 consequences for the Host)"),
    ],
)
def test_each_one_is_a_consequence(faces, ones, words):
    """Each 1 rolled is reported: the Host may introduce a consequence for each."""
    out = rolled({"skills": [len(faces)]}, *faces)
    assert out["ones"] == ones
    assert words in out["steps"]


@pytest.mark.parametrize("n", [1, 3, 7])
def test_all_ones_is_a_fumble_arbitration_3(n):
    """arbitration-3: every die showing 1 is a fumble; the 1s are still counted, the steps name the fumble."""
    out = rolled({"skills": [n]}, *[1] * n)
    assert out["outcome"] == "fumble"
    assert out["ones"] == n and out["kept"] == [] and out["sum"] == 0 and out["result"] == 0
    assert out["automatic_failure"] is False
    assert any("fumble" in s for s in out["steps"])
    assert not any("consequence" in s for s in out["steps"])
    assert out["summary"].startswith("Fumble:")


@pytest.mark.parametrize(
    "faces, outcome",
    [
        ((5,), "failure"),
        ((2, 3), "failure"),
        ((1, 5), "failure"),
        ((6,), "mediocre"),
        ((5, 6), "mediocre"),
        ((6, 6), "fair"),
        ((6, 6, 5), "fair"),
        ((6, 6, 6), "good"),
        ((6, 6, 6, 5), "good"),
        ((6, 6, 6, 6), "exceptional"),
        ((6, 6, 6, 6, 5), "exceptional"),
        ((6, 6, 6, 6, 6), "outstanding"),
        ((6, 6, 6, 6, 6, 6, 1), "outstanding"),
    ],
)
def test_sum_tiers(faces, outcome):
    """Five or less fails; each multiple of six raises the success a notch: 6, 12, 18, 24, 30+."""
    assert rolled({"skills": [len(faces)]}, *faces)["outcome"] == outcome


@pytest.mark.parametrize(
    "value, outcome",
    [
        (0, "fumble"),
        (1, "failure"),
        (5, "failure"),
        (6, "mediocre"),
        (11, "mediocre"),
        (12, "fair"),
        (17, "fair"),
        (18, "good"),
        (23, "good"),
        (24, "exceptional"),
        (29, "exceptional"),
        (30, "outstanding"),
        (300, "outstanding"),
    ],
)
def test_tier_table(value, outcome):
    """tier() follows the text's table at every boundary."""
    assert arbitration.tier(value).value == outcome


def test_extras_match_the_rules():
    """EXTRAS' tiers and complexity list agree with the rules the roll uses."""
    tiers = arbitration.EXTRAS["tiers"]
    assert [t["outcome"] for t in tiers] == OUTCOMES[::-1]
    assert tiers[0]["label"] == "Success (Outstanding)"
    assert tiers[-1]["label"] == "Fumble (Abject failure, worst-case scenario ensues)"
    for t in tiers:
        top = t["max"] if t["max"] is not None else t["min"] + 100
        assert arbitration.tier(t["min"]).value == t["outcome"] == arbitration.tier(top).value
    assert [(c["value"], c["dice"]) for c in arbitration.EXTRAS["complexity"]] == [
        ("very_easy", 2),
        ("easy", 1),
        ("moderate", 0),
        ("tricky", -1),
        ("difficult", -2),
        ("very_difficult", -3),
    ]


# --- opposed rolls -----------------------------------------------------------------------------------


def opposed(a_faces, d_faces, **sides) -> dict:
    request = {"skills": [len(a_faces)], "opposed": {"skills": [len(d_faces)]}}
    request.update(sides)
    return rolled(request, *a_faces, *d_faces)


@pytest.mark.parametrize(
    "a_faces, d_faces, result, outcome, subtracted",
    [
        ((4, 4, 4, 6, 4), (2, 1, 4), 16, "fair", 6),  # the defender's six is a success
        ((6, 6, 3), (5,), 15, "fair", 0),  # the defender failed: nothing subtracted
        ((6, 6, 3), (1, 1), 15, "fair", 0),  # the defender fumbled: nothing subtracted
        ((6, 6, 1), (6, 6), 0, "fumble", 12),  # equal sums: reduced to 0, a fumble
        ((6, 4), (6, 6), 0, "fumble", 12),  # negative numbers are not used
        ((6, 6, 1, 1), (6, 6, 6), 0, "fumble", 18),
        ((6, 6, 2), (6, 6, 1), 2, "failure", 12),  # the modified value is read like a sum
        ((6, 6, 6, 6), (6,), 18, "good", 6),
    ],
)
def test_opposed_subtracts_a_successful_defender_arbitration_6(a_faces, d_faces, result, outcome, subtracted):
    """arbitration-6: a successful defender's sum is subtracted; the value is read on the table, floored at 0."""
    out = opposed(a_faces, d_faces)
    assert out["result"] == result and out["outcome"] == outcome
    assert out["defender"]["subtracted"] == subtracted
    assert out["sum"] == sum(f for f in a_faces if f != 1)
    assert out["defender"]["dice"] == list(d_faces)


@pytest.mark.parametrize("d_faces", [(5,), (6, 6, 6), (1, 1)])
def test_all_ones_aggressor_stays_a_fumble_arbitration_6(d_faces):
    """arbitration-6: an aggressor whose dice all show 1 is a fumble whatever the defender rolled."""
    out = opposed((1, 1), d_faces)
    assert out["outcome"] == "fumble" and out["result"] == 0
    assert out["summary"] == "Fumble: all 2 dice showed 1"


def test_defender_pool_zero_subtracts_nothing_arbitration_4():
    """arbitration-4: a defender with a dicepool of zero or less fails automatically and subtracts nothing."""
    out = rolled({"skills": [2], "opposed": {"skills": [1], "complexity": "tricky"}}, 6, 6)
    assert out["result"] == 12 and out["outcome"] == "fair"
    assert out["defender"] == {
        "pool": 0,
        "dice": [],
        "ones": 0,
        "kept": [],
        "sum": None,
        "outcome": "failure",
        "automatic_failure": True,
        "fumble_dice": [],
        "marks": [],
        "subtracted": 0,
    }
    assert "defender fails automatically: nothing subtracted" in out["steps"]


def test_defender_reports_its_own_tier_arbitration_4():
    """arbitration-4: the defender's own tier is reported; a defender's failure (1-5) subtracts nothing."""
    out = opposed((6, 6), (2, 3))
    assert out["defender"]["outcome"] == "failure" and out["defender"]["sum"] == 5
    assert out["defender"]["subtracted"] == 0 and out["result"] == 12
    assert out["summary"] == "Fair success: 12 = 6+6, the defender failed with 5"


def test_aggressor_pool_zero_stands_arbitration_5():
    """arbitration-5: an aggressor's dicepool of zero or less is an automatic failure and the defender does not roll."""
    out = rolled({"skills": [1], "complexity": "tricky", "opposed": {"skills": [3]}})
    assert out["outcome"] == "failure" and out["automatic_failure"] is True
    assert out["defender"]["dice"] == [] and out["defender"]["outcome"] is None
    assert out["defender"]["pool"] == 3
    assert probs({"skills": [0], "opposed": {"skills": [0]}})["failure"] == 1
    assert probs({"skills": [1], "complexity": "tricky", "opposed": {"skills": [3]}})["failure"] == 1


def test_opposed_steps_and_summary():
    """An opposed roll's steps show both sides and the subtraction in order."""
    out = opposed((4, 4, 4, 6, 4), (2, 1, 4))
    assert out["steps"][-2:] == ["defender succeeded with 6: 22 \u2212 6 = 16", "16: Success (Fair)"]
    assert out["steps"][0].startswith("aggressor: dicepool 5")
    assert "defender: removed one 1 (1 consequence for the Host)" in out["steps"]
    assert out["summary"] == "Fair success: 16 = 22 \u2212 6 (the defender's success)"
    floored = opposed((6, 4), (6, 6))
    assert floored["steps"][-2] == "defender succeeded with 12: 10 \u2212 12 = 0, negative numbers are not used"
    assert floored["summary"].startswith("Fumble: 10 \u2212 12")


# --- follow-up choices -------------------------------------------------------------------------------


@pytest.mark.parametrize("action", [{"reroll": [0]}, {"spend_will": True}, {}, {"x": 1}])
def test_act_has_no_follow_ups(action):
    """Arbitration has no follow-up choices: every action is refused, naming that none are allowed."""
    roll = rolled({"skills": [2]}, 3, 4)
    before = copy.deepcopy(roll)
    with pytest.raises(RulesError, match="allowed actions: none"):
        arbitration.act(roll, action, ScriptedDice())
    assert roll == before


@pytest.mark.parametrize(
    "roll", [None, [], {"system": "two_dice"}, {"system": "arbitration", "request": {"skills": 3}}]
)
def test_act_refuses_foreign_rolls(roll):
    """A dict that is not an arbitration roll is refused with a RulesError."""
    with pytest.raises(RulesError, match="roll"):
        arbitration.act(roll, {"x": 1}, ScriptedDice())


# --- bad input ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "request_, field",
    [
        ({"skills": 3}, "skills"),
        ({"skills": ["3"]}, "skills"),
        ({"skills": [True]}, "skills"),
        ({"skills": []}, "skills"),
        ({"skills": [31]}, "skills"),
        ({"skills": [-1]}, "skills"),
        ({"skills": [1, 1, 1, 1, 1, 1]}, "skills"),
        ({"modifiers": [6]}, "modifiers"),
        ({"modifiers": [-6]}, "modifiers"),
        ({"modifiers": [1.0]}, "modifiers"),
        ({"modifiers": [1, 1, 1, 1, 1]}, "modifiers"),
        ({"complexity": "hard"}, "complexity"),
        ({"complexity": 0}, "complexity"),
        ({"complexity": None}, "complexity"),
        ({"skill": [3]}, "skill"),
        ({"opposed": {"skills": [40]}}, "opposed.skills"),
        ({"opposed": {"difficulty": 1}}, "opposed.difficulty"),
        ({"opposed": [3]}, "opposed"),
        ({"opposed": True}, "opposed"),
    ],
)
def test_bad_requests(request_, field):
    """Bad fields raise RulesError naming the field."""
    with pytest.raises(RulesError, match=field.replace(".", r"\.")):
        parse(request_)


@pytest.mark.parametrize("request_", [None, [], "skills", 3, True])
def test_non_object_request(request_):
    """A request that is not an object is refused."""
    with pytest.raises(RulesError, match="object"):
        parse(request_)


# --- properties --------------------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(REQUESTS, st.integers(0, 2**32))
def test_act_never_changes_its_input(request_, seed):
    """act() refuses and leaves the roll it was given unchanged."""
    roll = arbitration.roll(parse(request_), random.Random(seed))
    before = copy.deepcopy(roll)
    with pytest.raises(RulesError):
        arbitration.act(roll, {"reroll": [0]}, random.Random(seed))
    assert roll == before


# --- through the API ---------------------------------------------------------------------------------


def test_api_roll_odds_and_systems():
    """The API publishes arbitration, rolls it reproducibly by seed and gives floats plus exact strings."""
    from arbiter import api

    entry = next(s for s in api.systems() if s["id"] == "arbitration")
    assert entry["seed"] == arbitration.SEED and entry["actions"] == []
    assert entry["defaults"]["complexity"] == "moderate"
    request = {"skills": [4], "opposed": {"skills": [2]}}
    assert api.roll("arbitration", request, seed=7) == api.roll("arbitration", request, seed=7)
    o = api.odds("arbitration", request)
    assert set(o["outcomes"]) == set(OUTCOMES)
    assert sum(Fraction(v) for v in o["exact"]["outcomes"].values()) == 1
    with pytest.raises(RulesError, match="skills"):
        api.roll("arbitration", {"skills": [True]})
    with pytest.raises(RulesError):
        api.act("arbitration", api.roll("arbitration", request, seed=1), {"reroll": [0]})


# --- each die's marks, as the page draws them (the page compares no face) -----------------------------------------


@pytest.mark.parametrize(
    "faces, marks",
    [
        ((1, 4, 6), [["removed"], ["kept"], ["kept"]]),
        ((2, 3), [["kept"], ["kept"]]),
        ((1, 1), [["removed", "fumble"], ["removed", "fumble"]]),  # every die removed: the fumble's dice
    ],
)
def test_marks_remove_the_ones_and_keep_the_rest(faces, marks):
    """Each die's marks: a 1 removed, any other face kept; when every die is removed, each is also the fumble's."""
    assert rolled(pool_of(len(faces)), *faces)["marks"] == marks


def test_marks_of_each_side_in_an_opposed_roll():
    """The defender's dice carry their own marks; an automatic failure has no dice and no marks."""
    out = opposed((1, 5), (1, 1))
    assert (out["marks"], out["defender"]["marks"]) == (
        [["removed"], ["kept"]],
        [["removed", "fumble"], ["removed", "fumble"]],
    )
    assert rolled({"skills": [1], "complexity": "tricky"})["marks"] == []


def test_draw_order_arbitration_7():
    """arbitration-7: the aggressor's dicepool is drawn, then the defender's; the defender draws nothing after the
    aggressor's automatic failure."""
    dice = ScriptedDice(2, 3, 4, 5, 6)
    out = arbitration.roll(parse({"skills": [3], "opposed": {"skills": [2]}}), dice)
    assert (out["dice"], out["defender"]["dice"]) == ([2, 3, 4], [5, 6])
    assert dice.batches == [(3, 6, "the aggressor's dicepool"), (2, 6, "the defender's dicepool")]
    dice = ScriptedDice(4, 4)
    arbitration.roll(parse({"skills": [2]}), dice)
    assert dice.batches == [(2, 6, "the dicepool")]
    dice = ScriptedDice()
    out = arbitration.roll(parse({"skills": [1], "complexity": "tricky", "opposed": {"skills": [3]}}), dice)
    assert dice.batches == [] and out["defender"]["dice"] == []
