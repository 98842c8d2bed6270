"""Threat Roll (seed 002), the table: the character sheet the table keeps (Luck's too), the request it fills, what a
roll changes on the table, and the Price paid on the sheet ("Lose one Insight." / "Spend a point of Gear." / "Take 1
Harm.")."""

from __future__ import annotations

from typing import Any

from .. import fields
from ..errors import RulesError
from ..stored import ListOf, Record, int_map
from .price import PAY_THE_PRICE
from .rolling import check_roll
from .rules import ABILITY_RATINGS, FIELDS, ID


# --- the character sheet the table keeps (Luck's too), the request it fills, what a roll changes on the table ------

COUNTERS = ("renown", "aether", "insight", "gear", "harm")  # the text's Renown, Aether, Insight, Gear and Harm
MAX_COUNTER = 999  # the sheet's limit, not the text's
SHEET = Record(
    "sheet",
    "Threat & Luck",
    (
        int_map("ratings", "Ability ratings", tuple(ABILITY_RATINGS), FIELDS[0].min, FIELDS[0].max, FIELDS[0].default),
        int_map("counters", "Counters", COUNTERS, 0, MAX_COUNTER, 0, tuple(c.capitalize() for c in COUNTERS)),
    ),
)
CHOICES = (fields.Choice("rating", "Ability rating", tuple((r, r) for r in ABILITY_RATINGS), "Charm"),)
MARKED = ListOf(
    "marked",
    "Pay the Price options marked this Situation",
    fields.Int("marked", "Option", 0, len(PAY_THE_PRICE) - 1),
    len(PAY_THE_PRICE),
    unique=True,
)


def request_from_sheet(sheet: dict, choices: dict) -> dict:
    """Gather d6 equal to the chosen ability rating."""
    return {"rating": sheet["ratings"][choices["rating"]]}


def follows(roll: dict, earned: bool) -> tuple[list, list | None]:
    """After a roll that Paid the Price, the Situation's marks are the roll's, as it reports them (the Situation's
    record checks each mark when it is saved); nothing else follows."""
    check_roll(roll)
    paid = roll.get("pay_the_price")
    if paid is None:
        return [], None
    marked = paid.get("marked") if isinstance(paid, dict) else None
    if not isinstance(marked, list) or len(marked) > len(PAY_THE_PRICE):
        raise RulesError(
            f"'roll.pay_the_price.marked' must be a list of at most {len(PAY_THE_PRICE)} marks, got {marked!r:.100}"
        )
    return [], marked


# --- the Price paid on the sheet: "Lose one Insight." / "Spend a point of Gear." / "Take 1 Harm." --------------------

_COUNTERS = SHEET.fields[1]
# option -> (op, counter, change, its note, what the refusal says the one paying has); the other five are narrative
PRICE_ON_SHEET = {
    1: ("lose_insight", "insight", -1, "Lost one Insight", "has no Insight left"),
    3: ("spend_gear", "gear", -1, "Spent a point of Gear", "has no Gear left"),
    7: ("take_harm", "harm", 1, "Took 1 Harm", f"has Harm at the sheet's maximum, {MAX_COUNTER}"),
}


def _price_op(name: str, counter: str, change: int, done: str, refused: str):
    """The op that pays a Price on the sheet's `counter`: `change` it, never below 0 nor above the sheet's maximum."""

    def op(state: Any, args: Any) -> dict:
        fields.read_args(args, (), name)
        counters = dict(fields.read_state(state, (_COUNTERS,), ("counters",))["counters"])
        after = counters[counter] + change
        if not 0 <= after <= MAX_COUNTER:
            raise RulesError(
                f"'state.counters.{counter}' is {counters[counter]}: {refused[4:]}", says=refused, holder=True
            )
        return fields.new_state(
            state, f"{done} ({counter.capitalize()} {after})", counters={**counters, counter: after}
        )

    return op


TABLE = {
    name: _price_op(name, counter, change, done, refused)
    for name, counter, change, done, refused in PRICE_ON_SHEET.values()
}
TABLE_OPS = [
    fields.table_op(name, PAY_THE_PRICE[option].rstrip("."), f"Pay the Price: {PAY_THE_PRICE[option]}", (_COUNTERS,))
    for option, (name, *_) in PRICE_ON_SHEET.items()
]


def costs(request: dict | None, action: dict | None, choices: dict | None = None) -> list[dict]:
    """Paying the Price with "Lose one Insight.", "Spend a point of Gear." or "Take 1 Harm." changes the sheet of the
    one rolling; the other options, the roll itself and reassigning cost nothing on the sheet."""
    option = action.get("pay_the_price") if action is not None else None
    if isinstance(option, bool) or option not in PRICE_ON_SHEET:
        return []
    return [fields.pay("character", ID, PRICE_ON_SHEET[option][0])]
