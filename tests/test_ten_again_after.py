"""ten_again.after: odds after expending a Will after the roll (against the real act() over every die it may roll),
the roll as it stands, the what-ifs, and luck."""

from __future__ import annotations

import copy
import itertools
import math
import random
from collections import Counter
from fractions import Fraction

import pytest

from arbiter import api, ten_again
from arbiter.dice import source
from arbiter.errors import RulesError
from arbiter.ten_again import after
from stats import assert_fits
from ten_again_helpers import chain_law, evaluate, parse, roll


class _More(Exception):
    """The rules asked for a die beyond the script: branch on it."""


class _Prefix:
    def __init__(self, faces):
        self.faces, self.used = list(faces), 0

    def randint(self, a, b):
        if self.used == len(self.faces):
            raise _More
        self.used += 1
        return self.faces[self.used - 1]


def brute_force(result: dict, action: dict, tens: int = 7) -> tuple[dict[str, Fraction], Fraction]:
    """The real act() over every sequence of dice it asks for, by kind of face (a 1, a miss, a hit below 10, a 10:
    act() reads no more of a face), stopping where more than `tens` 10s were rolled: the chance of each outcome
    found, and the chance left unexplored (10s rolling on)."""
    threshold = 6 if result["request"]["initiative"] else 8
    kinds = Counter(1 if f == 1 else 10 if f == 10 else 2 if f < threshold else threshold for f in range(1, 11))
    found: dict[str, Fraction] = Counter()
    left = Fraction(0)
    stack = [((), Fraction(1))]
    while stack:
        prefix, p = stack.pop()
        try:
            out = ten_again.act(copy.deepcopy(result), action, _Prefix(prefix))
        except _More:
            if prefix.count(10) > tens:
                left += p
            else:
                stack.extend((prefix + (f,), p * n / 10) for f, n in kinds.items())
            continue
        found[out["outcome"]] += p
    return found, left


# (faces, request, action): a Will after rolls without and with 1s eating, 10s left with chains a Will 1 may eat,
# initiative, a modifier that leaves the Will two dice, and both sides of a contest
CASES = {
    "plain, a 10 rolling on": ([10, 1, 3], {"pool": 2, "required": 4}, {"spend_will": True}),
    "risky, two 10s with chains": ([10, 10, 10, 8, 9], {"pool": 2, "risky": True, "required": 7}, {"spend_will": True}),
    # ten_again-25's example: which chain a Will 1 takes decides between a success and a failure
    "risky, the chain a 1 takes decides": (
        [10, 10, 8, 10, 9],
        {"pool": 2, "risky": True, "required": 3},
        {"spend_will": True},
    ),
    "unskilled botch": ([1], {"pool": 1, "unskilled": True}, {"spend_will": True}),
    "plain botch": ([1, 5], {"pool": 2}, {"spend_will": True}),
    "initiative": ([6, 1], {"pool": 2, "initiative": True, "risky": True, "required": 2}, {"spend_will": True}),
    "modifier leaves two": ([], {"pool": 0, "modifier": -1}, {"spend_will": True}),
    "contest, actor": ([8, 1, 9, 10, 4], {"pool": 2, "risky": True, "opposed": {"pool": 2}}, {"spend_will": True}),
    "contest, target": (
        [8, 1, 9, 10, 4],
        {"pool": 2, "risky": True, "opposed": {"pool": 2, "unskilled": True}},
        {"spend_will": True, "side": "target"},
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_odds_after_a_will_agree_with_every_die_act_may_roll(case):
    """ten_again-21: odds_after({"spend_will": true}) lies within what the real act() gives over every die sequence with up to seven
    10s and the little chance left beyond them (10s rolling on), for each kind of roll."""
    faces, request, action = CASES[case]
    result = roll(faces, **request)
    exact = after.odds_after(result, action)["outcomes"]
    found, left = brute_force(result, action)
    assert left < Fraction(1, 10**5)
    assert sum(exact.values()) == 1
    for outcome, p in exact.items():
        assert found[outcome] <= p <= found[outcome] + left, (outcome, p, found[outcome], left)


def test_the_brute_force_tells_a_wrong_answer():
    """The check above is not empty: moving a thousandth from one outcome to another fails it."""
    faces, request, action = CASES["risky, two 10s with chains"]
    result = roll(faces, **request)
    exact = after.odds_after(result, action)["outcomes"]
    found, left = brute_force(result, action)
    wrong = dict(exact, success=exact["success"] - Fraction(1, 1000), failure=exact["failure"] + Fraction(1, 1000))
    assert any(not found[o] <= p <= found[o] + left for o, p in wrong.items())


# A Will die's kinds of face: (a face standing for it, how many faces of a d10 are of that kind), 8 succeeding.
WILL_KINDS = ((1, 1), (2, 6), (8, 2), (10, 1))


def _up_front(pool: list[int], required: int) -> dict[str, Fraction]:
    """The outcomes of a risky roll whose pool shows `pool` and whose Will, expended up front, is still to roll: every
    Will die by kind, the 10s left's chains by the straightforward law (ten_again_helpers)."""
    law = chain_law(8, required)
    out: dict[str, Fraction] = Counter()
    for will in itertools.product(WILL_KINDS, repeat=3):
        p = Fraction(math.prod(n for _, n in will), 1000)
        successes, ones_left, tens_left = evaluate(pool + [f for f, _ in will], [], 8, True)
        part = [Fraction(1)] + [Fraction(0)] * required  # what the 10s left's chains add, up to `required`
        for _ in range(tens_left):
            part = [sum(part[i] * law[j - i] for i in range(j + 1)) for j in range(required + 1)]
        short = sum(part[: max(0, required - successes)], Fraction(0))
        botch = Fraction(successes == 0 and ones_left > 0 and tens_left == 0)
        out["success"] += p * (1 - short)
        out["botch"] += p * botch
        out["failure"] += p * (short - botch)
    return out


def _chains(depth: int):
    """Each chain a 10 may roll again with at most `depth` 10s in it (a hit or a miss ends it), and its chance."""
    for tens in range(depth + 1):
        for last, faces in ((8, 2), (2, 7)):
            yield [10] * tens + [last], Fraction(1, 10) ** tens * Fraction(faces, 10)


def test_a_will_after_the_roll_whatever_its_chains_is_a_will_up_front_ten_again_25():
    """ten_again-25: two 10s rolled, risky, 3 successes required: the odds of a Will expended after the roll, taken
    over every pair of chains the two 10s may have rolled (drawn round by round), are those of the same Will expended
    up front, to within the chance of a chain longer than five 10s: the 1s choose by position, never by the chains."""
    pool, request = [10, 10], {"pool": 2, "risky": True, "required": 3}
    found: dict[str, Fraction] = Counter()
    for (c1, p1), (c2, p2) in itertools.product(_chains(5), repeat=2):
        drawn = [c[i] for i in range(max(len(c1), len(c2))) for c in (c1, c2) if i < len(c)]
        for outcome, p in after.odds_after(roll(pool + drawn, **request), {"spend_will": True})["outcomes"].items():
            found[outcome] += p1 * p2 * p
    left = 1 - sum(found.values())
    assert 0 < left < Fraction(1, 10**5)
    for outcome, p in _up_front(pool, request["required"]).items():
        assert found[outcome] <= p <= found[outcome] + left, (outcome, float(p), float(found[outcome]))


def test_chain_ways_sum_to_one():
    """m chains of re-rolls add j successes with chances that sum to 1 (to within what lies beyond j = 60)."""
    for threshold in (6, 8):
        for m in range(4):
            total = sum(Fraction(after.chain_ways(m, threshold, j), 10 ** (m + j)) for j in range(60))
            assert 1 - total < Fraction(1, 10**40)


@pytest.mark.parametrize("case", ["risky, two 10s with chains", "contest, target"])
def test_twenty_thousand_wills_fit_odds_after(case):
    """20 000 seeded act() calls expending a Will after the same roll fit odds_after (chi-square, fixed seed)."""
    faces, request, action = CASES[case]
    result = roll(faces, **request)
    probs = after.odds_after(result, action)["outcomes"]
    dice = random.Random(2026)
    n = 20_000
    seen = Counter(ten_again.act(result, action, dice)["outcome"] for _ in range(n))
    assert_fits(seen, {k: float(v) for k, v in probs.items()}, n)


def test_odds_after_refuses_what_act_refuses():
    """A second Will, a target's Will without a contest, a wrong shape: the same refusals as act()."""
    up_front = roll([8, 8, 8, 8, 8, 8], pool=3, will=True)
    plain = roll([8, 8, 8], pool=3)
    for result, action in (
        (up_front, {"spend_will": True}),
        (plain, {"spend_will": True, "side": "target"}),
        (plain, {"reroll": [0]}),
        (plain, {"spend_will": 1}),
    ):
        with pytest.raises(RulesError) as act_error:
            ten_again.act(result, action, random.Random(1))
        with pytest.raises(RulesError) as after_error:
            after.odds_after(result, action)
        assert str(after_error.value) == str(act_error.value)


def test_standing_is_the_outcome_with_certainty():
    """standing(): 1 for the roll's outcome, 0 for the others, with odds()' keys (a contest's too)."""
    assert after.standing(roll([8, 1, 3], pool=3))["outcomes"] == {"success": 1, "failure": 0, "botch": 0}
    contest = roll([2, 9], pool=1, opposed={"pool": 1})
    assert after.standing(contest)["outcomes"] == {"actor": 0, "target": 1, "tie": 0}


@pytest.mark.parametrize(
    "request_",
    [
        {"pool": 3},
        {"pool": 5, "risky": True, "required": 3},
        {"pool": 4, "opposed": {"pool": 4, "will": True}},
        {"pool": 0, "modifier": -2},
    ],
)
def test_what_if_a_will_equals_the_odds_with_it(request_):
    """The what-if "Expend a Will" is odds() of the request with will ticked, exactly."""
    entries = after.what_if(parse(**request_))
    assert [e["change"] for e in entries] == [{"will": True}]
    assert entries[0]["outcomes"] == ten_again.odds(parse(**dict(request_, will=True)))["outcomes"]


def test_no_what_if_once_the_will_is_expended_or_adds_nothing():
    """No Will what-if when the request expends one already, or when the modifier leaves it no die."""
    assert after.what_if(parse(pool=3, will=True)) == []
    assert after.what_if(parse(pool=0, modifier=-3)) == []


# --- luck ---------------------------------------------------------------------------------------------------------


def _ranked_rolls(**request) -> list[dict]:
    """One roll of each rank, worst first: a botch, no successes, then 1 to 15 successes (a 10 rolling on)."""
    out = [roll([1, 5], **request), roll([5, 5], **request)]
    for s in range(1, 16):
        out.append(roll([10, 5] + [10] * (s - 1) + [5], **request))
    return out


@pytest.mark.parametrize("request_", [{"pool": 2}, {"pool": 2, "risky": True, "required": 3}])
def test_ten_again_22_luck_percentiles_average_one_half(request_):
    """ten_again-22: ranked botch < 0 < 1 < … successes, each rank's P(worse) is the ranks below it, and
    sum p·(P(worse) + p/2) over the ranks is exactly (their total)²/2: ½ once every rank is counted."""
    worse_so_far = total = mean = Fraction(0)
    for r in _ranked_rolls(**request_):
        luck = after.luck(r)
        assert luck["p_worse"] == worse_so_far
        mean += luck["p_same"] * (luck["p_worse"] + luck["p_same"] / 2)
        worse_so_far += luck["p_same"]
        total += luck["p_same"]
    assert mean == total * total / 2
    assert 1 - total < Fraction(1, 10**12)


def test_ten_again_22_a_contest_is_ranked_from_the_actors_side():
    """ten_again-22: in a contest the target's win < a tie < the actor's win; the three average exactly ½."""
    rolls = {
        "target": roll([2, 9], pool=1, opposed={"pool": 1}),
        "tie": roll([2, 2], pool=1, opposed={"pool": 1}),
        "actor": roll([9, 2], pool=1, opposed={"pool": 1}),
    }
    lucks = {k: after.luck(r) for k, r in rolls.items()}
    assert [lucks[k]["outcome"] for k in ("target", "tie", "actor")] == ["target", "tie", "actor"]
    assert sum(x["p_same"] * (x["p_worse"] + x["p_same"] / 2) for x in lucks.values()) == Fraction(1, 2)
    assert lucks["actor"]["success"] and lucks["actor"]["p_success"] == lucks["actor"]["p_same"]


def test_ten_again_22_luck_is_of_the_roll_as_first_rolled():
    """ten_again-22: a roll after a Will expended after it is refused (its first roll is no longer all on the table);
    a Will expended up front is part of the first roll."""
    first = roll([8, 5], pool=2)
    later = ten_again.act(first, {"spend_will": True}, random.Random(3))
    with pytest.raises(RulesError, match="as first rolled"):
        after.luck(later)
    up_front = after.luck(roll([8, 5, 5, 5, 5], pool=2, will=True))
    assert up_front["p_same"] == ten_again.odds(parse(pool=2, will=True))["successes"]["1"]


def test_luck_through_the_api_gives_the_percentile():
    """api.luck: percentile = P(worse) + ½ P(same), as a float and as "p/q"."""
    out = api.luck("ten_again", roll([8, 9, 1], pool=3))
    assert (
        Fraction(out["exact"]["percentile"]) == Fraction(out["exact"]["p_worse"]) + Fraction(out["exact"]["p_same"]) / 2
    )
    assert out["percentile"] == pytest.approx(float(Fraction(out["exact"]["percentile"])))


# --- what a Will says beside its odds (ten_again-23) ---------------------------------------------------------------


@pytest.mark.parametrize(
    "faces, request_, action, note",
    [
        # a success: where no 1 eats, a Will cannot change it; on a risky roll its 1s may eat a success
        ([9, 9, 3], {"pool": 3, "required": 2}, {"spend_will": True}, ("muted", "no gain: already a success")),
        (
            [9, 9, 3],
            {"pool": 3, "required": 2, "risky": True},
            {"spend_will": True},
            ("warn", "risky: more dice, more 1s to eat successes"),
        ),
        # a failure: the Will can only help (its botch chance is in the odds, not the note)
        ([9, 3, 3], {"pool": 3, "required": 2, "risky": True}, {"spend_will": True}, None),
        # a contest the actor wins: its Will, no gain where no 1 eats; the target's Will can only help the target
        (
            [9, 9, 3, 3],
            {"pool": 2, "opposed": {"pool": 2}},
            {"spend_will": True},
            ("muted", "no gain: the actor already has successes left"),
        ),
        ([9, 9, 3, 3], {"pool": 2, "opposed": {"pool": 2}}, {"spend_will": True, "side": "target"}, None),
        (
            [3, 3, 9, 9],
            {"pool": 2, "opposed": {"pool": 2}},
            {"spend_will": True, "side": "target"},
            ("muted", "no gain: the target already has successes left"),
        ),
    ],
)
def test_ten_again_23_a_will_that_cannot_help_says_so(faces, request_, action, note):
    """ten_again-23: a Will's note compares the chance of its side's headline outcome before and after: certain both
    times is no gain (muted), lower is risky (a warning), else none; the roll's choice and odds_after carry it."""
    result = roll(faces, **request_)
    said = after.note(result, action, after.odds_after(result, action))
    assert (said and (said["tone"], said["words"])) == (note or None)
    assert api.odds_after("ten_again", result, action).get("note") == said
    seed = next(s for s in range(100_000) if ten_again.roll(parse(**request_), source(s)) == result)
    (choice,) = [c for c in api.roll("ten_again", request_, seed=seed)["choices"] if c["action"] == action]
    assert choice["odds"].get("note") == said
