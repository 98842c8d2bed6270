"""The arbitration engine (seed 000): a d6 dicepool from the lowest relevant skill, the further relevant traits and
the complexity; remove the 1s, sum the rest into quality tiers; opposed rolls subtract the defender's sum when the
defender succeeds.

One module per job: `rolling` (the inputs, the tiers, the rules over frozen values, each step in words, a roll as
JSON, `roll` and `act`), `exact` (exact odds of every tier), `sheet` (the character sheet and the request it fills),
`after` (odds between the choices, luck and the headline: procedures.py's protocol) and `roll_json` (the roll JSON
declared, example requests). This package is the procedure api.py sees.
"""

from .after import ORDER, SUCCESSES, headline, luck, odds_after, standing
from .exact import odds, sum_ways
from .rolling import (
    ACTIONS,
    COMPLEXITY,
    COMPLEXITY_DICE,
    COMPLEXITY_LABEL,
    DESCRIPTION,
    EXTRAS,
    FIELDS,
    HINT,
    ID,
    LABEL,
    SEED,
    SIDE,
    SIDES,
    TIERS,
    TITLE,
    Arbitration,
    Outcome,
    Pool,
    Roll,
    act,
    resolve,
    roll,
    tier,
    to_json,
)
from .sheet import CHOICES, SHEET, request_from_sheet
from .roll_json import EXAMPLE_REQUESTS, ROLL, faces

__all__ = [
    "ACTIONS",
    "CHOICES",
    "COMPLEXITY",
    "COMPLEXITY_DICE",
    "COMPLEXITY_LABEL",
    "DESCRIPTION",
    "EXAMPLE_REQUESTS",
    "EXTRAS",
    "FIELDS",
    "HINT",
    "ID",
    "LABEL",
    "ORDER",
    "ROLL",
    "SEED",
    "SHEET",
    "SIDE",
    "SIDES",
    "SUCCESSES",
    "TIERS",
    "TITLE",
    "Arbitration",
    "Outcome",
    "Pool",
    "Roll",
    "act",
    "faces",
    "headline",
    "luck",
    "odds",
    "odds_after",
    "request_from_sheet",
    "resolve",
    "roll",
    "standing",
    "sum_ways",
    "tier",
    "to_json",
]
