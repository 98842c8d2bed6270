"""The arbitration engine (seed 000), the character sheet the table keeps (Skills and trait modifiers), and the
request it fills."""

from __future__ import annotations

from .. import fields
from ..errors import RulesError
from ..stored import Id, ListOf, Record, named_list
from .rolling import SIDE

SHEET = Record(
    "sheet",
    "Arbitration",
    (
        named_list("skills", "Skills", (fields.Int("value", "Value", SIDE[0].min, SIDE[0].max, default=3),)),
        named_list("traits", "Trait modifiers", (fields.Int("modifier", "Modifier", SIDE[1].min, SIDE[1].max),)),
    ),
)
CHOICES = (
    ListOf("skills", "Relevant skills (the lowest counts)", Id("skill"), SHEET.fields[0].max_len),
    ListOf("traits", "Trait modifiers that apply", Id("trait"), SHEET.fields[1].max_len),
)


def request_from_sheet(sheet: dict, choices: dict) -> dict:
    """The form's relevant skill values and further traits: the chosen skills and traits, in the sheet's order."""
    skills = [s["value"] for s in sheet["skills"] if s["id"] in choices["skills"]]
    modifiers = [t["modifier"] for t in sheet["traits"] if t["id"] in choices["traits"]]
    most, most_mods = SIDE[0].max_len, SIDE[1].max_len
    if not skills:
        raise RulesError("Choose at least one relevant skill.")
    if len(skills) > most:
        raise RulesError(f"Choose at most {most} skills (the form holds {most}).")
    if len(modifiers) > most_mods:
        raise RulesError(f"Choose at most {most_mods} trait modifiers (the form holds {most_mods}).")
    return {"skills": skills, "modifiers": modifiers}
