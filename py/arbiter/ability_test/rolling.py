"""Ability Test (seed 004), the Test: a character's Ability must beat the total of 1-4 difficulty d6.

"If the rolled total equals or exceeds their Ability, they fail, but if their Ability is higher than the rolled
total, they succeed at the Test." A Scheme die's d6 and any Exertion spent after the roll add to Ability. Masteries
reroll dice once; a success with a 1 rolled during the Test earns a Scheme die, a failure with a 6 rolled during it
brings a setback that two Scheme dice may negate (a 1 or a 6 rerolled away was still rolled). Here: the Test as a
frozen value, `roll`, the follow-up choices (`act`) and a roll read back from JSON.

Draw order (ability_test-30): the Narrator's Scheme die first when one is used, then the difficulty dice; a Masteries
reroll draws the picked dice in the order of their places; Exertion and negating a setback draw nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from .. import fields
from ..dice import roll as roll_dice
from ..dice import theirs
from ..errors import RulesError
from ..tone import Tone
from .exact import best_reroll
from .sheet import DIFFICULTY, FIELDS, MAX_EXERTION, NEGATE_COST, SIDES, Request

ID = "ability_test"
TITLE = "Ability Test"
SEED = "004_53ed85965f1883a3.txt"
LABEL, HINT = "Ability Test", "Ability vs difficulty d6"  # its tab's name and hint, in the text's words
DESCRIPTION = "Your Ability must beat the sum of 1-4 difficulty d6."

ACTIONS = [
    {
        "name": "reroll",
        "label": "Reroll with Masteries",
        "help": "When rerolling, the player must choose a number of rolled dice (up to their total relevant "
        "Masteries) and roll them again. One reroll per test.",
    },
    {
        "name": "exert",
        "label": "Spend Exertion",
        "help": "Before declaring the Test a failure, subtract a number of Exertion to increase Ability by the same "
        "amount.",
    },
    {
        "name": "negate_setback",
        "label": "Negate the setback",
        "help": "Once the setback has been declared, the Players may agree to subtract two dice from the Scheme to "
        "negate it.",
    },
]


class Outcome(Enum):
    SUCCESS = "success"
    FAILURE = "failure"


@dataclass(frozen=True, slots=True)
class AbilityTest:
    """A Test as it stands: the Scheme die, the difficulty dice (first and final faces) and the follow-ups taken."""

    request: Request
    scheme_roll: int | None
    rolled: tuple[int, ...]
    dice: tuple[int, ...]
    rerolled: tuple[int, ...] = ()
    exertion: int = 0
    setback_negated: bool = False

    @property
    def ability(self) -> int:
        return self.request.base_ability + (self.scheme_roll or 0) + self.exertion

    @property
    def total(self) -> int:
        return sum(self.dice)

    @property
    def outcome(self) -> Outcome:
        """If their Ability is higher than the rolled total, they succeed; if the total equals or exceeds it, fail."""
        return Outcome.SUCCESS if self.ability > self.total else Outcome.FAILURE

    @property
    def every_die(self) -> tuple[int, ...]:
        """Every difficulty die rolled during the Test: the first faces, then the faces the reroll brought."""
        return self.rolled + tuple(self.dice[i] for i in self.rerolled)

    @property
    def rolled_one(self) -> bool:
        return 1 in self.every_die

    @property
    def scheme_gain(self) -> bool:
        """At least one 1 rolled during a Test on which they succeed adds a die to the Scheme, unless a Scheme die was
        used (ability_test-7)."""
        return self.outcome is Outcome.SUCCESS and self.rolled_one and not self.request.scheme_die

    @property
    def setback(self) -> bool:
        """At least one 6 rolled during a Test on which they fail brings a minor setback (ability_test-7)."""
        return self.outcome is Outcome.FAILURE and SIDES in self.every_die

    @property
    def marks(self) -> list[list[str]]:
        """Each difficulty die's marks, as the page draws them: a die the reroll brought new; a 1 kept when it earns a
        Scheme die, a 6 kept when it brings the setback (not once negated)."""
        out = []
        for i, face in enumerate(self.dice):
            marks = ["new"] if i in self.rerolled else []
            if (face == 1 and self.scheme_gain) or (face == SIDES and self.setback and not self.setback_negated):
                marks.append("kept")
            out.append(marks)
        return out

    @property
    def scheme_marks(self) -> list[str] | None:
        """The Scheme die's marks (kept: it adds to Ability), or None when no Scheme die is used."""
        return None if self.scheme_roll is None else ["kept"]

    @property
    def exert_needed(self) -> int:
        """The Exertion that would turn a failure into a success (0 on a success)."""
        return max(0, self.total - self.ability + 1)

    @property
    def exertion_spent(self) -> int:
        """One Exertion per activated Conviction not yet declared relevant to this Scene, plus the Exertion added to
        Ability (ability_test-13, ability_test-25)."""
        return self.request.exertion_for_convictions + self.exertion

    @property
    def declared(self) -> bool:
        """Negating the setback means the failure was declared: no more rerolls or Exertion."""
        return self.setback_negated

    def verdict_steps(self) -> list[str]:
        if self.outcome is Outcome.SUCCESS:
            out = [f"Ability {self.ability} > {self.total}: success"]
            if self.rolled_one:
                out.append(
                    "no die back into the Scheme: a Scheme die was used on this Test"
                    if self.request.scheme_die
                    else f"a 1 rolled{self._rerolled_away(1)} on a success: add one die to the Scheme"
                )
        else:
            out = [
                f"{self.total} equals or exceeds Ability {self.ability}: failure "
                f"(Exertion {self.exert_needed} would make it a success)"
            ]
            if self.setback:
                out.append(f"a 6 rolled{self._rerolled_away(SIDES)} on a failure: a minor setback")
        return out

    def _rerolled_away(self, face: int) -> str:
        """Says so when the only `face` rolled during the Test was rerolled away (it still counts)."""
        return " (rerolled away, still rolled during the Test)" if face not in self.dice else ""

    def choices(self) -> list[dict]:
        if self.declared:
            return []
        out = []
        n = self.request.rerolls
        if n and not self.rerolled:
            out.append(
                {
                    "name": "reroll",
                    "label": f"Reroll up to {n} {'die' if n == 1 else 'dice'} (Masteries)",
                    "max": n,
                    "suggested": list(best_reroll(self.dice, self.ability, n, self.request.scheme_die)),
                }
            )
        if self.outcome is Outcome.FAILURE:
            need = self.exert_needed
            out.append(
                {
                    "name": "exert",
                    "label": f"Spend Exertion ({need} turns this into a success)",
                    "min": 1,
                    "max": need,
                    "exert_needed": need,
                    "action": {"exert": need},
                }
            )
            if self.setback:
                ended = "reroll or Exertion" if any(c["name"] == "reroll" for c in out) else "Exertion"
                out.append(
                    {
                        "name": "negate_setback",
                        "label": "Spend two Scheme dice to negate the setback",
                        "cost": NEGATE_COST,
                        "action": {"negate_setback": True},
                        "ends": f"ends the Test: the failure is declared, no {ended} after",
                    }
                )
        return out

    def __str__(self) -> str:
        sums = "+".join(map(str, self.dice))
        label = DIFFICULTY[self.request.difficulty - 1][1]
        if self.outcome is Outcome.SUCCESS:
            text = f"Success: Ability {self.ability} beats {self.total} = {sums} ({label})"
            if self.scheme_gain:
                text += f"; a 1 rolled{self._rerolled_away(1)}: add one die to the Scheme"
        else:
            text = f"Failure: {self.total} = {sums} ({label}) equals or exceeds Ability {self.ability}"
            if self.setback:
                text += f"; a 6 rolled{self._rerolled_away(SIDES)}: a minor setback"
                if self.setback_negated:
                    text += ", negated with two Scheme dice"
        return text

    def __repr__(self) -> str:
        return f"AbilityTest({self.ability} vs {self.dice}: {self.outcome.value})"

    def to_json(self, steps: list[str]) -> dict:
        return {
            "system": ID,
            "request": self.request.to_json(),
            "scheme_roll": self.scheme_roll,
            "rolled": list(self.rolled),
            "rerolled": list(self.rerolled),
            "rerolled_from": [self.rolled[i] for i in self.rerolled],
            "dice": list(self.dice),
            "marks": self.marks,
            "scheme_marks": self.scheme_marks,
            "exertion": self.exertion,
            "exertion_spent": self.exertion_spent,
            "ability": self.ability,
            "total": self.total,
            "outcome": self.outcome.value,
            "scheme_gain": self.scheme_gain,
            "setback": self.setback,
            "setback_negated": self.setback_negated,
            "exert_needed": self.exert_needed,
            "steps": list(steps),
            "summary": str(self),
            "tone": (Tone.SUCCESS if self.outcome is Outcome.SUCCESS else Tone.FAILURE).value,
            "choices": self.choices(),
        }


def _dice_step(request: Request, faces: tuple[int, ...]) -> str:
    n, label = request.difficulty, DIFFICULTY[request.difficulty - 1][1]
    return f"{n} difficulty {'die' if n == 1 else 'dice'} ({label}): {' '.join(map(str, faces))}, total {sum(faces)}"


def roll(req: dict, dice) -> dict:
    """Roll the Test: the Scheme die first when one is used, then as many d6 as the difficulty."""
    request = Request.of(req)
    steps = [request.ability_step()]
    scheme_roll = None
    if request.scheme_die:
        (scheme_roll,) = roll_dice(dice, 1, SIDES, theirs("the Narrator's Scheme die"))
        steps.append(f"Scheme die: {scheme_roll}, Ability {request.base_ability + scheme_roll}")
    faces = roll_dice(dice, request.difficulty, SIDES, "the difficulty dice")
    steps.append(_dice_step(request, faces))
    test = AbilityTest(request, scheme_roll, faces, faces)
    return test.to_json(steps + test.verdict_steps())


# --- follow-up choices --------------------------------------------------------------------------------------------


def act(roll: dict, action: dict, dice) -> dict:
    """The Test after one follow-up: {"reroll": [die indexes]}, {"exert": n} or {"negate_setback": true}."""
    test, steps = roll_from_json(roll)
    allowed = ", ".join(a["name"] for a in ACTIONS)
    if not isinstance(action, dict) or len(action) != 1:
        raise RulesError(f"'action' must be an object with one of: {allowed}; got {action!r:.100}")
    ((name, value),) = action.items()
    if name == "reroll":
        nxt, more = _reroll(test, value, dice)
    elif name == "exert":
        nxt, more = _exert(test, value)
    elif name == "negate_setback":
        nxt, more = _negate_setback(test, value)
    else:
        raise RulesError(f"unknown action {name!r}; allowed: {allowed}")
    return nxt.to_json(steps + more)


_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def _count(n: int, one: str, more: str) -> str:
    """`n` things in words: "two dice", "one die"."""
    return f"{_NUMBERS[n] if 0 <= n < len(_NUMBERS) else n} {one if n == 1 else more}"


def did(roll: dict, action: dict, after: dict) -> str:
    """What a follow-up did, in a player's words for the log: "Rerolled two dice with Masteries: 5 → 2, 6 → 1",
    "Spent 2 Exertion: Ability 9", "Negated the setback with two Scheme dice"."""
    ((name, value),) = action.items()
    if name == "reroll":
        changes = ", ".join(f"{roll['dice'][i]} → {after['dice'][i]}" for i in sorted(value))
        return f"Rerolled {_count(len(value), 'die', 'dice')} with Masteries: {changes}"
    if name == "exert":
        return f"Spent {value} Exertion: Ability {after['ability']}"
    return f"Negated the setback with {_count(NEGATE_COST, 'Scheme die', 'Scheme dice')}"


def _declared(test: AbilityTest, what: str) -> None:
    if test.declared:
        raise RulesError(f"no {what} now: the failure was declared when its setback was negated")


def reroll_indexes(test: AbilityTest, value: Any) -> tuple[int, ...]:
    """The die indexes `{"reroll": value}` rerolls, sorted, refused as `act` refuses them."""
    _declared(test, "reroll")
    n, d = test.request.rerolls, test.request.difficulty
    if not n:
        raise RulesError("'action.reroll' is not allowed: 'masteries' is 0, so no dice may be rerolled")
    if test.rerolled:
        raise RulesError(
            f"'action.reroll' is not allowed: only one reroll per test, and dice "
            f"{', '.join(map(str, test.rerolled))} were already rerolled"
        )
    shape = f"a list of 1 to {n} different die indexes from 0 to {d - 1}"
    if (
        not isinstance(value, list)
        or not 1 <= len(value) <= n
        or any(isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < d for i in value)
        or len(set(value)) != len(value)
    ):
        raise RulesError(f"'action.reroll' must be {shape}, got {value!r:.100}")
    return tuple(sorted(value))


def _reroll(test: AbilityTest, value: Any, dice) -> tuple[AbilityTest, list[str]]:
    indexes = reroll_indexes(test, value)
    faces = list(test.dice)
    for i, face in zip(indexes, roll_dice(dice, len(indexes), SIDES, "the dice rerolled with Masteries")):
        faces[i] = face  # in the order of their places
    nxt = replace(test, dice=tuple(faces), rerolled=indexes)
    changes = ", ".join(f"{test.dice[i]} → {faces[i]}" for i in indexes)
    step = (
        f"rerolled {len(indexes)} {'die' if len(indexes) == 1 else 'dice'} (Masteries): {changes}; "
        f"dice {' '.join(map(str, faces))}, total {nxt.total}"
    )
    return nxt, [step] + nxt.verdict_steps()


def _exert(test: AbilityTest, value: Any) -> tuple[AbilityTest, list[str]]:
    _declared(test, "Exertion")
    if test.outcome is Outcome.SUCCESS:
        raise RulesError("'action.exert' is not allowed: the Test is already a success, more Ability changes nothing")
    need = test.exert_needed
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= need:
        raise RulesError(
            f"'action.exert' must be a whole number from 1 to {need} "
            f"({need} turns this failure into a success), got {value!r:.100}"
        )
    nxt = replace(test, exertion=test.exertion + value)
    return nxt, [f"exerted {value}: Ability {nxt.ability}"] + nxt.verdict_steps()


def _negate_setback(test: AbilityTest, value: Any) -> tuple[AbilityTest, list[str]]:
    if value is not True:
        raise RulesError(f"'action.negate_setback' must be true, got {value!r:.100}")
    if test.setback_negated:
        raise RulesError("'action.negate_setback' is not allowed: the setback is already negated")
    if not test.setback:
        raise RulesError(
            "'action.negate_setback' is not allowed: there is no setback "
            "(only a failure with a 6 rolled during the Test brings one)"
        )
    return replace(test, setback_negated=True), ["failure declared; two Scheme dice spent: setback negated"]


def _faces(value: Any, name: str, n: int, path: str = "roll") -> tuple[int, ...]:
    if (
        not isinstance(value, list)
        or len(value) != n
        or any(isinstance(f, bool) or not isinstance(f, int) or not 1 <= f <= SIDES for f in value)
    ):
        raise RulesError(f"'{path}.{name}' must be a list of {n} faces from 1 to {SIDES}, got {value!r:.100}")
    return tuple(value)


def roll_from_json(roll: Any, path: str = "roll") -> tuple[AbilityTest, list[str]]:
    """Rebuild the Test from a roll dict, refusing anything `roll`/`act` could not have produced."""
    if not isinstance(roll, dict) or roll.get("system") != ID:
        raise RulesError(f"'{path}' must be an {ID} roll as returned by roll() or act()")
    request = Request.of(fields.parse(FIELDS, roll.get("request"), f"{path}.request"))
    d = request.difficulty
    scheme_roll = roll.get("scheme_roll")
    if request.scheme_die:
        if isinstance(scheme_roll, bool) or not isinstance(scheme_roll, int) or not 1 <= scheme_roll <= SIDES:
            raise RulesError(
                f"'{path}.scheme_roll' must be a face from 1 to {SIDES} when a Scheme die is used, "
                f"got {scheme_roll!r:.100}"
            )
    elif scheme_roll is not None:
        raise RulesError(f"'{path}.scheme_roll' must be null when no Scheme die is used, got {scheme_roll!r:.100}")
    rolled = _faces(roll.get("rolled"), "rolled", d, path)
    final = _faces(roll.get("dice"), "dice", d, path)
    rerolled = roll.get("rerolled")
    if (
        not isinstance(rerolled, list)
        or len(rerolled) > request.rerolls
        or any(isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < d for i in rerolled)
        or rerolled != sorted(set(rerolled))
    ):
        raise RulesError(
            f"'{path}.rerolled' must be a sorted list of at most {request.rerolls} different die "
            f"indexes from 0 to {d - 1}, got {rerolled!r:.100}"
        )
    if any(rolled[i] != final[i] for i in range(d) if i not in rerolled):
        raise RulesError(f"'{path}.dice' must keep the rolled faces of the dice that were not rerolled")
    exertion = roll.get("exertion")
    if isinstance(exertion, bool) or not isinstance(exertion, int) or not 0 <= exertion <= MAX_EXERTION:
        raise RulesError(f"'{path}.exertion' must be a whole number from 0 to {MAX_EXERTION}, got {exertion!r:.100}")
    negated = roll.get("setback_negated")
    if not isinstance(negated, bool):
        raise RulesError(f"'{path}.setback_negated' must be true or false, got {negated!r:.100}")
    steps = roll.get("steps")
    if not isinstance(steps, list) or not all(isinstance(s, str) for s in steps):
        raise RulesError(f"'{path}.steps' must be a list of texts")
    test = AbilityTest(request, scheme_roll, rolled, final, tuple(rerolled), exertion, negated)
    if negated and not test.setback:
        raise RulesError(f"'{path}.setback_negated' can only be true for a failure with a 6 rolled during the Test")
    expected = test.to_json(steps)
    keys = ("ability", "total", "outcome", "scheme_gain", "setback", "exert_needed", "exertion_spent")
    for key in keys + (("rerolled_from",) if "rerolled_from" in roll else ()):  # absent from rolls kept before it
        if roll.get(key) != expected[key]:
            raise RulesError(
                f"'{path}.{key}' does not match the dice: expected {expected[key]!r}, got {roll.get(key)!r:.100}"
            )
    return test, steps
