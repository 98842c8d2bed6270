"""Odds between the choices, for every procedure: the roll as it stands, the odds after a follow-up, the what-ifs
before a roll, and luck, how a roll as first rolled stands among all it could have been.

Each procedure answers through its own protocol (procedures.py: `standing`, `odds_after`, `choice_odds`, `what_if`,
`luck`, and `note` if it words one); this module asks it, and holds the generic pieces a procedure builds those answers
from, each given what the procedure declares (its outcomes, their order worst first, which of them succeed), never its
id: a certain outcome (`one_hot`, `NoDice` for a follow-up that rolls nothing), a rank in the order (`ranked`), a
follow-up's note (`verdict`, `muted`, `warn`), a roll replayed from its own dice (`replayed`, `faces`). Every answer
holds `Fraction`s; api.py turns them into floats and "p/q".

Luck: percentile = P(worse) + ½ P(same rank) under the procedure's order of outcomes, worst first; its mean over all
rolls is exactly ½. A rank may be finer than the outcome (ten_again ranks by successes).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, Iterable

from . import fields
from .errors import RulesError


def standing(m, roll: dict) -> dict:
    """The roll's outcome as it stands, in the shape of m's odds, with probability 1."""
    return m.standing(roll)


def odds_after(m, roll: dict, action: Any) -> dict:
    """The exact odds of the final outcome if `action` is taken now; certain when it rolls no dice."""
    return m.odds_after(roll, action)


def choice_odds(m, roll: dict) -> list[tuple[dict, dict]]:
    """Each choice of the roll that suggests an action, with the odds of that action (and the action itself)."""
    out = []
    for choice in roll.get("choices", ()):
        exact = m.choice_odds(roll, choice)
        if exact is not None:  # a choice that asks for a pick (threat's dice, an option) suggests no action
            out.append((choice, exact))
    return out


def note(m, roll: dict, action: Any, after: dict) -> dict | None:
    """What a follow-up's exact odds `after` (of `action`, or of nothing done when None) say beyond their numbers, as
    the procedure's `note` words it (a procedure may leave it out: no note): {"words", "tone"}, "muted" when the
    follow-up cannot raise the chance it is taken for, "warn" when it can only lower it; or None."""
    return m.note(roll, action, after)


def what_if(m, req: dict) -> list[dict]:
    """What the player could still add to `req` before the roll, each with the odds of the changed request."""
    return m.what_if(req)


def luck(m, roll: Any) -> dict:
    """How lucky `roll` was as first rolled: the order of outcomes, the rank, P(worse), P(same), the chance of its
    outcome and of success, and whether it succeeded."""
    if not isinstance(roll, dict) or roll.get("system") != m.ID:
        raise RulesError(f"'roll' must be {fields.a(m.ID)} roll as returned by roll() or act()")
    return m.luck(roll)


# --- the generic pieces: given a procedure's outcomes, order and successes ----------------------------------------


class NoDice:
    """The dice source for a follow-up that rolls nothing: any die asked for is a bug."""

    def randint(self, a: int, b: int) -> int:
        raise AssertionError("a follow-up without dice asked for a die")


def one_hot(keys: Iterable[str], hit: str) -> dict:
    """An outcome that stands, in the odds' shape: probability 1 for `hit`, 0 for every other key."""
    return {k: Fraction(int(k == hit)) for k in keys}


def ranked(order: tuple[str, ...], p: dict, outcome: str, success: Iterable[str]) -> dict:
    """Luck when the rank is the outcome itself: `order` worst first, `p` the chance of each, `success` the outcomes
    that succeed."""
    success = set(success)
    worse = sum((p[k] for k in order[: order.index(outcome)]), Fraction(0))
    p_success = sum((p[k] for k in order if k in success), Fraction(0))
    return {
        "order": list(order),
        "outcome": outcome,
        "rank": outcome,
        "p_worse": worse,
        "p_same": p[outcome],
        "p_outcome": p[outcome],
        "p_success": p_success,
        "success": outcome in success,
    }


MUTED, WARN = "muted", "warn"


def muted(words: str) -> dict:
    """A note on a follow-up that cannot raise the chance it is taken for: shown muted, still allowed."""
    return {"words": words, "tone": MUTED}


def warn(words: str) -> dict:
    """A note on a follow-up that can only lower the chance it is taken for: a warning, still allowed."""
    return {"words": words, "tone": WARN}


def verdict(before: Fraction, after: Fraction, no_gain: str, risky: str) -> dict | None:
    """The note on the chance a follow-up is taken for, `before` as the roll stands (certain) and `after` it: lower,
    `risky` (warn); certain both times, `no_gain` (muted); else none."""
    if after < before:
        return warn(risky)
    if after == before == 1:
        return muted(no_gain)
    return None


def request_of(declared: tuple, roll: dict) -> dict:
    """The roll's own request, checked against the procedure's FIELDS."""
    return fields.parse(declared, roll.get("request"), "roll.request")


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


def replayed(roll_again: Callable[[dict, Any], dict], req: dict, roll: dict) -> dict:
    """The roll made again by `roll_again` (the procedure's `roll`) from its own dice (the other side's after the
    first's): refused unless it is the same."""
    other = roll.get("defender") or roll.get("target") or {}
    faces = list(roll.get("dice") or []) + list(other.get("dice") or [] if isinstance(other, dict) else [])
    again = roll_again(req, _Replay(faces))
    if any(again.get(k) != roll.get(k) for k in ("dice", "outcome", "defender", "target")):
        raise RulesError(f"'roll' does not match its dice: rolled again they give {again['outcome']!r}")
    return again


def faces(roll: dict, n: int, sides: int) -> tuple[int, ...]:
    """The roll's dice, refused unless they are `n` faces from 1 to `sides`."""
    dice = roll.get("dice")
    if (
        not isinstance(dice, list)
        or len(dice) != n
        or any(isinstance(f, bool) or not isinstance(f, int) or not 1 <= f <= sides for f in dice)
    ):
        raise RulesError(f"'roll.dice' must be a list of {n} faces from 1 to {sides} (the pool of this request)")
    return tuple(dice)
