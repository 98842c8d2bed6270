"""Ability Test (seed 004), exact odds: the reroll that gives the best chance of success (then the least chance of a
setback, then the most chance of a Scheme die, then the fewest dice), and the exact chances of success, of earning a
Scheme die and of a setback after that reroll, counting every die rolled during the Test.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement
from math import factorial, prod

from ..dice import face_poly, poly_pow, sum_ways
from .sheet import SIDES, Request


@lru_cache(maxsize=None)
def _reroll_counts(k: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """For k rerolled d6, by threshold t = 0..6k+1: ways the sum is < t; < t with a 1 among them; < t with a 6."""
    size = SIDES * k + 2
    every = sum_ways(k, SIDES)
    no_one = poly_pow(face_poly(range(2, SIDES + 1)), k)
    no_six = poly_pow(face_poly(range(1, SIDES)), k)

    def below(poly: list[int]) -> list[int]:
        out = [0] * size
        for t in range(1, size):
            out[t] = out[t - 1] + (poly[t - 1] if t - 1 < len(poly) else 0)
        return out

    all_below, no_one_below, no_six_below = below(every), below(no_one), below(no_six)
    return (
        tuple(all_below),
        tuple(a - b for a, b in zip(all_below, no_one_below)),
        tuple(a - b for a, b in zip(all_below, no_six_below)),
    )


def _threshold(kept_sum: int, ability: int, k: int) -> int:
    """The rerolled dice succeed when their sum is below this (clamped to the table)."""
    return min(max(ability - kept_sum, 0), SIDES * k + 1)


def _chances(ascending: tuple[int, ...], ability: int, k: int, scheme_die: bool) -> tuple[int, int, int]:
    """Rerolling the k highest dice: the ways (out of 6**k) of success, of a setback and of a Scheme die gain.

    Every die rolled during the Test counts for the setback and the Scheme die, a 1 or a 6 rerolled away too
    (ability_test-7)."""
    return reroll_ways(sum(ascending[: len(ascending) - k]), 1 in ascending, SIDES in ascending, ability, k, scheme_die)


def reroll_ways(
    kept_sum: int, rolled_one: bool, rolled_six: bool, ability: int, k: int, scheme_die: bool
) -> tuple[int, int, int]:
    """Rerolling k dice while the others sum to `kept_sum`: the ways (out of 6**k) of success, of a setback and of a
    Scheme die gain; `rolled_one`, `rolled_six`: a 1, a 6 was rolled during the Test already (ability_test-7)."""
    below, below_one, below_six = _reroll_counts(k)
    t = _threshold(kept_sum, ability, k)
    success = below[t]
    setback = (SIDES**k - below[t]) if rolled_six else (below_six[-1] - below_six[t])
    gain = 0 if scheme_die else below[t] if rolled_one else below_one[t]
    return success, setback, gain


def _best_k(ascending: tuple[int, ...], ability: int, rerolls: int, scheme_die: bool) -> int:
    """How many of the highest dice to reroll: the best chance of success; among equals the lowest chance of a
    setback, then the highest chance of a Scheme die, then the fewest dice (ability_test-12).

    For any k, the k highest dice are at least as good as any other k dice on all three chances, since the dice
    rolled first count whichever are rerolled: so only k is chosen."""
    best, best_key = 0, None
    for k in range(rerolls + 1):
        success, setback, gain = _chances(ascending, ability, k, scheme_die)
        scale = SIDES ** (rerolls - k)
        key = (success * scale, -setback * scale, gain * scale)
        if best_key is None or key > best_key:
            best, best_key = k, key
    return best


def best_reroll(
    dice: tuple[int, ...] | list[int], ability: int, rerolls: int, scheme_die: bool = False
) -> tuple[int, ...]:
    """The die indexes to reroll under the odds' policy (ability_test-12): the k highest dice for the best k
    (no reroll when none does better)."""
    order = sorted(range(len(dice)), key=lambda i: (dice[i], i))
    k = _best_k(tuple(dice[i] for i in order), ability, min(rerolls, len(dice)), scheme_die)
    return tuple(sorted(order[len(dice) - k :]))


def _arrangements(multiset: tuple[int, ...]) -> int:
    return factorial(len(multiset)) // prod(factorial(c) for c in Counter(multiset).values())


def odds(req: dict) -> dict:
    """Exact chances of success and failure, of earning a Scheme die and of a setback; with Masteries, after the
    reroll the odds' policy picks (ability_test-12). Exertion is a later choice and not counted."""
    request = Request.of(req)
    d, rerolls = request.difficulty, request.rerolls
    scheme_faces = range(1, SIDES + 1) if request.scheme_die else (0,)
    success = gain = setback = 0
    for ascending in combinations_with_replacement(range(1, SIDES + 1), d):
        weight = _arrangements(ascending)
        for face in scheme_faces:
            ability = request.base_ability + face
            k = _best_k(ascending, ability, rerolls, request.scheme_die)
            ways = _chances(ascending, ability, k, request.scheme_die)
            scale = weight * SIDES ** (rerolls - k)
            success += ways[0] * scale
            setback += ways[1] * scale
            gain += ways[2] * scale
    total = SIDES ** (d + rerolls + (1 if request.scheme_die else 0))
    p = Fraction(success, total)
    return {
        "outcomes": {"success": p, "failure": 1 - p},
        "scheme_gain": Fraction(gain, total),
        "setback": Fraction(setback, total),
    }
