"""A d20 check, the second toy procedure from outside arbiter (`build.py --procedures`): it proves a procedure whose
die is not a d6 or a d10 is rolled, logged, drawn, shared and typed like the package's own.

Roll a d20, add the modifier, and meet or beat the DC to succeed. With advantage roll two d20 and keep the higher,
with disadvantage keep the lower (the two faces are drawn in one batch, in order). A natural 20 or 1 means nothing
more than its number. It has no follow-up, no rule text (SEED), no character sheet and no view of its own: the page
shows it through the generic view.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from arbiter import chances, fields
from arbiter.dice import roll as roll_dice
from arbiter.errors import RulesError
from arbiter.headline import chance_of
from arbiter.shapes import INT, MARKS, OUTCOMES, Items, Key, odds_json, roll_json
from arbiter.tone import Tone

ID = "d20_check"
TITLE = "d20 check"
LABEL, HINT = "d20", "a d20 + modifier against a DC"  # its tab's name and hint
DESCRIPTION = "d20 check: roll a d20 and add the modifier; meet the DC to succeed. Advantage keeps the higher of two."

SIDES = 20
NORMAL, ADVANTAGE, DISADVANTAGE = "normal", "advantage", "disadvantage"
FIELDS = (
    fields.Int("modifier", "Modifier", -10, 20, default=0, help="Added to the d20 kept."),
    fields.Int("dc", "DC", 1, 40, default=15, help="The total must meet or beat this to succeed."),
    fields.Choice(
        "mode",
        "Roll",
        ((NORMAL, "One d20"), (ADVANTAGE, "Advantage: two, keep the higher"), (DISADVANTAGE, "Disadvantage")),
        NORMAL,
        help="With advantage roll two d20 and keep the higher; with disadvantage keep the lower.",
    ),
)
ACTIONS: list[dict] = []

SUCCESS, FAILURE = "success", "failure"
EXTRAS = {"outcome_labels": {SUCCESS: "Success: the DC met", FAILURE: "Failure"}}
ORDER = (FAILURE, SUCCESS)  # worst first


def count(mode: str) -> int:
    """How many d20 a roll of `mode` throws."""
    return 1 if mode == NORMAL else 2


def kept(faces: tuple[int, ...], mode: str) -> int:
    """The d20 that counts: the only one, the higher (advantage) or the lower (disadvantage)."""
    return min(faces) if mode == DISADVANTAGE else max(faces)


def outcome(faces: tuple[int, ...], req: dict) -> str:
    return SUCCESS if kept(faces, req["mode"]) + req["modifier"] >= req["dc"] else FAILURE


def _marks(faces: tuple[int, ...], mode: str) -> list[list[str]]:
    """The d20 kept is marked kept, the other dim (its first of two equal faces is the one kept)."""
    at = faces.index(kept(faces, mode))
    return [["kept"] if i == at else ["dim"] for i in range(len(faces))]


def _to_json(req: dict, faces: tuple[int, ...]) -> dict:
    k = kept(faces, req["mode"])
    total = k + req["modifier"]
    out = outcome(faces, req)
    rolled = ", ".join(map(str, faces))
    steps = [
        f"Rolled {rolled}" + ("" if len(faces) == 1 else f", kept {k}"),
        f"{k} {'+' if req['modifier'] >= 0 else '−'} {abs(req['modifier'])} = {total}",
        f"{total} {'meets' if out == SUCCESS else 'misses'} DC {req['dc']}",
    ]
    return {
        "system": ID,
        "request": fields.as_json(req),
        "dice": list(faces),
        "marks": _marks(faces, req["mode"]),
        "kept": k,
        "total": total,
        "outcome": out,
        "steps": steps,
        "summary": f"{'Success' if out == SUCCESS else 'Failure'}: {total} against DC {req['dc']}",
        "tone": (Tone.SUCCESS if out == SUCCESS else Tone.FAILURE).value,
        "choices": [],
    }


def roll(req: dict, dice) -> dict:
    """Roll one d20, or two for advantage or disadvantage, and read the kept one plus the modifier against the DC."""
    return _to_json(req, roll_dice(dice, count(req["mode"]), SIDES))


def act(roll: Any, action: Any, dice) -> dict:
    """A check has no follow-up: every action is refused."""
    raise RulesError(f"'action': a d20 check has no follow-up, got {action!r:.100}")


def chance_kept(k: int, mode: str) -> Fraction:
    """The chance the d20 kept shows k: 1/20 alone; of two, (2k − 1)/400 for the higher, (41 − 2k)/400 the lower."""
    if mode == NORMAL:
        return Fraction(1, SIDES)
    return Fraction(2 * k - 1 if mode == ADVANTAGE else 2 * SIDES + 1 - 2 * k, SIDES * SIDES)


def _exact(req: dict) -> dict:
    need = req["dc"] - req["modifier"]  # the least d20 kept that succeeds
    p = sum((chance_kept(k, req["mode"]) for k in range(max(1, need), SIDES + 1)), Fraction(0))
    return {"outcomes": {SUCCESS: p, FAILURE: 1 - p}}


def odds(req: dict) -> dict:
    """The chance of meeting the DC."""
    return _exact(req)


# --- odds between the choices, luck and the headline (arbiter.procedures' protocol) ---------------------------------


def standing(roll: dict) -> dict:
    """The outcome as it stands, in the odds' shape."""
    return {"outcomes": chances.one_hot(ORDER, roll["outcome"])}


def odds_after(roll: dict, action: Any) -> dict:
    """No action is taken after a check: refused as act() refuses it."""
    raise RulesError(f"'action': a d20 check has no follow-up, got {action!r:.100}")


def luck(roll: dict) -> dict:
    """The roll, ranked: failure, then success."""
    req = chances.request_of(FIELDS, roll)
    faces = chances.faces(roll, count(req["mode"]), SIDES)
    return chances.ranked(ORDER, _exact(req)["outcomes"], outcome(faces, req), (SUCCESS,))


def headline(exact: dict) -> dict:
    """Beside Roll: the chance of success."""
    return chance_of("Success", exact["outcomes"], (SUCCESS,))


# --- the roll JSON, declared (api.systems()' "roll"), and example requests ----------------------------------------

ROLL = roll_json(
    FIELDS,
    Key("dice", Items(INT), "each d20 rolled, in order"),
    Key("marks", MARKS),
    Key("kept", INT, "the d20 that counts"),
    Key("total", INT, "the d20 kept plus the modifier"),
    standing=odds_json(OUTCOMES),
)
"""What roll() answers: the d20s, their marks, the one kept and the total."""

EXAMPLE_REQUESTS = {
    "plain": {"modifier": 0, "dc": 15, "mode": NORMAL},
    "largest": {"modifier": 5, "dc": 20, "mode": ADVANTAGE},
}
"""Requests to try the procedure with: one d20, and two with advantage."""
