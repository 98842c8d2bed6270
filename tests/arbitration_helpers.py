"""Shared by the arbitration tests: requests parsed, a dicepool of n, scripted rolls and their odds, the tiers in
order, the largest side and any request (Hypothesis)."""

from __future__ import annotations

from fractions import Fraction


import strategies
from arbiter import arbitration, fields
from scripted import ScriptedDice


OUTCOMES = ["fumble", "failure", "mediocre", "fair", "good", "exceptional", "outstanding"]


LARGEST_SIDE = {"skills": [30], "modifiers": [5, 5, 5, 5], "complexity": "very_easy"}


def parse(request: dict) -> dict:
    return fields.parse(arbitration.FIELDS, request)


def rolled(request: dict, *faces: int) -> dict:
    """Roll `request` with scripted faces, checking every face was used."""
    dice = ScriptedDice(*faces)
    out = arbitration.roll(parse(request), dice)
    assert dice.left == [], f"faces not rolled: {dice.left}"
    return out


def pool_of(n: int) -> dict:
    """A request whose dicepool is n (n may be zero or less)."""
    return (
        {"skills": [max(n, 0) + 3], "complexity": "very_difficult"}
        if n > 0
        else {"skills": [0], "modifiers": [n] if n else []}
    )


def probs(request: dict) -> dict[str, Fraction]:
    return arbitration.odds(parse(request))["outcomes"]


REQUESTS = strategies.request(arbitration.FIELDS)
