"""The one registry of procedures, and the protocol through which shared code asks each what it needs.

Every procedure (a module, or a package that gathers its modules) provides ID, TITLE, SEED, FIELDS, ACTIONS, EXTRAS,
`roll`, `act` and `odds` (api.py's door), and the odds between the choices (chances.py's door):

- `standing(roll)`: the roll's outcome as it stands, in the shape of its odds, with probability 1;
- `odds_after(roll, action)`: the exact odds of the final outcome if `action` is taken now;
- `choice_odds(roll, choice)`: the odds of the action a choice suggests, with that action, or None (no suggestion);
- `what_if(req)`: what the player could still add to the request before the roll, each with its odds;
- `luck(roll)`: how the roll as first rolled stands among all it could have been (its order of outcomes, worst first);
- `headline(odds)`: {label: p}, the one chance a player reads beside Roll, from its exact odds.

Shared code never asks a procedure's id what to do: what differs, the procedure declares (the icepool way).
"""

from __future__ import annotations

from . import ability_test, arbitration, luck, ten_again, threat, two_dice

PROTOCOL = ("standing", "odds_after", "choice_odds", "what_if", "luck", "headline")

PROCEDURES = {m.ID: m for m in (arbitration, two_dice, threat, luck, ten_again, ability_test)}


def kind(m):
    """The procedure whose character sheet rolls `m`: its own, or the one it names as its KIND (Luck: threat's)."""
    return PROCEDURES[getattr(m, "KIND", m.ID)]


# A character's kind is the procedure whose sheet it keeps; it also rolls the procedures that share that sheet.
KINDS = {m.ID: m for m in PROCEDURES.values() if kind(m) is m}
