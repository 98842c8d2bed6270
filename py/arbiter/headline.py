"""The one chance a player reads beside Roll: each procedure's main outcome, from its exact odds (api.odds puts it
in as "headline": {label: p}, one entry, so that its exact "p/q" mirrors the float like every other chance). The page shows it as given; the full table of odds stays below it."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

# Outcomes that are not a success, by procedure (every other outcome of its odds is one: Arbitration's tiers).
_NOT_SUCCESS = {"arbitration": ("failure", "fumble")}
# When the roll is opposed, the outcome that is the actor's win.
_WIN = {"two_dice": "Actor wins", "ten_again": "Actor has successes left"}


def headline(system: str, odds: dict[str, Any], extras: dict) -> dict:
    """{label: p}: the chance of the roll's main outcome: a success (Arbitration: any tier of success), the actor's
    win when opposed, the first threat not coming to pass, or a Luck Roll's likeliest result."""
    if system == "threat":
        first = odds["threats"][0]
        return {"T1 lessened or avoided": first["lessened"] + first["avoided"]}
    outcomes = odds["outcomes"]
    if system == "luck":  # no success or failure: higher is better, so the likeliest result, the higher on a tie
        best = max(outcomes, key=lambda k: (outcomes[k], int(k)))
        return {extras["outcome_labels"][best]: outcomes[best]}
    if "actor" in outcomes:
        return {_WIN[system]: outcomes["actor"]}
    if system in _NOT_SUCCESS:
        return {"Success": sum((p for k, p in outcomes.items() if k not in _NOT_SUCCESS[system]), Fraction(0))}
    return {"Success": outcomes["success"]}
