"""Threat Roll (seed 002), Pay the Price: the eight options, word for word, and the Situation's marks (who picked
which; no other player may pick it; all marked, all unmarked)."""

from __future__ import annotations

from typing import Any

from ..errors import RulesError


PAY_THE_PRICE = (
    "Mark an Ideal.",
    "Lose one Insight.",
    "Drop an important weapon or tool.",
    "Spend a point of Gear.",
    "Damage an item from your Stash (unavailable until Downtime)",
    "Suffer a setback, making the situation harder for yourself",
    "Make the situation worse for a teammate or ally",
    "Take 1 Harm.",
)

PAY_THE_PRICE_RULE = (
    "The Referee may ask you to Pay the Price when you narrowly avoid a Threat without an obvious “lesser” outcome. "
    "Pick from the list below and mark the option you picked. "
    "No other player may pick that option for the rest of the Situation. "
    "If all options are marked, unmark all of them."
)


MAX_PLAYER_NAME = 80
SOMEONE = "someone (a mark kept without a name)"  # how a mark without a name is named in messages (threat-10)


def _player(name: Any, where: str) -> str | None:
    """A player's name, trimmed (1 to 80 characters), or None for a mark or pick kept without a name."""
    if name is None:
        return None
    if not isinstance(name, str) or not 1 <= len(name.strip()) <= MAX_PLAYER_NAME:
        raise RulesError(
            f"'{where}' must be the player's name (1 to {MAX_PLAYER_NAME} characters) or null, got {name!r:.100}"
        )
    return name.strip()


def same_player(a: str | None, b: str | None) -> bool:
    """Two names are one player when they match, trimmed and ignoring case; a mark without a name is nobody's."""
    return a is not None and b is not None and a.casefold() == b.casefold()


def read_marks(marked: Any, path: str = "marked") -> dict[int, str | None]:
    """The Situation's marks, option -> the player who marked it: {"option": n, "by": "Ann"} each, or a bare option
    number as kept before marks had names (marked by someone unnamed); each option at most once."""
    last = len(PAY_THE_PRICE) - 1
    if not isinstance(marked, (list, tuple)) or len(marked) > len(PAY_THE_PRICE):
        raise RulesError(
            f"'{path}' must be a list of 0 to {len(PAY_THE_PRICE)} marks {{\"option\": 0 to {last}, "
            f'"by": name}} (or bare option numbers, as kept before marks had names), '
            f"got {marked!r:.100}"
        )
    marks: dict[int, str | None] = {}
    for i, m in enumerate(marked):
        if isinstance(m, dict) and "option" in m and set(m) <= {"option", "by"}:
            option, by = m["option"], _player(m.get("by"), f"{path}[{i}].by")
        else:
            option, by = m, None
        if isinstance(option, bool) or not isinstance(option, int) or not 0 <= option <= last:
            raise RulesError(
                f'\'{path}[{i}]\' must be a mark {{"option": 0 to {last}, "by": name}} or an option '
                f"number from 0 to {last}, got {m!r:.100}"
            )
        if option in marks:
            raise RulesError(
                f"'{path}[{i}]' repeats option {option}, marked by {marks[option] or SOMEONE}: a mark "
                f"records the one player who picked it"
            )
        marks[option] = by
    return marks


def pay_the_price(marked: Any, option: int, by: str | None = None) -> dict[int, str | None]:
    """`by` picks `option` (an index into PAY_THE_PRICE) and marks it for the Situation: refused when another player
    marked it; the player who marked it may pick it again. If all options are marked, unmark all of them: the pick
    that marks the last one unmarks all eight, and marks that arrive all marked count as unmarked (only the new pick
    is then marked). Returns the marks, option -> player (None: kept without a name)."""
    last = len(PAY_THE_PRICE) - 1
    if isinstance(option, bool) or not isinstance(option, int) or not 0 <= option <= last:
        raise RulesError(f"'option' must be a whole number from 0 to {last}, got {option!r}")
    by = _player(by, "by")
    marks = read_marks(marked)
    if len(marks) == len(PAY_THE_PRICE):  # they arrived all marked (an import, an older table): all are unmarked
        marks = {}
    if option in marks and not same_player(marks[option], by):
        raise RulesError(
            f"'option' {option} (“{PAY_THE_PRICE[option]}”) is marked by {marks[option] or SOMEONE}: "
            f"No other player may pick that option for the rest of the Situation; unmarked: "
            f"{', '.join(str(i) for i in range(last + 1) if i not in marks)}"
        )
    marks = {**marks, option: marks.get(option, by)}
    return {} if len(marks) == len(PAY_THE_PRICE) else dict(sorted(marks.items()))


def marks_json(marks: dict[int, str | None]) -> list[dict]:
    """The marks as the roll reports them: [{"option": n, "by": name or null}, ...] in option order."""
    return [{"option": o, "by": by} for o, by in sorted(marks.items())]
