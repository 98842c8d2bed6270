"""Luck Roll (seed 002), odds between the choices: the result as it stands, the odds after a follow-up (none: every
action is refused), how lucky the roll was as first rolled; and the headline, the one chance beside Roll. Together:
procedures.py's protocol."""

from __future__ import annotations

from typing import Any

from .. import chances
from .exact import odds
from .rolling import EXTRAS, FIELDS, NO_DICE, SIDES, act, dice_to_roll, pool, result_of

RESULTS = tuple(str(v) for v in range(NO_DICE, SIDES + 1))  # odds()' outcomes: "0" (no dice) … "6", worst first
LUCK_SUCCESS_FROM = 6  # luck-6: a Luck Roll of 6 counts as a success in the luck view, as its tone (luck-5)
SUCCESSES = tuple(str(v) for v in range(LUCK_SUCCESS_FROM, SIDES + 1))


def standing(roll: dict) -> dict:
    """The result as it stands, in the odds' shape: probability 1 for it, 0 for every other."""
    return {"outcomes": chances.one_hot(RESULTS, roll["outcome"])}


def odds_after(roll: dict, action: Any) -> dict:
    """A Luck Roll has no follow-up choices: every action is refused, as act() refuses it."""
    return standing(act(roll, action, chances.NoDice()))


def luck(roll: dict) -> dict:
    """The result as first rolled, ranked: higher results are better outcomes, 0 (no dice) the worst."""
    req = chances.request_of(FIELDS, roll)
    faces = chances.faces(roll, dice_to_roll(pool(req["dice"], req["for"], req["against"])), SIDES)
    return chances.ranked(RESULTS, odds(req)["outcomes"], str(result_of(faces)), SUCCESSES)


def headline(exact: dict) -> dict:
    """Beside Roll: a Luck Roll has no success or failure, and higher is better, so its likeliest result (the higher
    on a tie), labelled as EXTRAS publishes it."""
    outcomes = exact["outcomes"]
    best = max(outcomes, key=lambda k: (outcomes[k], int(k)))
    return {EXTRAS["outcome_labels"][best]: outcomes[best]}
