"""The one error the rules raise for bad input."""

from __future__ import annotations

import re

_PATH_FIRST = re.compile(r"'([^']+)' (.+)", re.DOTALL)


class RulesError(ValueError):
    """A request, roll or action the rules do not allow; the message names the field and the allowed range.

    For the page to say it in a player's words, it also carries `path`, the field the message names ("type1",
    "state.will"), and `says`, what the message says of it without the path ("must be from 1 to 5", "has no Will
    left"): the page puts the field's label (a form's field) or the character's name (a sheet's state) before it.
    Both default to the message's own leading 'path' and the words after it; `says` without a path is a whole
    sentence. `holder`: what it says is of whoever holds the state ("has no Will left": the character, the Scheme),
    not of the field. `left`: for a refusal of an amount beyond what the holder has ("has 2 Exertion left"), how much
    that is (an int; None otherwise), so the page offers no more than it. `problems`: every field found wrong
    (each {"path", "says"}), this one first, so the page flags them all at once (fields.parse checks every field).
    """

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        says: str | None = None,
        holder: bool = False,
        left: int | None = None,
        problems: tuple[dict, ...] = (),
    ) -> None:
        super().__init__(message)
        m = _PATH_FIRST.fullmatch(message)
        self.path = path if path is not None else (m.group(1) if m else None)
        self.says = says if says is not None else (m.group(2) if m else message)
        self.holder = holder
        self.left = left
        self.problems = tuple(problems) or ({"path": self.path, "says": self.says},)

    def as_json(self) -> dict:
        """The error as call_json answers it: the message, the path it names (or null), what it says of it and
        whether that is said of the state's holder, how much the holder has `left` (or null), and every field found
        wrong (`problems`)."""
        return {
            "kind": "RulesError",
            "error": str(self),
            "path": self.path,
            "says": self.says,
            "holder": self.holder,
            "left": self.left,
            "problems": [dict(p) for p in self.problems],
        }
