"""The Ability Test's roll JSON declared (api.systems()' "roll"), and requests to try it with."""

from __future__ import annotations

from ..shapes import (
    BOOL,
    INT,
    JSON,
    MARKS,
    NUMBER,
    OUTCOMES,
    TEXT,
    Items,
    Key,
    Nullable,
    choice,
    odds_json,
    roll_json,
    shown,
)
from .sheet import FIELDS, SIDES

_ODDS = odds_json(
    OUTCOMES,
    Key("scheme_gain", NUMBER, "the chance to earn a Scheme die"),
    Key("setback", NUMBER, "the chance of a setback that stands"),
)

ROLL = roll_json(
    FIELDS,
    Key("scheme_roll", Nullable(INT), "the Scheme die, added to Ability (null: no Scheme die used)"),
    Key("rolled", Items(INT), "the difficulty dice as first rolled"),
    Key("rerolled", Items(INT), "the indexes of the dice the Masteries rerolled"),
    Key("rerolled_from", Items(INT), "the faces those dice had before"),
    Key("dice", Items(INT), "the difficulty dice as they stand"),
    Key("marks", MARKS),
    Key("scheme_marks", Nullable(Items(TEXT)), "the Scheme die's marks (null: no Scheme die used)"),
    Key("exertion", INT, "the Exertion spent after the roll, added to Ability"),
    Key("exertion_spent", INT, "all the Test costs in Exertion: its Convictions activated, and `exertion`"),
    Key("ability", INT, "the Ability the total must stay under"),
    Key("total", INT, "the difficulty dice's total"),
    Key("scheme_gain", BOOL, "a success with a 1 rolled during the Test, no Scheme die used"),
    Key("setback", BOOL, "a failure with a 6 rolled during the Test, negated or not"),
    Key("setback_negated", BOOL, "the Players negated the setback"),
    Key("exert_needed", INT, "the Exertion that would turn a failure into a success (0 on a success)"),
    standing=_ODDS,
    choices=(
        choice(
            "reroll",
            Key("max", INT, "the dice the Masteries may reroll"),
            Key("suggested", Items(INT), "the indexes of the best dice to reroll"),
            odds=_ODDS,
        ),
        choice(
            "exert",
            Key("min", INT),
            Key("max", INT),
            Key("exert_needed", INT),
            Key("action", JSON, "the action that turns the failure"),
            odds=_ODDS,
        ),
        choice(
            "negate_setback",
            Key("cost", INT, "the Scheme dice it costs"),
            Key("action", JSON),
            Key("ends", TEXT, "what taking it ends, said before the tap: the Test, and the follow-ups still open"),
            odds=_ODDS,
        ),
    ),
)
"""What roll() and act() answer: the Scheme die, the difficulty dice (as rolled and as rerolled), Ability against
the total, the Scheme die earned and the setback."""

EXAMPLE_REQUESTS = {
    "plain": {"type1": 3, "type2": 2, "skill": 2, "difficulty": 2},
    "masteries": {"type1": 3, "type2": 2, "skill": 2, "difficulty": 3, "masteries": 2},
    "scheme_die": {"type1": 1, "type2": 1, "difficulty": 4, "scheme_die": True},
    "what_if": {
        "type1": 5,
        "type2": 5,
        "skill": 10,
        "item": 5,
        "convictions": [3] * 5,
        "difficulty": 4,
        "masteries": 3,
    },
    "largest": {
        "type1": 5,
        "type2": 5,
        "skill": 10,
        "item": 5,
        "convictions": [3] * 6,
        "difficulty": 4,
        "masteries": 10,
        "scheme_die": True,
    },
}
"""Requests to try the procedure with: a plain Test, one with Masteries to reroll, a hard one with a Scheme die, a
large one that still has what-ifs (a Scheme die, a Conviction, a Mastery), the largest it allows (every option on)."""


def faces(roll: dict) -> list[dict]:
    """The dice a roll shows (the protocol's `faces`): the Narrator's Scheme die when one was used, then the
    difficulty dice as they stand, each group named."""
    scheme = [] if roll["scheme_roll"] is None else [roll["scheme_roll"]]
    return shown(scheme, [roll["scheme_marks"]] if scheme else [], SIDES, "Scheme die (+Ability)") + shown(
        roll["dice"], roll["marks"], SIDES, "Difficulty dice"
    )
