"""Two six-sided dice (seed 001): 2d6 + malleable trait + abilities + difficulty − multitasking; nine or better
succeeds; snake-eyes always fail and double sixes always succeed; an opposed roll is a head-to-head roll-off in which
the higher number wins and a tie goes to the target.

One module per job: `rolling` (the inputs, the text's benchmarks, the rules over frozen values, each step in words,
a roll as JSON, `roll` and `act`), `exact` (exact odds, unopposed and in a roll-off), `sheet` (the character sheet
and the request it fills), `after` (odds between the choices, luck and the headline: procedures.py's protocol) and
`roll_json` (the roll JSON declared, example requests). This package is the procedure api.py sees.
"""

from .after import SUCCESSES, headline, luck, odds_after, standing
from .exact import odds
from .rolling import (
    ABILITIES,
    ACTIONS,
    DESCRIPTION,
    DIFFICULTY_GUIDE,
    EXTRAS,
    FIELDS,
    HINT,
    ID,
    LABEL,
    MULTITASK,
    SEED,
    SIDES,
    TARGET,
    TITLE,
    TRAIT,
    Check,
    Contest,
    Modifier,
    Outcome,
    Special,
    Throw,
    act,
    resolve,
    roll,
    roll_off,
    roll_off_outcome,
    side_modifier,
    special,
    to_json,
    unopposed,
    unopposed_outcome,
)
from .sheet import CHOICES, SHEET, request_from_sheet
from .roll_json import EXAMPLE_REQUESTS, ROLL, faces

__all__ = [
    "ABILITIES",
    "ACTIONS",
    "CHOICES",
    "DESCRIPTION",
    "DIFFICULTY_GUIDE",
    "EXAMPLE_REQUESTS",
    "EXTRAS",
    "FIELDS",
    "HINT",
    "ID",
    "LABEL",
    "MULTITASK",
    "ROLL",
    "SEED",
    "SHEET",
    "SIDES",
    "SUCCESSES",
    "TARGET",
    "TITLE",
    "TRAIT",
    "Check",
    "Contest",
    "Modifier",
    "Outcome",
    "Special",
    "Throw",
    "act",
    "faces",
    "headline",
    "luck",
    "odds",
    "odds_after",
    "request_from_sheet",
    "resolve",
    "roll",
    "roll_off",
    "roll_off_outcome",
    "side_modifier",
    "special",
    "standing",
    "to_json",
    "unopposed",
    "unopposed_outcome",
]
