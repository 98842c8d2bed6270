"""Tests for arbiter.ten_again.rules: the d10 pool where 8s succeed, 1s eat successes and 10s roll again, a
contest, a Will's dice up front or after the roll, the tone, each die's marks and the draw order."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbiter import RulesError, fields, ten_again
from scripted import ScriptedDice
from ten_again_helpers import LARGEST, act, evaluate, parse, roll, requests


# --- ranges and inputs ------------------------------------------------------------------------------------


def test_ranges_ten_again_1():
    """ten_again-1: pool 0..30 dots, modifier -10..+10, required 1..20; the largest pool is 43 dice."""
    spec = {f.name: f for f in ten_again.FIELDS}
    assert (spec["pool"].min, spec["pool"].max) == (0, 30)
    assert (spec["modifier"].min, spec["modifier"].max) == (-10, 10)
    assert (spec["required"].min, spec["required"].max) == (1, 20)
    assert ten_again.Pool.of(parse(**{k: v for k, v in LARGEST.items() if k != "required"})).size(True) == 43
    opposed = {f.name for f in spec["opposed"].fields}
    assert opposed == {"pool", "modifier", "will", "unskilled", "risky", "initiative"}


def test_module_contract():
    """The module names its procedure, seed and actions, and its extras are JSON-safe."""
    assert (ten_again.ID, ten_again.SEED) == ("ten_again", "003_afded177ba302d96.txt")
    assert [a["name"] for a in ten_again.ACTIONS] == ["spend_will"]
    assert json.loads(json.dumps(ten_again.EXTRAS)) == ten_again.EXTRAS
    assert ten_again.EXTRAS["threshold"] == 8 and ten_again.EXTRAS["initiative_threshold"] == 6


@pytest.mark.parametrize(
    "request_, field",
    [
        ({"pool": "3"}, "pool"),
        ({"pool": True}, "pool"),
        ({"pool": 3.0}, "pool"),
        ({"pool": -1}, "pool"),
        ({"pool": 31}, "pool"),
        ({"modifier": 11}, "modifier"),
        ({"modifier": -11}, "modifier"),
        ({"required": 0}, "required"),
        ({"required": 21}, "required"),
        ({"will": 1}, "will"),
        ({"risky": "yes"}, "risky"),
        ({"dots": 3}, "dots"),
        ({"opposed": {"pool": 2, "required": 2}}, "opposed.required"),
        ({"opposed": {"pool": 31}}, "opposed.pool"),
        ({"opposed": [3]}, "opposed"),
    ],
)
def test_bad_request_names_the_field(request_, field):
    """A bad request raises RulesError naming the field."""
    with pytest.raises(RulesError, match=f"'{field}'"):
        fields.parse(ten_again.FIELDS, request_)


@pytest.mark.parametrize("request_", [None, [], "pool=3", 3])
def test_request_must_be_an_object(request_):
    """A request that is not an object is refused."""
    with pytest.raises(RulesError, match="'request' must be an object"):
        fields.parse(ten_again.FIELDS, request_)


# --- one rule sentence, one scripted roll -----------------------------------------------------------------


RULE_CASES = [
    # (what the text says, request, faces, successes, ones_left, rerolls, outcome)
    ("8s, 9s, and 10s are successes", {"pool": 4}, [7, 8, 9, 2], 2, 0, [], "success"),
    ("they may require multiple successes", {"pool": 4, "required": 3}, [7, 8, 9, 2], 2, 0, [], "failure"),
    ("multiple successes met", {"pool": 3, "required": 3}, [8, 9, 8], 3, 0, [], "success"),
    ("initiative: 6s, 7s, 8s, 9s and 10s", {"pool": 4, "initiative": True}, [5, 6, 7, 2], 2, 0, [], "success"),
    ("a 10 rolls an extra die", {"pool": 1}, [10, 8], 2, 0, [8], "success"),
    ("10s on the extra die roll again", {"pool": 1}, [10, 10, 10, 3], 3, 0, [10, 10, 3], "success"),
    ("each 10 rolls its own chain", {"pool": 3}, [10, 10, 9, 10, 9, 2], 5, 0, [10, 2, 9], "success"),
    ("risky: a 1 eats the 10 before it rolls", {"pool": 3, "risky": True}, [1, 10, 8], 1, 0, [], "success"),
    ("unskilled: 1s eat 10s then others", {"pool": 4, "unskilled": True}, [1, 1, 10, 9], 0, 0, [], "failure"),
    ("risky: 1s left and no successes", {"pool": 5, "risky": True}, [1, 1, 1, 10, 8], 0, 1, [], "botch"),
    ("risky: the 10 left rolls again", {"pool": 4, "risky": True}, [1, 10, 10, 5, 9], 2, 0, [9], "success"),
    ("initiative risky: 1s eat 7s too", {"pool": 3, "risky": True, "initiative": True}, [1, 6, 7], 1, 0, [], "success"),
    ("not risky: 1s eat nothing", {"pool": 3}, [1, 1, 10, 4], 1, 2, [4], "success"),
    ("no successes and no 1s", {"pool": 3}, [2, 3, 7], 0, 0, [], "failure"),
]


@pytest.mark.parametrize(
    "text, request_, faces, successes, ones_left, rerolls, outcome", RULE_CASES, ids=[c[0] for c in RULE_CASES]
)
def test_rule_sentences(text, request_, faces, successes, ones_left, rerolls, outcome):
    """Each rule sentence, with scripted dice: successes, 1s left, re-rolls and the outcome."""
    r = roll(faces, **request_)
    assert (r["successes"], r["ones_left"], r["rerolls"], r["outcome"]) == (successes, ones_left, rerolls, outcome)
    assert r["dice"] == faces[: len(faces) - len(rerolls)]
    assert r["botch"] == (outcome == "botch")


def test_no_eating_every_one_is_left_ten_again_3():
    """ten_again-3: a roll neither unskilled nor risky with no successes but 1s left botches."""
    r = roll([1, 3, 5], pool=3)
    assert (r["outcome"], r["successes"], r["ones_left"]) == ("botch", 0, 1)
    assert "botch" in r["steps"][-1] and r["summary"].startswith("Botch")


def test_ones_eat_tens_first_ten_again_4():
    """ten_again-4: each 1 removes one success and itself, 10s first, then 9s and 8s; only 10s left roll."""
    r = roll([9, 10, 1, 8, 10, 1, 1], pool=7, risky=True)
    # three 1s eat both 10s and the 9; the 8 is left, no 10 rolls again, no 1 is left
    assert (r["successes"], r["ones_left"], r["rerolls"]) == (1, 0, [])
    assert sorted(r["dice"][i] for i in r["eaten"]) == [1, 1, 1, 9, 10, 10]
    assert any("10s first" in s for s in r["steps"])


def test_spare_ones_are_left_ten_again_4():
    """ten_again-4: 1s with nothing to eat are left, and a roll with them and no successes botches."""
    r = roll([1, 1, 1, 8], pool=4, unskilled=True)
    assert (r["successes"], r["ones_left"], r["outcome"]) == (0, 2, "botch")


def test_reroll_ones_eat_nothing_ten_again_5():
    """ten_again-5: a 1 on an extra die eats nothing and is not counted among the 1s left."""
    r = roll([10, 8, 1], pool=2, risky=True)
    assert (r["successes"], r["ones_left"], r["rerolls"]) == (2, 0, [1])


def test_reroll_uses_initiative_threshold_ten_again_5():
    """ten_again-5: on initiative an extra die succeeds on 6 too."""
    assert roll([10, 6], pool=1, initiative=True)["successes"] == 2
    assert roll([10, 6], pool=1)["successes"] == 1


@pytest.mark.parametrize("request_", [{"pool": 0}, {"pool": 2, "modifier": -2}, {"pool": 2, "modifier": -5}])
def test_no_dice_is_a_failure_ten_again_2(request_):
    """ten_again-2: a pool of 0 or less rolls no dice and fails (no botch)."""
    r = roll([], **request_)
    assert (r["dice"], r["will_dice"], r["outcome"], r["successes"]) == ([], [], "failure", 0)
    assert r["summary"] == "Failure: no dice"


@pytest.mark.parametrize(
    "request_, base, will",
    [
        ({"pool": 2, "will": True}, 2, 3),
        ({"pool": 2, "modifier": 1, "will": True}, 3, 3),
        ({"pool": 1, "modifier": -2, "will": True}, 0, 2),
        ({"pool": 0, "modifier": -2, "will": True}, 0, 1),
    ],
)
def test_will_adds_three_dice_to_the_pool_ten_again_2(request_, base, will):
    """ten_again-2: a Will adds three dice; the modifier applies to the whole pool, Will's dice included."""
    faces = [2] * (base + will)
    r = roll(faces, **request_)
    assert (len(r["dice"]), len(r["will_dice"]), r["will_spent"]) == (base, will, True)
    assert r["choices"] == []


def test_will_dice_join_the_roll_up_front():
    """Expended up front, the Will's dice are counted, eat and roll again like the pool's."""
    r = roll([8, 1, 10, 9], pool=1, will=True, risky=True)
    assert (r["dice"], r["will_dice"], r["successes"], r["rerolls"]) == ([8], [1, 10, 9], 2, [])


# --- contests ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "actor, target, faces, net, outcome",
    [
        ({"pool": 3}, {"pool": 2}, [8, 9, 2, 8, 3], 1, "actor"),
        ({"pool": 2}, {"pool": 2}, [8, 2, 9, 3], 0, "tie"),
        ({"pool": 1}, {"pool": 2}, [4, 9, 8], -2, "target"),
        ({"pool": 1, "required": 5}, {"pool": 0}, [8], 1, "actor"),
        ({"pool": 0}, {"pool": 0}, [], 0, "tie"),
        ({"pool": 1}, {"pool": 1, "initiative": True}, [10, 3, 6], 0, "tie"),
    ],
)
def test_contest_nets_successes_ten_again_8(actor, target, faces, net, outcome):
    """ten_again-8: their successes reduce yours; the outcome goes to who has successes left."""
    r = roll(faces, **actor, opposed=target)
    assert (r["net"], r["outcome"]) == (net, outcome)
    assert r["net"] == r["successes"] - r["target"]["successes"]


def test_contest_botch_is_each_sides_own_ten_again_9():
    """ten_again-9: a side with no successes and 1s left botches on its own roll; the contest still nets."""
    r = roll([1, 8, 1, 3], pool=2, opposed={"pool": 2})
    assert (r["botch"], r["target"]["botch"], r["outcome"]) == (False, True, "actor")
    assert r["summary"] == "Actor wins: 1 to 0 successes, 1 success left"
    r = roll([1, 1], pool=1, opposed={"pool": 1})
    assert (r["botch"], r["target"]["botch"], r["outcome"]) == (True, True, "tie")
    assert any(s.startswith("Target: no successes") for s in r["steps"])
    assert r["summary"] == "Tie: 0 to 0 successes, none left"


def test_contest_roll_order():
    """Both sides roll: the actor's pool and re-rolls, then the target's."""
    r = roll([10, 3, 10, 10, 2], pool=1, opposed={"pool": 1})
    assert (r["dice"], r["rerolls"], r["target"]["dice"], r["target"]["rerolls"]) == ([10], [3], [10], [10, 2])
    assert r["outcome"] == "target"


# --- spending Will after the roll -------------------------------------------------------------------------


def test_will_one_eats_a_ten_and_its_reroll_ten_again_6():
    """ten_again-6: on a risky roll a Will die's 1 eats a 10 left, whose re-rolls no longer count."""
    r = roll([10, 10, 4, 9], pool=2, risky=True)
    assert (r["successes"], r["rerolls"]) == (3, [4, 9])
    r2 = act(r, {"spend_will": True}, [1, 2, 3])
    assert (r2["successes"], r2["rerolls"], r2["ones_left"]) == (1, [4], 0)
    assert any("no longer counts" in s for s in r2["steps"])


def test_will_ten_keeps_old_rerolls_ten_again_6():
    """ten_again-6: 10s still left keep their re-rolls; a new 10 rolls its own chain after them."""
    r = roll([10, 5, 10, 3], pool=2)
    r2 = act(r, {"spend_will": True}, [10, 1, 2, 10, 8])
    assert (r2["rerolls"], r2["successes"], r2["ones_left"]) == ([10, 3, 10, 8], 5, 1)


@pytest.mark.parametrize(
    "faces, kept, gone, successes, outcome",
    [
        # the first 10 rolls 8, the second 10 then 9: the second's chain goes, 2 successes, a failure
        ([10, 10, 8, 10, 9], [8], "10 → 9", 2, "failure"),
        # the same 10s, their chains swapped: the second's chain (8) still goes, 3 successes, a success
        ([10, 10, 10, 8, 9], [10, 9], "8", 3, "success"),
    ],
)
def test_a_will_one_eats_the_last_ten_and_its_chain_ten_again_25(faces, kept, gone, successes, outcome):
    """ten_again-25: a Will die's 1 eats the last 10 left, by position, whatever its re-rolls show; that 10's chain
    goes, a step names it, and the first 10 keeps its own."""
    r = roll(faces, pool=2, risky=True, required=3)
    r2 = act(r, {"spend_will": True}, [1, 2, 3])
    assert (r2["rerolls"], r2["successes"], r2["outcome"]) == (kept, successes, outcome)
    assert f"a Will 1 ate a 10 before it could roll again: its re-roll {gone} no longer counts" in r2["steps"]


def test_spend_will_equals_up_front_on_same_faces_ten_again_6():
    """ten_again-6: with the same faces, expending Will after the roll gives what expending it up front does."""
    up_front = roll([8, 1, 10, 10, 9, 2, 4], pool=3, will=True, risky=True)
    # before the Will the 1 eats the pool's 10; the Will's 10 takes the 1 off it, so that 10 now rolls again
    after = act(roll([8, 1, 10], pool=3, risky=True), {"spend_will": True}, [10, 9, 2, 4])
    for key in ("dice", "will_dice", "rerolls", "successes", "ones_left", "outcome", "eaten"):
        assert after[key] == up_front[key], key


# --- properties -------------------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests, st.integers(0, 2**32))
def test_roll_agrees_with_a_plain_reading(request_, seed):
    """Any roll's successes and 1s left are what a plain reading of the text gives for its dice."""
    req = fields.parse(ten_again.FIELDS, request_)
    r = ten_again.roll(req, random.Random(seed))
    sides = [(r, req)] + ([(r["target"], req["opposed"])] if req["opposed"] else [])
    for side, rq in sides:
        faces = side["dice"] + side["will_dice"]
        successes, ones_left, tens_left = evaluate(
            faces, side["rerolls"], 6 if rq["initiative"] else 8, rq["unskilled"] or rq["risky"]
        )
        assert (side["successes"], side["ones_left"]) == (successes, ones_left)
        assert side["rerolls"].count(10) + tens_left == len(side["rerolls"])
        pool = ten_again.Pool.of(rq)
        assert len(faces) == pool.size(rq["will"])


# --- through the API --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "faces, request_, tone, botch_dice",
    [
        ((1, 3, 1), {}, "botch", [0, 2]),
        ((1, 8, 1), {"risky": True}, "botch", [2]),  # the first 1 ate the 8: the second is left
        ((1, 8, 3), {}, "success", []),
        ((1, 2, 2, 8, 2, 3), {"opposed": {"pool": 3}}, "botch", [0]),  # the actor's botch, in a contest too
        ((8, 2, 2, 8, 2, 3), {"opposed": {"pool": 3}}, "mixed", []),  # a tie: nobody has successes left
    ],
)
def test_tone_and_the_ones_that_make_a_botch_ten_again_20(faces, request_, tone, botch_dice):
    """ten_again-20: the actor's botch is the worst tone, a tie is mixed; botch_dice lists the 1s left."""
    r = roll(faces, **request_)
    assert (r["tone"], r["botch_dice"]) == (tone, botch_dice)


def test_a_wills_one_left_is_among_the_botch_dice_ten_again_20():
    """ten_again-20: a Will expended after the roll joins it: its 1s left make the botch too (indexes after the
    pool's dice)."""
    first = roll((2, 3, 4))
    after = act(first, {"spend_will": True}, (1, 5, 6))
    assert (after["outcome"], after["tone"], after["botch_dice"]) == ("botch", "botch", [3])


# --- each die's marks, as the page draws them (the page compares no face) -----------------------------------------


@pytest.mark.parametrize(
    "faces, request_, marks, reroll_marks",
    [
        ([8, 3, 10, 6, 1, 9], {"pool": 5}, [["kept"], [], ["kept", "exploded"], [], []], [["new", "kept"]]),
        ([6, 7, 5], {"pool": 3, "initiative": True}, [["kept"], ["kept"], []], []),
        ([1, 10, 9], {"pool": 3, "risky": True}, [["cancelled"], ["cancelled"], ["kept"]], []),  # the eaten 10 stays
        ([1, 3], {"pool": 2}, [["botch"], []], []),
        ([10, 10, 5], {"pool": 1}, [["kept", "exploded"]], [["new", "kept", "exploded"], ["new"]]),
        (
            [8, 2, 10, 4, 9, 3],
            {"pool": 2, "will": True},
            [["kept"], [], ["kept", "exploded", "will", "new"], ["will", "new"], ["kept", "will", "new"]],
            [["new"]],
        ),
    ],
)
def test_marks_keep_successes_cancel_what_ones_eat_and_explode_tens(faces, request_, marks, reroll_marks):
    """ten_again-1..6: a success kept (6s up on initiative), a 1 and the success it ate cancelled, a 10 left
    exploded, a botch's 1s botch, Will's dice will and new; each re-roll new, kept when a success, exploded on a 10."""
    r = roll(faces, **request_)
    assert (r["marks"], r["reroll_marks"]) == (marks, reroll_marks)


def test_marks_of_the_target_in_a_contest():
    """The contesting side's dice carry their own marks."""
    r = roll([8, 1], pool=1, opposed={"pool": 1})
    assert (r["marks"], r["target"]["marks"], r["target"]["reroll_marks"]) == ([["kept"]], [["botch"]], [])


def test_draw_order_ten_again_24():
    """ten_again-24: the pool, the Will's dice, then the 10s again round by round; in a contest the actor's pool and
    its rounds, then the target's; a Will after the roll draws its dice, then its new 10s' rounds."""
    dice = ScriptedDice(10, 10, 3, 5, 10, 10, 7, 10, 2, 10, 10, 4, 9, 10, 10, 8, 6)
    r = ten_again.roll(parse(pool=3, will=True, opposed={"pool": 2}), dice)
    assert (r["dice"], r["will_dice"], r["rerolls"]) == ([10, 10, 3], [5, 10, 10], [7, 10, 10, 9, 2, 10, 4])
    assert (r["target"]["dice"], r["target"]["rerolls"]) == ([10, 10], [8, 6])
    assert dice.batches == [
        (3, 10, "the actor's pool"),
        (3, 10, "the actor's Will dice"),
        (4, 10, "the actor's 10s roll again"),
        (2, 10, "the actor's 10s roll again"),
        (1, 10, "the actor's 10s roll again"),
        (2, 10, "the target's pool"),
        (2, 10, "the target's 10s roll again"),
    ]
    r = ten_again.roll(parse(pool=2), ScriptedDice(10, 10, 10, 5, 2))
    assert r["rerolls"] == [10, 2, 5]
    dice = ScriptedDice(10, 10, 1, 10, 3, 4)
    again = ten_again.act(r, {"spend_will": True}, dice)
    assert (again["will_dice"], again["rerolls"]) == ([10, 10, 1], [10, 2, 5, 10, 4, 3])
    assert dice.batches == [(3, 10, "the Will dice"), (2, 10, "the 10s roll again"), (1, 10, "the 10s roll again")]
