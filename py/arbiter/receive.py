"""A roll shared by link, taken into this table (issue 22): each step the table has not seen is replayed as a tap on
this table (tap.turn, with the link's faces as table dice), so it pays from this table's payers (records.PAYERS)
and, when the Host picks one, this table's character; and a follow-up is read as this table reads it (its
procedure's `shared_action`: against this table's marks, not those the sender's phone had). All or nothing: when
this table cannot pay a step, nothing is taken and the refusal says why, in a player's words.

The steps already in this table's log (`seen`: the shared roll's step ids it holds, share.step_ids) are re-derived
but neither paid nor logged again, so the same link added twice, or a longer link of the same roll after its first
part, adds each step once.
"""

from __future__ import annotations

from typing import Any

from . import engine, links, procedures, share, tap
from .errors import RulesError


def _on_this_table(system: str, action: dict, who: str | None, marked: Any) -> tuple[dict, str | None]:
    """A follow-up as this table reads it, by what its procedure declares (`shared_action`, read against this table's
    marks and the link's roller); unchanged for the procedures that declare nothing. A forged
    action raises its RulesError; the words, when this table refuses the step but may add the roll without it."""
    m = procedures.PROCEDURES[system]
    return m.shared_action(action, who, marked)


def _leave_out(leave_out: Any) -> set[str]:
    if leave_out is None:
        return set()
    if not isinstance(leave_out, list) or not all(isinstance(s, str) for s in leave_out):
        raise RulesError(f"'leave_out' must be a list of shared step ids, got {leave_out!r:.100}")
    return set(leave_out)


def _seen(seen: Any, ids: list[str]) -> int:
    """How many leading steps of the roll this table's log already holds: the last of `ids` found in `seen`."""
    if seen is None:
        return 0
    if not isinstance(seen, list) or not all(isinstance(s, str) for s in seen):
        raise RulesError(f"'seen' must be a list of shared step ids, got {seen!r:.100}")
    held = set(seen)
    return max((k + 1 for k, step_id in enumerate(ids) if step_id in held), default=0)


def add_shared(fragment: Any, table: Any = None, marked: Any = None, seen: Any = None, leave_out: Any = None) -> dict:
    """The shared roll of `fragment` taken into this table (`table` as for tap.turn; `marked`, this table's current
    Situation's marks or null; `seen`, the shared step ids its log holds): {"id", "system", "who", "time", "refused"
    (null, or why this table cannot pay a step: nothing is taken then), "character" and each payer's (their new states,
    null where unchanged), "marked" (the Situation's marks after it, null where unchanged), "entries" (one per step
    not seen, in order: {"step" (its id), "action" (null for the roll), "roll", "drawn", "did", "notes",
    "luck_entry", "left_out"})}. A follow-up this table refuses (its `shared_action` says why) refuses the roll with
    "leave_out": its step id; listed in `leave_out`, that step is added as left out ("left_out": true, "did" its
    procedure's LEFT_OUT words, its roll the one before it, nothing paid or marked) and the rest of the roll is
    taken. A forged step refuses the whole link."""
    payload = share.unpack(fragment)
    shared = links.shared_roll(fragment)  # re-derived from the request and the faces, as the panel shows it
    ids = share.step_ids(payload)
    skip = _seen(seen, ids)
    left_out = _leave_out(leave_out)
    system = shared["system"]
    state = tap.read_table(table)
    marks = marked
    out = {
        "id": shared["id"],
        "system": system,
        "who": shared["who"],
        "time": shared["time"],
        "refused": None,
        **dict.fromkeys([tap.CHARACTER, *tap.PAYERS]),
        "marked": None,
        "entries": [],
    }
    roll = None
    for k, step in enumerate(shared["steps"]):
        action = step["action"]
        if k < skip:
            roll = (
                engine.roll(system, shared["request"], dice=step["drawn"])
                if action is None
                else engine.act(system, roll, action, dice=step["drawn"])
            )
            continue
        refused_here = None
        if action is not None:
            try:
                here, refused_here = _on_this_table(system, action, shared["who"], marks)
            except RulesError as error:  # a forged step: the whole link is refused
                return {**out, "refused": {**error.as_json(), "words": error.says}, "entries": []}
        if refused_here is not None and ids[k] in left_out:
            left = procedures.PROCEDURES[system].LEFT_OUT
            out["entries"].append(_entry(ids[k], action, roll, step["drawn"], left, [], None, left_out=True))
            continue
        if refused_here is not None:
            error = RulesError(refused_here)
            return {
                **out,
                "refused": {**error.as_json(), "words": refused_here, "leave_out": ids[k]},
                "entries": [],
            }
        tapped = (
            {"request": shared["request"], "dice": step["drawn"]}
            if action is None
            else {"roll": roll, "action": here, "dice": step["drawn"]}
        )
        try:
            answer = tap.turn(system, tapped, state)
        except RulesError as error:  # a follow-up this table's state refuses
            words = f"On this table, {error.path} {error.says}" if error.path else error.says
            answer = {"refused": {**error.as_json(), "words": words}}
        if answer["refused"] is not None:  # on the Host's own phone, a payer's empty count never set is set here
            words = answer["refused"]["words"]
            for payer in tap.PAYERS.values():
                if payer.never_set:
                    words = words.replace(payer.never_set, payer.never_set_host)
            return {**out, "refused": {**answer["refused"], "words": words}, "entries": []}
        roll = answer["roll"]
        if answer[tap.CHARACTER] is not None:
            state[tap.CHARACTER] = {**state[tap.CHARACTER], "sheet": answer[tap.CHARACTER]}
            out[tap.CHARACTER] = answer[tap.CHARACTER]
        for key in tap.PAYERS:
            if answer[key] is not None:
                state[key] = answer[key]
                out[key] = answer[key]
        if answer["marked"] is not None:
            marks = answer["marked"]
            out["marked"] = answer["marked"]
        out["entries"].append(
            _entry(ids[k], action, roll, step["drawn"], answer["did"], answer["notes"], answer["luck_entry"])
        )
    return out


def _entry(step_id, action, roll, drawn, did, notes, luck_entry, left_out: bool = False) -> dict:
    return {
        "step": step_id,
        "action": action,
        "roll": roll,
        "drawn": drawn,
        "did": did,
        "notes": notes,
        "luck_entry": luck_entry,
        "left_out": left_out,
    }
