"""Threat Roll (seed 002), the roll JSON declared (api.systems()' "roll"), and example requests."""

from __future__ import annotations


from ..shapes import (
    BOOL,
    INT,
    JSON,
    MARKS,
    NUMBER,
    TEXT,
    Items,
    Key,
    Nullable,
    Table,
    choice,
    odds_json,
    roll_json,
    shape,
)
from .rules import FIELDS


# --- the roll JSON, declared (api.systems()' "roll"), and example requests ----------------------------------------

_PAID = (
    Key("picked", INT, "the option picked, counted from 0"),
    Key("option", TEXT, "the option's words"),
    Key("by", Nullable(TEXT), "the player who pays (null: not named)"),
)

ROLL = roll_json(
    FIELDS,
    Key("pool", INT, "rating + threats − 1, plus any extra dice"),
    Key("dice", Items(INT)),
    Key("assignment", Items(Items(INT)), "per threat, the indexes of the dice it takes"),
    Key("marks", MARKS),
    Key("unassigned", Items(INT), "the indexes of the dice no threat takes"),
    Key(
        "threats",
        Items(
            shape(
                Key("name", TEXT),
                Key("desperate", BOOL),
                Key("die", Nullable(INT), "the highest die it takes (null: no die, it comes to pass)"),
                Key("dice", Items(INT), "the indexes of its dice"),
                Key("outcome", TEXT, "happens, lessened or avoided"),
                Key(
                    "text",
                    Nullable(TEXT),
                    "what that outcome means for a threat named after an example "
                    "(null: not named after an example, or avoided)",
                ),
            )
        ),
        "each threat's die and outcome, in priority order",
    ),
    Key(
        "prices_paid",
        Items(shape(*_PAID, Key("unmarked_all", BOOL, "every option was marked, so the marks were cleared"))),
        "the Prices paid for this roll, one per threat narrowly avoided at most",
    ),
    Key(
        "pay_the_price",
        shape(
            *_PAID,
            Key(
                "marked",
                Items(shape(Key("option", INT), Key("by", Nullable(TEXT)))),
                "the Situation's marks from now on",
            ),
            Key("unmarked_all", BOOL, "every option was marked, so the marks were cleared"),
        ),
        "the latest Price paid (after Pay the Price)",
        optional=True,
    ),
    standing=odds_json(Key("threats", Items(Table(NUMBER)), "per threat, the chance of each outcome")),
    choices=(
        choice("assign", Key("dice", INT), Key("threats", INT)),
        choice(
            "pay_the_price",
            Key("threats", Items(INT), "the indexes of the threats narrowly avoided"),
            Key("options", INT),
            Key("left", INT, "the Prices still to pay"),
            Key("actions", Items(JSON), "the action of each option"),
            Key("ends", TEXT, "what paying ends, said before the tap: reassigning, while it is open", optional=True),
        ),
    ),
)
"""What roll() and act() answer: the pool, its dice and their assignment, each threat's die and outcome, the Prices
paid."""

EXAMPLE_REQUESTS = {
    "plain": {"rating": 2, "threats": [{"name": "Fail"}]},
    "threats": {"rating": 2, "threats": [{"name": "a"}, {"name": "b", "desperate": True}]},
    "largest": {
        "rating": 10,
        "threats": [{"name": f"T{i}", "desperate": i % 2 == 0} for i in range(8)],
        "extra_dice": 10,
    },
}
"""Requests to try the procedure with: one threat, two (one Desperate), the largest it allows."""
