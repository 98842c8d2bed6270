"""Scripted dice: a `DiceSource` that returns chosen faces, so each rule sentence is tested exactly."""

from __future__ import annotations


class ScriptedDice:
    """Returns `faces` in order from `randint`; fails loudly if a face is out of range or the script runs out."""

    def __init__(self, *faces: int):
        self.faces = list(faces)
        self.used = 0

    def randint(self, a: int, b: int) -> int:
        if self.used >= len(self.faces):
            raise AssertionError(f"the rules asked for more dice than scripted ({self.faces})")
        face = self.faces[self.used]
        if not a <= face <= b:
            raise AssertionError(f"scripted face {face} is not on a d{b}")
        self.used += 1
        return face

    @property
    def left(self) -> list[int]:
        """Faces not asked for yet (a test usually expects none)."""
        return self.faces[self.used :]
