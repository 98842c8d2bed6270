"""Threat Roll (seed 002), Pay the Price: the eight options, word for word, and the Situation's marks (who picked
which; no other player may pick it; all marked, all unmarked)."""

from __future__ import annotations

from typing import Any

from .. import fields
from ..errors import RulesError
from ..share import NAME_CHARS  # who rolled, as a link carries it (a longer name is cut)
from ..stored import NAME, Among, Id, ListOf, Maybe, Record


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


def read_player(name: Any, where: str) -> str | None:
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
            option, by = m["option"], read_player(m.get("by"), f"{path}[{i}].by")
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
    by = read_player(by, "by")
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


LEFT_OUT = "Price refused: pick again"  # a step the Host added without its Price (threat-18), in the log


def shared_action(action: dict, who: str | None, marked: Any) -> tuple[dict, str | None]:
    """A follow-up of a roll shared by link, read on the table it is added to (threat-18): a Price is read against
    this table's marks (`marked`), whatever marks the link's action carries. With a `who` (the link's roller, cut to
    24 characters) its `by` must be that player, and an action without `by` (threat-10) is read as theirs; as nobody
    (`who` empty) the typed name stands. A Price that names another player is forged, and refused with a RulesError
    in the player's words (the whole link with it). Returns the action as this table reads it, and, when this
    table's marks refuse its option (another player marked it here), why, naming the option by its words and who
    marked it: the Host may then add the roll without that Price."""
    if not isinstance(action, dict) or "pay_the_price" not in action:
        return action, None
    name = (who or "").strip()
    by = action.get("by")
    if name:
        if by is None:
            by = name
        elif not isinstance(by, str) or not same_player(by.strip()[:NAME_CHARS], name[:NAME_CHARS]):
            raise RulesError(
                f"This link is not to be trusted: {name}'s roll says the Price was picked by {str(by)[:80]}. "
                "A player pays her own Price; nothing of it is added."
            )
    marks = read_marks(marked or [], "marked")
    read = {**action, "by": by, "marked": list(marked or [])}
    option = action["pay_the_price"]
    if isinstance(option, int) and not isinstance(option, bool) and 0 <= option < len(PAY_THE_PRICE):
        mine = read_player(by, "action.by") if by is not None else None
        if len(marks) < len(PAY_THE_PRICE) and option in marks and not same_player(marks[option], mine):
            return read, (
                f"On this table, “{PAY_THE_PRICE[option]}” is marked by {marks[option] or SOMEONE}: no other player "
                "may pick it for the rest of the Situation. The roll can be added without this Price; "
                f"{mine or 'the player'} picks again."
            )
    return read, None


MAX_SITUATIONS = 100
# A Situation's marks: each option at most once, with the player who picked it (null: kept without a name, as
# threat-10 reads marks from before they had names); and who pays the Price when nobody rolls as a character.
MARK = Record(
    "marked",
    "Mark",
    (
        fields.Int("option", "Option", 0, len(PAY_THE_PRICE) - 1),
        Maybe(fields.Text("by", "Marked by", MAX_PLAYER_NAME)),
    ),
)
PRICE = Record(
    "price",
    "Pay the Price marks, per Situation",
    (
        Id("current", "The current Situation"),
        ListOf(
            "situations",
            "Situations",
            Record(
                "situations",
                "Situation",
                (
                    Id("id"),
                    NAME,
                    ListOf(
                        "marked",
                        "Pay the Price options marked this Situation",
                        MARK,
                        len(PAY_THE_PRICE),
                        key="option",
                    ),
                    fields.Text("player", "Who pays the Price when nobody rolls as a character", MAX_PLAYER_NAME),
                ),
            ),
            MAX_SITUATIONS,
            min_len=1,
        ),
    ),
    among=(Among("current", "situations"),),
)
RECORDS = (PRICE,)  # the table's records this procedure declares (records.py gathers them)
