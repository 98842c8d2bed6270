"""Two six-sided dice (seed 001), the roll JSON declared (api.systems()' "roll"), and requests to try it with."""

from __future__ import annotations

from ..shapes import INT, MARKS, OUTCOMES, TEXT, Items, Key, Nullable, odds_json, roll_json, shape, shown
from .rolling import FIELDS, SIDES

_MODIFIER = shape(
    Key("trait", INT),
    Key("abilities", INT, "the abilities' sum"),
    Key(
        "difficulty",
        Nullable(INT),
        "the difficulty's modifier (null: in a contest, which has no difficulty, or an impossible action)",
    ),
    Key("multitask", INT, "the penalty for more than one action"),
    Key("total", INT),
)
_SIDE = (
    Key("dice", Items(INT), "the two dice (none: an impossible roll)"),
    Key("total", Nullable(INT), "the dice plus the modifier (null: no dice rolled)"),
    Key("modifier", _MODIFIER, "what is added to the dice"),
    Key("special", Nullable(TEXT), '"snake-eyes" or "double sixes" (null: neither)'),
    Key("fumble_dice", Items(INT), "the dice of a fumble (snake-eyes)"),
    Key("marks", MARKS),
)

ROLL = roll_json(
    FIELDS,
    *_SIDE,
    Key("target", Nullable(shape(*_SIDE)), "the target's roll in an opposed roll (null: unopposed)"),
    standing=odds_json(OUTCOMES),
)
"""What roll() answers: the actor's two dice, total and modifier, the target's in an opposed roll."""

EXAMPLE_REQUESTS = {
    "plain": {"trait": 1, "abilities": [2], "difficulty": 0},
    "contest": {"trait": 1, "opposed": {"trait": 0}},
    "edge": {"difficulty": "impossible"},
    "largest": {
        "trait": 10,
        "abilities": [10] * 5,
        "difficulty": 3,
        "actions": 1,
        "opposed": {"trait": 10, "abilities": [10] * 5, "actions": 1},
    },
}
"""Requests to try the procedure with: a plain roll, an opposed one, an impossible one, the largest it allows."""


def faces(roll: dict) -> list[dict]:
    """The dice a roll shows (the protocol's `faces`): the actor's two, then in an opposed roll the target's, each
    side named."""
    if roll["target"] is None:
        return shown(roll["dice"], roll["marks"], SIDES)
    t = roll["target"]
    return shown(roll["dice"], roll["marks"], SIDES, "Actor") + shown(t["dice"], t["marks"], SIDES, "Target")
