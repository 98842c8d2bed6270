"""Tests for arbiter.ten_again.rolling: roll and act through JSON: a Will expended after the roll (once, and
only when it adds dice), bad actions, a roll read back and checked, and the door's answers."""

from __future__ import annotations

import copy
import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter import RulesError, fields, ten_again
from scripted import ScriptedDice
from ten_again_helpers import act, parse, roll, requests


# --- spending Will after the roll -------------------------------------------------------------------------


def test_spend_will_after_the_roll_ten_again_6():
    """ten_again-6: the Will's three dice join the same roll; their 10s roll again."""
    r = roll([8, 3], pool=2)
    assert r["choices"] == [
        {
            "name": "spend_will",
            "label": "Expend a Will: +3 dice",
            "side": "actor",
            "dice": 3,
            "action": {"spend_will": True},
        }
    ]
    r2 = act(r, {"spend_will": True}, [10, 2, 9, 7])
    assert (r2["dice"], r2["will_dice"], r2["rerolls"], r2["successes"]) == ([8, 3], [10, 2, 9], [7], 3)
    assert r2["will_spent"] and r2["choices"] == [] and r2["request"] == r["request"]


@pytest.mark.parametrize(
    "request_, faces, message",
    [
        ({"pool": 2, "will": True}, [8, 3, 2, 2, 2], "already expended"),
        ({"pool": 0, "modifier": -3}, [], "adds no dice"),
    ],
)
def test_one_will_per_action_ten_again_7(request_, faces, message):
    """ten_again-7: a second Will, or one that adds no dice, is refused and not offered."""
    r = roll(faces, **request_)
    assert r["choices"] == []
    with pytest.raises(RulesError, match=message):
        ten_again.act(r, {"spend_will": True}, ScriptedDice())


def test_will_only_once_after_the_roll_ten_again_7():
    """ten_again-7: after expending a Will on the roll, another is refused."""
    r = act(roll([8, 3], pool=2), {"spend_will": True}, [2, 2, 2])
    with pytest.raises(RulesError, match="only expend one will per action"):
        ten_again.act(r, {"spend_will": True}, ScriptedDice(5, 5, 5))


@pytest.mark.parametrize(
    "request_, path, words",
    [
        ({"pool": 0, "modifier": -3, "will": True}, "will", "dots 0 - 3 + 3 = 0"),
        ({"pool": 2, "modifier": -6, "will": True}, "will", "dots 2 - 6 + 3 = -1"),
        ({"pool": 3, "opposed": {"pool": 0, "modifier": -3, "will": True}}, "opposed.will", "dots 0 - 3 + 3 = 0"),
    ],
)
def test_a_will_that_adds_no_dice_is_neither_taken_nor_charged_ten_again_7(request_, path, words):
    """ten_again-7: a request that expends up front a Will the modifier leaves no die to add is refused before any
    die (roll, and costs charges nothing for it: it refuses too), on either side of a contest, naming the field."""
    dice = ScriptedDice(*[5] * 10)
    with pytest.raises(
        RulesError, match=rf"^'{path}' is not allowed: a Will would add no dice \({re.escape(words)}\)"
    ) as e:
        ten_again.roll(parse(**request_), dice)
    assert (e.value.path, dice.left) == (path, [5] * 10)
    with pytest.raises(RulesError, match=rf"^'{path}' is not allowed: a Will would add no dice"):
        ten_again.costs(parse(**request_), None)


def test_will_with_few_dice_left_ten_again_7():
    """ten_again-7: when the modifier eats into the Will's dice, it adds only what is left (here one), and says
    "+1 die"."""
    r = roll([], pool=1, modifier=-3)
    assert r["choices"][0]["dice"] == 1
    assert r["choices"][0]["label"] == "Expend a Will: +1 die"
    r2 = act(r, {"spend_will": True}, [9])
    assert (r2["will_dice"], r2["outcome"]) == ([9], "success")


def test_target_spends_will_ten_again_8():
    """ten_again-8: in a contest the target may expend its own Will after the roll."""
    r = roll([8, 9, 3], pool=2, opposed={"pool": 1})
    assert [c["side"] for c in r["choices"]] == ["actor", "target"]
    r2 = act(r, {"spend_will": True, "side": "target"}, [8, 10, 2, 4])
    assert (r2["target"]["will_dice"], r2["target"]["successes"], r2["outcome"]) == ([8, 10, 2], 2, "tie")
    assert [c["side"] for c in r2["choices"]] == ["actor"]
    r3 = act(r2, {"spend_will": True}, [1, 1, 1])
    assert (r3["outcome"], r3["choices"]) == ("tie", [])


@pytest.mark.parametrize(
    "action, message",
    [
        ({}, "'action' must be one of"),
        ({"reroll": [0]}, "'action' must be one of"),
        ({"spend_will": True, "dice": 3}, "'action' must be one of"),
        ({"spend_will": False}, "'action.spend_will' must be true"),
        ({"spend_will": 1}, "'action.spend_will' must be true"),
        ({"spend_will": True, "side": "target"}, "'action.side' must be one of actor"),
        ({"spend_will": True, "side": "bystander"}, "'action.side'"),
        ([], "'action' must be one of"),
    ],
)
def test_bad_actions(action, message):
    """An unknown or malformed action raises RulesError listing what is allowed."""
    r = roll([8, 3], pool=2)
    with pytest.raises(RulesError, match=message):
        ten_again.act(r, action, ScriptedDice(2, 2, 2))


def _tamper(r, path, value):
    r = copy.deepcopy(r)
    *head, last = path
    node = r
    for key in head:
        node = node[key]
    if value is KeyError:
        del node[last]
    else:
        node[last] = value
    return r


@pytest.mark.parametrize(
    "path, value, field",
    [
        (["dice"], [8, 3], "roll.dice"),
        (["dice"], [8, 3, 11], "roll.dice"),
        (["dice"], [8, 3, "2"], "roll.dice"),
        (["dice"], [8, 3, True], "roll.dice"),
        (["dice"], KeyError, "roll.dice"),
        (["will_dice"], [2, 2, 2], "roll.will_dice"),
        (["will_spent"], "no", "roll.will_spent"),
        (["rerolls"], [], "roll.rerolls"),
        (["rerolls"], [5, 10], "roll.rerolls"),
        (["rerolls"], [10], "roll.rerolls"),
        (["rerolls"], [0], "roll.rerolls"),
        (["request"], KeyError, "roll.request"),
        (["request", "pool"], 31, "roll.request.pool"),
        (["request", "opposed"], {"pool": 1}, "roll.target"),
    ],
)
def test_tampered_roll_is_refused(path, value, field):
    """act refuses a roll dict its rules could not have produced, naming the field."""
    r = roll([8, 10, 2, 5], pool=3)
    with pytest.raises(RulesError, match=f"'{field}"):
        ten_again.act(_tamper(r, path, value), {"spend_will": True}, ScriptedDice(2, 2, 2))


def test_tampered_target_is_refused():
    """act checks the contesting side's dice too."""
    r = roll([8, 3], pool=1, opposed={"pool": 1})
    with pytest.raises(RulesError, match="'roll.target.dice'"):
        ten_again.act(_tamper(r, ["target", "dice"], [3, 3]), {"spend_will": True}, ScriptedDice(2, 2, 2))
    with pytest.raises(RulesError, match="'roll.target.will_spent'"):
        ten_again.act(_tamper(r, ["target", "will_spent"], None), {"spend_will": True}, ScriptedDice(2, 2, 2))


def test_will_spent_must_match_the_request():
    """A roll whose request expends Will must say the Will was spent."""
    r = roll([8, 2, 2, 2], pool=1, will=True)
    with pytest.raises(RulesError, match="'roll.will_spent'"):
        ten_again.act(_tamper(r, ["will_spent"], False), {"spend_will": True}, ScriptedDice())


def test_roll_is_json_safe_and_says_what_happened():
    """A roll is JSON-safe, lists each step in order and reads like the rule."""
    r = roll([1, 3, 8, 9, 10], pool=5, risky=True)
    assert json.loads(json.dumps(r)) == r
    assert r["steps"] == [
        "Pool: 5 dots = 5 dice",
        "5 dice: 1 3 8 9 10",
        "8s, 9s and 10s are successes: 3",
        "risky: 1s eat successes, 10s first: a 1 removes 10; no 1s left",
        "2 successes (1 required): success",
    ]
    assert r["summary"] == "Success: 2 successes (1 required)"
    assert r["request"]["opposed"] is None and r["eaten"] == [0, 4]


# --- properties -------------------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(requests, st.integers(0, 2**32), st.integers(0, 2**32), st.booleans())
def test_act_never_changes_its_input(request_, seed, seed2, target_side):
    """act returns a new roll and leaves the dict it was given exactly as it was."""
    req = fields.parse(ten_again.FIELDS, request_)
    r = ten_again.roll(req, random.Random(seed))
    before = copy.deepcopy(r)
    for choice in r["choices"]:
        if (choice["side"] == "target") == target_side:
            out = ten_again.act(r, choice["action"], random.Random(seed2))
            assert (out["target"] if target_side else out)["will_spent"]
    assert r == before


# --- through the API --------------------------------------------------------------------------------------


def test_api_roll_act_odds():
    """Through the API: a seeded roll, a JSON round trip, a Will after it, and odds as floats with exact strings."""
    from arbiter import api

    request = {"pool": 4, "risky": True, "opposed": {"pool": 3}}
    r = api.roll("ten_again", request, seed=7)
    assert r == api.roll("ten_again", request, seed=7)
    r = json.loads(json.dumps(r))
    before = copy.deepcopy(r)
    r2 = api.act("ten_again", r, {"spend_will": True, "side": "target"}, seed=8)
    assert r == before and r2["target"]["will_spent"] and len(r2["target"]["will_dice"]) == 3
    o = api.odds("ten_again", {"pool": 1, "opposed": {"pool": 1}})
    assert o["exact"]["outcomes"] == {"actor": "12/55", "target": "12/55", "tie": "31/55"}
    assert o["outcomes"]["tie"] == pytest.approx(31 / 55)
    assert o["exact"]["successes"]["0"] == "7/10"


def test_api_systems_lists_ten_again():
    """systems() publishes the ten_again fields with their ranges and defaults."""
    from arbiter import api

    entry = next(s for s in api.systems() if s["id"] == "ten_again")
    assert entry["seed"] == "003_afded177ba302d96.txt"
    assert entry["defaults"] == {
        "pool": 3,
        "modifier": 0,
        "will": False,
        "unskilled": False,
        "risky": False,
        "initiative": False,
        "required": 1,
        "opposed": None,
    }
    assert [a["name"] for a in entry["actions"]] == ["spend_will"]


@pytest.mark.parametrize("request_", [{"pool": True}, {"pool": 99}, {"bogus": 1}, [1]])
def test_api_refuses_bad_requests(request_):
    """The API refuses bad requests with RulesError."""
    from arbiter import api

    with pytest.raises(RulesError):
        api.roll("ten_again", request_)
    with pytest.raises(RulesError):
        api.odds("ten_again", request_)


# --- each die's marks, as the page draws them (the page compares no face) -----------------------------------------


def test_marks_after_a_will_are_recomputed_never_trusted():
    """A roll that carries marks is accepted by act; after the Will, a Will die's 1 cancels a 10 (no longer
    exploded), whatever marks the roll arrived with."""
    r = roll([10, 10, 4, 9], pool=2, risky=True)
    assert r["marks"] == [["kept", "exploded"], ["kept", "exploded"]]
    tampered = {**r, "marks": [["kept"], ["kept"]], "reroll_marks": [["botch"], ["botch"]]}
    r2 = act(tampered, {"spend_will": True}, [1, 2, 3])
    assert r2["marks"] == [
        ["kept", "exploded"],
        ["cancelled"],
        ["cancelled", "will", "new"],
        ["will", "new"],
        ["will", "new"],
    ]
    assert r2["reroll_marks"] == [["new"]]
