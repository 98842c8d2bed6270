"""Odds between the choices, for every procedure: the roll as it stands, the odds after a follow-up, the what-ifs
before a roll, and luck, how a roll as first rolled stands among all it could have been.

A package procedure (ten_again, ability_test) answers from its own `after` module; a single-module procedure has no
follow-up with dice (threat's reassignment and Pay the Price are certain; the others have none), so its answers are
built here from its `act` and `odds`. Every answer holds `Fraction`s; api.py turns them into floats and "p/q".

Luck: percentile = P(worse) + ½ P(same rank) under each procedure's order of outcomes, worst first (`ORDER`); its
mean over all rolls is exactly ½. A rank may be finer than the outcome (ten_again ranks by successes).
"""

from __future__ import annotations

from fractions import Fraction
from math import factorial
from typing import Any

from . import fields
from .errors import RulesError


class NoDice:
    """The dice source for a follow-up that rolls nothing: any die asked for is a bug."""

    def randint(self, a: int, b: int) -> int:
        raise AssertionError("a follow-up without dice asked for a die")


def _one_hot(keys, hit: str) -> dict:
    return {k: Fraction(int(k == hit)) for k in keys}


def _outcome_keys(m, roll: dict) -> tuple[str, ...]:
    """The keys of odds()' outcomes for this roll's request, without computing the odds."""
    if m.ID == "luck":
        return tuple(str(v) for v in range(m.NO_DICE, m.SIDES + 1))
    if m.ID == "two_dice":
        return ("actor", "target") if roll["request"].get("opposed") is not None else ("success", "failure")
    return tuple(o.value for o in m.Outcome)  # arbitration: its seven tiers


def standing(m, roll: dict) -> dict:
    """The roll's outcome as it stands, in the shape of m's odds, with probability 1."""
    if hasattr(m, "after"):
        return m.after.standing(roll)
    if m.ID == "threat":
        return {"threats": [_one_hot(tuple(o.value for o in m.Outcome), t["outcome"]) for t in roll["threats"]]}
    return {"outcomes": _one_hot(_outcome_keys(m, roll), roll["outcome"])}


def odds_after(m, roll: dict, action: Any) -> dict:
    """The exact odds of the final outcome if `action` is taken now; certain when it rolls no dice."""
    if hasattr(m, "after"):
        return m.after.odds_after(roll, action)
    return standing(m, m.act(roll, action, NoDice()))


def choice_odds(m, roll: dict) -> list[tuple[dict, dict]]:
    """Each choice of the roll that suggests an action, with the odds of that action (and the action itself)."""
    if not hasattr(m, "after"):
        return []  # threat's choices ask for a pick (the dice, an option); no action is suggested
    return [(c, m.after.choice_odds(roll, c)) for c in roll.get("choices", ())]


def what_if(m, req: dict) -> list[dict]:
    """What the player could still add to `req` before the roll, each with the odds of the changed request."""
    return m.after.what_if(req) if hasattr(m, "after") else []


# --- luck ---------------------------------------------------------------------------------------------------------

def _ranked(order: tuple[str, ...], p: dict, outcome: str, success: set[str]) -> dict:
    """Luck when the rank is the outcome itself."""
    worse = sum((p[k] for k in order[:order.index(outcome)]), Fraction(0))
    p_success = sum((p[k] for k in order if k in success), Fraction(0))
    return {"order": list(order), "outcome": outcome, "rank": outcome, "p_worse": worse, "p_same": p[outcome],
            "p_outcome": p[outcome], "p_success": p_success, "success": outcome in success}


LUCK_SUCCESS_FROM = 6  # luck-6: a Luck Roll of 6 counts as a success in the luck view, as its tone (luck-5)


def luck(m, roll: Any) -> dict:
    """How lucky `roll` was as first rolled: the order of outcomes, the rank, P(worse), P(same), the chance of its
    outcome and of success, and whether it succeeded."""
    if not isinstance(roll, dict) or roll.get("system") != m.ID:
        raise RulesError(f"'roll' must be {fields.a(m.ID)} roll as returned by roll() or act()")
    if hasattr(m, "after"):
        return m.after.luck(roll)
    req = fields.parse(m.FIELDS, roll.get("request"), "roll.request")
    if m.ID == "threat":
        return _threat_luck(m, req, roll)
    if m.ID == "luck":
        order = tuple(str(v) for v in range(m.NO_DICE, m.SIDES + 1))
        faces = _faces(roll, m.dice_to_roll(m.pool(req["dice"], req["for"], req["against"])), m.SIDES)
        outcome = str(m.result_of(faces))
        return _ranked(order, m.odds(req)["outcomes"], outcome, {str(v) for v in range(LUCK_SUCCESS_FROM, 7)})
    outcome = _replayed(m, req, roll)["outcome"]
    p = m.odds(req)["outcomes"]
    if m.ID == "two_dice":
        order = ("target", "actor") if req["opposed"] is not None else ("failure", "success")
        success = {"actor", "success"}
    else:  # arbitration: its tiers, worst first
        order = tuple(o.value for o in m.Outcome)
        success = {o.value for o in m.Outcome if o.success}
    return _ranked(order, p, outcome, success)


class _Replay:
    """The dice of a roll again, in the order the procedure rolled them."""

    def __init__(self, faces: list) -> None:
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        if not self.faces:
            raise RulesError("'roll.dice' has fewer dice than this request rolls")
        face = self.faces.pop(0)
        if isinstance(face, bool) or not isinstance(face, int) or not a <= face <= b:
            raise RulesError(f"'roll.dice' must hold faces from {a} to {b}, got {face!r:.100}")
        return face


def _replayed(m, req: dict, roll: dict) -> dict:
    """The roll made again from its own dice (the other side's after the first's): refused unless it is the same."""
    other = roll.get("defender") or roll.get("target") or {}
    faces = list(roll.get("dice") or []) + list(other.get("dice") or [] if isinstance(other, dict) else [])
    again = m.roll(req, _Replay(faces))
    if any(again.get(k) != roll.get(k) for k in ("dice", "outcome", "defender", "target")):
        raise RulesError(f"'roll' does not match its dice: rolled again they give {again['outcome']!r}")
    return again


def _faces(roll: dict, n: int, sides: int) -> tuple[int, ...]:
    faces = roll.get("dice")
    if not isinstance(faces, list) or len(faces) != n or any(
            isinstance(f, bool) or not isinstance(f, int) or not 1 <= f <= sides for f in faces):
        raise RulesError(f"'roll.dice' must be a list of {n} faces from 1 to {sides} (the pool of this request)")
    return tuple(faces)


THREAT_ORDER = ("happens", "lessened", "avoided")


def _threat_luck(m, req: dict, roll: dict) -> dict:
    """Threat: the threats' outcomes under the default assignment (the dice as first rolled), compared threat by
    threat in their order of priority (threat-13); success is the first threat not coming to pass."""
    threats = req["threats"]
    n = m.pool(req["rating"], len(threats), req["extra_dice"])
    faces = sorted(_faces(roll, n, m.SIDES), reverse=True)

    def outcomes(highest: list[int]) -> tuple[int, ...]:
        return tuple(THREAT_ORDER.index(m.outcome_of(highest[i] if i < len(highest) else None, t["desperate"]).value)
                     for i, t in enumerate(threats))

    # the sorted dice are n6 sixes, n45 fours or fives, the rest 1-3: that decides every threat's die's kind
    ways: dict[tuple[int, ...], int] = {}
    for n6 in range(n + 1):
        for n45 in range(n - n6 + 1):
            low = n - n6 - n45
            w = factorial(n) // (factorial(n6) * factorial(n45) * factorial(low)) * 2 ** n45 * 3 ** low
            key = outcomes([6] * n6 + [5] * n45 + [1] * low)
            ways[key] = ways.get(key, 0) + w
    whole = m.SIDES ** n
    rank = outcomes(faces)
    worse = Fraction(sum(w for k, w in ways.items() if k < rank), whole)
    same = Fraction(ways[rank], whole)
    first_ok = Fraction(sum(w for k, w in ways.items() if k[0] > 0), whole)
    words = " / ".join(THREAT_ORDER[i] for i in rank)
    return {"order": list(THREAT_ORDER), "outcome": words, "rank": words, "p_worse": worse, "p_same": same,
            "p_outcome": same, "p_success": first_ok, "success": rank[0] > 0}
