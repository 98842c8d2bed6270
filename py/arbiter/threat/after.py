"""Threat Roll (seed 002), odds between the choices, luck and the headline (arbiter.procedures' protocol)."""

from __future__ import annotations

from fractions import Fraction
from math import factorial
from typing import Any

from .. import chances
from ..headline import chance_of
from .rolling import act
from .rules import FIELDS, SIDES, Outcome, outcome_of, pool


# --- odds between the choices, luck and the headline (procedures.py's protocol) -----------------------------------

ORDER = tuple(o.value for o in Outcome)  # a threat's outcomes, worst first: it happens, is lessened, is avoided


def standing(roll: dict) -> dict:
    """Each threat's outcome as it stands, in the odds' shape: probability 1 for it, 0 for the other two."""
    return {"threats": [chances.one_hot(ORDER, t["outcome"]) for t in roll["threats"]]}


def odds_after(roll: dict, action: Any) -> dict:
    """Reassigning the dice and Pay the Price roll no dice: certain, the outcomes of the roll that act() gives."""
    return standing(act(roll, action, chances.NoDice()))


def luck(roll: dict) -> dict:
    """The threats' outcomes under the default assignment (the dice as first rolled), compared threat by threat in
    their order of priority (threat-13); success is the first threat not coming to pass."""
    req = chances.request_of(FIELDS, roll)
    threats = req["threats"]
    n = pool(req["rating"], len(threats), req["extra_dice"])
    faces = sorted(chances.faces(roll, n, SIDES), reverse=True)

    def outcomes(highest: list[int]) -> tuple[int, ...]:
        return tuple(
            ORDER.index(outcome_of(highest[i] if i < len(highest) else None, t["desperate"]).value)
            for i, t in enumerate(threats)
        )

    # the sorted dice are n6 sixes, n45 fours or fives, the rest 1-3: that decides every threat's die's kind
    ways: dict[tuple[int, ...], int] = {}
    for n6 in range(n + 1):
        for n45 in range(n - n6 + 1):
            low = n - n6 - n45
            w = factorial(n) // (factorial(n6) * factorial(n45) * factorial(low)) * 2**n45 * 3**low
            key = outcomes([6] * n6 + [5] * n45 + [1] * low)
            ways[key] = ways.get(key, 0) + w
    whole = SIDES**n
    rank = outcomes(faces)
    worse = Fraction(sum(w for k, w in ways.items() if k < rank), whole)
    same = Fraction(ways[rank], whole)
    first_ok = Fraction(sum(w for k, w in ways.items() if k[0] > 0), whole)
    words = " / ".join(ORDER[i] for i in rank)
    return {
        "order": list(ORDER),
        "outcome": words,
        "rank": words,
        "p_worse": worse,
        "p_same": same,
        "p_outcome": same,
        "p_success": first_ok,
        "success": rank[0] > 0,
    }


def headline(exact: dict) -> dict:
    """Beside Roll: the chance that the first threat does not come to pass (lessened or avoided)."""
    return chance_of("T1 lessened or avoided", exact["threats"][0], (Outcome.LESSENED.value, Outcome.AVOIDED.value))
