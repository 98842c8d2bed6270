"""Shared dice helpers: injected randomness and exact count polynomials."""

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest

from arbiter import RulesError, dice
from scripted import ScriptedDice


def test_roll_uses_the_given_source():
    """Dice come from the injected source, in order."""
    src = ScriptedDice(4, 1, 6)
    assert dice.roll(src, 3) == (4, 1, 6)
    assert src.left == []


def test_seeded_source_repeats_and_unseeded_is_system_random():
    """A seed gives a reproducible source; no seed gives the operating system's random source."""
    assert dice.roll(dice.source(7), 10) == dice.roll(dice.source(7), 10)
    assert isinstance(dice.source(None), random.SystemRandom)


@pytest.mark.parametrize("seed", [-1, 2**63, True, 1.5, "7"])
def test_bad_seed_is_refused(seed):
    """A seed must be a whole number in range."""
    with pytest.raises(RulesError, match="'seed'"):
        dice.source(seed)


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4])
def test_sum_ways_matches_brute_force(n):
    """The count polynomial of n d6 equals enumeration."""
    brute = Counter(sum(f) for f in itertools.product(range(1, 7), repeat=n))
    ways = dice.sum_ways(n)
    assert {t: w for t, w in enumerate(ways) if w} == dict(brute)


@pytest.mark.parametrize("n,k", [(1, 1), (3, 1), (3, 2), (3, 3), (4, 2)])
def test_order_statistic_matches_brute_force(n, k):
    """P(k-th highest of n d6 = v) equals enumeration."""
    brute = Counter(sorted(f, reverse=True)[k - 1] for f in itertools.product(range(1, 7), repeat=n))
    got = dice.order_statistic(n, k)
    assert got == {v: Fraction(brute.get(v, 0), 6**n) for v in range(1, 7)}


def test_exact_str_always_has_a_denominator():
    """Exact probabilities print as p/q."""
    assert dice.exact_str(Fraction(1)) == "1/1"
    assert dice.exact_str(Fraction(0)) == "0/1"
    assert dice.exact_str(Fraction(2, 6)) == "1/3"


def test_middle_product_matches_the_plain_sums():
    """The Karatsuba middle product gives c[i] = sum_j a[i + j] b[j] for every length, odd and even."""
    rng = random.Random(5)
    for n in range(1, 40):
        a = [rng.randint(-(10**30), 10**30) for _ in range(2 * n - 1)]
        b = [rng.randint(-(10**30), 10**30) for _ in range(n)]
        assert dice.middle_product(a, b) == [sum(a[i + j] * b[j] for j in range(n)) for i in range(n)]


@pytest.mark.parametrize("c0, c1", [(1, 1), (7, -3), (-10, 10), (0, 5), (4, 0)])
def test_binomial_poly_is_the_power_of_the_binomial(c0, c1):
    """binomial_poly(c0, c1, m) are the coefficients of (c0 + c1 v)**m, as repeated products give them."""
    for m in range(0, 9):
        assert dice.binomial_poly(c0, c1, m) == dice.poly_pow([c0, c1], m)
