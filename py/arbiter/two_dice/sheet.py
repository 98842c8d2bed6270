"""Two six-sided dice (seed 001), the character sheet the table keeps (malleable traits and abilities), and the
request it fills."""

from __future__ import annotations

from .. import fields
from ..errors import RulesError
from ..stored import Id, ListOf, Record, named_list
from .rolling import ABILITIES, TRAIT

SHEET = Record(
    "sheet",
    "Two dice",
    (
        named_list("traits", "Malleable traits", (fields.Int("value", "Value", TRAIT.min, TRAIT.max, default=3),)),
        named_list("abilities", "Abilities", (fields.Int("value", "Value", ABILITIES.min, ABILITIES.max),)),
    ),
)
CHOICES = (
    Id("trait", "Malleable trait", optional=True, help="None: 0."),
    ListOf("abilities", "Abilities that apply", Id("ability"), SHEET.fields[1].max_len),
)


def request_from_sheet(sheet: dict, choices: dict) -> dict:
    """The form's malleable trait (the chosen one's value, else 0) and the chosen abilities, in the sheet's order."""
    abilities = [a["value"] for a in sheet["abilities"] if a["id"] in choices["abilities"]]
    if len(abilities) > ABILITIES.max_len:
        raise RulesError(f"Choose at most {ABILITIES.max_len} abilities (the form holds {ABILITIES.max_len}).")
    trait = next((t["value"] for t in sheet["traits"] if t["id"] == choices["trait"]), 0)
    return {"trait": trait, "abilities": abilities}
