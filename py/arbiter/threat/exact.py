"""Threat Roll (seed 002), exact odds: each threat's chance to come to pass, be lessened or be avoided under the
default assignment (the i-th highest of the pool's d6 to the i-th threat)."""

from __future__ import annotations

from fractions import Fraction

from ..dice import order_statistic
from .rules import SIDES, Outcome, outcome_of, pool


def odds(req: dict) -> dict:
    """Each threat's chance to happen, be lessened or be avoided under the default assignment (exact)."""
    n = pool(req["rating"], len(req["threats"]), req["extra_dice"])
    out = []
    for i, t in enumerate(req["threats"]):
        if i >= n:  # no die left for it: it comes to pass
            out.append({"happens": Fraction(1), "lessened": Fraction(0), "avoided": Fraction(0)})
            continue
        die = order_statistic(n, i + 1, SIDES)  # the (i+1)-th highest die
        p = {o: Fraction(0) for o in Outcome}
        for face, q in die.items():
            p[outcome_of(face, t["desperate"])] += q
        out.append({o.value: p[o] for o in Outcome})
    return {"threats": out}
