"""The d10 pool's roll JSON declared (api.systems()' "roll"), and requests to try it with."""

from __future__ import annotations

from ..shapes import BOOL, INT, JSON, MARKS, OUTCOMES, TEXT, Items, Key, choice, odds_json, roll_json, shape, shown
from .rules import FIELDS, SIDES

_HAND = (
    Key("dice", Items(INT), "the pool's dice"),
    Key("will_dice", Items(INT), "the dice an expended Will added"),
    Key("will_spent", BOOL, "a Will was expended for this roll"),
    Key("rerolls", Items(INT), "the 10s' re-rolls, in order"),
    Key("successes", INT, "8s, 9s and 10s, re-rolls included, less those the 1s ate"),
    Key("ones_left", INT, "the 1s that found no success to eat"),
    Key("botch", BOOL, "no success and a 1 left"),
    Key("botch_dice", Items(INT), "the dice of a botch"),
    Key("eaten", Items(INT), "indexes into dice + will_dice: the 1s and the successes they removed"),
    Key("marks", MARKS, "the marks of dice + will_dice"),
    Key("reroll_marks", MARKS, "the marks of the re-rolls"),
)

ROLL = roll_json(
    FIELDS,
    *_HAND,
    Key("target", shape(*_HAND), "the target's pool in a contest", optional=True),
    Key("net", INT, "the actor's successes less the target's, in a contest", optional=True),
    standing=odds_json(OUTCOMES),
    choices=(
        choice(
            "spend_will",
            Key("side", TEXT, "actor or target: whose Will"),
            Key("dice", INT, "the dice it adds"),
            Key("action", JSON, "the action that takes it"),
            odds=odds_json(OUTCOMES),
        ),
    ),
)
"""What roll() and act() answer: the actor's pool (its dice, Will's, the re-rolls, their marks), the target's in a
contest."""

EXAMPLE_REQUESTS = {
    "plain": {"pool": 4},
    "risky": {"pool": 6, "risky": True, "required": 3},
    "contest": {"pool": 5, "opposed": {"pool": 5, "unskilled": True}},
    "what_if": {"pool": 30, "risky": True, "opposed": {"pool": 30, "risky": True}},
    "largest": {
        "pool": 30,
        "modifier": 10,
        "will": True,
        "unskilled": True,
        "risky": True,
        "initiative": False,
        "required": 20,
        "opposed": {"pool": 30, "modifier": 10, "will": True, "unskilled": True, "risky": True, "initiative": False},
    },
}
"""Requests to try the procedure with: a plain pool, a risky one that needs 3 successes, a contest, a large contest
that still has what-ifs (a Will to expend), the largest it allows (most dice)."""


def _hand(hand: dict, group: str = "") -> list[dict]:
    return shown(hand["dice"] + hand["will_dice"], hand["marks"], SIDES, group) + shown(
        hand["rerolls"], hand["reroll_marks"], SIDES, group
    )


def faces(roll: dict) -> list[dict]:
    """The dice a roll shows (the protocol's `faces`): the pool's dice, Will's and the 10s' re-rolls, then in a
    contest the target's the same way, each side named."""
    if "target" not in roll:
        return _hand(roll)
    return _hand(roll, "Actor") + _hand(roll["target"], "Target")
