"""Ability Test (seed 004), exact odds: the reroll that gives the best chance of success, and the exact chances of
success, of earning a Scheme die and of a setback (after that reroll, when Masteries allow one).
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
    return (tuple(all_below),
            tuple(a - b for a, b in zip(all_below, no_one_below)),
            tuple(a - b for a, b in zip(all_below, no_six_below)))


def _threshold(kept_sum: int, ability: int, k: int) -> int:
    """The rerolled dice succeed when their sum is below this (clamped to the table)."""
    return min(max(ability - kept_sum, 0), SIDES * k + 1)


def _best_k(ascending: tuple[int, ...], ability: int, rerolls: int) -> int:
    """How many of the highest dice to reroll for the best chance of success; ties go to fewer dice."""
    d = len(ascending)
    best, best_ways = 0, -1
    for k in range(rerolls + 1):
        below = _reroll_counts(k)[0]
        ways = below[_threshold(sum(ascending[:d - k]), ability, k)] * SIDES ** (rerolls - k)
        if ways > best_ways:
            best, best_ways = k, ways
    return best


def best_reroll(dice: tuple[int, ...] | list[int], ability: int, rerolls: int) -> tuple[int, ...]:
    """The die indexes whose reroll gives the best chance of success: the k highest dice for the best k
    (no reroll when none raises the chance)."""
    order = sorted(range(len(dice)), key=lambda i: (dice[i], i))
    k = _best_k(tuple(dice[i] for i in order), ability, min(rerolls, len(dice)))
    return tuple(sorted(order[len(dice) - k:]))


def _arrangements(multiset: tuple[int, ...]) -> int:
    return factorial(len(multiset)) // prod(factorial(c) for c in Counter(multiset).values())


def odds(req: dict) -> dict:
    """Exact chances of success and failure, of earning a Scheme die and of a setback; with Masteries, after the
    reroll that maximises the chance of success. Exertion is a later choice and not counted."""
    request = Request.of(req)
    d, rerolls = request.difficulty, request.rerolls
    scheme_faces = range(1, SIDES + 1) if request.scheme_die else (0,)
    success = gain = setback = 0
    for ascending in combinations_with_replacement(range(1, SIDES + 1), d):
        weight = _arrangements(ascending)
        for face in scheme_faces:
            ability = request.base_ability + face
            k = _best_k(ascending, ability, rerolls)
            below, below_one, below_six = _reroll_counts(k)
            kept = ascending[:d - k]
            t = _threshold(sum(kept), ability, k)
            scale = weight * SIDES ** (rerolls - k)
            success += below[t] * scale
            if not request.scheme_die:
                gain += (below[t] if 1 in kept else below_one[t]) * scale
            fail_six = (SIDES ** k - below[t]) if SIDES in kept else (below_six[-1] - below_six[t])
            setback += fail_six * scale
    total = SIDES ** (d + rerolls + (1 if request.scheme_die else 0))
    p = Fraction(success, total)
    return {"outcomes": {"success": p, "failure": 1 - p},
            "scheme_gain": Fraction(gain, total), "setback": Fraction(setback, total)}

