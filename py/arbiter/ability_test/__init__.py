"""Ability Test (seed 004): a character's Ability must beat the total of 1-4 difficulty d6.

One module per job: `sheet` (the limits, the text's tables, XP costs, FIELDS and the Request; the character sheet
and the request it fills), `rolling` (the Test, `roll` and the follow-ups in `act`), `exact` (the best reroll and
exact odds), `scene` (Convictions declared relevant to the Scene, a new Scene's XP) and `table` (XP, Exertion,
Convictions and the Scheme, for api.table, with `scene`'s ops; what a Test costs and what follows it) and `after`
(odds between the choices and the headline: procedures.py's protocol). This package is the procedure api.py sees.
"""

from . import after
from .after import choice_odds, headline, luck, odds_after, standing, what_if
from .exact import best_reroll, odds
from .rolling import ACTIONS, DESCRIPTION, HINT, ID, LABEL, SEED, TITLE, AbilityTest, Outcome, act, roll
from .sheet import (ATTRIBUTES, CHOICES, DIFFICULTY, EXTRAS, FIELDS, GRADES, MAX_ATTRIBUTE, MAX_CONVICTIONS,
                    MAX_DIFFICULTY, MAX_EXERTION, MAX_ITEM, MAX_MASTERIES, MAX_SKILL, NEGATE_COST, SHEET, SIDES,
                    SIGNIFICANCE, TYPE1, TYPE2, XP_COSTS, XP_PER_SCENE, XP_UNPRICED, Request, XpCost,
                    request_from_sheet, xp_cost)
from .table import (MAX_SCHEME, SCHEME_STATE, TABLE, TABLE_OPS, Conviction, activate_conviction, costs, end_session,
                    exert, follows, move_significance, scheme_add, scheme_negate_setback, scheme_spend_die,
                    xp_advance, xp_earn, xp_spend)
from .roll_json import EXAMPLE_REQUESTS, ROLL

__all__ = [
    "EXAMPLE_REQUESTS", "ROLL",
    "after", "choice_odds", "headline", "luck", "odds_after", "standing", "what_if",
    "ACTIONS", "ATTRIBUTES", "CHOICES", "DESCRIPTION", "DIFFICULTY", "EXTRAS", "FIELDS", "GRADES", "HINT", "ID",
    "LABEL", "MAX_ATTRIBUTE", "MAX_CONVICTIONS", "MAX_DIFFICULTY", "MAX_EXERTION", "MAX_ITEM", "MAX_MASTERIES",
    "MAX_SCHEME", "MAX_SKILL",
    "NEGATE_COST", "SCHEME_STATE", "SEED", "SHEET", "SIDES", "SIGNIFICANCE", "TABLE", "TABLE_OPS", "TITLE", "TYPE1",
    "TYPE2", "XP_COSTS", "XP_PER_SCENE", "XP_UNPRICED", "AbilityTest", "Conviction", "Outcome", "Request", "XpCost",
    "act", "activate_conviction", "best_reroll", "costs", "end_session", "exert", "follows", "move_significance",
    "odds", "request_from_sheet", "roll", "scheme_add", "scheme_negate_setback", "scheme_spend_die", "xp_advance",
    "xp_cost", "xp_earn", "xp_spend",
]
