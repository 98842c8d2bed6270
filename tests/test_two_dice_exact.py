"""Tests for arbiter.two_dice.exact (seed 001): exact odds against every pair enumerated and every scripted roll,
seeded rolls against the odds (chi-square), properties of the odds, and their benchmark."""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from arbiter import two_dice
from stats import assert_fits
from two_dice_helpers import REQUESTS, parse, probs, rolled


LARGEST_SIDE = {"trait": 10, "abilities": [10] * 5, "actions": 10}


LARGEST = {**LARGEST_SIDE, "difficulty": 3, "opposed": LARGEST_SIDE}


# --- unopposed rolls ---------------------------------------------------------------------------------


def test_an_easy_difficulty_has_exact_odds_two_dice_2():
    """two_dice-2: easier than +3 counts like any modifier: at +7 every total reaches nine, and only snake-eyes
    (always a failure) fail; at +4 a sum of 5 or more is needed."""
    assert two_dice.odds(parse({"difficulty": 7}))["outcomes"] == {
        "success": Fraction(35, 36),
        "failure": Fraction(1, 36),
    }
    assert two_dice.odds(parse({"difficulty": 4}))["outcomes"]["success"] == Fraction(30, 36)


def test_specials_shape_the_odds_two_dice_4():
    """two_dice-4: at the extremes exactly the special rolls remain possible (1/36 either way)."""
    assert probs({"trait": 10, "abilities": [10] * 5, "difficulty": 3})["failure"] == Fraction(1, 36)
    assert probs({"abilities": [-10] * 5, "difficulty": -7, "actions": 10})["success"] == Fraction(1, 36)


# --- exact odds --------------------------------------------------------------------------------------


def text_unopposed(a: int, b: int, modifier: int) -> bool:
    """The text read directly: snake-eyes fail, double sixes succeed, else nine or better."""
    return (a, b) != (1, 1) and ((a, b) == (6, 6) or a + b + modifier >= 9)


def text_roll_off(actor: tuple, target: tuple, ma: int, mt: int) -> bool:
    """The text read directly: does the actor win the roll-off?"""
    ds, se = (6, 6), (1, 1)
    if actor == ds and target != ds:
        return True
    if target == ds and actor != ds:
        return False
    if actor == se and target != se:
        return False
    if target == se and actor != se:
        return True
    return sum(actor) + ma > sum(target) + mt


@pytest.mark.parametrize("modifier", range(-30, 31, 1))
def test_odds_match_brute_force(modifier):
    """Unopposed odds equal an enumeration of the 36 rolls for every net modifier."""
    request = {"abilities": [modifier // 3, (modifier + 1) // 3, (modifier + 2) // 3]}
    wins = sum(text_unopposed(a, b, modifier) for a, b in product(range(1, 7), repeat=2))
    assert probs(request) == {"success": Fraction(wins, 36), "failure": Fraction(36 - wins, 36)}


@pytest.mark.parametrize(
    "ma, mt", [(0, 0), (1, 0), (0, 1), (5, 0), (0, 5), (10, 0), (0, 10), (11, 0), (0, 11), (-4, 3), (8, -2)]
)
def test_opposed_odds_match_brute_force(ma, mt):
    """Opposed odds equal an enumeration of the 1296 pairs of rolls."""
    request = {"abilities": [ma // 2, ma - ma // 2], "opposed": {"abilities": [mt // 2, mt - mt // 2]}}
    pairs = list(product(range(1, 7), repeat=2))
    wins = sum(text_roll_off(a, t, ma, mt) for a in pairs for t in pairs)
    assert probs(request) == {"actor": Fraction(wins, 1296), "target": Fraction(1296 - wins, 1296)}


@pytest.mark.parametrize(
    "request_",
    [
        {"trait": 3, "difficulty": -1},
        {"trait": 2, "actions": 3, "opposed": {"trait": 1, "abilities": [2]}},
    ],
)
def test_odds_match_every_scripted_roll(request_):
    """odds() equals the outcome counts of roll() itself fed every possible sequence of faces."""
    n = 2 if "opposed" not in request_ else 4
    counts = Counter(rolled(request_, *faces)["outcome"] for faces in product(range(1, 7), repeat=n))
    assert probs(request_) == {o: Fraction(c, 6**n) for o, c in counts.items()} | {
        o: Fraction(0) for o in probs(request_) if o not in counts
    }


@pytest.mark.parametrize(
    "request_, seed",
    [
        ({"trait": 2}, 20240511),
        ({"trait": 4, "difficulty": -3, "actions": 2}, 20240512),
        ({"trait": 3, "opposed": {"trait": 2}}, 20240513),
    ],
)
def test_rolls_fit_odds(request_, seed):
    """A seeded sample of 20 000 rolls agrees with odds() (chi-square at a fixed seed)."""
    rng = random.Random(seed)
    req = parse(request_)
    n = 20_000
    observed = Counter(two_dice.roll(req, rng)["outcome"] for _ in range(n))
    assert_fits(observed, {k: float(v) for k, v in two_dice.odds(req)["outcomes"].items()}, n)


# --- properties --------------------------------------------------------------------------------------


def good(p: dict[str, Fraction]) -> Fraction:
    return p.get("success", p.get("actor"))


@settings(max_examples=80, deadline=None)
@given(REQUESTS)
def test_odds_sum_to_one(request_):
    """odds() always partitions its two outcomes and names them as the issue fixes."""
    p = probs(request_)
    assert set(p) == ({"success", "failure"} if request_["opposed"] is None else {"actor", "target"})
    assert sum(p.values()) == 1 and all(v >= 0 for v in p.values())


@settings(max_examples=80, deadline=None)
@given(REQUESTS)
def test_more_trait_never_hurts(request_):
    """A higher trait never lowers the chance of success; one more action never raises it."""
    assume(request_["trait"] < 10 and request_["actions"] < 10)
    base = good(probs(request_))
    assert good(probs({**request_, "trait": request_["trait"] + 1})) >= base
    assert good(probs({**request_, "actions": request_["actions"] + 1})) <= base
    if request_["opposed"] is not None and request_["opposed"]["trait"] < 10:
        stronger = {**request_, "opposed": {**request_["opposed"], "trait": request_["opposed"]["trait"] + 1}}
        assert good(probs(stronger)) <= base


@settings(max_examples=80, deadline=None)
@given(REQUESTS, st.integers(0, 2**32))
def test_roll_outcome_is_possible(request_, seed):
    """Every rolled outcome has non-zero odds and the totals add up from the dice and modifiers."""
    out = two_dice.roll(parse(request_), random.Random(seed))
    assert probs(request_)[out["outcome"]] > 0
    if out["dice"]:
        assert out["total"] == sum(out["dice"]) + out["modifier"]["total"]
    assert json.loads(json.dumps(out)) == out


# --- benchmark ---------------------------------------------------------------------------------------


@pytest.mark.benchmark(group="odds")
def test_bench_odds_largest(benchmark):
    """odds() for the largest request: an opposed roll-off with every modifier at its maximum."""
    req = parse(LARGEST)
    result = benchmark(two_dice.odds, req)
    assert sum(result["outcomes"].values()) == 1
