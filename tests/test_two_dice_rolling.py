"""Tests for arbiter.two_dice.rolling (seed 001): 2d6 + modifiers, nine or better; snake-eyes, double sixes;
roll-offs; no follow-ups, bad input, each die's marks and the draw order."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter import RulesError, fields, two_dice
from scripted import ScriptedDice
from two_dice_helpers import REQUESTS, parse, probs, rolled


ROOT = Path(__file__).resolve().parent.parent


SEED_TEXT = " ".join((ROOT / "docs" / "seeds" / two_dice.SEED).read_text(encoding="utf-8").split())


# --- the module contract -----------------------------------------------------------------------------


def test_module_contract():
    """The module names its id, title, seed file, fields, no actions, and JSON-safe extras."""
    assert two_dice.ID == "two_dice"
    assert (ROOT / "docs" / "seeds" / two_dice.SEED).exists()
    assert [f.name for f in two_dice.FIELDS] == ["trait", "abilities", "difficulty", "actions", "opposed"]
    assert [f.name for f in two_dice.FIELDS[-1].fields] == ["trait", "abilities", "actions"]
    assert two_dice.ACTIONS == []
    assert json.loads(json.dumps(two_dice.EXTRAS)) == two_dice.EXTRAS


def test_extras_quote_the_text():
    """The snake-eyes, double-sixes and difficulty-guide texts are the seed's words."""
    extras = two_dice.EXTRAS
    assert extras["snake_eyes"] in SEED_TEXT and extras["double_sixes"] in SEED_TEXT
    assert extras["impossible"] in SEED_TEXT
    guide = extras["difficulty_guide"]
    assert [g["value"] for g in guide] == [3, 1, 0, -1, -3, -5, -7]
    for g in guide:
        label = f"+{g['value']}" if g["value"] > 0 else str(g["value"])
        assert f"{label}: {g['text']}" in SEED_TEXT


def test_roll_is_json_safe():
    """A roll survives a JSON round trip and carries every documented key."""
    out = rolled({"trait": 2, "opposed": {"trait": 1}}, 3, 4, 5, 6)
    assert json.loads(json.dumps(out)) == out
    assert {
        "system",
        "request",
        "dice",
        "total",
        "modifier",
        "outcome",
        "steps",
        "summary",
        "special",
        "target",
        "choices",
    } <= set(out)
    assert set(out["target"]) >= {"dice", "total", "special"}
    assert out["request"]["opposed"] == {"trait": 1, "abilities": [], "actions": 1}


# --- unopposed rolls ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "request_, faces, total, outcome",
    [
        ({}, (4, 4), 8, "failure"),  # the number to beat is eight
        ({}, (4, 5), 9, "success"),  # nine or better succeeds
        ({"trait": 3}, (2, 4), 9, "success"),
        ({"trait": 2, "abilities": [1, -2]}, (3, 5), 9, "success"),
        ({"trait": 2, "difficulty": -1}, (3, 4), 8, "failure"),
        ({"trait": 1, "difficulty": 3}, (2, 3), 9, "success"),
        ({"trait": 4, "actions": 2}, (3, 3), 8, "failure"),  # -2 for the second action
        ({"trait": 5, "abilities": [3], "difficulty": -3, "actions": 3}, (5, 3), 9, "success"),
    ],
)
def test_total_and_nine_or_better(request_, faces, total, outcome):
    """Total = dice + trait + abilities + difficulty - multitasking; nine or better succeeds."""
    out = rolled(request_, *faces)
    assert out["dice"] == list(faces)
    assert out["total"] == total and out["outcome"] == outcome
    assert out["special"] is None and out["target"] is None
    m = out["modifier"]
    assert m["total"] == m["trait"] + m["abilities"] + m["difficulty"] + m["multitask"] == total - sum(faces)


def test_steps_and_summary():
    """The steps list the dice, the modifiers and the verdict; the summary reads like the rule."""
    out = rolled({"trait": 3, "abilities": [2, -1], "difficulty": -1, "actions": 2}, 5, 2)
    assert out["steps"] == [
        "2 dice: 5 2",
        "modifiers: +3 trait, +1 abilities, \u22121 difficulty, \u22122 multitasking (2 actions) = +1",
        "total 8 = 5+2 +1",
        "8: Failure (nine or better succeeds)",
    ]
    assert out["summary"] == "Failure: 8 = 5+2 +1, nine or better succeeds"
    assert out["choices"] == []


def test_trait_is_positive_two_dice_1():
    """two_dice-1: the malleable trait is 0..10 (a positive modifier); penalties go in abilities (-10..+10, 0..5)."""
    trait, abilities = two_dice.FIELDS[0], two_dice.FIELDS[1]
    assert (trait.min, trait.max) == (0, 10)
    assert (abilities.min, abilities.max, abilities.min_len, abilities.max_len) == (-10, 10, 0, 5)
    with pytest.raises(RulesError, match="trait"):
        parse({"trait": -1})
    assert rolled({"abilities": [-3]}, 6, 5)["total"] == 8


@pytest.mark.parametrize("difficulty, total", [(7, 14), (5, 12), (4, 11), (3, 10), (2, 9), (0, 7), (-2, 5), (-7, 0)])
def test_any_difficulty_in_range_two_dice_2(difficulty, total):
    """two_dice-2: every whole difficulty from -7 to +7 is allowed, the benchmarks, those between and, the listed
    values being benchmarks, easier than +3 (up to +7, the mirror of the hard side)."""
    assert rolled({"difficulty": difficulty}, 3, 4)["total"] == total


@pytest.mark.parametrize("difficulty", [-8, 8, "Impossible", "hard", None, True, 1.5])
def test_difficulty_out_of_range_two_dice_2(difficulty):
    """two_dice-2: more difficult than -7 must be -7 or "impossible"; nothing easier than +7; no other words."""
    with pytest.raises(RulesError, match=r"'difficulty' must be .*-7 to 7"):
        parse({"difficulty": difficulty})


def test_impossible_is_automatic_failure_two_dice_2():
    """two_dice-2: an impossible action fails automatically with no roll."""
    out = rolled({"trait": 10, "difficulty": "impossible"})
    assert out["outcome"] == "failure"
    assert out["dice"] == [] and out["total"] is None and out["special"] is None
    assert out["summary"] == "Failure: the action is impossible, no roll"
    assert probs({"trait": 10, "difficulty": "impossible"}) == {"success": 0, "failure": 1}


@pytest.mark.parametrize("actions, multitask", [(1, 0), (2, -2), (3, -4), (4, -6), (10, -18)])
def test_multitasking_two_dice_3(actions, multitask):
    """two_dice-3: -2 for each action after the first, added to the difficulty even past -7."""
    out = rolled({"trait": 10, "difficulty": -7, "actions": actions}, 3, 3)
    assert out["modifier"]["multitask"] == multitask
    assert out["total"] == 6 + 10 - 7 + multitask


@pytest.mark.parametrize(
    "request_",
    [
        {"trait": 10, "abilities": [10, 10, 10, 10, 10], "difficulty": 3},
        {},
    ],
)
def test_snake_eyes_always_fail_two_dice_4(request_):
    """two_dice-4: snake-eyes are always a failure, whatever the modifiers."""
    out = rolled(request_, 1, 1)
    assert out["outcome"] == "failure" and out["special"] == "snake-eyes"
    assert "snake-eyes: always a failure" in out["steps"]
    assert out["summary"] == "Failure: snake-eyes (1+1) are always a failure"


@pytest.mark.parametrize(
    "request_",
    [
        {"abilities": [-10] * 5, "difficulty": -7, "actions": 10},
        {},
    ],
)
def test_double_sixes_always_succeed_two_dice_4(request_):
    """two_dice-4: double sixes are always a success, whatever the modifiers."""
    out = rolled(request_, 6, 6)
    assert out["outcome"] == "success" and out["special"] == "double sixes"
    assert out["summary"] == "Success: double sixes (6+6) are always a success"


# --- opposed rolls -----------------------------------------------------------------------------------


def test_dodge_example_two_dice_7():
    """two_dice-7: an attack and a dodge that both roll sevens: the attack is dodged (ties go to the target)."""
    out = rolled({"opposed": {}}, 3, 4, 2, 5)
    assert out["total"] == out["target"]["total"] == 7
    assert out["outcome"] == "target"
    assert out["summary"] == "Target wins: a tie at 7 always goes to the target"


@pytest.mark.parametrize(
    "request_, faces, outcome",
    [
        ({"opposed": {}}, (3, 4, 2, 4), "actor"),  # the higher number wins
        ({"opposed": {}}, (2, 4, 3, 4), "target"),
        ({"trait": 2, "opposed": {"trait": 1}}, (2, 3, 2, 4), "target"),  # 7 vs 7: tie to the target
        ({"trait": 2, "opposed": {"trait": 1}}, (2, 4, 2, 4), "actor"),  # 8 vs 7
        ({"opposed": {"actions": 2}}, (2, 3, 2, 4), "actor"),  # 5 vs 6 - 2
        ({"opposed": {"abilities": [-3]}}, (2, 2, 3, 3), "actor"),  # neither side needs nine
    ],
)
def test_higher_number_wins_two_dice_7(request_, faces, outcome):
    """two_dice-7: the higher total wins a roll-off and every tie goes to the target."""
    assert rolled(request_, *faces)["outcome"] == outcome


@pytest.mark.parametrize(
    "actor, target, mods, outcome",
    [
        ((6, 6), (5, 6), (0, 10), "actor"),  # double sixes beat anything but double sixes
        ((5, 6), (6, 6), (10, 0), "target"),
        ((1, 1), (1, 2), (10, 0), "target"),  # snake-eyes lose to anything but snake-eyes
        ((1, 2), (1, 1), (0, 10), "actor"),
        ((6, 6), (1, 1), (0, 10), "actor"),  # double sixes beat snake-eyes
        ((1, 1), (6, 6), (10, 0), "target"),
        ((6, 6), (6, 6), (1, 0), "actor"),  # both double sixes: the totals decide
        ((6, 6), (6, 6), (0, 0), "target"),  # ... and the tie goes to the target
        ((6, 6), (6, 6), (0, 1), "target"),
        ((1, 1), (1, 1), (2, 0), "actor"),  # both snake-eyes: the totals decide
        ((1, 1), (1, 1), (3, 3), "target"),
    ],
)
def test_special_rolls_in_a_roll_off_two_dice_8(actor, target, mods, outcome):
    """two_dice-8: double sixes beat anything else, snake-eyes lose to anything else, twin specials go by totals."""
    out = rolled({"trait": mods[0], "opposed": {"trait": mods[1]}}, *actor, *target)
    assert out["outcome"] == outcome
    special = two_dice.special(*actor)
    assert out["special"] == (None if special is None else special.value)


def test_special_labels_in_a_roll_off_two_dice_8():
    """two_dice-8: both sides' special rolls are reported and the summary names the rule that decided."""
    out = rolled({"opposed": {"trait": 10}}, 6, 6, 5, 6)
    assert out["special"] == "double sixes" and out["target"]["special"] is None
    assert out["summary"] == "Actor wins: double sixes (12 (6+6 \u00b10)) beat anything but double sixes"
    out = rolled({"trait": 10, "opposed": {}}, 1, 1, 1, 2)
    assert out["special"] == "snake-eyes"
    assert out["summary"] == "Target wins: snake-eyes (12 (1+1 +10)) lose to anything but snake-eyes"


@pytest.mark.parametrize("difficulty", [-7, 0, 3])
def test_no_difficulty_when_opposed_two_dice_5(difficulty):
    """two_dice-5: difficulty does not apply to an opposed roll; the steps say so and the odds ignore it."""
    out = rolled({"trait": 1, "difficulty": difficulty, "opposed": {"trait": 2}}, 3, 4, 2, 4)
    assert out["total"] == 8 and out["target"]["total"] == 8 and out["outcome"] == "target"
    assert out["modifier"]["difficulty"] is None
    assert any(s.startswith("no difficulty modifier in an opposed roll") for s in out["steps"])
    assert ("is not used" in " ".join(out["steps"])) == (difficulty != 0)
    assert probs({"trait": 1, "difficulty": difficulty, "opposed": {"trait": 2}}) == probs(
        {"trait": 1, "opposed": {"trait": 2}}
    )


def test_impossible_stays_impossible_when_opposed_two_dice_6():
    """two_dice-6: an impossible action with an opposed target: nobody rolls and the target wins."""
    request = {"trait": 10, "difficulty": "impossible", "opposed": {"trait": 0}}
    out = rolled(request)
    assert out["outcome"] == "target"
    assert out["dice"] == [] and out["target"]["dice"] == []
    assert probs(request) == {"actor": 0, "target": 1}


# --- follow-up choices -------------------------------------------------------------------------------


@pytest.mark.parametrize("action", [{"reroll": [0]}, {"spend_will": True}, {}, {"x": 1}])
def test_act_has_no_follow_ups(action):
    """Two-dice rolls have no follow-up choices: every action is refused, naming that none are allowed."""
    roll = rolled({}, 3, 4)
    before = copy.deepcopy(roll)
    with pytest.raises(RulesError, match="allowed actions: none"):
        two_dice.act(roll, action, ScriptedDice())
    assert roll == before


@pytest.mark.parametrize(
    "roll", [None, [], {"system": "arbitration"}, {"system": "two_dice", "request": {"trait": -3}}]
)
def test_act_refuses_foreign_rolls(roll):
    """A dict that is not a two_dice roll is refused with a RulesError."""
    with pytest.raises(RulesError, match="roll"):
        two_dice.act(roll, {"x": 1}, ScriptedDice())


# --- bad input ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "request_, field",
    [
        ({"trait": "3"}, "trait"),
        ({"trait": True}, "trait"),
        ({"trait": 11}, "trait"),
        ({"trait": 2.0}, "trait"),
        ({"abilities": 3}, "abilities"),
        ({"abilities": [11]}, "abilities"),
        ({"abilities": [False]}, "abilities"),
        ({"abilities": [1] * 6}, "abilities"),
        ({"actions": 0}, "actions"),
        ({"actions": 11}, "actions"),
        ({"actions": True}, "actions"),
        ({"skill": 3}, "skill"),
        ({"opposed": {"difficulty": 1}}, "opposed.difficulty"),
        ({"opposed": {"trait": -1}}, "opposed.trait"),
        ({"opposed": {"actions": 0}}, "opposed.actions"),
        ({"opposed": 1}, "opposed"),
    ],
)
def test_bad_requests(request_, field):
    """Bad fields raise RulesError naming the field."""
    with pytest.raises(RulesError, match=field.replace(".", r"\.")):
        parse(request_)


@pytest.mark.parametrize("request_", [None, [], "trait", 3, False])
def test_non_object_request(request_):
    """A request that is not an object is refused."""
    with pytest.raises(RulesError, match="object"):
        parse(request_)


# --- properties --------------------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(REQUESTS, st.integers(0, 2**32))
def test_act_never_changes_its_input(request_, seed):
    """act() refuses and leaves the roll it was given unchanged."""
    roll = two_dice.roll(parse(request_), random.Random(seed))
    before = copy.deepcopy(roll)
    with pytest.raises(RulesError):
        two_dice.act(roll, {"reroll": [0]}, random.Random(seed))
    assert roll == before


# --- through the API ---------------------------------------------------------------------------------


def test_api_roll_odds_and_systems():
    """The API publishes two_dice, rolls it reproducibly by seed and gives floats plus exact strings."""
    from arbiter import api

    entry = next(s for s in api.systems() if s["id"] == "two_dice")
    assert entry["seed"] == two_dice.SEED and entry["actions"] == []
    assert entry["defaults"] == {"trait": 0, "abilities": [], "difficulty": 0, "actions": 1, "opposed": None}
    request = {"trait": 3, "opposed": {"trait": 2}}
    assert api.roll("two_dice", request, seed=7) == api.roll("two_dice", request, seed=7)
    o = api.odds("two_dice", {"trait": 3})
    assert o["exact"]["outcomes"] == {"success": "13/18", "failure": "5/18"}
    with pytest.raises(RulesError, match="difficulty"):
        api.roll("two_dice", {"difficulty": -8})
    with pytest.raises(RulesError):
        api.act("two_dice", api.roll("two_dice", request, seed=1), {"reroll": [0]})


# --- snake-eyes: the worst of failures (two_dice-9) -----------------------------------------------


@pytest.mark.parametrize(
    "request_, faces, tone, fumble",
    [
        ({"trait": 10}, (1, 1), "botch", [0, 1]),
        ({}, (2, 3), "failure", []),
        ({"trait": 0, "opposed": {"trait": 0}}, (1, 1, 2, 2), "botch", [0, 1]),
        ({"trait": 0, "opposed": {"trait": 0}}, (3, 3, 2, 2), "success", []),
    ],
)
def test_snake_eyes_are_the_worst_and_mark_both_dice_two_dice_9(request_, faces, tone, fumble):
    """two_dice-9: snake-eyes read as the worst failure (tone botch), their two dice listed as fumble_dice; in a
    roll-off the tone is the actor's."""
    r = rolled(request_, *faces)
    assert (r["tone"], r["fumble_dice"]) == (tone, fumble)


# --- each die's marks, as the page draws them (the page compares no face) -----------------------------------------


@pytest.mark.parametrize(
    "faces, marks",
    [
        ((3, 4), [[], []]),
        ((6, 6), [["kept"], ["kept"]]),  # double sixes: the pair decides
        ((1, 1), [["kept", "fumble"], ["kept", "fumble"]]),  # snake-eyes: the pair decides, with further detriment
        ((6, 1), [[], []]),
    ],
)
def test_marks_keep_snake_eyes_and_double_sixes(faces, marks):
    """Both dice are kept when they are snake-eyes or double sixes, and snake-eyes' are the fumble's too."""
    assert rolled({"trait": 2}, *faces)["marks"] == marks


def test_marks_of_each_side_in_a_roll_off():
    """The target's dice carry their own marks; an impossible action rolls no dice and has none."""
    out = rolled({"trait": 2, "opposed": {"trait": 1}}, 6, 6, 1, 1)
    assert (out["marks"], out["target"]["marks"]) == ([["kept"], ["kept"]], [["kept", "fumble"], ["kept", "fumble"]])
    assert rolled({"difficulty": "impossible"})["marks"] == []


def test_draw_order_two_dice_10():
    """two_dice-10: the actor's two dice are drawn, then the target's; an impossible action draws nothing."""
    dice = ScriptedDice(1, 2, 3, 4)
    out = two_dice.roll(fields.parse(two_dice.FIELDS, {"opposed": {}}), dice)
    assert (out["dice"], out["target"]["dice"]) == ([1, 2], [3, 4])
    assert dice.batches == [(2, 6, "the actor's two dice"), (2, 6, "the target's two dice")]
    dice = ScriptedDice(5, 6)
    two_dice.roll(fields.parse(two_dice.FIELDS, {}), dice)
    assert dice.batches == [(2, 6, "the two dice")]
    for request in ({"difficulty": "impossible"}, {"difficulty": "impossible", "opposed": {}}):
        dice = ScriptedDice()
        two_dice.roll(fields.parse(two_dice.FIELDS, request), dice)
        assert dice.batches == []
