"""Tests for arbiter.ten_again.exact: exact odds against every face enumerated, a contest's closed form against
the long sum, and seeded rolls against the odds (chi-square)."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import strategies
from arbiter import RulesError, fields, ten_again
from stats import assert_fits
from ten_again_helpers import LARGEST, LARGEST_OPPOSED, TAIL, brute_law, parse


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


def test_modifier_and_will_odds_ten_again_2():
    """ten_again-2: the odds depend only on dots + modifier (+3), so a Will under -4 gives one die."""
    assert ten_again.odds(parse(pool=2, modifier=-4, will=True)) == ten_again.odds(parse(pool=1))
    assert ten_again.odds(parse(pool=5, modifier=-7, will=True)) == ten_again.odds(parse(pool=1))


@pytest.mark.parametrize(
    "request_, path",
    [
        ({"pool": 0, "modifier": -3, "will": True}, "will"),
        ({"pool": 5, "modifier": -9, "will": True}, "will"),
        ({"pool": 2, "opposed": {"pool": 1, "modifier": -4, "will": True}}, "opposed.will"),
    ],
)
def test_a_will_that_adds_no_dice_has_no_odds_ten_again_7(request_, path):
    """ten_again-7: a request expending a Will the modifier leaves no die to add is refused by odds, on either side
    of a contest, naming the field (it answered "failure 1.0" before)."""
    with pytest.raises(RulesError, match=rf"^'{path}' is not allowed: a Will would add no dice") as e:
        ten_again.odds(fields.parse(ten_again.FIELDS, request_))
    assert e.value.path == path


SMALL = [
    (n, init, unskilled, risky)
    for n in range(0, 4)
    for init in (False, True)
    for unskilled, risky in ((False, False), (True, False), (False, True))
]


@pytest.mark.parametrize("n, initiative, unskilled, risky", SMALL)
def test_odds_match_brute_force(n, initiative, unskilled, risky):
    """odds equals enumeration of every face (chains in closed form), value for value, exactly."""
    depth = 25
    dist, botch = brute_law(n, 6 if initiative else 8, unskilled or risky, depth)
    for required in (1, 2, 4):
        o = ten_again.odds(parse(pool=n, unskilled=unskilled, risky=risky, initiative=initiative, required=required))
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


@pytest.mark.parametrize(
    "request_",
    [
        {"pool": 0},
        {"pool": 1},
        {"pool": 1, "required": 20},
        {"pool": 7, "risky": True},
        {"pool": 30, "modifier": 10, "will": True, "initiative": True},
        LARGEST,
    ],
)
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


@pytest.mark.parametrize(
    "actor, target",
    [
        ((3, 8, False), (2, 8, True)),
        ((5, 6, True), (0, 8, False)),
        ((0, 8, True), (4, 6, False)),
        ((12, 8, True), (9, 6, True)),
        ((43, 8, True), (43, 6, True)),
    ],
)
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

requests = strategies.ten_again_request()
small_requests = strategies.ten_again_request(small=True)


@settings(max_examples=40, deadline=None)
@given(small_requests, st.integers(0, 2**32))
def test_rolled_outcome_has_odds(request_, seed):
    """A rolled outcome always has non-zero probability under odds."""
    req = fields.parse(ten_again.FIELDS, request_)
    r = ten_again.roll(req, random.Random(seed))
    o = ten_again.odds(req)
    assert o["outcomes"][r["outcome"]] > 0
    assert o["successes"].get(str(r["successes"]), 1) > 0


@settings(max_examples=30, deadline=None)
@given(requests)
def test_odds_sum_to_one(request_):
    """Outcomes sum to exactly 1 and the successes table to within 1e-15 of it."""
    o = ten_again.odds(fields.parse(ten_again.FIELDS, request_))
    assert sum(o["outcomes"].values()) == 1
    assert 1 - TAIL <= sum(o["successes"].values()) <= 1
    if "target_successes" in o:
        assert 1 - TAIL <= sum(o["target_successes"].values()) <= 1


SIDE = st.fixed_dictionaries(
    {f.name: strategies.for_field(f) for f in ten_again.FIELDS if f.name not in ("required", "opposed")}
).map(strategies.will_adds_dice)


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
