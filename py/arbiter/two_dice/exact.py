"""Two six-sided dice (seed 001), exact odds: every pair of faces counted, unopposed and in a roll-off."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from .rolling import Outcome, roll_off_outcome, side_modifier, special, unopposed_outcome

_PAIRS = tuple(product(range(1, 7), repeat=2))


def odds(req: dict) -> dict:
    """Exact chances: {"outcomes": {"success", "failure"}} unopposed, {"actor", "target"} when opposed."""
    impossible = req["difficulty"] == "impossible"
    if req["opposed"] is None:
        if impossible:
            return {"outcomes": {"success": Fraction(0), "failure": Fraction(1)}}
        mod = side_modifier(req, req["difficulty"]).total
        wins = sum(unopposed_outcome(special(*p), sum(p) + mod) is Outcome.SUCCESS for p in _PAIRS)
        return {"outcomes": {"success": Fraction(wins, 36), "failure": Fraction(36 - wins, 36)}}
    if impossible:
        return {"outcomes": {"actor": Fraction(0), "target": Fraction(1)}}
    ma, mt = side_modifier(req, None).total, side_modifier(req["opposed"], None).total
    sides = [(special(*p), sum(p)) for p in _PAIRS]
    wins = sum(roll_off_outcome(sa, ta + ma, st, tt + mt) is Outcome.ACTOR for sa, ta in sides for st, tt in sides)
    return {"outcomes": {"actor": Fraction(wins, 1296), "target": Fraction(1296 - wins, 1296)}}
