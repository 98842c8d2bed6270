"""Scripted dice: a `DiceSource` that returns chosen faces, so each rule sentence is tested exactly; it is handed
each batch whole (arbiter.dice.Thrower) and keeps what each was thrown for (`batches`), so a test reads the draw
order."""

from __future__ import annotations


class ScriptedDice:
    """Returns `faces` in order from `randint`; fails loudly if a face is out of range or the script runs out."""

    def __init__(self, *faces: int):
        self.faces = list(faces)
        self.used = 0
        self.batches: list[tuple[int, int, str]] = []  # (n, sides, why) of each batch thrown, in order

    def throw(self, n: int, sides: int, why: str) -> tuple[int, ...]:
        self.batches.append((n, sides, why))
        return tuple(self.randint(1, sides) for _ in range(n))

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
