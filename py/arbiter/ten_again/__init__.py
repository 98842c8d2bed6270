"""Roll Conventions (003): a pool of d10s, 8s, 9s and 10s succeed, 1s eat successes, 10s roll again.

One module per job: `rolling` (the rules over frozen values, each step in words, a roll as JSON in and out,
`roll` and `act`), `exact` (exact odds of a roll, a contest and a struggle's turn), `table` (Will, nights of
rest, Will rolls and ongoing struggles, for api.table; what a roll costs) and `sheet` (the character sheet and the
request it fills), `after` (odds between the choices and the headline: procedures.py's protocol). This package
is the procedure api.py sees.
"""

from . import after
from .after import choice_odds, headline, luck, odds_after, standing, what_if
from .exact import Law, TurnLaw, contest, law, odds
from .rolling import (ACTIONS, DESCRIPTION, EXTRAS, FIELDS, HINT, ID, INITIATIVE_THRESHOLD, LABEL, MAX_DICE, SEED,
                      SIDES, TAIL, THRESHOLD, TITLE, WILL_DICE, Count, Hand, Outcome, Pool, Roll, Winner, act, chains,
                      roll, roll_chains, roll_hand, spend_will)
from .sheet import CHOICES, SHEET, request_from_sheet
from .table import (STRUGGLE_STATE, TABLE, TABLE_OPS, Status, Struggle, Will, costs, expend_will, rest,
                    struggle_odds, struggle_reset, struggle_turn, will_max, will_roll)
from .roll_json import EXAMPLE_REQUESTS, ROLL

__all__ = [
    "EXAMPLE_REQUESTS", "ROLL",
    "after", "choice_odds", "headline", "luck", "odds_after", "standing", "what_if",
    "ACTIONS", "CHOICES", "DESCRIPTION", "EXTRAS", "FIELDS", "HINT", "ID", "LABEL", "INITIATIVE_THRESHOLD", "MAX_DICE", "SEED", "SHEET", "SIDES",
    "STRUGGLE_STATE", "TABLE", "TABLE_OPS", "TAIL", "THRESHOLD", "TITLE", "WILL_DICE", "Count", "Hand", "Law",
    "Outcome", "Pool", "Roll", "Status", "Struggle", "TurnLaw", "Will", "Winner", "act", "chains", "contest", "costs",
    "expend_will", "law", "odds", "request_from_sheet", "rest", "roll", "roll_chains", "roll_hand", "spend_will",
    "struggle_odds", "struggle_reset", "struggle_turn", "will_max", "will_roll",
]
