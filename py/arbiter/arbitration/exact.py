"""The arbitration engine (seed 000), exact odds: the chance of each of the seven tiers, the 1s removed from every
die's count polynomial, an opposed roll's defender subtracting its sum when it succeeds."""

from __future__ import annotations

from fractions import Fraction

from .. import dice as dicelib
from .rolling import TIERS, Outcome, Pool, tier

# one die in count-polynomial form: a 1 is removed (contributes 0), faces 2..6 count themselves
_DIE = [1, 0, 1, 1, 1, 1, 1]


def sum_ways(n: int) -> list[int]:
    """Ways for each sum of n dice after removing the 1s (index = sum; 0 only when every die shows 1)."""
    return dicelib.poly_pow(_DIE, n)


def odds(req: dict) -> dict:
    """Exact chance of each of the seven outcomes, as `Fraction`s summing to 1."""
    counts = {o: 0 for o in Outcome}
    n = Pool.of(req).size
    if n <= 0:
        counts[Outcome.FAILURE] = 1
        return _fractions(counts, 1)
    a_ways = sum_ways(n)
    if req["opposed"] is None:
        for a, w in enumerate(a_ways):
            counts[tier(a)] += w
        return _fractions(counts, 6**n)
    m = Pool.of(req["opposed"]).size
    if m <= 0:
        d_fail, d_success, d_total = 1, [], 1  # an automatic failure subtracts nothing
    else:
        d_ways = sum_ways(m)
        d_fail, d_success, d_total = sum(d_ways[:6]), d_ways, 6**m
    # prefix[k] = ways the defender succeeds with a sum below k (sums below six are not successes)
    prefix = [0]
    for d, w in enumerate(d_success):
        prefix.append(prefix[-1] + (w if d >= 6 else 0))
    top = len(d_success) - 1

    def succeeding(lo: int, hi: int | None) -> int:
        lo = max(lo, 6)
        hi = top if hi is None else min(hi, top)
        return prefix[hi + 1] - prefix[lo] if lo <= hi else 0

    for a, wa in enumerate(a_ways):
        if not wa:
            continue
        counts[tier(a)] += wa * d_fail
        # a defender's success d gives max(0, a - d); the tier [lo, hi] needs a - hi <= d <= a - lo,
        # and the fumble (lo = 0) takes every d >= a because negative numbers are not used
        for o, lo, hi, _ in TIERS:
            counts[o] += wa * succeeding(a - hi if hi is not None else 0, a - lo if lo > 0 else None)
    return _fractions(counts, 6**n * d_total)


def _fractions(counts: dict, total: int) -> dict:
    assert sum(counts.values()) == total
    return {"outcomes": {o.value: Fraction(counts[o], total) for o in Outcome}}
