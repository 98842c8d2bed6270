"""Coin flip, the toy procedure that proves a procedure can be added from outside arbiter (`build.py --procedures`).

Call heads or tails and flip one to three coins (each a d2: 2 is heads, 1 tails): you win when any coin lands on
your call. A lost call may be flipped again, once: every coin again, and the second flip stands. It has no rule text
(SEED), no character sheet and no view of its own: the page shows it through the generic view.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from arbiter import chances, fields
from arbiter.dice import roll as roll_dice
from arbiter.errors import RulesError
from arbiter.headline import chance_of
from arbiter.shapes import BOOL, INT, JSON, MARKS, OUTCOMES, TEXT, Items, Key, choice, odds_json, roll_json
from arbiter.tone import Tone

ID = "coin"
TITLE = "Coin flip"
LABEL, HINT = "Coin", "a d2: heads or tails"  # its tab's name and hint
DESCRIPTION = "Coin flip: call heads or tails; a lost call may be flipped again, once."

SIDES = 2
HEADS, TAILS = 2, 1  # a coin is a d2: its faces
FACE_NAMES = {HEADS: "heads", TAILS: "tails"}

FIELDS = (
    fields.Choice(
        "call",
        "Your call",
        (("heads", "Heads"), ("tails", "Tails")),
        "heads",
        help="Call it before the flip: you win when a coin lands on your call.",
    ),
    fields.Int("coins", "Coins", 1, 3, default=1, help="Flip this many coins: any one on your call wins."),
)

FLIP_AGAIN = "flip_again"
ACTIONS = [
    {
        "name": FLIP_AGAIN,
        "label": "Flip again",
        "help": "A lost call may be flipped again, once: every coin again, and the second flip stands. "
        '{"flip_again": true}',
    }
]

WON, LOST = "won", "lost"
EXTRAS = {"outcome_labels": {WON: "Won: a coin on your call", LOST: "Lost"}}


def won(faces: tuple[int, ...], call: str) -> bool:
    """You win when any coin lands on your call."""
    return any(FACE_NAMES[f] == call for f in faces)


def _marks(faces: tuple[int, ...], call: str) -> list[list[str]]:
    """Each coin's marks, as the page draws them: a coin on the call kept, the others dim."""
    return [["kept"] if FACE_NAMES[f] == call else ["dim"] for f in faces]


def _to_json(req: dict, faces: tuple[int, ...], first: tuple[int, ...], flipped_again: bool) -> dict:
    outcome = WON if won(faces, req["call"]) else LOST
    shown = ", ".join(FACE_NAMES[f] for f in faces)
    steps = [
        f"Called {req['call']}",
        f"{'Flipped again' if flipped_again else 'Flipped'}: {shown}",
        "A coin on the call: won" if outcome == WON else "No coin on the call: lost",
    ]
    offer = outcome == LOST and not flipped_again
    return {
        "system": ID,
        "request": fields.as_json(req),
        "dice": list(faces),
        "marks": _marks(faces, req["call"]),
        "coins": [FACE_NAMES[f] for f in faces],
        "first_dice": list(first),
        "flipped_again": flipped_again,
        "outcome": outcome,
        "steps": steps,
        "summary": f"{'Won' if outcome == WON else 'Lost'}: {shown} (called {req['call']})",
        "tone": (Tone.SUCCESS if outcome == WON else Tone.FAILURE).value,
        "choices": [{"name": FLIP_AGAIN, "label": ACTIONS[0]["label"], "action": {FLIP_AGAIN: True}}] if offer else [],
    }


def roll(req: dict, dice) -> dict:
    """Flip the coins and read the call."""
    faces = roll_dice(dice, req["coins"], SIDES)
    return _to_json(req, faces, faces, False)


def _may_flip_again(roll: Any, action: Any) -> tuple[dict, tuple[int, ...]]:
    """The roll's request and coins, when `action` flips a lost call again (once); else refused."""
    if action != {FLIP_AGAIN: True}:
        raise RulesError(
            f"'action' must be {{\"{FLIP_AGAIN}\": true}} (allowed actions: {FLIP_AGAIN}), got {action!r:.100}"
        )
    req = chances.request_of(FIELDS, roll)
    faces = chances.faces(roll, req["coins"], SIDES)
    if roll.get("flipped_again") is not False or won(faces, req["call"]):
        raise RulesError("'action': only a lost call may be flipped again, and only once")
    return req, faces


def act(roll: Any, action: Any, dice) -> dict:
    """Flip every coin again, once, when the call was lost; the second flip stands."""
    req, first = _may_flip_again(roll, action)
    return _to_json(req, roll_dice(dice, req["coins"], SIDES), first, True)


def _exact(coins: int) -> dict:
    lost = Fraction(1, SIDES**coins)  # every coin on the other face
    return {"outcomes": {WON: 1 - lost, LOST: lost}}


def odds(req: dict) -> dict:
    """The chance of winning the call (any coin on it), before any flip again: 1 − ½ per coin."""
    return _exact(req["coins"])


# --- odds between the choices, luck and the headline (arbiter.procedures' protocol) ---------------------------------

ORDER = (LOST, WON)  # worst first


def standing(roll: dict) -> dict:
    """The outcome as it stands, in the odds' shape."""
    return {"outcomes": chances.one_hot(_exact(1)["outcomes"], roll["outcome"])}


def odds_after(roll: dict, action: Any) -> dict:
    """Flipping again: the same chance as the first flip (every coin again); refused as act() refuses it."""
    req, _ = _may_flip_again(roll, action)
    return _exact(req["coins"])


def choice_odds(roll: dict, choice: dict) -> dict | None:
    """The flip again choice suggests its action: its odds, with it."""
    if "action" not in choice:
        return None
    return {**odds_after(roll, choice["action"]), "action": choice["action"]}


def luck(roll: dict) -> dict:
    """The first flip, ranked: lost, then won."""
    req = chances.request_of(FIELDS, roll)
    first = tuple(roll.get("first_dice") or ())
    chances.faces({"dice": list(first)}, req["coins"], SIDES)
    outcome = WON if won(first, req["call"]) else LOST
    return chances.ranked(ORDER, _exact(req["coins"])["outcomes"], outcome, (WON,))


def headline(exact: dict) -> dict:
    """Beside Roll: the chance of winning the call."""
    return chance_of("Win", exact["outcomes"], (WON,))


# --- the roll JSON, declared (api.systems()' "roll"), and example requests ----------------------------------------

ROLL = roll_json(
    FIELDS,
    Key("dice", Items(INT), "each coin as a d2: 2 heads, 1 tails"),
    Key("marks", MARKS),
    Key("coins", Items(TEXT), "each coin in words"),
    Key("first_dice", Items(INT), "the coins of the first flip (luck ranks them)"),
    Key("flipped_again", BOOL),
    standing=odds_json(OUTCOMES),
    choices=(choice(FLIP_AGAIN, Key("action", JSON, "the action that takes it"), odds=odds_json(OUTCOMES)),),
)
"""What roll() and act() answer: the coins, their marks, the first flip's, and whether the call was flipped again."""

EXAMPLE_REQUESTS = {
    "plain": {"call": "heads", "coins": 1},
    "largest": {"call": "tails", "coins": 3},
}
"""Requests to try the procedure with: one coin, and the most coins it allows."""
