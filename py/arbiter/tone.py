"""How an outcome reads at a glance: one of four classes, which the page shows by a colour and a mark.

Each procedure says which class each of its outcomes is, where it decides the outcome (a roll's JSON carries it
as `tone`); the page never guesses it from the outcome's name.
"""

from __future__ import annotations

from enum import Enum


class Tone(Enum):
    """The class of an outcome, best to worst."""

    SUCCESS = "success"  # the attempt succeeds (at any quality)
    MIXED = "mixed"  # partly: a threat lessened among others, a tie, a middling Luck Roll
    FAILURE = "failure"
    BOTCH = "botch"  # the worst failure: a botch, a fumble, snake-eyes

    @classmethod
    def overall(cls, tones) -> Tone:
        """Several parts' classes as one: theirs when they agree, else mixed (some went well, some not)."""
        found = set(tones)
        return found.pop() if len(found) == 1 else cls.MIXED
