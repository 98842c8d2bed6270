"""Tests for arbiter.ten_again: the d10 pool where 8s succeed, 1s eat successes and 10s roll again."""

from __future__ import annotations

import copy
import itertools
import json
import random
from collections import Counter, defaultdict
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import strategies
from arbiter import RulesError, fields, ten_again
from scripted import ScriptedDice
from stats import assert_fits

TAIL = Fraction(1, 10**15)
LARGEST = {"pool": 30, "modifier": 10, "will": True, "unskilled": False, "risky": True, "initiative": False,
           "required": 20}
LARGEST_OPPOSED = dict(LARGEST, opposed={k: v for k, v in LARGEST.items() if k != "required"})


def parse(**request) -> dict:
    return fields.parse(ten_again.FIELDS, request)


def roll(faces, **request) -> dict:
    """Roll `request` with scripted faces, checking that every scripted face was used."""
    dice = ScriptedDice(*faces)
    result = ten_again.roll(parse(**request), dice)
    assert dice.left == []
    return result


def act(result, action, faces) -> dict:
    dice = ScriptedDice(*faces)
    out = ten_again.act(result, action, dice)
    assert dice.left == []
    return out


# --- an independent, straightforward reading of the text --------------------------------------------------


def evaluate(faces, rerolls, threshold, eats):
    """Successes, 1s left and 10s left: count, let 1s eat 10s first and then other successes, add re-rolls."""
    ones, tens = faces.count(1), faces.count(10)
    others = sum(1 for f in faces if threshold <= f < 10)
    if eats:
        eat_tens = min(ones, tens)
        ones, tens = ones - eat_tens, tens - eat_tens
        eat_others = min(ones, others)
        ones, others = ones - eat_others, others - eat_others
    return tens + others + sum(1 for f in rerolls if f >= threshold), ones, tens


def chain_law(threshold, depth):
    """P(a 10's chain of extra dice adds j successes), exact for j <= depth."""
    miss, hit, ten = Fraction(threshold - 1, 10), Fraction(10 - threshold, 10), Fraction(1, 10)
    return [miss] + [ten ** (j - 1) * hit + ten ** j * miss for j in range(1, depth + 1)]


def brute_law(n, threshold, eats, depth=30):
    """Successes and botch by enumerating every face of n d10 (re-roll chains in closed form)."""
    ways = Counter()
    botch = Fraction(0)
    for faces in itertools.product(range(1, 11), repeat=n):
        successes, ones_left, tens_left = evaluate(list(faces), [], threshold, eats)
        ways[successes, tens_left] += 1
        botch += Fraction(successes == 0 and ones_left > 0, 10**n)
    chain = chain_law(threshold, depth)
    dist = [Fraction(0)] * (depth + 1)
    for (successes, tens_left), w in ways.items():
        part = [Fraction(1)] + [Fraction(0)] * depth
        for _ in range(tens_left):
            part = [sum(part[i] * chain[j - i] for i in range(j + 1)) for j in range(depth + 1)]
        for j in range(depth + 1 - successes):
            dist[j + successes] += Fraction(w, 10**n) * part[j]
    return dist, botch


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


@pytest.mark.parametrize("request_, field", [
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
])
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
    ("each 10 rolls its own chain", {"pool": 3}, [10, 10, 9, 10, 2, 9], 5, 0, [10, 2, 9], "success"),
    ("risky: a 1 eats the 10 before it rolls", {"pool": 3, "risky": True}, [1, 10, 8], 1, 0, [], "success"),
    ("unskilled: 1s eat 10s then others", {"pool": 4, "unskilled": True}, [1, 1, 10, 9], 0, 0, [], "failure"),
    ("risky: 1s left and no successes", {"pool": 5, "risky": True}, [1, 1, 1, 10, 8], 0, 1, [], "botch"),
    ("risky: the 10 left rolls again", {"pool": 4, "risky": True}, [1, 10, 10, 5, 9], 2, 0, [9], "success"),
    ("initiative risky: 1s eat 7s too", {"pool": 3, "risky": True, "initiative": True}, [1, 6, 7], 1, 0, [],
     "success"),
    ("not risky: 1s eat nothing", {"pool": 3}, [1, 1, 10, 4], 1, 2, [4], "success"),
    ("no successes and no 1s", {"pool": 3}, [2, 3, 7], 0, 0, [], "failure"),
]


@pytest.mark.parametrize("text, request_, faces, successes, ones_left, rerolls, outcome", RULE_CASES,
                         ids=[c[0] for c in RULE_CASES])
def test_rule_sentences(text, request_, faces, successes, ones_left, rerolls, outcome):
    """Each rule sentence, with scripted dice: successes, 1s left, re-rolls and the outcome."""
    r = roll(faces, **request_)
    assert (r["successes"], r["ones_left"], r["rerolls"], r["outcome"]) == (successes, ones_left, rerolls, outcome)
    assert r["dice"] == faces[:len(faces) - len(rerolls)]
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


def test_rerolls_are_listed_chain_by_chain_ten_again_5():
    """ten_again-5: each 10's chain is rolled in turn, until a die that is not a 10."""
    r = roll([10, 10, 10, 4, 7], pool=2)
    assert r["rerolls"] == [10, 4, 7] and r["successes"] == 3
    assert [s for s in r["steps"] if s.startswith("10 rolled again")] == [
        "10 rolled again → 10 → 4: +1 success", "10 rolled again → 7: +0 successes"]


@pytest.mark.parametrize("request_", [{"pool": 0}, {"pool": 2, "modifier": -2}, {"pool": 2, "modifier": -5}])
def test_no_dice_is_a_failure_ten_again_2(request_):
    """ten_again-2: a pool of 0 or less rolls no dice and fails (no botch)."""
    r = roll([], **request_)
    assert (r["dice"], r["will_dice"], r["outcome"], r["successes"]) == ([], [], "failure", 0)
    assert r["summary"] == "Failure: no dice"


@pytest.mark.parametrize("request_, base, will", [
    ({"pool": 2, "will": True}, 2, 3),
    ({"pool": 2, "modifier": 1, "will": True}, 3, 3),
    ({"pool": 1, "modifier": -2, "will": True}, 0, 2),
    ({"pool": 0, "modifier": -3, "will": True}, 0, 0),
])
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


def test_modifier_and_will_odds_ten_again_2():
    """ten_again-2: the odds depend only on dots + modifier (+3), so a Will under -4 gives one die."""
    assert ten_again.odds(parse(pool=2, modifier=-4, will=True)) == ten_again.odds(parse(pool=1))
    assert ten_again.odds(parse(pool=5, modifier=-9, will=True)) == ten_again.odds(parse(pool=0))


# --- contests ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("actor, target, faces, net, outcome", [
    ({"pool": 3}, {"pool": 2}, [8, 9, 2, 8, 3], 1, "actor"),
    ({"pool": 2}, {"pool": 2}, [8, 2, 9, 3], 0, "tie"),
    ({"pool": 1}, {"pool": 2}, [4, 9, 8], -2, "target"),
    ({"pool": 1, "required": 5}, {"pool": 0}, [8], 1, "actor"),
    ({"pool": 0}, {"pool": 0}, [], 0, "tie"),
    ({"pool": 1}, {"pool": 1, "initiative": True}, [10, 3, 6], 0, "tie"),
])
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


def test_spend_will_after_the_roll_ten_again_6():
    """ten_again-6: the Will's three dice join the same roll; their 10s roll again."""
    r = roll([8, 3], pool=2)
    assert r["choices"] == [{"name": "spend_will", "label": "Expend a Will: +3 dice", "side": "actor", "dice": 3,
                             "action": {"spend_will": True}}]
    r2 = act(r, {"spend_will": True}, [10, 2, 9, 7])
    assert (r2["dice"], r2["will_dice"], r2["rerolls"], r2["successes"]) == ([8, 3], [10, 2, 9], [7], 3)
    assert r2["will_spent"] and r2["choices"] == [] and r2["request"] == r["request"]


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


def test_spend_will_equals_up_front_on_same_faces_ten_again_6():
    """ten_again-6: with the same faces, expending Will after the roll gives what expending it up front does."""
    up_front = roll([8, 1, 10, 10, 9, 2, 4], pool=3, will=True, risky=True)
    # before the Will the 1 eats the pool's 10; the Will's 10 takes the 1 off it, so that 10 now rolls again
    after = act(roll([8, 1, 10], pool=3, risky=True), {"spend_will": True}, [10, 9, 2, 4])
    for key in ("dice", "will_dice", "rerolls", "successes", "ones_left", "outcome", "eaten"):
        assert after[key] == up_front[key], key


@pytest.mark.parametrize("request_, faces, message", [
    ({"pool": 2, "will": True}, [8, 3, 2, 2, 2], "already expended"),
    ({"pool": 0, "modifier": -3}, [], "adds no dice"),
])
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


def test_will_with_few_dice_left_ten_again_7():
    """ten_again-7: when the modifier eats into the Will's dice, it adds only what is left (here one)."""
    r = roll([], pool=1, modifier=-3)
    assert r["choices"][0]["dice"] == 1
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


@pytest.mark.parametrize("action, message", [
    ({}, "'action' must be one of"),
    ({"reroll": [0]}, "'action' must be one of"),
    ({"spend_will": True, "dice": 3}, "'action' must be one of"),
    ({"spend_will": False}, "'action.spend_will' must be true"),
    ({"spend_will": 1}, "'action.spend_will' must be true"),
    ({"spend_will": True, "side": "target"}, "'action.side' must be one of actor"),
    ({"spend_will": True, "side": "bystander"}, "'action.side'"),
    ([], "'action' must be one of"),
])
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


@pytest.mark.parametrize("path, value, field", [
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
])
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


# --- exact odds -------------------------------------------------------------------------------------------


def test_one_die_odds():
    """One d10: 7/10 no success, 27/100 one, 27/1000 two; 1/10 botch."""
    o = ten_again.odds(parse(pool=1))
    assert [o["successes"][k] for k in "012"] == [Fraction(7, 10), Fraction(27, 100), Fraction(27, 1000)]
    assert o["outcomes"] == {"success": Fraction(3, 10), "failure": Fraction(3, 5), "botch": Fraction(1, 10)}


def test_one_die_contest_odds_ten_again_11():
    """ten_again-11: one die against one: actor 12/55, target 12/55, tie 31/55 (the infinite sum, exactly)."""
    o = ten_again.odds(parse(pool=1, opposed={"pool": 1}))
    assert o["outcomes"] == {"actor": Fraction(12, 55), "target": Fraction(12, 55), "tie": Fraction(31, 55)}
    assert set(o) == {"outcomes", "successes", "target_successes", "botch"}
    assert o["botch"] == {"actor": Fraction(1, 10), "target": Fraction(1, 10)}


SMALL = [(n, init, unskilled, risky) for n in range(0, 4) for init in (False, True)
         for unskilled, risky in ((False, False), (True, False), (False, True))]


@pytest.mark.parametrize("n, initiative, unskilled, risky", SMALL)
def test_odds_match_brute_force(n, initiative, unskilled, risky):
    """odds equals enumeration of every face (chains in closed form), value for value, exactly."""
    depth = 25
    dist, botch = brute_law(n, 6 if initiative else 8, unskilled or risky, depth)
    for required in (1, 2, 4):
        o = ten_again.odds(parse(pool=n, unskilled=unskilled, risky=risky, initiative=initiative,
                                 required=required))
        for key, p in o["successes"].items():
            if int(key) <= depth:
                assert p == dist[int(key)], key
        assert o["outcomes"]["botch"] == botch
        assert o["outcomes"]["success"] == 1 - sum(dist[:required])


def test_odds_match_brute_force_four_dice():
    """Four risky dice on initiative: odds equals enumeration exactly."""
    dist, botch = brute_law(4, 6, True, 20)
    o = ten_again.odds(parse(pool=4, risky=True, initiative=True))
    assert [o["successes"][str(j)] for j in range(21)] == dist
    assert o["outcomes"]["botch"] == botch


@pytest.mark.parametrize("request_", [{"pool": 0}, {"pool": 1}, {"pool": 1, "required": 20},
                                      {"pool": 7, "risky": True},
                                      {"pool": 30, "modifier": 10, "will": True, "initiative": True}, LARGEST])
def test_successes_table_stops_below_the_tail_ten_again_10(request_):
    """ten_again-10: successes are listed up to the first count with less than 1e-15 beyond; outcomes sum to 1."""
    o = ten_again.odds(parse(**request_))
    values = list(o["successes"].values())
    assert list(o["successes"]) == [str(j) for j in range(len(values))]
    assert 1 - TAIL <= sum(values) <= 1
    assert len(values) == 1 or sum(values[:-1]) < 1 - TAIL
    assert sum(o["outcomes"].values()) == 1
    assert all(isinstance(p, Fraction) and 0 <= p <= 1 for p in o["outcomes"].values())


def _truncated_contest(actor: ten_again.Law, target: ten_again.Law) -> tuple[Fraction, Fraction]:
    """P(actor > target), P(equal) summed term by term over long exact series."""
    a = [actor.p(j) for j in range(len(actor.series))]
    t = [target.p(j) for j in range(len(target.series))]
    above = list(itertools.accumulate(reversed(a[1:] + [Fraction(0)])))[::-1]  # above[j] = sum(a[j+1:])
    win = sum(tj * above[j] for j, tj in enumerate(t))
    tie = sum(x * y for x, y in zip(a, t))
    return win, tie


@pytest.mark.parametrize("actor, target", [
    ((3, 8, False), (2, 8, True)),
    ((5, 6, True), (0, 8, False)),
    ((0, 8, True), (4, 6, False)),
    ((12, 8, True), (9, 6, True)),
    ((43, 8, True), (43, 6, True)),
])
def test_contest_odds_equal_the_long_sum_ten_again_11(actor, target):
    """ten_again-11: the contest's closed form equals the term-by-term sum to within 1e-100."""
    win, tie = ten_again.contest(ten_again.law(*actor, 1), ten_again.law(*target, 1))
    long_win, long_tie = _truncated_contest(ten_again.law(*actor, 260), ten_again.law(*target, 260))
    assert 0 <= long_win <= win and abs(win - long_win) < Fraction(1, 10**100)
    assert 0 <= long_tie <= tie and abs(tie - long_tie) < Fraction(1, 10**100)


def test_largest_contest_odds():
    """The largest contest answers with exact outcomes summing to 1 and symmetric sides."""
    o = ten_again.odds(parse(**LARGEST_OPPOSED))
    assert sum(o["outcomes"].values()) == 1
    assert o["outcomes"]["actor"] == o["outcomes"]["target"]
    assert o["successes"] == o["target_successes"]


def test_benchmark_request_is_the_largest():
    """The benchmark's request is allowed and uses every field's largest pool."""
    req = parse(**LARGEST_OPPOSED)
    assert ten_again.Pool.of(req).size(True) == ten_again.MAX_DICE == 43


@pytest.mark.benchmark(group="odds")
def test_bench_odds_largest(benchmark):
    """Benchmark: odds for the largest allowed request (43 risky dice against 43)."""
    req = parse(**LARGEST_OPPOSED)
    result = benchmark(ten_again.odds, req)
    assert sum(result["outcomes"].values()) == 1


# --- roll agrees with odds (chi-square, fixed seeds) -----------------------------------------------------


def _successes_probs(table: dict) -> dict:
    """Float probabilities of the successes table, the tail folded into the last count."""
    probs = {int(k): float(v) for k, v in table.items()}
    last = max(probs)
    probs[last] += float(1 - sum(table.values()))
    return probs


def _capped(counter: Counter, last: int) -> Counter:
    out = Counter()
    for k, v in counter.items():
        out[min(k, last)] += v
    return out


def test_chi_square_roll_agrees_with_odds():
    """20 000 seeded risky rolls agree with the exact outcomes and successes."""
    req = parse(pool=6, risky=True, required=2)
    o = ten_again.odds(req)
    dice = random.Random(3003)
    rolls = [ten_again.roll(req, dice) for _ in range(20_000)]
    assert_fits(Counter(r["outcome"] for r in rolls), {k: float(v) for k, v in o["outcomes"].items()}, 20_000)
    probs = _successes_probs(o["successes"])
    assert_fits(_capped(Counter(r["successes"] for r in rolls), max(probs)), probs, 20_000)


def test_chi_square_contest_agrees_with_odds():
    """20 000 seeded contests agree with the exact actor/target/tie odds."""
    req = parse(pool=4, unskilled=True, opposed={"pool": 3, "initiative": True})
    o = ten_again.odds(req)
    dice = random.Random(3004)
    outcomes = Counter(ten_again.roll(req, dice)["outcome"] for _ in range(20_000))
    assert_fits(outcomes, {k: float(v) for k, v in o["outcomes"].items()}, 20_000)


def test_chi_square_will_after_equals_up_front_ten_again_6():
    """ten_again-6: a Will expended after 20 000 seeded risky rolls matches the odds of expending it up front."""
    before = parse(pool=3, risky=True, required=2)
    o = ten_again.odds(parse(pool=3, risky=True, required=2, will=True))
    dice = random.Random(3006)
    rolls = [ten_again.act(ten_again.roll(before, dice), {"spend_will": True}, dice) for _ in range(20_000)]
    assert_fits(Counter(r["outcome"] for r in rolls), {k: float(v) for k, v in o["outcomes"].items()}, 20_000)
    probs = _successes_probs(o["successes"])
    assert_fits(_capped(Counter(r["successes"] for r in rolls), max(probs)), probs, 20_000)


# --- properties -------------------------------------------------------------------------------------------

requests = strategies.request(ten_again.FIELDS)
small_requests = strategies.request(ten_again.FIELDS, small=True)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests, st.integers(0, 2**32))
def test_roll_agrees_with_a_plain_reading(request_, seed):
    """Any roll's successes and 1s left are what a plain reading of the text gives for its dice."""
    req = fields.parse(ten_again.FIELDS, request_)
    r = ten_again.roll(req, random.Random(seed))
    sides = [(r, req)] + ([(r["target"], req["opposed"])] if req["opposed"] else [])
    for side, rq in sides:
        faces = side["dice"] + side["will_dice"]
        successes, ones_left, tens_left = evaluate(faces, side["rerolls"], 6 if rq["initiative"] else 8,
                                                   rq["unskilled"] or rq["risky"])
        assert (side["successes"], side["ones_left"]) == (successes, ones_left)
        assert side["rerolls"].count(10) + tens_left == len(side["rerolls"])
        pool = ten_again.Pool.of(rq)
        assert len(faces) == pool.size(rq["will"])


@settings(max_examples=40, deadline=None)
@given(small_requests, st.integers(0, 2**32))
def test_rolled_outcome_has_odds(request_, seed):
    """A rolled outcome always has non-zero probability under odds."""
    req = fields.parse(ten_again.FIELDS, request_)
    r = ten_again.roll(req, random.Random(seed))
    o = ten_again.odds(req)
    assert o["outcomes"][r["outcome"]] > 0
    assert o["successes"].get(str(r["successes"]), 1) > 0


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


@settings(max_examples=30, deadline=None)
@given(requests)
def test_odds_sum_to_one(request_):
    """Outcomes sum to exactly 1 and the successes table to within 1e-15 of it."""
    o = ten_again.odds(fields.parse(ten_again.FIELDS, request_))
    assert sum(o["outcomes"].values()) == 1
    assert 1 - TAIL <= sum(o["successes"].values()) <= 1
    if "target_successes" in o:
        assert 1 - TAIL <= sum(o["target_successes"].values()) <= 1


SIDE = st.fixed_dictionaries({f.name: strategies.for_field(f) for f in ten_again.FIELDS
                              if f.name not in ("required", "opposed")})


@settings(max_examples=30, deadline=None)
@given(SIDE, SIDE)
def test_contest_sides_swap_exactly_ten_again_8(actor, target):
    """ten_again-8: swapping the sides swaps actor and target exactly (two different sums agree)."""
    ab = ten_again.odds(parse(**actor, opposed=target))["outcomes"]
    ba = ten_again.odds(parse(**target, opposed=actor))["outcomes"]
    assert (ab["actor"], ab["tie"], ab["target"]) == (ba["target"], ba["tie"], ba["actor"])


@settings(max_examples=40, deadline=None)
@given(SIDE, st.integers(1, 20))
def test_more_dice_never_lower_success_without_eating(side, required):
    """Where 1s eat nothing, one more dot never lowers the chance of success."""
    side = dict(side, unskilled=False, risky=False, pool=min(side["pool"], 29))
    p = ten_again.odds(parse(**side, required=required))["outcomes"]["success"]
    q = ten_again.odds(parse(**dict(side, pool=side["pool"] + 1), required=required))["outcomes"]["success"]
    assert q >= p


@settings(max_examples=40, deadline=None)
@given(SIDE, st.integers(1, 20))
def test_initiative_helps_and_eating_hurts(side, required):
    """Counting 6s and 7s never lowers the chance of success; letting 1s eat never raises it."""
    def success(**change):
        return ten_again.odds(parse(**dict(side, **change), required=required))["outcomes"]["success"]
    assert success(initiative=True) >= success(initiative=False)
    assert success(risky=True) <= success(risky=False, unskilled=False)
    assert success(unskilled=True) == success(risky=True)


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
    assert entry["defaults"] == {"pool": 3, "modifier": 0, "will": False, "unskilled": False, "risky": False,
                                 "initiative": False, "required": 1, "opposed": None}
    assert [a["name"] for a in entry["actions"]] == ["spend_will"]


@pytest.mark.parametrize("request_", [{"pool": True}, {"pool": 99}, {"bogus": 1}, [1]])
def test_api_refuses_bad_requests(request_):
    """The API refuses bad requests with RulesError."""
    from arbiter import api
    with pytest.raises(RulesError):
        api.roll("ten_again", request_)
    with pytest.raises(RulesError):
        api.odds("ten_again", request_)


# --- table state: Will ------------------------------------------------------------------------------------

WILL = {"will": 3, "resolve": 2, "composure": 3}


@pytest.mark.parametrize("resolve, composure, maximum", [(1, 1, 2), (2, 3, 5), (4, 1, 5), (10, 10, 20)])
def test_will_max_is_resolve_plus_composure_ten_again_12(resolve, composure, maximum):
    """ten_again-12: the character's maximum Will is resolve + composure."""
    assert ten_again.will_max({"resolve": resolve, "composure": composure}) == {"max": maximum}


@pytest.mark.parametrize("state, words", [
    ({"will": 3, "resolve": 0, "composure": 3}, "'state.resolve' must be from 1 to 10"),
    ({"will": 3, "resolve": 11, "composure": 3}, "'state.resolve' must be from 1 to 10"),
    ({"will": 3, "resolve": 2, "composure": True}, "'state.composure' must be a whole number from 1 to 10"),
    ({"will": 6, "resolve": 2, "composure": 3}, r"'state.will' must be from 0 to 5 \(resolve 2 \+ composure 3\)"),
    ({"will": -1, "resolve": 2, "composure": 3}, "'state.will' must be from 0 to 20"),
    ({"will": "3", "resolve": 2, "composure": 3}, "'state.will' must be a whole number"),
    ({"will": 3, "composure": 3}, "'state.resolve' is missing"),
    ({"resolve": 2, "composure": 3}, "'state.will' is missing"),
    ([3, 2, 3], "'state' must be an object"),
    (None, "'state' must be an object"),
])
def test_will_state_is_checked_ten_again_12(state, words):
    """ten_again-12: Resolve and Composure are 1..10 dots and Will 0..their sum; bad sheets name the field and range."""
    for op in (ten_again.expend_will, ten_again.rest, ten_again.will_roll):
        with pytest.raises(RulesError, match=words):
            op(state)


def test_spend_will_lowers_will_by_one_ten_again_13():
    """ten_again-13: expending a single will point lowers Will by 1 and says what is left."""
    out = ten_again.expend_will(WILL)
    assert out == {**WILL, "will": 2, "note": "Spent 1 Will (2/5 left)"}


def test_spend_will_refused_without_any_remaining_ten_again_13():
    """ten_again-13: a Will can only be expended if you have any remaining."""
    with pytest.raises(RulesError, match="'state.will' is 0: no Will remaining"):
        ten_again.expend_will({**WILL, "will": 0})


@pytest.mark.parametrize("will, nights, after", [(0, 1, 1), (3, 1, 4), (3, 2, 5), (3, 30, 5), (5, 1, 5), (0, 5, 5)])
def test_rest_restores_one_per_night_up_to_the_maximum_ten_again_14(will, nights, after):
    """ten_again-14: Will replenishes at 1 per night of good rest, up to resolve + composure."""
    out = ten_again.rest({**WILL, "will": will}, {"nights": nights})
    assert out["will"] == after
    assert ("already at its maximum" in out["note"]) == (will == after)


def test_rest_defaults_to_one_night_ten_again_14():
    """ten_again-14: without args a rest is one night."""
    assert ten_again.rest(WILL)["will"] == ten_again.rest(WILL, {"nights": 1})["will"] == 4


@pytest.mark.parametrize("args, words", [
    ({"nights": 0}, "'args.nights' must be from 1 to 30"),
    ({"nights": 31}, "'args.nights' must be from 1 to 30"),
    ({"nights": True}, "'args.nights' must be a whole number"),
    ({"days": 2}, "unknown field 'args.days'"),
    ([2], "'args' must be an object"),
])
def test_rest_refuses_bad_nights_ten_again_14(args, words):
    """ten_again-14: nights are 1 to 30; anything else is refused naming the field."""
    with pytest.raises(RulesError, match=words):
        ten_again.rest(WILL, args)


def test_will_roll_pool_is_the_will_left_ten_again_15():
    """ten_again-15: a Will roll uses as many dice as the Will left, so spending Will lowers it."""
    req = ten_again.will_roll(WILL)
    assert req == {**fields.defaults(ten_again.FIELDS), "pool": 3}
    assert ten_again.will_roll(ten_again.expend_will(WILL))["pool"] == 2
    r = roll([8, 2, 1], **req)
    assert len(r["dice"]) == 3 and r["request"]["will"] is False


def test_will_roll_takes_modifier_and_required_ten_again_15():
    """ten_again-15: the storyteller's modifier and required successes go into the Will roll; the pool may not."""
    assert ten_again.will_roll(WILL, {"modifier": -1, "required": 2})["modifier"] == -1
    with pytest.raises(RulesError, match="unknown field 'args.pool'"):
        ten_again.will_roll(WILL, {"pool": 9})
    with pytest.raises(RulesError, match="'args.required' must be from 1 to 20"):
        ten_again.will_roll(WILL, {"required": 0})


def test_a_will_roll_with_no_will_left_fails_ten_again_15():
    """ten_again-15: with no Will left the Will roll has no dice and fails (ten_again-2)."""
    r = roll([], **ten_again.will_roll({**WILL, "will": 0}))
    assert r["outcome"] == "failure" and r["dice"] == []


def test_keys_an_op_does_not_read_are_kept():
    """A whole sheet may be passed: keys the op does not read come back unchanged."""
    sheet = {**WILL, "name": "Mara", "stats": [{"name": "Wits", "dots": 3}], "trained": ["Occult"]}
    out = ten_again.expend_will(sheet)
    assert {k: v for k, v in out.items() if k not in ("will", "note")} == {k: v for k, v in sheet.items()
                                                                            if k != "will"}


@pytest.mark.parametrize("op", ["will_max", "spend_will", "struggle_reset"])
def test_ops_without_args_refuse_args(op):
    """An op that takes no arguments refuses any, saying so."""
    state = {"target": 3} if op.startswith("struggle") else WILL
    assert ten_again.TABLE[op](state, {}) == ten_again.TABLE[op](state, None)
    with pytest.raises(RulesError, match=f"'args' must be empty or null: {op} takes no arguments"):
        ten_again.TABLE[op](state, {"nights": 1})


will_states = st.integers(1, 10).flatmap(
    lambda r: st.integers(1, 10).flatmap(
        lambda c: st.fixed_dictionaries({"resolve": st.just(r), "composure": st.just(c), "will": st.integers(0, r + c)})))


@settings(max_examples=200, deadline=None)
@given(will_states, st.integers(1, 30))
def test_rest_never_exceeds_the_maximum_nor_lowers_will_ten_again_14(state, nights):
    """ten_again-14: after any rest Will is at most resolve + composure, never lower than before, +1 a night."""
    before = copy.deepcopy(state)
    after = ten_again.rest(state, {"nights": nights})["will"]
    assert state == before
    assert state["will"] <= after <= state["resolve"] + state["composure"]
    assert after == min(state["will"] + nights, state["resolve"] + state["composure"])


@settings(max_examples=200, deadline=None)
@given(will_states)
def test_spend_then_a_night_of_rest_gives_the_will_back_ten_again_13(state):
    """ten_again-13: expending one Will and resting one night leaves Will where it was (refused at 0)."""
    if state["will"] == 0:
        with pytest.raises(RulesError):
            ten_again.expend_will(state)
    else:
        spent = ten_again.expend_will(state)
        assert spent["will"] == state["will"] - 1
        assert ten_again.rest(spent)["will"] == state["will"]


# --- table state: ongoing struggles -----------------------------------------------------------------------


def turn(state, faces, **request):
    return ten_again.struggle_turn(state, {"roll": roll(faces, **request)})


def test_a_turn_adds_the_rolls_successes_ten_again_16():
    """ten_again-16: each turn's successes accumulate toward the target."""
    out = turn({"target": 5}, [8, 9, 2], pool=3)
    assert out == {"target": 5, "accumulated": 2, "turns": 1, "status": "ongoing", "contest": False,
                   "note": "Turn 1: 2 successes: 2/5"}
    out = turn(out, [10, 8, 3], pool=2)
    assert (out["accumulated"], out["turns"], out["status"]) == (4, 2, "ongoing")


def test_reaching_the_target_is_done_and_keeps_the_count_ten_again_16():
    """ten_again-16: reaching the target ends the struggle; the whole count is kept."""
    out = turn({"target": 5, "accumulated": 4, "turns": 3}, [8, 9, 2], pool=3)
    assert (out["accumulated"], out["turns"], out["status"]) == (6, 4, "done")
    assert out["note"].endswith("6/5: done")


def test_the_rolls_own_required_is_not_used_ten_again_16():
    """ten_again-16: a roll that fails its own `required` still adds its successes to the struggle."""
    r = roll([8, 9, 2], pool=3, required=3)
    assert r["outcome"] == "failure"
    assert ten_again.struggle_turn({"target": 5}, {"roll": r})["accumulated"] == 2


def test_a_done_struggle_takes_no_turn_until_reset_ten_again_16():
    """ten_again-16: a done struggle refuses turns; struggle_reset starts again with the same target."""
    done = {"target": 2, "accumulated": 3, "turns": 2, "status": "done"}
    with pytest.raises(RulesError, match="'state.status' is done: no more turns; struggle_reset"):
        turn(done, [8], pool=1)
    again = ten_again.struggle_reset(done)
    assert again == {"target": 2, "accumulated": 0, "turns": 0, "status": "ongoing", "contest": False,
                     "note": "Started again from scratch: 0/2"}


def test_a_botch_aborts_and_resets_the_effort_ten_again_17():
    """ten_again-17: a botch aborts the whole effort: accumulated back to 0, no more turns until reset."""
    out = turn({"target": 8, "accumulated": 6, "turns": 4}, [1, 3, 5], pool=3)
    assert (out["accumulated"], out["turns"], out["status"]) == (0, 5, "aborted")
    assert "botch" in out["note"] and "start again from scratch" in out["note"]
    with pytest.raises(RulesError, match="'state.status' is aborted"):
        turn(out, [8], pool=1)
    assert ten_again.struggle_reset(out)["status"] == "ongoing"


def test_a_risky_botch_aborts_too_ten_again_17():
    """ten_again-17: 1s left after eating every success on a risky roll are a botch, and abort."""
    out = turn({"target": 3, "accumulated": 2}, [1, 1, 9], pool=3, risky=True)
    assert out["status"] == "aborted" and out["accumulated"] == 0


CONTEST = {"target": 6, "contest": True}


def test_in_a_contest_the_net_accumulates_ten_again_18():
    """ten_again-18: in an ongoing contest the actor's successes left after the resistance's accumulate."""
    # actor 8 9 10 (the 10 rolls a 3): 3 successes; resistance 8 2: 1 success; net 2
    out = turn(CONTEST, [8, 9, 10, 3, 8, 2], pool=3, opposed={"pool": 2})
    assert (out["accumulated"], out["turns"], out["status"]) == (2, 1, "ongoing")
    assert out["note"] == "Turn 1: 2 successes left after the resistance's: 2/6"


@pytest.mark.parametrize("accumulated, after", [(4, 1), (3, 0), (1, 0), (0, 0)])
def test_the_resistances_excess_eats_accumulated_successes_ten_again_18(accumulated, after):
    """ten_again-18: excess successes on the resistance roll eat accumulated successes, never below 0."""
    # actor 2 3: no success; resistance 8 9 8: 3 successes; net -3
    out = turn({**CONTEST, "accumulated": accumulated}, [2, 3, 8, 9, 8], pool=2, opposed={"pool": 3})
    assert (out["accumulated"], out["status"]) == (after, "ongoing")
    assert "the resistance has 3 successes left" in out["note"]


def test_the_resistances_botch_aborts_nothing_ten_again_17():
    """ten_again-17: in a contest only the actor's botch aborts; the resistance's botch is its own."""
    r = roll([8, 2, 1, 3], pool=2, opposed={"pool": 2})
    assert r["target"]["botch"] and not r["botch"]
    out = ten_again.struggle_turn({**CONTEST, "accumulated": 2}, {"roll": r})
    assert (out["accumulated"], out["status"]) == (3, "ongoing")


def test_the_actors_botch_aborts_a_contest_ten_again_17():
    """ten_again-17: the actor's botch aborts an ongoing contest whatever the resistance rolled."""
    out = turn({**CONTEST, "accumulated": 5}, [1, 2, 3, 4], pool=2, opposed={"pool": 2})
    assert (out["accumulated"], out["status"]) == (0, "aborted")


def test_a_struggle_is_a_contest_or_not_throughout_ten_again_18():
    """ten_again-18: a contest takes contested rolls and requests only, and a plain struggle plain ones."""
    plain = roll([8, 2], pool=2)
    contested = roll([8, 2, 3], pool=2, opposed={"pool": 1})
    with pytest.raises(RulesError, match=r"'args.roll' must be a contest \(with 'opposed'\)"):
        ten_again.struggle_turn(CONTEST, {"roll": plain})
    with pytest.raises(RulesError, match=r"'args.roll' must be unopposed"):
        ten_again.struggle_turn({"target": 3}, {"roll": contested})
    with pytest.raises(RulesError, match=r"'args.request' must be a contest"):
        ten_again.struggle_odds(CONTEST, {"request": {"pool": 2}, "turns": 2})
    with pytest.raises(RulesError, match=r"'args.request' must be unopposed"):
        ten_again.struggle_odds({"target": 3}, {"request": {"pool": 2, "opposed": {"pool": 1}}, "turns": 2})


@pytest.mark.parametrize("state, words", [
    ({}, "'state.target' is missing: Successes needed, a whole number from 1 to 50"),
    ({"target": 0}, "'state.target' must be from 1 to 50"),
    ({"target": 51}, "'state.target' must be from 1 to 50"),
    ({"target": 5, "accumulated": 5}, r"'state.accumulated' must be from 0 to 4 while the struggle is ongoing"),
    ({"target": 5, "accumulated": -1}, "'state.accumulated' must be from 0 to 10000"),
    ({"target": 5, "accumulated": 4, "status": "done"}, "'state.accumulated' must be at least the target 5"),
    ({"target": 5, "accumulated": 2, "status": "aborted"}, "'state.accumulated' must be 0 when"),
    ({"target": 5, "status": "won"}, "'state.status' must be one of ongoing, done, aborted"),
    ({"target": 5, "contest": 1}, "'state.contest' must be true or false"),
    ({"target": 5, "turns": 1001}, "'state.turns' must be from 0 to 1000"),
    ("target 5", "'state' must be an object"),
])
def test_struggle_state_is_checked_ten_again_16(state, words):
    """ten_again-16: a struggle's target is 1..50 and its count fits its status; bad state names the field."""
    for op, args in ((ten_again.struggle_turn, {"roll": roll([8], pool=1)}), (ten_again.struggle_reset, None),
                     (ten_again.struggle_odds, {"request": {"pool": 1}})):
        with pytest.raises(RulesError, match=words):
            op(state, args)


def _tampered(change):
    r = roll([8, 10, 9, 2], pool=3)
    change(r)
    return r


@pytest.mark.parametrize("args, words", [
    ({}, "'args.roll' is missing"),
    ({"roll": None}, "'args.roll' must be an object"),
    ({"roll": [8, 9]}, "'args.roll' must be an object"),
    ({"roll": {"system": "luck"}}, "'args.roll' must be a ten_again roll"),
    ({"roll": _tampered(lambda r: r.update(successes=9))}, "'args.roll.successes' does not match the dice"),
    ({"roll": _tampered(lambda r: r.update(botch=True))}, "'args.roll.botch' does not match the dice"),
    ({"roll": _tampered(lambda r: r.update(dice=[8, 10, 11]))}, "'args.roll.dice' must be a list of 3 faces"),
    ({"roll": _tampered(lambda r: r.update(rerolls=[]))}, "'args.roll.rerolls' must hold one chain per 10"),
    ({"roll": _tampered(lambda r: r["request"].update(pool=31))}, "'args.roll.request.pool' must be from 0 to 30"),
    ({"roll": _tampered(lambda r: r.update(target={"dice": [8]}))}, None),
    ({"roll": roll([8], pool=1), "turns": 2}, "unknown field 'args.turns'"),
])
def test_struggle_turn_checks_its_roll_ten_again_16(args, words):
    """ten_again-16: a turn's roll must be a ten_again roll whose dice and counts the rules could have given."""
    if words is None:  # a stray key the rules do not read changes nothing
        assert ten_again.struggle_turn({"target": 9}, args)["accumulated"] == 3
        return
    with pytest.raises(RulesError, match=words):
        ten_again.struggle_turn({"target": 9}, args)


@settings(max_examples=60, deadline=None)
@given(small_requests, st.integers(1, 50), st.integers(0, 49), st.integers(0, 2**32))
def test_a_turn_keeps_the_struggle_consistent_ten_again_18(request_, target, accumulated, seed):
    """ten_again-18: after any turn the count is >= 0, the status fits it, and the state given is unchanged."""
    req = fields.parse(ten_again.FIELDS, request_)
    r = ten_again.roll(req, random.Random(seed))
    state = {"target": target, "accumulated": min(accumulated, target - 1), "turns": 2,
             "contest": req["opposed"] is not None}
    before = copy.deepcopy(state)
    out = ten_again.struggle_turn(state, {"roll": r})
    assert state == before and out["turns"] == 3 and out["accumulated"] >= 0
    gained = r["net"] if state["contest"] else r["successes"]
    if r["botch"]:
        assert (out["status"], out["accumulated"]) == ("aborted", 0)
    else:
        assert out["accumulated"] == max(0, state["accumulated"] + gained)
        assert out["status"] == ("done" if out["accumulated"] >= target else "ongoing")


# --- struggle odds ----------------------------------------------------------------------------------------


def odds_of(state, request_, turns):
    o = ten_again.struggle_odds(state, {"request": request_, "turns": turns})
    return ([o["finish_within"][str(n)] for n in range(1, turns + 1)],
            [o["abort_within"][str(n)] for n in range(1, turns + 1)])


def test_struggle_odds_by_hand_ten_again_19():
    """ten_again-19: one die, one success needed, two turns: 3/10 + 6/10 * 3/10 done, 1/10 + 6/10 * 1/10 aborted."""
    finish, abort = odds_of({"target": 1}, {"pool": 1}, 2)
    assert finish == [Fraction(3, 10), Fraction(48, 100)]
    assert abort == [Fraction(1, 10), Fraction(16, 100)]


STRUGGLE_REQUESTS = [{"pool": 1}, {"pool": 3, "risky": True}, {"pool": 2, "initiative": True, "unskilled": True},
                     {"pool": 5, "modifier": -2, "will": True}, {"pool": 0}, {"pool": 30, "modifier": 10, "will": True},
                     {"pool": 12, "risky": True, "initiative": True}]


@pytest.mark.parametrize("request_", STRUGGLE_REQUESTS)
def test_one_turn_to_one_success_is_the_rolls_success_ten_again_19(request_):
    """ten_again-19: target 1 within 1 turn is exactly P(successes >= 1 and no botch); aborting is P(botch)."""
    finish, abort = odds_of({"target": 1}, request_, 1)
    o = ten_again.odds(parse(**request_, required=1))
    # a botch has no successes, so P(successes >= 1) is P(successes >= 1 and no botch)
    assert finish == [o["outcomes"]["success"]]
    assert abort == [o["outcomes"]["botch"]]


@pytest.mark.parametrize("actor, resistance", [({"pool": 1}, {"pool": 1}), ({"pool": 4, "risky": True}, {"pool": 3}),
                                               ({"pool": 30, "modifier": 10, "will": True, "initiative": True},
                                                {"pool": 30, "modifier": 10, "will": True, "initiative": True})])
def test_one_contested_turn_to_one_success_is_the_actors_win_ten_again_19(actor, resistance):
    """ten_again-19: in a contest, target 1 within 1 turn is P(actor has successes left), within 2e-15."""
    finish, abort = odds_of({"target": 1, "contest": True}, {**actor, "opposed": resistance}, 1)
    o = ten_again.odds(parse(**actor, opposed=resistance))
    assert 0 <= o["outcomes"]["actor"] - finish[0] < 2 * TAIL
    assert abort == [o["botch"]["actor"]]


def brute_struggle(net, botch, target, accumulated, turns):
    """Done and aborted within `turns`, by plain recursion over one turn's {net successes: p} (no botch) and botch."""
    memo = {}

    def go(a, t):
        if t == 0:
            return Fraction(0), Fraction(0)
        if (a, t) not in memo:
            done, aborted = Fraction(0), botch
            for k, p in net.items():
                b = max(0, a + k)
                if b >= target:
                    done += p
                else:
                    d, ab = go(b, t - 1)
                    done, aborted = done + p * d, aborted + p * ab
            memo[a, t] = done, aborted
        return memo[a, t]

    out = [go(accumulated, t) for t in range(1, turns + 1)]
    return [d for d, _ in out], [ab for _, ab in out]


def side_law(side, depth):
    pool = ten_again.Pool.of(parse(**side))
    dist, botch = brute_law(pool.size(pool.will), pool.threshold, pool.eats, depth)
    return dist, botch


UNOPPOSED_SMALL = [({"pool": 1}, 3, 0, 4), ({"pool": 2, "risky": True}, 3, 1, 3), ({"pool": 3}, 4, 0, 3),
                   ({"pool": 2, "initiative": True, "unskilled": True}, 2, 0, 5), ({"pool": 1, "will": True}, 4, 2, 2)]


@pytest.mark.parametrize("side, target, accumulated, turns", UNOPPOSED_SMALL)
def test_struggle_odds_match_a_plain_recursion_ten_again_19(side, target, accumulated, turns):
    """ten_again-19: unopposed struggle odds equal exactly a recursion over every face of the dice."""
    dist, botch = side_law(side, 12)
    net = {j: dist[j] - (botch if j == 0 else 0) for j in range(target)}
    net[target] = 1 - sum(dist[:target])  # every count from the target up finishes
    expected = brute_struggle(net, botch, target, accumulated, turns)
    assert odds_of({"target": target, "accumulated": accumulated}, side, turns) == expected


CONTEST_SMALL = [({"pool": 1}, {"pool": 1}, 2, 0, 3), ({"pool": 2, "risky": True}, {"pool": 1}, 3, 1, 3),
                 ({"pool": 1, "initiative": True}, {"pool": 2, "unskilled": True}, 2, 1, 4)]


@pytest.mark.parametrize("actor, resistance, target, accumulated, turns", CONTEST_SMALL)
def test_contest_struggle_odds_match_a_plain_recursion_ten_again_19(actor, resistance, target, accumulated, turns):
    """ten_again-19: contest struggle odds agree with a recursion over every face within 2e-15 a turn, never above."""
    depth = 40
    dist_a, botch = side_law(actor, depth)
    dist_t, _ = side_law(resistance, depth)
    net = defaultdict(Fraction)
    for i, pa in enumerate(dist_a):
        for j, pt in enumerate(dist_t):
            net[i - j] += (pa - (botch if i == 0 else 0)) * pt
    expected = brute_struggle(net, botch, target, accumulated, turns)
    got = odds_of({"target": target, "accumulated": accumulated, "contest": True},
                  {**actor, "opposed": resistance}, turns)
    for g, e in zip(got[0] + got[1], expected[0] + expected[1]):
        assert -Fraction(1, 10**30) < e - g < 2 * TAIL * turns


def test_struggle_odds_refuses_bad_args_ten_again_19():
    """ten_again-19: turns are 1 to 20, the request must be a ten_again request, a finished struggle has no odds."""
    for args, words in [({"request": {"pool": 1}, "turns": 21}, "'args.turns' must be from 1 to 20"),
                        ({"request": {"pool": 1}, "turns": 0}, "'args.turns' must be from 1 to 20"),
                        ({"turns": 2}, "'args.request' is missing"),
                        ({"request": {"pool": 31}}, "'args.request.pool' must be from 0 to 30"),
                        ({"request": {"dots": 3}}, "unknown field 'args.request.dots'"),
                        ({"request": 3}, "'args.request' must be an object")]:
        with pytest.raises(RulesError, match=words):
            ten_again.struggle_odds({"target": 3}, args)
    with pytest.raises(RulesError, match="'state.status' is done"):
        ten_again.struggle_odds({"target": 3, "accumulated": 3, "status": "done"}, {"request": {"pool": 1}})


struggle_requests = strategies.request(ten_again.FIELDS)


@settings(max_examples=40, deadline=None)
@given(struggle_requests, st.integers(1, 50), st.integers(0, 49), st.integers(1, 20))
def test_struggle_odds_grow_with_turns_and_never_pass_one_ten_again_19(request_, target, accumulated, turns):
    """ten_again-19: done and aborted within N turns never fall as N grows, and together never exceed 1."""
    state = {"target": target, "accumulated": min(accumulated, target - 1), "contest": request_["opposed"] is not None}
    finish, abort = odds_of(state, request_, turns)
    for a, b in zip(finish, finish[1:]):
        assert a <= b
    for a, b in zip(abort, abort[1:]):
        assert a <= b
    assert all(0 <= f and 0 <= a and f + a <= 1 for f, a in zip(finish, abort))


@settings(max_examples=40, deadline=None)
@given(small_requests, st.integers(2, 12), st.integers(0, 10), st.integers(1, 6))
def test_starting_closer_never_hurts_ten_again_18(request_, target, accumulated, turns):
    """ten_again-18: one more success accumulated never lowers the chance to finish, nor raises the chance to abort."""
    a = min(accumulated, target - 2)
    state = {"target": target, "contest": request_["opposed"] is not None}
    f0, b0 = odds_of({**state, "accumulated": a}, request_, turns)
    f1, b1 = odds_of({**state, "accumulated": a + 1}, request_, turns)
    assert all(x <= y for x, y in zip(f0, f1))
    assert all(x >= y for x, y in zip(b0, b1))


@pytest.mark.parametrize("request_, target, turns, seed", [
    ({"pool": 3, "risky": True}, 4, 3, 3019),
    ({"pool": 3, "unskilled": True, "opposed": {"pool": 2}}, 3, 3, 3020),
])
def test_chi_square_struggles_agree_with_odds_ten_again_19(request_, target, turns, seed):
    """ten_again-19: 20 000 seeded struggles, turn by turn, end (done or aborted at each turn, or not) as the odds say."""
    req = parse(**request_)
    state = {"target": target, "contest": req["opposed"] is not None}
    finish, abort = odds_of(state, request_, turns)
    probs = {"ongoing": float(1 - finish[-1] - abort[-1])}
    for n in range(turns):
        probs[f"done {n + 1}"] = float(finish[n] - (finish[n - 1] if n else 0))
        probs[f"aborted {n + 1}"] = float(abort[n] - (abort[n - 1] if n else 0))
    dice = random.Random(seed)
    actor = ten_again.Pool.of(req)
    resistance = ten_again.Pool.of(req["opposed"]) if req["opposed"] else None
    seen = Counter()
    for _ in range(20_000):
        s = ten_again.Struggle(target, contest=state["contest"])
        while s.status is ten_again.Status.ONGOING and s.turns < turns:
            r = ten_again.Roll(ten_again.roll_hand(actor, dice), 1,
                               ten_again.roll_hand(resistance, dice) if resistance else None)
            s, _ = s.turn(r)
        seen["ongoing" if s.status is ten_again.Status.ONGOING else f"{s.status.value} {s.turns}"] += 1
    assert_fits(seen, probs, 20_000)


LARGEST_STRUGGLE = {"pool": 30, "modifier": 10, "will": True, "initiative": True,
                    "opposed": {"pool": 30, "modifier": 10, "will": True, "initiative": True}}


def test_largest_struggle_odds_have_exact_strings_ten_again_19():
    """ten_again-19: the largest contest (43 dice a side, 6s up, target 50, 20 turns) gives every "p/q" string."""
    from arbiter import api
    o = api.table("ten_again", "struggle_odds", {"target": 50, "contest": True},
                  {"request": LARGEST_STRUGGLE, "turns": 20})
    assert Fraction(o["exact"]["finish_within"]["20"]) > 0
    assert float(Fraction(o["exact"]["abort_within"]["20"])) == o["abort_within"]["20"]


@pytest.mark.benchmark(group="odds")
@pytest.mark.parametrize("request_", [{k: v for k, v in LARGEST_STRUGGLE.items() if k != "opposed"},
                                      LARGEST_STRUGGLE], ids=["unopposed", "contest"])
def test_bench_struggle_odds_largest(benchmark, request_):
    """Benchmark: struggle_odds for 43 dice (against 43 in a contest), target 50, 20 turns."""
    state = {"target": 50, "contest": "opposed" in request_}
    result = benchmark(ten_again.struggle_odds, state, {"request": request_, "turns": 20})
    assert len(result["finish_within"]) == 20


def test_api_table_ten_again():
    """Through the API: a Will spent, a struggle's turn and its odds as floats with exact strings; inputs unchanged."""
    from arbiter import api
    sheet = {**WILL, "name": "Mara"}
    before = copy.deepcopy(sheet)
    assert api.table("ten_again", "spend_will", sheet)["will"] == 2 and sheet == before
    r = api.roll("ten_again", {"pool": 3}, seed=3)
    out = api.table("ten_again", "struggle_turn", {"target": 50}, {"roll": r})
    assert out["accumulated"] == r["successes"] and out["turns"] == 1
    o = api.table("ten_again", "struggle_odds", {"target": 1}, {"request": {"pool": 1}, "turns": 2})
    assert o["exact"] == {"finish_within": {"1": "3/10", "2": "12/25"}, "abort_within": {"1": "1/10", "2": "4/25"}}
    assert o["finish_within"]["2"] == 0.48
