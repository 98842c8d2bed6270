"""Roll Conventions (003), the character sheet the table keeps: Attributes and Skills with their dots, Resolve,
Composure and the Will left; and the request a sheet fills: "Scoop up as many dice as you've got dots in the
statistic(s) named for the type of roll", unskilled when one of them is a skill the character is untrained in.
"""

from __future__ import annotations

from .. import fields
from ..errors import RulesError
from ..stored import AtMostSum, Id, ListOf, Record, named_list
from .table import MAX_TRAIT_DOTS

MAX_STAT_DOTS = 10  # an Attribute's or a Skill's dots on the sheet

SHEET = Record(
    "sheet",
    "d10 pool",
    (
        named_list("attributes", "Attributes", (fields.Int("dots", "Dots", 0, MAX_STAT_DOTS),)),
        named_list(
            "skills",
            "Skills",
            (fields.Int("dots", "Dots", 0, MAX_STAT_DOTS), fields.Bool("trained", "Trained", default=True)),
        ),
        fields.Int("resolve", "Resolve", 1, MAX_TRAIT_DOTS, 2),
        fields.Int("composure", "Composure", 1, MAX_TRAIT_DOTS, 2),
        fields.Int("will", "Will (current)", 0, 2 * MAX_TRAIT_DOTS, 4),
    ),
    limits=(AtMostSum("will", ("resolve", "composure")),),
)  # up to the character's maximum (ten_again-12)
_MOST_STATS = SHEET.fields[0].max_len + SHEET.fields[1].max_len
CHOICES = (ListOf("stats", "Statistics named for the roll (their dots are the pool)", Id("stat"), _MOST_STATS),)


def request_from_sheet(sheet: dict, choices: dict) -> dict:
    """The pool is the dots of the chosen Attributes and Skills; unskilled if a chosen Skill is untrained."""
    chosen = [x for x in (*sheet["attributes"], *sheet["skills"]) if x["id"] in choices["stats"]]
    if not chosen:
        raise RulesError("Choose the statistics named for the roll.")
    unskilled = any(not s["trained"] for s in sheet["skills"] if s["id"] in choices["stats"])
    return {"pool": sum(x["dots"] for x in chosen), "unskilled": unskilled}
