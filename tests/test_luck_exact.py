"""Tests for arbiter.luck.exact (seed 002): exact odds of each result against every face enumerated, seeded rolls
against the odds (chi-square), properties of the odds, and their benchmark."""

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import strategies
from arbiter import fields, luck
from stats import assert_fits
from luck_helpers import parse, scripted_roll


LARGEST = {"dice": 10, "for": 10, "against": 0}


# --- odds ------------------------------------------------------------------------------------------


def brute_force(req):
    """The exact chance of each result by rolling every combination of faces through roll()."""
    n = luck.dice_to_roll(luck.pool(req["dice"], req["for"], req["against"]))
    counts = Counter(scripted_roll(req, *faces)["outcome"] for faces in itertools.product(range(1, 7), repeat=n))
    return {str(v): Fraction(counts[str(v)], 6**n) for v in range(0, 7)}


@pytest.mark.parametrize(
    "dice, for_, against", [(0, 0, 0), (0, 0, 3), (1, 0, 0), (1, 1, 0), (2, 1, 0), (3, 2, 1), (5, 0, 0)]
)
def test_odds_match_brute_force(dice, for_, against):
    """odds() equals enumerating every roll, exactly."""
    req = parse(dice, for_, against)
    assert luck.odds(req) == {"outcomes": brute_force(req)}


def test_odds_of_known_cases_luck_2_luck_3():
    """luck-2, luck-3: outcomes are "0" to "6"; one die is uniform over 1-6; the highest of two gives 6 with 11/36; a
    pool of 0 or less gives "0" with chance 1."""
    assert luck.odds(parse(1))["outcomes"] == {"0": 0, **{str(v): Fraction(1, 6) for v in range(1, 7)}}
    assert luck.odds(parse(2))["outcomes"]["6"] == Fraction(11, 36)
    assert luck.odds(parse(0))["outcomes"] == {"0": 1, **{str(v): 0 for v in range(1, 7)}}
    assert list(luck.odds(parse(3, 0, 5))["outcomes"]) == ["0", "1", "2", "3", "4", "5", "6"]


@pytest.mark.parametrize("request_", [{"dice": 3, "for": 1, "against": 1}, {"dice": 1, "for": 0, "against": 0}])
def test_roll_fits_odds_chi_square(request_):
    """20 000 seeded rolls agree with odds() (chi-square, fixed seed)."""
    req = fields.parse(luck.FIELDS, request_)
    n = 20_000
    rng = random.Random(20020)
    observed = Counter(luck.roll(req, rng)["outcome"] for _ in range(n))
    assert_fits(observed, {k: float(v) for k, v in luck.odds(req)["outcomes"].items()}, n)


# --- properties ------------------------------------------------------------------------------------


requests = strategies.request(luck.FIELDS)


def at_least(outcomes, v):
    return sum(p for k, p in outcomes.items() if int(k) >= v)


@given(requests)
@settings(max_examples=200, deadline=None)
def test_odds_sum_to_one(request_):
    """The seven results' chances sum to exactly 1; with dice every face has a chance and "0" none."""
    req = fields.parse(luck.FIELDS, request_)
    got = luck.odds(req)["outcomes"]
    assert list(got) == ["0", "1", "2", "3", "4", "5", "6"] and sum(got.values()) == 1
    if luck.pool(req["dice"], req["for"], req["against"]) > 0:
        assert got["0"] == 0 and all(0 < got[str(v)] < 1 for v in range(1, 7))
    else:
        assert got["0"] == 1


@given(requests, st.sampled_from([("dice", 1), ("for", 1), ("against", -1)]))
@settings(max_examples=200, deadline=None)
def test_fewer_dice_are_never_better_luck_3(request_, change):
    """luck-3: one more die (or one fewer factor against) never lowers the chance of any result or better."""
    field, step = change
    lo, hi = (0, 9) if step > 0 else (1, 10)
    request_ = {**request_, field: min(max(request_[field], lo), hi)}
    before = luck.odds(fields.parse(luck.FIELDS, request_))["outcomes"]
    after = luck.odds(fields.parse(luck.FIELDS, {**request_, field: request_[field] + step}))["outcomes"]
    for v in range(1, 7):
        assert at_least(after, v) >= at_least(before, v)
    if luck.pool(request_["dice"], request_["for"], request_["against"]) >= 0:
        assert after != before


@given(st.integers(-10, 0), st.integers(-10, 0))
def test_every_pool_of_zero_or_less_is_the_same_luck_3(a, b):
    """luck-3: all pools of 0 or less roll nothing, so their odds are equal."""

    def req(p):
        return parse(0, 0, -p) if p <= 0 else parse(p)

    assert luck.odds(req(a)) == luck.odds(req(b))


@given(requests, st.randoms(use_true_random=False))
@settings(max_examples=200, deadline=None)
def test_roll_is_consistent_with_odds(request_, rng):
    """A roll rolls max(pool, 0) dice, reads the highest (0 with none), and odds() gives its result a chance."""
    req = fields.parse(luck.FIELDS, request_)
    r = luck.roll(req, rng)
    pool = req["dice"] + req["for"] - req["against"]
    assert r["pool"] == pool and len(r["dice"]) == max(pool, 0)
    assert r["result"] == (max(r["dice"]) if pool > 0 else 0)
    assert luck.odds(req)["outcomes"][r["outcome"]] > 0


# --- benchmark ---------------------------------------------------------------------------------------


@pytest.mark.benchmark(group="odds")
def test_bench_odds_largest(benchmark):
    """Benchmark: odds() for the largest request (10 dice + 10 for: 20 dice)."""
    req = fields.parse(luck.FIELDS, LARGEST)
    result = benchmark(luck.odds, req)
    assert sum(result["outcomes"].values()) == 1
