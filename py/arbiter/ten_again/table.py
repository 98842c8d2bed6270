"""Roll Conventions (003), table state (`TABLE`, for api.table): Will's maximum, expending it, nights of rest and
Will rolls; ongoing struggles turn by turn, and their exact odds over turns.

Pure rules over what the page keeps: each op takes `state` (the part of a sheet or of the shared state it
reads, as a plain dict) and `args`, and returns the new state. Keys of `state` an op does not read are
returned as they were, so the page may pass a whole sheet; a "note" says what happened, for the roll log.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from .. import fields
from ..errors import RulesError
from ..fields import table_op
from ..stored import NAME, Id, ListOf, Maybe, Record, Time
from .exact import TurnLaw
from .rolling import check_will, request_json, roll_from_json, roll_to_json
from .rules import FIELDS, ID, Pool, Roll
from .words import many

MAX_TRAIT_DOTS = 10  # Resolve and Composure (ruling ten_again-12)
MAX_NIGHTS = 30
MAX_STRUGGLE_TARGET = 50
MAX_STRUGGLE_TURNS = 1000  # the turns a struggle may record
MAX_ODDS_TURNS = 20  # the horizon of struggle_odds
MAX_ACCUMULATED = 10_000


class Status(Enum):
    """Where an ongoing struggle stands."""

    ONGOING = "ongoing"
    DONE = "done"
    ABORTED = "aborted"


# Will ---------------------------------------------------------------------------------------------------------

_RESOLVE = fields.Int(
    "resolve", "Resolve (dots)", 1, MAX_TRAIT_DOTS, 2, help="Will's maximum is (resolve + composure)."
)
_COMPOSURE = fields.Int(
    "composure", "Composure (dots)", 1, MAX_TRAIT_DOTS, 2, help="Will's maximum is (resolve + composure)."
)
_WILL = fields.Int(
    "will", "Will (current)", 0, 2 * MAX_TRAIT_DOTS, 4, help="From 0 to the character’s maximum, (resolve + composure)."
)
_WILL_STATE = (_WILL, _RESOLVE, _COMPOSURE)


@dataclass(frozen=True, slots=True)
class Will:
    """A character's Will: the points left, up to the character's maximum, (resolve + composure)."""

    resolve: int
    composure: int
    current: int

    @property
    def maximum(self) -> int:
        return self.resolve + self.composure

    def expend(self) -> "Will":
        """One will point fewer; only if you have any remaining."""
        if self.current == 0:
            raise RulesError(
                f"'state.will' is 0: no Will remaining to expend (maximum {self.maximum})",
                says="has no Will left",
                holder=True,
            )
        return Will(self.resolve, self.composure, self.current - 1)

    def rest(self, nights: int) -> "Will":
        """Expended Will replenishes at 1 per night of good rest, up to the maximum."""
        return Will(self.resolve, self.composure, min(self.maximum, self.current + nights))

    def __str__(self) -> str:
        return f"Will {self.current}/{self.maximum}"


def _will_of(state: Any, need_will: bool = True) -> Will:
    s = fields.read_state(
        state,
        _WILL_STATE if need_will else (_RESOLVE, _COMPOSURE),
        ("will", "resolve", "composure") if need_will else ("resolve", "composure"),
    )
    w = Will(s["resolve"], s["composure"], s.get("will", 0))
    if w.current > w.maximum:
        raise RulesError(
            f"'state.will' must be from 0 to {w.maximum} (resolve {w.resolve} + composure "
            f"{w.composure}), got {w.current}"
        )
    return w


def will_max(state: Any, args: Any = None) -> dict:
    """The character's maximum Will, (resolve + composure): {"max": n}."""
    fields.read_args(args, (), "will_max")
    return {"max": _will_of(state, need_will=False).maximum}


def expend_will(state: Any, args: Any = None) -> dict:
    """Expend a single will point (if you have any remaining): the state with `will` one lower."""
    fields.read_args(args, (), "spend_will")
    w = _will_of(state).expend()
    return fields.new_state(state, f"Spent 1 Will ({w.current}/{w.maximum} left)", will=w.current)


_NIGHTS = fields.Int(
    "nights",
    "Nights of good rest",
    1,
    MAX_NIGHTS,
    1,
    help="Expended Will replenishes at 1 per night (of good rest) up to the character’s maximum.",
)


def rest(state: Any, args: Any = None) -> dict:
    """Nights of good rest: Will goes up 1 per night, never above (resolve + composure)."""
    nights = fields.read_args(args, (_NIGHTS,), "rest")["nights"]
    before = _will_of(state)
    after = before.rest(nights)
    when = "a night" if nights == 1 else f"{nights} nights"
    if after.current == before.current:
        note = f"Rested {when}: Will already at its maximum ({after})"
    else:
        note = f"Rested {when}: Will {before.current} → {after.current} ({after.current}/{after.maximum})"
    return fields.new_state(state, note, will=after.current)


_WILL_ROLL_ARGS = tuple(f for f in FIELDS if f.name in ("modifier", "required"))


def will_roll(state: Any, args: Any = None) -> dict:
    """A Will roll's request: as many dice as the Will left (spending Will lowers it); roll it with api.roll."""
    a = fields.read_args(args, _WILL_ROLL_ARGS, "will_roll")
    w = _will_of(state)
    return request_json(fields.parse(FIELDS, {"pool": w.current, **a}))


# Ongoing struggles ---------------------------------------------------------------------------------------------

STRUGGLE_STATE = (  # also the fields of a struggle the table keeps (STRUGGLE)
    fields.Int(
        "target",
        "Successes needed",
        1,
        MAX_STRUGGLE_TARGET,
        5,
        help="Some rolls and contests can be continued over several turns with accumulated successes.",
    ),
    fields.Int("accumulated", "Successes accumulated", 0, MAX_ACCUMULATED, 0),
    fields.Int("turns", "Turns rolled", 0, MAX_STRUGGLE_TURNS, 0),
    fields.Choice("status", "Status", tuple((s.value, s.value.capitalize()) for s in Status), Status.ONGOING.value),
    fields.Bool(
        "contest",
        "An ongoing contest",
        False,
        help="In an ongoing contest excess successes on the resistance roll eat successes accumulated "
        "by the actor’s previous rolls.",
    ),
)


@dataclass(frozen=True, slots=True)
class Struggle:
    """An ongoing struggle: successes accumulated over turns toward a target; a botch aborts it."""

    target: int
    accumulated: int = 0
    turns: int = 0
    status: Status = Status.ONGOING
    contest: bool = False

    def turn(self, r: Roll) -> tuple["Struggle", str]:
        """Add one turn's roll: its successes (in a contest, what is left after the resistance's); a botch aborts."""
        if self.status is not Status.ONGOING:
            raise RulesError(
                f"'state.status' is {self.status.value}: no more turns; struggle_reset starts again from scratch"
            )
        if self.turns == MAX_STRUGGLE_TURNS:
            raise RulesError(f"'state.turns' is already {MAX_STRUGGLE_TURNS}, the most a struggle records")
        n = self.turns + 1
        if r.actor.botch:
            return (
                Struggle(self.target, 0, n, Status.ABORTED, self.contest),
                f"Turn {n}: botch: the effort is aborted; start again from scratch (0/{self.target})",
            )
        gained = r.net
        accumulated = max(0, self.accumulated + gained)
        status = Status.DONE if accumulated >= self.target else Status.ONGOING
        if gained < 0:
            eaten = self.accumulated - accumulated
            what = (
                f"the resistance has {many(-gained, 'success', 'successes')} left and eats {eaten} accumulated"
                if eaten
                else f"the resistance has {many(-gained, 'success', 'successes')} left, nothing accumulated to eat"
            )
        elif self.contest:
            what = f"{many(gained, 'success', 'successes')} left after the resistance's"
        else:
            what = many(gained, "success", "successes")
        note = f"Turn {n}: {what}: {accumulated}/{self.target}" + (": done" if status is Status.DONE else "")
        return Struggle(self.target, min(accumulated, MAX_ACCUMULATED), n, status, self.contest), note

    def to_json(self) -> dict:
        return {
            "target": self.target,
            "accumulated": self.accumulated,
            "turns": self.turns,
            "status": self.status.value,
            "contest": self.contest,
        }


def _struggle_of(state: Any) -> Struggle:
    s = fields.read_state(state, STRUGGLE_STATE, ("target",))
    st = Struggle(s["target"], s["accumulated"], s["turns"], Status(s["status"]), s["contest"])
    if st.status is Status.ONGOING and st.accumulated >= st.target:
        raise RulesError(
            f"'state.accumulated' must be from 0 to {st.target - 1} while the struggle is ongoing "
            f"(target {st.target}), got {st.accumulated}"
        )
    if st.status is Status.DONE and st.accumulated < st.target:
        raise RulesError(
            f"'state.accumulated' must be at least the target {st.target} when the struggle is done, "
            f"got {st.accumulated}"
        )
    if st.status is Status.ABORTED and st.accumulated:
        raise RulesError(f"'state.accumulated' must be 0 when the struggle is aborted, got {st.accumulated}")
    return st


def _kind(contest: bool) -> str:
    return "a contest (with 'opposed')" if contest else "unopposed (no 'opposed')"


_ROLL_ARG = fields.Object(
    "roll",
    "A ten_again roll as returned by roll() or act()",
    help="The turn's roll; in a contest, the actor's roll against the resistance.",
)


def _turn_roll(value: Any, contest: bool) -> Roll:
    """The turn's roll, rebuilt from its dict and checked against what it reports."""
    path = "args.roll"
    if value is None:
        raise RulesError(f"'{path}' is missing: {_ROLL_ARG.label}")
    if value.get("system") != ID:
        raise RulesError(
            f"'{path}' must be a {ID} roll as returned by roll() or act(), got system {value.get('system')!r:.40}"
        )
    r, _ = roll_from_json(value, path)
    expected = roll_to_json(r, value.get("request"))
    keys = ["successes", "botch", "ones_left", "outcome"] + (["net"] if r.target is not None else [])
    for key in keys:
        if value.get(key) != expected[key]:
            raise RulesError(
                f"'{path}.{key}' does not match the dice: expected {expected[key]!r}, got {value.get(key)!r:.40}"
            )
    if r.target is not None:
        for key in ("successes", "botch"):
            if value["target"].get(key) != expected["target"][key]:
                raise RulesError(
                    f"'{path}.target.{key}' does not match the dice: expected "
                    f"{expected['target'][key]!r}, got {value['target'].get(key)!r:.40}"
                )
    if (r.target is not None) != contest:
        raise RulesError(
            f"'{path}' must be {_kind(contest)}: the struggle's 'contest' is {'true' if contest else 'false'}"
        )
    return r


def struggle_turn(state: Any, args: Any = None) -> dict:
    """One turn of an ongoing struggle: the roll's successes accumulate, a botch aborts, the target ends it."""
    roll_dict = fields.read_args(args, (_ROLL_ARG,), "struggle_turn")["roll"]
    st = _struggle_of(state)
    new, note = st.turn(_turn_roll(roll_dict, st.contest))
    return fields.new_state(state, note, **new.to_json())


def struggle_reset(state: Any, args: Any = None) -> dict:
    """Start the struggle again from scratch: nothing accumulated, no turns, ongoing; same target and kind."""
    fields.read_args(args, (), "struggle_reset")
    st = _struggle_of(state)
    new = Struggle(st.target, contest=st.contest)
    return fields.new_state(state, f"Started again from scratch: 0/{st.target}", **new.to_json())


# exact odds of a struggle over turns ----------------------------------------------------------------------

_ODDS_ARGS = (
    fields.Object("request", "A ten_again request, rolled each turn (unopposed, or with 'opposed' in a contest)"),
    fields.Int("turns", "Turns", 1, MAX_ODDS_TURNS, 5, help="The chance to be done within 1, 2, ... turns."),
)


def struggle_odds(state: Any, args: Any = None) -> dict:
    """Exact chances that the struggle is done, or aborted by a botch, within 1..N turns of rolling `request`.

    {"finish_within": {"1": p, ..., "N": p}, "abort_within": {...}}; unopposed they are exact, in a contest
    turns beyond either successes table (less than 1e-15 each) are left out of both.
    """
    a = fields.read_args(args, _ODDS_ARGS, "struggle_odds")
    st = _struggle_of(state)
    if st.status is not Status.ONGOING:
        raise RulesError(
            f"'state.status' is {st.status.value}: no turns are left to roll; struggle_reset starts again from scratch"
        )
    if a["request"] is None:
        raise RulesError(f"'args.request' is missing: {_ODDS_ARGS[0].label}")
    req = fields.parse(FIELDS, a["request"], "args.request")
    if (req["opposed"] is not None) != st.contest:
        raise RulesError(
            f"'args.request' must be {_kind(st.contest)}: the struggle's 'contest' is "
            f"{'true' if st.contest else 'false'}"
        )
    if req["opposed"] is None:
        turn = TurnLaw.unopposed(Pool.of(req), st.target)
    else:
        turn = TurnLaw.contested(Pool.of(req), Pool.of(req["opposed"]), st.target)
    finish, abort = turn.within(st.accumulated, a["turns"])
    return {
        "finish_within": {str(n): p for n, p in enumerate(finish, 1)},
        "abort_within": {str(n): p for n, p in enumerate(abort, 1)},
    }


# what a roll costs on the table -------------------------------------------------------------------------------


def costs(request: dict | None, action: dict | None, choices: dict | None = None) -> list[dict]:
    """A roll with Will ticked, or expending a Will after it (the actor's), takes one Will from the rolling
    character's sheet (what was picked on the sheet, `choices`, changes nothing)."""
    if action is None:
        spent = check_will(request)["will"]
    else:
        side = action.get("side")
        spent = action.get("spend_will") is True and (side is None or side == "actor")
    return [fields.pay("character", ID, "spend_will")] if spent else []


TABLE = {
    "will_max": will_max,
    "spend_will": expend_will,
    "rest": rest,
    "will_roll": will_roll,
    "struggle_turn": struggle_turn,
    "struggle_reset": struggle_reset,
    "struggle_odds": struggle_odds,
}

TABLE_OPS = [
    table_op(
        "will_max",
        "Maximum Will",
        'The character’s maximum, (resolve + composure). Returns {"max": n}.',
        (_RESOLVE, _COMPOSURE),
    ),
    table_op(
        "spend_will",
        "Expend a Will",
        "Expending a single will point (if you have any remaining): Will − 1.",
        _WILL_STATE,
    ),
    table_op(
        "rest",
        "Night of rest",
        "Expended Will replenishes at 1 per night (of good rest) up to the character’s maximum, (resolve + composure).",
        _WILL_STATE,
        (_NIGHTS,),
    ),
    table_op(
        "will_roll",
        "Will roll",
        "Spending your will lowers the number of dice you use for will rolls: "
        "returns the request (pool = current Will) to roll.",
        _WILL_STATE,
        _WILL_ROLL_ARGS,
    ),
    table_op(
        "struggle_turn",
        "Ongoing struggle: add a turn",
        "Adds the roll's successes (in a contest, the "
        "resistance's excess eats accumulated successes); a botch aborts the whole effort; reaching the target "
        "ends it.",
        STRUGGLE_STATE,
        (_ROLL_ARG,),
    ),
    table_op(
        "struggle_reset",
        "Ongoing struggle: start again",
        "Start again from scratch: 0 accumulated, 0 turns.",
        STRUGGLE_STATE,
    ),
    table_op(
        "struggle_odds",
        "Ongoing struggle: odds",
        "Exact chances to be done, or aborted by a botch, within 1 to N turns of rolling the request each turn.",
        STRUGGLE_STATE,
        _ODDS_ARGS,
    ),
]


MAX_NOTES, MAX_NOTE = 200, 300  # a struggle's history
STRUGGLE = Record(
    "struggle",
    "Ongoing struggle (d10 pool)",
    (
        NAME,
        Maybe(Id("character", "Character")),
        Time("created", "Created"),
        *STRUGGLE_STATE,
        ListOf("notes", "History", fields.Text("notes", "Note", MAX_NOTE), MAX_NOTES),
    ),
)
RECORDS = (STRUGGLE,)  # the table's records this procedure declares (records.py gathers them)
