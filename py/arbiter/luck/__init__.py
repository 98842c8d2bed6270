"""Luck Roll (seed 002): a pool of d6, one more for each factor in favor, one fewer for each against; the result is
the highest die.

One module per job: `rolling` (the inputs, the outcomes' labels, the sheet that rolls it, the rules over a frozen
value, each step in words, a roll as JSON, `roll` and `act`), `exact` (exact odds of each result), `after` (odds
between the choices, luck and the headline: procedures.py's protocol) and `roll_json` (the roll JSON declared,
example requests). This package is the procedure api.py sees.
"""

from .after import LUCK_SUCCESS_FROM, RESULTS, SUCCESSES, headline, luck, odds_after, standing
from .exact import odds
from .rolling import (
    ACTIONS,
    DESCRIPTION,
    EXTRAS,
    FIELDS,
    HINT,
    ID,
    KIND,
    LABEL,
    NO_DICE,
    SEED,
    SIDES,
    TITLE,
    LuckRoll,
    act,
    dice_to_roll,
    pool,
    result_of,
    roll,
)
from .roll_json import EXAMPLE_REQUESTS, ROLL

__all__ = [
    "ACTIONS",
    "DESCRIPTION",
    "EXAMPLE_REQUESTS",
    "EXTRAS",
    "FIELDS",
    "HINT",
    "ID",
    "KIND",
    "LABEL",
    "LUCK_SUCCESS_FROM",
    "NO_DICE",
    "RESULTS",
    "ROLL",
    "SEED",
    "SIDES",
    "SUCCESSES",
    "TITLE",
    "LuckRoll",
    "act",
    "dice_to_roll",
    "headline",
    "luck",
    "odds",
    "odds_after",
    "pool",
    "result_of",
    "roll",
    "standing",
]
