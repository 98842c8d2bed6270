"""Luck Roll (seed 002), the roll: a pool of d6, one more for each factor in favor, one fewer for each against.

Higher results are better outcomes: the result is the highest die. A pool of 0 or less rolls nothing and
gives the worst outcome, result 0, as the Threat Roll treats a threat with no die (luck-3). `outcome` is the
result as text ("0".."6").

Draw order (luck-7): the pool in one throw; a pool of 0 or less draws nothing.

Here: the procedure's inputs (FIELDS), its outcomes' labels (EXTRAS), the sheet that rolls it (KIND), the rules over
a frozen value, each step in words, a roll as JSON, `roll` and `act`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import fields
from ..dice import roll as roll_dice
from ..errors import RulesError
from ..tone import Tone

ID = "luck"
TITLE = "Luck Roll"
SEED = "002_6d399949fcc08b42.txt"
LABEL, HINT = "Luck", "a pool of luck"  # its tab's name and hint, in the text's words
DESCRIPTION = "Luck Roll, when there is no Threat: a pool of d6."

SIDES = 6

FIELDS = (
    fields.Int(
        "dice",
        "Dice",
        0,
        10,
        default=1,
        help="Things may just be plain uncertain. In that case, it’s probably best to gather up a pool of d6 "
        "and roll 'em.",
    ),
    fields.Int("for", "Factors in favor", 0, 10, default=0, help="Add a d6 for each factor in favor."),
    fields.Int("against", "Factors against", 0, 10, default=0, help="Remove one for each against."),
)

ACTIONS: list[dict] = []

NO_DICE = 0  # the result of a pool of 0 or less: below every face, the worst outcome (luck-3)

# Each outcome of odds() in the player's words: a face is the highest die; 0 is no dice at all (luck-3).
EXTRAS: dict = {
    "outcome_labels": {
        str(NO_DICE): "No dice: the worst outcome",
        **{str(face): f"Highest die {face}" for face in range(1, SIDES + 1)},
    }
}

KIND = "threat"  # a Threat & Luck character rolls Luck: its sheet is threat.SHEET


def pool(dice: int, for_: int, against: int) -> int:
    """The base dice, plus a d6 for each factor in favor, minus one for each against (may be 0 or less)."""
    return dice + for_ - against


def dice_to_roll(pool_size: int) -> int:
    """How many d6 to roll: the pool, none when it is 0 or less."""
    return max(pool_size, 0)


def result_of(faces: tuple[int, ...]) -> int:
    """Higher results are better outcomes: the highest die; with no dice, the worst outcome (0)."""
    return max(faces, default=NO_DICE)


@dataclass(frozen=True, slots=True)
class LuckRoll:
    """A Luck Roll: the request's pool and the dice as rolled."""

    dice: int
    for_: int
    against: int
    faces: tuple[int, ...]

    @property
    def pool(self) -> int:
        return pool(self.dice, self.for_, self.against)

    @property
    def result(self) -> int:
        return result_of(self.faces)

    @property
    def tone(self) -> Tone:
        """Read as the same text's Threat Roll reads a die: 6 at best, 4/5 partly, 1-3 or no dice not (luck-5)."""
        return Tone.SUCCESS if self.result == SIDES else Tone.MIXED if self.result >= 4 else Tone.FAILURE

    @property
    def marks(self) -> list[list[str]]:
        """Each die's marks, as the page draws them: the die that is the result (the first of the highest) kept, the
        others dim."""
        keep = self.faces.index(self.result) if self.faces else None
        return [["kept" if i == keep else "dim"] for i in range(len(self.faces))]

    def steps(self) -> list[str]:
        n = self.pool
        head = f"Pool: {_dice(self.dice)} + {self.for_} for − {self.against} against = {_signed(n)}"
        if n > 0:
            faces = " ".join(map(str, self.faces))
            return [
                f"{head} {'die' if n == 1 else 'dice'}",
                f"{_dice(len(self.faces))}: {faces}",
                f"Highest die: {self.result}",
            ]
        return [head, "No dice: the worst outcome"]

    def __str__(self) -> str:
        faces = " ".join(map(str, self.faces))
        if self.pool > 0:
            return f"Luck Roll: {self.result}, the highest of {_dice(self.pool)} ({faces})"
        return f"Luck Roll: 0, no dice for a pool of {_signed(self.pool)}: the worst outcome"


def _dice(n: int) -> str:
    return f"{n} {'die' if n == 1 else 'dice'}"


def _signed(n: int) -> str:
    return f"−{-n}" if n < 0 else str(n)


def roll(req: dict, dice) -> dict:
    """Roll the pool and read the highest die (nothing to roll and the worst outcome when the pool is 0 or less)."""
    n = pool(req["dice"], req["for"], req["against"])
    value = LuckRoll(
        req["dice"], req["for"], req["against"], roll_dice(dice, dice_to_roll(n), SIDES, "the Luck Roll's pool")
    )
    return {
        "system": ID,
        "request": {"dice": req["dice"], "for": req["for"], "against": req["against"]},
        "pool": value.pool,
        "dice": list(value.faces),
        "marks": value.marks,
        "result": value.result,
        "steps": value.steps(),
        "outcome": str(value.result),
        "summary": str(value),
        "tone": value.tone.value,
        "choices": [],
    }


def act(roll: Any, action: Any, dice) -> dict:
    """A Luck Roll has no follow-up choices: always refused."""
    raise RulesError("'action': a Luck Roll has no follow-up choices (allowed actions: none)")
