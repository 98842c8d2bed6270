"""The arbitration engine (seed 000), odds between the choices: the roll's tier as it stands, the odds after a
follow-up (none: every action is refused), how lucky the roll was as first rolled; and the headline, the one chance
beside Roll. Together: procedures.py's protocol."""

from __future__ import annotations

from typing import Any

from .. import chances
from ..headline import chance_of
from .exact import odds
from .rolling import FIELDS, Outcome, act, roll

ORDER = tuple(o.value for o in Outcome)  # the text's tiers, worst first: a fumble, a failure, then each success
SUCCESSES = tuple(o.value for o in Outcome if o.success)  # "a success (that is six or higher)"


def standing(roll: dict) -> dict:
    """The roll's tier as it stands, in the odds' shape: probability 1 for its outcome, 0 for the other tiers."""
    return {"outcomes": chances.one_hot(ORDER, roll["outcome"])}


def odds_after(roll: dict, action: Any) -> dict:
    """An Arbitration has no follow-up choices: every action is refused, as act() refuses it."""
    return standing(act(roll, action, chances.NoDice()))


def luck(rolled: dict) -> dict:
    """The roll as first rolled (its dice rolled again must give it), ranked by its tier, worst first: a fumble, a
    failure, a mediocre … an outstanding success."""
    req = chances.request_of(FIELDS, rolled)
    outcome = chances.replayed(roll, req, rolled)["outcome"]
    return chances.ranked(ORDER, odds(req)["outcomes"], outcome, SUCCESSES)


def headline(exact: dict) -> dict:
    """The chance of a success of any tier (six or higher), beside Roll."""
    return chance_of("Success", exact["outcomes"], SUCCESSES)
