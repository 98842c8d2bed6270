"""Two six-sided dice (seed 001), odds between the choices: the roll's outcome as it stands, the odds after a
follow-up (none: every action is refused), how lucky the roll was as first rolled; and the headline, the one chance
beside Roll. Together: procedures.py's protocol."""

from __future__ import annotations

from typing import Any

from .. import chances
from ..headline import chance_of
from .exact import odds
from .rolling import FIELDS, Outcome, act, roll


def _order(opposed: bool) -> tuple[str, ...]:
    """The outcomes worst first: failure, success; opposed, the target's win, the actor's."""
    pair = (Outcome.TARGET, Outcome.ACTOR) if opposed else (Outcome.FAILURE, Outcome.SUCCESS)
    return tuple(o.value for o in pair)


SUCCESSES = (Outcome.SUCCESS.value, Outcome.ACTOR.value)  # "an action succeeds"; opposed, the actor wins


def standing(roll: dict) -> dict:
    """The roll's outcome as it stands, in the odds' shape: probability 1 for its outcome, 0 for the other."""
    keys = reversed(_order(roll["request"].get("opposed") is not None))  # as odds() gives them: the better first
    return {"outcomes": chances.one_hot(keys, roll["outcome"])}


def odds_after(roll: dict, action: Any) -> dict:
    """A two-dice roll has no follow-up choices: every action is refused, as act() refuses it."""
    return standing(act(roll, action, chances.NoDice()))


def luck(rolled: dict) -> dict:
    """The roll as first rolled (its dice rolled again must give it), ranked: a failure below a success; opposed, the
    target's win below the actor's."""
    req = chances.request_of(FIELDS, rolled)
    outcome = chances.replayed(roll, req, rolled)["outcome"]
    return chances.ranked(_order(req["opposed"] is not None), odds(req)["outcomes"], outcome, SUCCESSES)


def headline(exact: dict) -> dict:
    """Beside Roll: the chance of success ("nine or better"); opposed, of the actor's win."""
    outcomes = exact["outcomes"]
    if Outcome.ACTOR.value in outcomes:
        return chance_of("Actor wins", outcomes, (Outcome.ACTOR.value,))
    return chance_of("Success", outcomes, (Outcome.SUCCESS.value,))
