"""Luck Roll (seed 002), the roll JSON declared (api.systems()' "roll"), and requests to try it with."""

from __future__ import annotations

from ..shapes import INT, MARKS, OUTCOMES, Items, Key, odds_json, roll_json
from .rolling import FIELDS

ROLL = roll_json(
    FIELDS,
    Key("pool", INT, "the dice rolled: dice + for − against (none: the result is 0)"),
    Key("dice", Items(INT)),
    Key("marks", MARKS),
    Key("result", INT, "the highest die (0: no dice)"),
    standing=odds_json(OUTCOMES),
)
"""What roll() answers: the pool, its dice, and the highest as the result."""

EXAMPLE_REQUESTS = {
    "plain": {"dice": 3, "for": 1, "against": 0},
    "edge": {"dice": 1, "for": 0, "against": 3},
    "largest": {"dice": 10, "for": 10, "against": 0},
}
"""Requests to try the procedure with: a plain roll, one with no dice left, the largest it allows."""
