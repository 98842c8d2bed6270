"""Shared by the two_dice tests: requests parsed, scripted rolls and their odds, any request (Hypothesis)."""

from __future__ import annotations

from fractions import Fraction


import strategies
from arbiter import fields, two_dice
from scripted import ScriptedDice


def parse(request: dict) -> dict:
    return fields.parse(two_dice.FIELDS, request)


def rolled(request: dict, *faces: int) -> dict:
    """Roll `request` with scripted faces, checking every face was used."""
    dice = ScriptedDice(*faces)
    out = two_dice.roll(parse(request), dice)
    assert dice.left == [], f"faces not rolled: {dice.left}"
    return out


def probs(request: dict) -> dict[str, Fraction]:
    return two_dice.odds(parse(request))["outcomes"]


REQUESTS = strategies.request(two_dice.FIELDS)
