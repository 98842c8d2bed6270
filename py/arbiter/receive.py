"""A roll shared by link, taken into this table (issue 22): each step the table has not seen is replayed as a tap on
this table (tap.turn, with the link's faces as table dice), so it pays from this table's Scheme and, when the Host
picks one, this table's character; and a follow-up that marks the Situation is checked against this table's marks,
not those the sender's phone had. All or nothing: when this table cannot pay a step, nothing is taken and the
refusal says why, in a player's words.

The steps already in this table's log (`seen`: the shared roll's step ids it holds, share.step_ids) are re-derived
but neither paid nor logged again, so the same link added twice, or a longer link of the same roll after its first
part, adds each step once.
"""

from __future__ import annotations

from typing import Any

from . import share, tap
from .errors import RulesError

TABLE_MARKS = (
    "marked"  # the key of a follow-up's action that carries the Situation's marks: the table's, not the roll's
)


def _with_marks(action: dict, marked: list | None) -> dict:
    """`action` with this table's marks in place of the sender's, when the action carries marks."""
    if TABLE_MARKS in action:
        return {**action, TABLE_MARKS: list(marked or [])}
    return action


def _seen(seen: Any, ids: list[str]) -> int:
    """How many leading steps of the roll this table's log already holds: the last of `ids` found in `seen`."""
    if seen is None:
        return 0
    if not isinstance(seen, list) or not all(isinstance(s, str) for s in seen):
        raise RulesError(f"'seen' must be a list of shared step ids, got {seen!r:.100}")
    held = set(seen)
    return max((k + 1 for k, step_id in enumerate(ids) if step_id in held), default=0)


def take(api, fragment: Any, table: Any = None, marked: Any = None, seen: Any = None) -> dict:
    """The shared roll of `fragment` taken into this table (`table` as for tap.turn; `marked`, this table's current
    Situation's marks or null; `seen`, the shared step ids its log holds): {"id", "system", "who", "time", "refused"
    (null, or why this table cannot pay a step: nothing is taken then), "character" and "scheme" (their new states,
    null where unchanged), "marked" (the Situation's marks after it, null where unchanged), "entries" (one per step
    not seen, in order: {"step" (its id), "action" (null for the roll), "roll", "drawn", "did", "notes",
    "luck_entry"})}."""
    payload = share.unpack(fragment)
    shared = api.shared_roll(fragment)  # re-derived from the request and the faces, as the panel shows it
    ids = share.step_ids(payload)
    skip = _seen(seen, ids)
    system = shared["system"]
    state = tap._read_table(table)
    marks = marked
    out = {
        "id": shared["id"],
        "system": system,
        "who": shared["who"],
        "time": shared["time"],
        "refused": None,
        "character": None,
        "scheme": None,
        "marked": None,
        "entries": [],
    }
    roll = None
    for k, step in enumerate(shared["steps"]):
        action = step["action"]
        if k < skip:
            roll = (
                api.roll(system, shared["request"], dice=step["drawn"])
                if action is None
                else api.act(system, roll, action, dice=step["drawn"])
            )
            continue
        tapped = (
            {"request": shared["request"], "dice": step["drawn"]}
            if action is None
            else {"roll": roll, "action": _with_marks(action, marks), "dice": step["drawn"]}
        )
        try:
            answer = api.turn(system, tapped, state)
        except RulesError as error:  # a follow-up this table's state refuses (an option another player marked here)
            words = f"On this table, {error.path} {error.says}" if error.path else error.says
            answer = {"refused": {**error.as_json(), "words": words}}
        if answer["refused"] is not None:
            return {**out, "refused": answer["refused"], "entries": []}
        roll = answer["roll"]
        if answer["character"] is not None:
            state["character"] = {**state["character"], "sheet": answer["character"]}
            out["character"] = answer["character"]
        if answer["scheme"] is not None:
            state["scheme"] = answer["scheme"]
            out["scheme"] = answer["scheme"]
        if answer["marked"] is not None:
            marks = answer["marked"]
            out["marked"] = answer["marked"]
        out["entries"].append(
            {
                "step": ids[k],
                "action": action,
                "roll": roll,
                "drawn": step["drawn"],
                "did": answer["did"],
                "notes": answer["notes"],
                "luck_entry": answer["luck_entry"],
            }
        )
    return out
