"""Tests for arbiter.arbitration.exact (seed 000): exact odds against every face enumerated and every scripted
roll, seeded rolls against the odds (chi-square), properties of the odds, and their benchmark."""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from arbiter import arbitration
from stats import assert_fits
from arbitration_helpers import LARGEST_SIDE, OUTCOMES, REQUESTS, parse, pool_of, probs, rolled


LARGEST = {**LARGEST_SIDE, "opposed": LARGEST_SIDE}


# --- exact odds --------------------------------------------------------------------------------------


def brute_sums(n: int) -> Counter:
    """Sums after removing 1s, over every face combination of n dice (None for no dice)."""
    if n <= 0:
        return Counter({None: 1})
    return Counter(sum(f for f in faces if f != 1) for faces in product(range(1, 7), repeat=n))


def brute_force(n: int, m: int | None) -> dict[str, Fraction]:
    """Odds by enumerating every face of both pools and applying the text directly."""
    if n <= 0:
        return {o: Fraction(o == "failure") for o in OUTCOMES}
    a_sums = brute_sums(n)
    d_sums = Counter({None: 1}) if m is None else brute_sums(m)
    counts = Counter()
    for a, wa in a_sums.items():
        for d, wd in d_sums.items():
            value = a - d if d is not None and d >= 6 else a
            value = max(value, 0)
            name = (
                "fumble"
                if value == 0
                else "failure"
                if value <= 5
                else ["mediocre", "fair", "good", "exceptional", "outstanding"][min(value // 6, 5) - 1]
            )
            counts[name] += wa * wd
    total = sum(counts.values())
    return {o: Fraction(counts[o], total) for o in OUTCOMES}


@pytest.mark.parametrize(
    "n, m",
    [
        (0, None),
        (1, None),
        (2, None),
        (5, None),
        (7, None),
        (1, 1),
        (3, 2),
        (2, 3),
        (6, 4),
        (4, 6),
        (5, 0),
        (0, 5),
        (5, -2),
    ],
)
def test_odds_match_brute_force(n, m):
    """odds() equals a full enumeration of the faces for small pools, unopposed and opposed."""
    request = pool_of(n) if m is None else {**pool_of(n), "opposed": pool_of(m)}
    assert probs(request) == brute_force(n, None if m is None else m)


@pytest.mark.parametrize("n, m", [(1, None), (3, None), (1, 2), (2, 2), (3, 1)])
def test_odds_match_every_scripted_roll(n, m):
    """odds() equals the outcome counts of roll() itself fed every possible sequence of faces."""
    request = pool_of(n) if m is None else {**pool_of(n), "opposed": pool_of(m)}
    total = n + (m or 0)
    counts = Counter(rolled(request, *faces)["outcome"] for faces in product(range(1, 7), repeat=total))
    assert probs(request) == {o: Fraction(counts[o], 6**total) for o in OUTCOMES}


def test_odds_largest_request():
    """Two 52-dice pools answer exactly, summing to 1, with every tier possible."""
    p = probs(LARGEST)
    assert sum(p.values()) == 1
    assert all(v > 0 for v in p.values())
    single = probs(LARGEST_SIDE)
    assert sum(single.values()) == 1
    assert single["fumble"] == Fraction(1, 6**52)


@pytest.mark.parametrize(
    "request_, seed",
    [
        ({"skills": [5]}, 20240501),
        ({"skills": [4], "modifiers": [2], "opposed": {"skills": [3]}}, 20240502),
        ({"skills": [2], "opposed": {"skills": [2], "complexity": "easy"}}, 20240503),
    ],
)
def test_rolls_fit_odds(request_, seed):
    """A seeded sample of 20 000 rolls agrees with odds() (chi-square at a fixed seed)."""
    rng = random.Random(seed)
    req = parse(request_)
    n = 20_000
    observed = Counter(arbitration.roll(req, rng)["outcome"] for _ in range(n))
    assert_fits(observed, {k: float(v) for k, v in arbitration.odds(req)["outcomes"].items()}, n)


# --- properties --------------------------------------------------------------------------------------


SUCCESS_TIERS = OUTCOMES[2:]


def at_least(p: dict[str, Fraction], outcome: str) -> Fraction:
    return sum(p[o] for o in OUTCOMES[OUTCOMES.index(outcome) :])


@settings(max_examples=60, deadline=None)
@given(REQUESTS)
def test_odds_sum_to_one(request_):
    """odds() always partitions: the seven outcomes sum to exactly 1."""
    p = probs(request_)
    assert list(p) == OUTCOMES
    assert sum(p.values()) == 1 and all(v >= 0 for v in p.values())


@settings(max_examples=40, deadline=None)
@given(REQUESTS)
def test_one_more_die_never_lowers_success(request_):
    """One more aggressor die never lowers the chance of any success tier; one more defender die never raises it."""
    assume(max(request_["skills"]) < 30)
    more = {**request_, "skills": [s + 1 for s in request_["skills"]]}
    base, up = probs(request_), probs(more)
    for tier in SUCCESS_TIERS:
        assert at_least(up, tier) >= at_least(base, tier)
    if request_["opposed"] is not None and max(request_["opposed"]["skills"]) < 30:
        d = request_["opposed"]
        stronger = {**request_, "opposed": {**d, "skills": [s + 1 for s in d["skills"]]}}
        worse = probs(stronger)
        for tier in SUCCESS_TIERS:
            assert at_least(worse, tier) <= at_least(base, tier)


@settings(max_examples=60, deadline=None)
@given(REQUESTS, st.integers(0, 2**32))
def test_roll_outcome_is_possible(request_, seed):
    """Every rolled outcome has non-zero odds, the dice fit the pool, and the 1s are counted right."""
    out = arbitration.roll(parse(request_), random.Random(seed))
    assert probs(request_)[out["outcome"]] > 0
    assert len(out["dice"]) == max(out["pool"], 0)
    assert all(1 <= f <= 6 for f in out["dice"])
    assert out["ones"] == out["dice"].count(1)
    assert json.loads(json.dumps(out)) == out


# --- benchmark ---------------------------------------------------------------------------------------


@pytest.mark.benchmark(group="odds")
def test_bench_odds_largest(benchmark):
    """odds() for the largest request: two 52-dice pools, opposed."""
    req = parse(LARGEST)
    result = benchmark(arbitration.odds, req)
    assert sum(result["outcomes"].values()) == 1
