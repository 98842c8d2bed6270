"""Luck Roll (seed 002), exact odds: the chance of each result, the highest of the pool's d6 (0: no dice)."""

from __future__ import annotations

from fractions import Fraction

from ..dice import order_statistic
from .rolling import NO_DICE, SIDES, pool


def odds(req: dict) -> dict:
    """The chance of each result "0".."6" (exact): "0", no dice, has chance 1 for a pool of 0 or less and 0
    otherwise."""
    n = pool(req["dice"], req["for"], req["against"])
    dist = order_statistic(n, 1, SIDES) if n > 0 else {NO_DICE: Fraction(1)}  # the highest of n dice
    return {"outcomes": {str(v): Fraction(dist.get(v, 0)) for v in range(NO_DICE, SIDES + 1)}}
