"""The arbitration engine (seed 000), its roll JSON declared (api.systems()' "roll"), and requests to try it with."""

from __future__ import annotations

from ..shapes import BOOL, INT, MARKS, OUTCOMES, TEXT, Items, Key, Nullable, odds_json, roll_json, shape, shown
from .rolling import FIELDS, SIDES

_SIDE = (
    Key("pool", INT, "the dicepool: skills, modifiers and the Complexity"),
    Key("dice", Items(INT), "every die rolled"),
    Key("ones", INT, "the 1s removed: each a consequence the Host may introduce"),
    Key("kept", Items(INT), "the dice left once the 1s are removed"),
    Key("sum", Nullable(INT), "the kept dice's sum (null: no dice rolled)"),
)
_FAILING = (
    Key("automatic_failure", BOOL, "the dicepool is zero or less: an automatic failure, no dice rolled"),
    Key("fumble_dice", Items(INT), "the dice of a fumble"),
    Key("marks", MARKS),
)

ROLL = roll_json(
    FIELDS,
    *_SIDE,
    Key(
        "result",
        Nullable(INT),
        "the aggressor's sum less a successful defender's, at least 0, read on the table (null: an automatic failure)",
    ),
    *_FAILING,
    Key(
        "defender",
        Nullable(
            shape(
                *_SIDE,
                Key(
                    "outcome",
                    Nullable(TEXT),
                    "the defender's tier, a failure at a dicepool of zero or less "
                    "(null: not rolled, as the aggressor failed automatically)",
                ),
                *_FAILING,
                Key("subtracted", INT, "what the defender's success takes away"),
            )
        ),
        "the defender's roll in a contest (null: unopposed)",
    ),
    standing=odds_json(OUTCOMES),
)
"""What roll() answers: the aggressor's dice and result, the defender's side in a contest."""

EXAMPLE_REQUESTS = {
    "plain": {"skills": [4], "modifiers": [1], "complexity": "moderate"},
    "contest": {"skills": [4], "opposed": {"skills": [3]}},
    "edge": {"skills": [0], "opposed": {"skills": [3]}},
    "defenceless": {"skills": [3], "opposed": {"skills": [0]}},
    "largest": {
        "skills": [30] * 5,
        "modifiers": [5] * 4,
        "complexity": "very_easy",
        "opposed": {"skills": [30] * 5, "modifiers": [5] * 4, "complexity": "very_easy"},
    },
}
"""Requests to try the procedure with: a plain roll, a contest, an aggressor's automatic failure (the defender does
not roll), a defender's, and the largest it allows (most dice)."""


def faces(roll: dict) -> list[dict]:
    """The dice a roll shows (the protocol's `faces`): the aggressor's, then in a contest the defender's, each side
    named."""
    if roll["defender"] is None:
        return shown(roll["dice"], roll["marks"], SIDES)
    d = roll["defender"]
    return shown(roll["dice"], roll["marks"], SIDES, "Aggressor") + shown(d["dice"], d["marks"], SIDES, "Defender")
