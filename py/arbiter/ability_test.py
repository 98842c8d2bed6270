"""Ability Test (seed 004): a character's Ability must beat the total of 1-4 difficulty d6.

Ability is the two Attributes (one Type I, one Type II) plus Skill and Item levels plus the Significance of each
activated Conviction, plus a Scheme die's d6 when one is used, plus any Exertion spent after the roll. "If the
rolled total equals or exceeds their Ability, they fail, but if their Ability is higher than the rolled total,
they succeed at the Test." Masteries reroll dice once; a success with a 1 earns a Scheme die, a failure with a 6
brings a setback that two Scheme dice may negate. The XP costs for the character sheet live here too.

Table state (`TABLE`, for api.table): XP earned per Scene and spent at those costs, the Exertion pool, moving
Significance between Convictions once per Session, and the shared Scheme pool.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement
from math import factorial, prod
from typing import Any

from . import fields
from .dice import face_poly, poly_pow, sum_ways
from .dice import roll as roll_dice
from .errors import RulesError

ID = "ability_test"
TITLE = "Ability Test"
SEED = "004_53ed85965f1883a3.txt"

SIDES = 6
MAX_DIFFICULTY = 4
MAX_ATTRIBUTE = 5
MAX_SKILL = 10
MAX_ITEM = 5
MAX_CONVICTIONS = 6
MAX_MASTERIES = 10
NEGATE_COST = 2  # "subtract two dice from the Scheme (see below) to negate it"

DIFFICULTY = (
    (1, "Unusually Easy", "Navigating a crowded street, or climbing the rigging in calm weather."),
    (2, "Standard Difficulty", "Chasing someone through a busy market, or keeping a ship on course during choppy "
                               "winds."),
    (3, "Unusually Difficult", "Secretly following someone who is using the Weird to obscure their position, or "
                               "steering a ship through a hurricane."),
    (4, "Effectively Impossible", "Tracking an Otherworlder who is using both invisibility and short-range "
                                  "teleportation, or boarding an enemy ship during a legendary monsoon while avoiding "
                                  "enemy cannon fire."),
)
SIGNIFICANCE = (
    (1, "Valued", "“I’m not just gonna stand here and do nothing!”"),
    (2, "Momentous", "“You’re going to have to go through me first.”"),
    (3, "Pivotal", "“I swear upon my life, it shall be done.”"),
)
GRADES = ((1, "Below average"), (2, "Average"), (3, "Above average"), (4, "Outstanding"), (5, "Incredible"))
TYPE1 = (("Mental", "the use of knowledge, willpower, understanding, and wit"),
         ("Physical", "the use of one’s body and the physical space"),
         ("Social", "the use of words and emotions"),
         ("Weird", "the use of magic, Orichalcum, and/or special abilities."))
TYPE2 = (("Control", "manipulation, finesse, and subtlety"),
         ("Endurance", "determination, resilience, and staying power"),
         ("Power", "forcefulness, speed, and strength"),
         ("Presence", "awareness, concentration, and sanity"))

# The most Exertion that can matter: enough to beat the highest total with the lowest Ability (two Attributes at 1).
MAX_EXERTION = SIDES * MAX_DIFFICULTY - 2 + 1

FIELDS = (
    fields.Int("type1", "Type I Attribute", 1, MAX_ATTRIBUTE, default=2,
               help="Mental, Physical, Social or Weird: a character’s potential, graded 1 to 5."),
    fields.Int("type2", "Type II Attribute", 1, MAX_ATTRIBUTE, default=2,
               help="Control, Endurance, Power or Presence: the ability to harness and apply their talent, "
                    "graded 1 to 5."),
    fields.Int("skill", "Skill levels", 0, MAX_SKILL, default=0,
               help="Each level allows the player to increase their Ability by 1 when performing a Test in which "
                    "the Skill is relevant."),
    fields.Int("item", "Item levels", 0, MAX_ITEM, default=0,
               help="The levels of an Item determine how much a character’s Ability is increased when the item is "
                    "being used."),
    fields.IntList("convictions", "Convictions activated (Significance)", 1, 3, 0, MAX_CONVICTIONS, default=(),
                   help="Each activated Conviction costs one Exertion and adds its Significance: 1 Valued, "
                        "2 Momentous, 3 Pivotal."),
    fields.Int("difficulty", "Difficulty (dice)", 1, MAX_DIFFICULTY, default=2,
               help="1 Unusually Easy, 2 Standard Difficulty, 3 Unusually Difficult, 4 Effectively Impossible."),
    fields.Int("masteries", "Masteries", 0, MAX_MASTERIES, default=0,
               help="Reroll up to this many dice, once, when both the Skill and its Masteries are relevant."),
    fields.Bool("scheme_die", "Use a Scheme die", default=False,
                help="The Narrator rolls a die before the Difficulty dice; its result is added to Ability. "
                     "No die goes back into the Scheme on this Test."),
)

ACTIONS = [
    {"name": "reroll", "label": "Reroll with Masteries",
     "help": "When rerolling, the player must choose a number of rolled dice (up to their total relevant "
             "Masteries) and roll them again. One reroll per test."},
    {"name": "exert", "label": "Spend Exertion",
     "help": "Before declaring the Test a failure, subtract a number of Exertion to increase Ability by the same "
             "amount."},
    {"name": "negate_setback", "label": "Negate the setback",
     "help": "Once the setback has been declared, the Players may agree to subtract two dice from the Scheme to "
             "negate it."},
]


class Outcome(Enum):
    SUCCESS = "success"
    FAILURE = "failure"


# --- XP costs ---------------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class XpCost:
    """One way to spend XP: `base` XP, plus the current rank or score when `plus_current`."""

    kind: str
    label: str
    base: int
    plus_current: bool
    current_min: int
    current_max: int
    limit: str

    def cost(self, current: int) -> int:
        return self.base + (current if self.plus_current else 0)

    def to_json(self) -> dict:
        return {"kind": self.kind, "label": self.label, "base": self.base, "plus_current": self.plus_current,
                "current_min": self.current_min, "current_max": self.current_max, "limit": self.limit,
                "costs": [{"current": c, "cost": self.cost(c)}
                          for c in range(self.current_min, self.current_max + 1)]}


XP_COSTS = (
    XpCost("new_skill", "Begin a new Skill with 1 rank", 2, False, 0, 0, "a new Skill begins with 1 rank"),
    XpCost("new_item", "Begin a new Item with 1 rank", 3, False, 0, 0, "a new Item begins with 1 rank"),
    XpCost("advance_skill", "Advance an existing Skill by 1 rank", 2, True, 1, MAX_SKILL - 1,
           "A character may have a maximum of 10 levels in a Skill"),
    XpCost("advance_standard_item", "Advance an existing Standard Item by 1 rank", 2, True, 1, MAX_ITEM - 1,
           "Items have a maximum of 5 levels"),
    XpCost("advance_attribute", "Advance an Attribute by 1", 3, True, 1, MAX_ATTRIBUTE - 1,
           "All Attributes are graded on a scale of 1 to 5"),
)
XP_UNPRICED = {
    "advance_unique_item": "the text says Unique items require less XP to advance but gives no number, "
                           "so Arbiter does not price it",
    "advance_focused_skill": "the text says Focused Skills cost slightly less XP to advance but gives no number, "
                             "so Arbiter does not price it",
}
_XP = {c.kind: c for c in XP_COSTS}


def xp_cost(kind: Any, current: Any = 0) -> int:
    """The XP to spend on `kind` for something now at rank or score `current` (0 for something new)."""
    if isinstance(kind, str) and kind in XP_UNPRICED:
        raise RulesError(f"'kind' {kind} has no price: {XP_UNPRICED[kind]}")
    if not isinstance(kind, str) or kind not in _XP:
        raise RulesError(f"'kind' must be one of {', '.join(_XP)}, got {kind!r}")
    c = _XP[kind]
    if isinstance(current, bool) or not isinstance(current, int):
        raise RulesError(f"'current' must be a whole number from {c.current_min} to {c.current_max} for {kind}, "
                         f"got {current!r}")
    if not c.current_min <= current <= c.current_max:
        raise RulesError(f"'current' must be from {c.current_min} to {c.current_max} for {kind} ({c.limit}), "
                         f"got {current}")
    return c.cost(current)


EXTRAS = {
    "difficulty": [{"value": v, "label": l, "example": e} for v, l, e in DIFFICULTY],
    "significance": [{"value": v, "label": l, "example": e} for v, l, e in SIGNIFICANCE],
    "grades": [{"value": v, "label": l} for v, l in GRADES],
    "attributes": {"type1": [{"name": n, "help": h} for n, h in TYPE1],
                   "type2": [{"name": n, "help": h} for n, h in TYPE2]},
    "negate_setback_cost": NEGATE_COST,
    "xp_per_scene": 1,
    "xp_costs": [c.to_json() for c in XP_COSTS],
    "xp_unpriced": [{"kind": k, "reason": r} for k, r in XP_UNPRICED.items()],
}


# --- the Test -----------------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Request:
    """What the player declares before any dice are rolled."""

    type1: int
    type2: int
    skill: int
    item: int
    convictions: tuple[int, ...]
    difficulty: int
    masteries: int
    scheme_die: bool

    @classmethod
    def of(cls, req: dict) -> Request:
        return cls(**req)

    @property
    def base_ability(self) -> int:
        """Two Attributes plus Skill, Item and each activated Conviction's Significance."""
        return self.type1 + self.type2 + self.skill + self.item + sum(self.convictions)

    @property
    def rerolls(self) -> int:
        """How many dice the Masteries may reroll: no more than the dice rolled."""
        return min(self.masteries, self.difficulty)

    def to_json(self) -> dict:
        return {"type1": self.type1, "type2": self.type2, "skill": self.skill, "item": self.item,
                "convictions": list(self.convictions), "difficulty": self.difficulty,
                "masteries": self.masteries, "scheme_die": self.scheme_die}

    def ability_step(self) -> str:
        parts = [f"{self.type1} (Type I)", f"{self.type2} (Type II)"]
        if self.skill:
            parts.append(f"{self.skill} (Skill)")
        if self.item:
            parts.append(f"{self.item} (Item)")
        for s in self.convictions:
            parts.append(f"{s} (Conviction: {SIGNIFICANCE[s - 1][1]})")
        step = f"Ability {self.base_ability} = {' + '.join(parts)}"
        if self.convictions:
            n = len(self.convictions)
            step += f"; {n} Exertion spent to activate {n} Conviction{'s' if n > 1 else ''}"
        return step


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
    def scheme_gain(self) -> bool:
        """A 1 among the difficulty dice on a success adds a die to the Scheme, unless a Scheme die was used."""
        return self.outcome is Outcome.SUCCESS and 1 in self.dice and not self.request.scheme_die

    @property
    def setback(self) -> bool:
        """A 6 among the difficulty dice on a failure brings a minor setback."""
        return self.outcome is Outcome.FAILURE and SIDES in self.dice

    @property
    def exert_needed(self) -> int:
        """The Exertion that would turn a failure into a success (0 on a success)."""
        return max(0, self.total - self.ability + 1)

    @property
    def exertion_spent(self) -> int:
        """One Exertion per activated Conviction plus the Exertion added to Ability."""
        return len(self.request.convictions) + self.exertion

    @property
    def declared(self) -> bool:
        """Negating the setback means the failure was declared: no more rerolls or Exertion."""
        return self.setback_negated

    def verdict_steps(self) -> list[str]:
        if self.outcome is Outcome.SUCCESS:
            out = [f"Ability {self.ability} > {self.total}: success"]
            if 1 in self.dice:
                out.append("no die back into the Scheme: a Scheme die was used on this Test"
                           if self.request.scheme_die else "a 1 on a success: add one die to the Scheme")
        else:
            out = [f"{self.total} equals or exceeds Ability {self.ability}: failure "
                   f"(Exertion {self.exert_needed} would make it a success)"]
            if self.setback:
                out.append("a 6 on a failure: a minor setback")
        return out

    def choices(self) -> list[dict]:
        if self.declared:
            return []
        out = []
        n = self.request.rerolls
        if n and not self.rerolled:
            out.append({"name": "reroll", "label": f"Reroll up to {n} {'die' if n == 1 else 'dice'} (Masteries)",
                        "max": n, "suggested": list(best_reroll(self.dice, self.ability, n))})
        if self.outcome is Outcome.FAILURE:
            need = self.exert_needed
            out.append({"name": "exert", "label": f"Spend Exertion ({need} turns this into a success)",
                        "min": 1, "max": need, "exert_needed": need})
            if self.setback:
                out.append({"name": "negate_setback", "label": "Spend two Scheme dice to negate the setback",
                            "cost": NEGATE_COST})
        return out

    def __str__(self) -> str:
        sums = "+".join(map(str, self.dice))
        label = DIFFICULTY[self.request.difficulty - 1][1]
        if self.outcome is Outcome.SUCCESS:
            text = f"Success: Ability {self.ability} beats {self.total} = {sums} ({label})"
            if self.scheme_gain:
                text += "; a 1 rolled: add one die to the Scheme"
        else:
            text = f"Failure: {self.total} = {sums} ({label}) equals or exceeds Ability {self.ability}"
            if self.setback:
                text += "; a 6 rolled: a minor setback" + (", negated with two Scheme dice" if self.setback_negated
                                                              else "")
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
            "dice": list(self.dice),
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
        scheme_roll = dice.randint(1, SIDES)
        steps.append(f"Scheme die: {scheme_roll}, Ability {request.base_ability + scheme_roll}")
    faces = roll_dice(dice, request.difficulty, SIDES)
    steps.append(_dice_step(request, faces))
    test = AbilityTest(request, scheme_roll, faces, faces)
    return test.to_json(steps + test.verdict_steps())


# --- follow-up choices --------------------------------------------------------------------------------------------

def act(roll: dict, action: dict, dice) -> dict:
    """The Test after one follow-up: {"reroll": [die indexes]}, {"exert": n} or {"negate_setback": true}."""
    test, steps = _from_json(roll)
    allowed = ", ".join(a["name"] for a in ACTIONS)
    if not isinstance(action, dict) or len(action) != 1:
        raise RulesError(f"'action' must be an object with one of: {allowed}; got {action!r:.100}")
    (name, value), = action.items()
    if name == "reroll":
        nxt, more = _reroll(test, value, dice)
    elif name == "exert":
        nxt, more = _exert(test, value)
    elif name == "negate_setback":
        nxt, more = _negate_setback(test, value)
    else:
        raise RulesError(f"unknown action {name!r}; allowed: {allowed}")
    return nxt.to_json(steps + more)


def _declared(test: AbilityTest, what: str) -> None:
    if test.declared:
        raise RulesError(f"no {what} now: the failure was declared when its setback was negated")


def _reroll(test: AbilityTest, value: Any, dice) -> tuple[AbilityTest, list[str]]:
    _declared(test, "reroll")
    n, d = test.request.rerolls, test.request.difficulty
    if not n:
        raise RulesError("'action.reroll' is not allowed: 'masteries' is 0, so no dice may be rerolled")
    if test.rerolled:
        raise RulesError(f"'action.reroll' is not allowed: only one reroll per test, and dice "
                         f"{', '.join(map(str, test.rerolled))} were already rerolled")
    shape = f"a list of 1 to {n} different die indexes from 0 to {d - 1}"
    if (not isinstance(value, list) or not 1 <= len(value) <= n
            or any(isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < d for i in value)
            or len(set(value)) != len(value)):
        raise RulesError(f"'action.reroll' must be {shape}, got {value!r:.100}")
    indexes = tuple(sorted(value))
    faces = list(test.dice)
    for i in indexes:
        faces[i] = dice.randint(1, SIDES)
    nxt = replace(test, dice=tuple(faces), rerolled=indexes)
    changes = ", ".join(f"{test.dice[i]} → {faces[i]}" for i in indexes)
    step = (f"rerolled {len(indexes)} {'die' if len(indexes) == 1 else 'dice'} (Masteries): {changes}; "
            f"dice {' '.join(map(str, faces))}, total {nxt.total}")
    return nxt, [step] + nxt.verdict_steps()


def _exert(test: AbilityTest, value: Any) -> tuple[AbilityTest, list[str]]:
    _declared(test, "Exertion")
    if test.outcome is Outcome.SUCCESS:
        raise RulesError("'action.exert' is not allowed: the Test is already a success, more Ability changes nothing")
    need = test.exert_needed
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= need:
        raise RulesError(f"'action.exert' must be a whole number from 1 to {need} "
                         f"({need} turns this failure into a success), got {value!r:.100}")
    nxt = replace(test, exertion=test.exertion + value)
    return nxt, [f"exerted {value}: Ability {nxt.ability}"] + nxt.verdict_steps()


def _negate_setback(test: AbilityTest, value: Any) -> tuple[AbilityTest, list[str]]:
    if value is not True:
        raise RulesError(f"'action.negate_setback' must be true, got {value!r:.100}")
    if test.setback_negated:
        raise RulesError("'action.negate_setback' is not allowed: the setback is already negated")
    if not test.setback:
        raise RulesError("'action.negate_setback' is not allowed: there is no setback "
                         "(only a failure with a 6 among the difficulty dice brings one)")
    return replace(test, setback_negated=True), ["failure declared; two Scheme dice spent: setback negated"]


def _faces(value: Any, name: str, n: int, path: str = "roll") -> tuple[int, ...]:
    if (not isinstance(value, list) or len(value) != n
            or any(isinstance(f, bool) or not isinstance(f, int) or not 1 <= f <= SIDES for f in value)):
        raise RulesError(f"'{path}.{name}' must be a list of {n} faces from 1 to {SIDES}, got {value!r:.100}")
    return tuple(value)


def _from_json(roll: Any, path: str = "roll") -> tuple[AbilityTest, list[str]]:
    """Rebuild the Test from a roll dict, refusing anything `roll`/`act` could not have produced."""
    if not isinstance(roll, dict) or roll.get("system") != ID:
        raise RulesError(f"'{path}' must be an {ID} roll as returned by roll() or act()")
    request = Request.of(fields.parse(FIELDS, roll.get("request"), f"{path}.request"))
    d = request.difficulty
    scheme_roll = roll.get("scheme_roll")
    if request.scheme_die:
        if isinstance(scheme_roll, bool) or not isinstance(scheme_roll, int) or not 1 <= scheme_roll <= SIDES:
            raise RulesError(f"'{path}.scheme_roll' must be a face from 1 to {SIDES} when a Scheme die is used, "
                             f"got {scheme_roll!r:.100}")
    elif scheme_roll is not None:
        raise RulesError(f"'{path}.scheme_roll' must be null when no Scheme die is used, got {scheme_roll!r:.100}")
    rolled = _faces(roll.get("rolled"), "rolled", d, path)
    final = _faces(roll.get("dice"), "dice", d, path)
    rerolled = roll.get("rerolled")
    if (not isinstance(rerolled, list) or len(rerolled) > request.rerolls
            or any(isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < d for i in rerolled)
            or rerolled != sorted(set(rerolled))):
        raise RulesError(f"'{path}.rerolled' must be a sorted list of at most {request.rerolls} different die "
                         f"indexes from 0 to {d - 1}, got {rerolled!r:.100}")
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
        raise RulesError(f"'{path}.setback_negated' can only be true for a failure with a 6 among the dice")
    expected = test.to_json(steps)
    for key in ("ability", "total", "outcome", "scheme_gain", "setback", "exert_needed", "exertion_spent"):
        if roll.get(key) != expected[key]:
            raise RulesError(f"'{path}.{key}' does not match the dice: expected {expected[key]!r}, "
                             f"got {roll.get(key)!r:.100}")
    return test, steps


# --- the best reroll and exact odds -------------------------------------------------------------------------------

@lru_cache(maxsize=None)
def _reroll_counts(k: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """For k rerolled d6, by threshold t = 0..6k+1: ways the sum is < t; < t with a 1 among them; < t with a 6."""
    size = SIDES * k + 2
    every = sum_ways(k, SIDES)
    no_one = poly_pow(face_poly(range(2, SIDES + 1)), k)
    no_six = poly_pow(face_poly(range(1, SIDES)), k)

    def below(poly: list[int]) -> list[int]:
        out = [0] * size
        for t in range(1, size):
            out[t] = out[t - 1] + (poly[t - 1] if t - 1 < len(poly) else 0)
        return out

    all_below, no_one_below, no_six_below = below(every), below(no_one), below(no_six)
    return (tuple(all_below),
            tuple(a - b for a, b in zip(all_below, no_one_below)),
            tuple(a - b for a, b in zip(all_below, no_six_below)))


def _threshold(kept_sum: int, ability: int, k: int) -> int:
    """The rerolled dice succeed when their sum is below this (clamped to the table)."""
    return min(max(ability - kept_sum, 0), SIDES * k + 1)


def _best_k(ascending: tuple[int, ...], ability: int, rerolls: int) -> int:
    """How many of the highest dice to reroll for the best chance of success; ties go to fewer dice."""
    d = len(ascending)
    best, best_ways = 0, -1
    for k in range(rerolls + 1):
        below = _reroll_counts(k)[0]
        ways = below[_threshold(sum(ascending[:d - k]), ability, k)] * SIDES ** (rerolls - k)
        if ways > best_ways:
            best, best_ways = k, ways
    return best


def best_reroll(dice: tuple[int, ...] | list[int], ability: int, rerolls: int) -> tuple[int, ...]:
    """The die indexes whose reroll gives the best chance of success: the k highest dice for the best k
    (no reroll when none raises the chance)."""
    order = sorted(range(len(dice)), key=lambda i: (dice[i], i))
    k = _best_k(tuple(dice[i] for i in order), ability, min(rerolls, len(dice)))
    return tuple(sorted(order[len(dice) - k:]))


def _arrangements(multiset: tuple[int, ...]) -> int:
    return factorial(len(multiset)) // prod(factorial(c) for c in Counter(multiset).values())


def odds(req: dict) -> dict:
    """Exact chances of success and failure, of earning a Scheme die and of a setback; with Masteries, after the
    reroll that maximises the chance of success. Exertion is a later choice and not counted."""
    request = Request.of(req)
    d, rerolls = request.difficulty, request.rerolls
    scheme_faces = range(1, SIDES + 1) if request.scheme_die else (0,)
    success = gain = setback = 0
    for ascending in combinations_with_replacement(range(1, SIDES + 1), d):
        weight = _arrangements(ascending)
        for face in scheme_faces:
            ability = request.base_ability + face
            k = _best_k(ascending, ability, rerolls)
            below, below_one, below_six = _reroll_counts(k)
            kept = ascending[:d - k]
            t = _threshold(sum(kept), ability, k)
            scale = weight * SIDES ** (rerolls - k)
            success += below[t] * scale
            if not request.scheme_die:
                gain += (below[t] if 1 in kept else below_one[t]) * scale
            fail_six = (SIDES ** k - below[t]) if SIDES in kept else (below_six[-1] - below_six[t])
            setback += fail_six * scale
    total = SIDES ** (d + rerolls + (1 if request.scheme_die else 0))
    p = Fraction(success, total)
    return {"outcomes": {"success": p, "failure": 1 - p},
            "scheme_gain": Fraction(gain, total), "setback": Fraction(setback, total)}


# --- table state: XP, Exertion, Convictions and the Scheme ---------------------------------------------------------
#
# Pure rules over what the page keeps: each op takes `state` (the part of a sheet, or the shared Scheme, as a plain
# dict) and `args`, and returns the new state. Keys of `state` an op does not read are returned as they were, so the
# page may pass a whole sheet; a "note" says what happened, for the roll log.

MAX_XP = 99_999  # "Experience can be stored indefinitely": the sheet's limit, not the text's (ability_test-17)
MAX_SCENES = 20
MAX_EXERTION_POOL = 99  # the text gives the Exertion pool no size (ability_test-19)
MAX_SHEET_CONVICTIONS = 50  # "There is no limit to how many Convictions a character may have" (ability_test-22)
MAX_CONVICTION_TEXT = 200
MAX_SCHEME = 99  # the text gives the Scheme no size (ability_test-23)


# XP ---------------------------------------------------------------------------------------------------------------

_XP_STATE = fields.Int("xp", "Experience (XP)", 0, MAX_XP, 0,
                       help="Experience can be stored indefinitely, and spent at any time (including in between "
                            "tests).")
_SCENES = fields.Int("scenes", "Scenes", 1, MAX_SCENES, 1,
                     help="Experience (XP) is awarded at the rate of 1 per Scene.")
_KIND = fields.Choice("kind", "Spend XP on", tuple((c.kind, c.label) for c in XP_COSTS), XP_COSTS[0].kind)
_CURRENT = fields.Int("current", "Current rank or score (0 for something new)", 0, MAX_SKILL, 0)
XP_PER_SCENE = 1


def xp_earn(state: Any, args: Any = None) -> dict:
    """XP is awarded at the rate of 1 per Scene: the state with `xp` up by the scenes played."""
    scenes = fields.read_args(args, (_SCENES,), "xp_earn")["scenes"]
    xp = fields.read_state(state, (_XP_STATE,), ("xp",))["xp"]
    earned = scenes * XP_PER_SCENE
    if xp + earned > MAX_XP:
        raise RulesError(f"'state.xp' would go above {MAX_XP}, the most the sheet holds ({xp} + {earned})")
    return fields.new_state(state, f"Earned {earned} XP for {scenes} Scene{'s' if scenes > 1 else ''}: "
                             f"{xp + earned} XP", xp=xp + earned)


def xp_spend(state: Any, args: Any = None) -> dict:
    """Spend XP at the text's prices (`xp_cost`), refusing what cannot be afforded: {"xp": xp - cost, "cost": cost}."""
    if isinstance(args, dict) and isinstance(args.get("kind"), str) and args["kind"] in XP_UNPRICED:
        raise RulesError(f"'args.kind' {args['kind']} has no price: {XP_UNPRICED[args['kind']]}")
    a = fields.read_args(args, (_KIND, _CURRENT), "xp_spend", ("kind",))
    c = _XP[a["kind"]]
    if not c.current_min <= a["current"] <= c.current_max:
        raise RulesError(f"'args.current' must be from {c.current_min} to {c.current_max} for {c.kind} ({c.limit}), "
                         f"got {a['current']}")
    cost = xp_cost(c.kind, a["current"])
    xp = fields.read_state(state, (_XP_STATE,), ("xp",))["xp"]
    what = c.label + (f" (now {a['current']})" if c.plus_current else "")
    if cost > xp:
        raise RulesError(f"'state.xp': {what} costs {cost} XP, but only {xp} XP {'is' if xp == 1 else 'are'} held")
    return fields.new_state(state, f"Spent {cost} XP: {what}; {xp - cost} XP left", xp=xp - cost, cost=cost)


# Exertion and Convictions -----------------------------------------------------------------------------------------

_EXERTION_STATE = fields.Int("exertion", "Exertion", 0, MAX_EXERTION_POOL, 0,
                             help="Subtract a number of Exertion to increase Ability by the same amount; one Exertion "
                                  "activates a Conviction.")
_AMOUNT = fields.Int("amount", "Exertion to spend", 1, MAX_EXERTION_POOL, 1)


def exert(state: Any, args: Any = None) -> dict:
    """Subtract a number of Exertion (never below 0): the state with `exertion` lower by `amount`."""
    amount = fields.read_args(args, (_AMOUNT,), "exert")["amount"]
    exertion = fields.read_state(state, (_EXERTION_STATE,), ("exertion",))["exertion"]
    if amount > exertion:
        raise RulesError(f"'args.amount' must be from 1 to {exertion} (the Exertion left), got {amount}"
                         if exertion else "'state.exertion' is 0: no Exertion left to spend")
    return fields.new_state(state, f"Spent {amount} Exertion ({exertion - amount} left)", exertion=exertion - amount)


def activate_conviction(state: Any, args: Any = None) -> dict:
    """Spend one Exertion to declare one of their Convictions relevant: `exertion` − 1, refused at 0."""
    fields.read_args(args, (), "activate_conviction")
    exertion = fields.read_state(state, (_EXERTION_STATE,), ("exertion",))["exertion"]
    if exertion == 0:
        raise RulesError("'state.exertion' is 0: activating a Conviction costs one Exertion")
    return fields.new_state(state, f"Spent 1 Exertion to activate a Conviction ({exertion - 1} left)",
                      exertion=exertion - 1)


@dataclass(frozen=True, slots=True)
class Conviction:
    """A description of something significant to the character, and its Significance (1 to 3)."""

    text: str
    significance: int

    def __str__(self) -> str:
        return f"“{self.text}”" if self.text else "a Conviction"


_CONVICTIONS_STATE = fields.Records(
    "convictions", "Convictions", (fields.Text("text", "Conviction", MAX_CONVICTION_TEXT),
                                   fields.Int("significance", "Significance", 1, 3, 1)),
    0, MAX_SHEET_CONVICTIONS, help="Significance is measured on a scale of 1 to 3: 1 Valued, 2 Momentous, 3 Pivotal.")
_MOVED_STATE = fields.Bool("moved_this_session", "Significance moved this Session", False)
_FROM = fields.Int("from", "Move 1 point of Significance from Conviction (index)", 0, MAX_SHEET_CONVICTIONS - 1, 0)
_TO = fields.Int("to", "to Conviction (index)", 0, MAX_SHEET_CONVICTIONS - 1, 1)


def _convictions(state: dict) -> tuple[Conviction, ...]:
    """The sheet's Convictions: each an object with text and significance (other keys kept as they are)."""
    value = state["convictions"]
    decl = _CONVICTIONS_STATE
    if not isinstance(value, list) or len(value) > decl.max_len:
        raise RulesError(f"'state.convictions' must be a list of 0 to {decl.max_len} Convictions, got {value!r:.100}")
    out = []
    for i, c in enumerate(value):
        if not isinstance(c, dict):
            raise RulesError(f"'state.convictions[{i}]' must be an object with text and significance, got {c!r:.100}")
        known = {k: c[k] for k in ("text", "significance") if k in c}
        if "significance" not in known:
            raise RulesError(f"'state.convictions[{i}].significance' is missing: Significance, a whole number "
                             f"from 1 to 3")
        parsed = fields.parse(decl.fields, known, f"state.convictions[{i}]")
        out.append(Conviction(parsed["text"], parsed["significance"]))
    return tuple(out)


def move_significance(state: Any, args: Any = None) -> dict:
    """At the end of each Session, move 1 point of Significance from one Conviction to another (once per Session,
    each staying within 1 to 3)."""
    a = fields.read_args(args, (_FROM, _TO), "move_significance", ("from", "to"))
    moved_already = fields.read_state(state, (_MOVED_STATE,), ())["moved_this_session"]
    if "convictions" not in state:
        raise RulesError(f"'state.convictions' is missing: a list of 0 to {MAX_SHEET_CONVICTIONS} Convictions, "
                         f"each with text and significance")
    convictions = _convictions(state)
    if moved_already:
        raise RulesError("'state.moved_this_session' is true: only 1 point of Significance may be moved at the end "
                         "of each Session (end_session starts the next)")
    n = len(convictions)
    if n < 2:
        raise RulesError(f"'state.convictions' must hold at least 2 Convictions to move Significance between, got {n}")
    for key in ("from", "to"):
        if a[key] >= n:
            raise RulesError(f"'args.{key}' must be from 0 to {n - 1} (the Convictions listed), got {a[key]}")
    i, j = a["from"], a["to"]
    if i == j:
        raise RulesError(f"'args.to' must be another Conviction than 'args.from' (both {i})")
    if convictions[i].significance == 1:
        raise RulesError(f"'args.from': Conviction {i} has Significance 1, the lowest "
                         f"(Significance is measured on a scale of 1 to 3)")
    if convictions[j].significance == 3:
        raise RulesError(f"'args.to': Conviction {j} has Significance 3, the highest "
                         f"(Significance is measured on a scale of 1 to 3)")
    moved = [dict(c) for c in state["convictions"]]
    moved[i]["significance"] -= 1
    moved[j]["significance"] += 1
    note = (f"Moved 1 point of Significance from {convictions[i]} ({convictions[i].significance} → "
            f"{convictions[i].significance - 1}) to {convictions[j]} ({convictions[j].significance} → "
            f"{convictions[j].significance + 1})")
    return fields.new_state(state, note, convictions=moved, moved_this_session=True)


def end_session(state: Any, args: Any = None) -> dict:
    """Close the Session: 1 point of Significance may be moved again at the end of the next one."""
    fields.read_args(args, (), "end_session")
    fields.read_state(state, (_MOVED_STATE,), ())
    return fields.new_state(state, "Session ended: 1 point of Significance may be moved at the end of the next Session",
                      moved_this_session=False)


# The Scheme: a shared pool ----------------------------------------------------------------------------------------

_SCHEME_STATE = fields.Int("scheme", "Dice in the Scheme", 0, MAX_SCHEME, 0,
                           help="A shared pool that all players have equal access to.")
_TEST_ARG = fields.Object("roll", "An ability_test roll as returned by roll() or act()",
                    help="A Test on which the player succeeded with at least one 1 among the difficulty dice.")


def _many_dice(n: int) -> str:
    return f"{n} {'die' if n == 1 else 'dice'}"


def scheme_add(state: Any, args: Any = None) -> dict:
    """A success with at least one 1 adds one die to the Scheme (no die back on a Test that used a Scheme die).

    The page calls it once per roll; a roll that earns no die is refused.
    """
    value = fields.read_args(args, (_TEST_ARG,), "scheme_add")["roll"]
    if value is None:
        raise RulesError(f"'args.roll' is missing: {_TEST_ARG.label}")
    test, _ = _from_json(value, "args.roll")
    scheme = fields.read_state(state, (_SCHEME_STATE,), ("scheme",))["scheme"]
    if not test.scheme_gain:
        why = ("a Scheme die was used on this Test" if test.request.scheme_die and test.outcome is Outcome.SUCCESS
               and 1 in test.dice else
               "it needs at least one 1 among the difficulty dice on a Test the player succeeds at")
        raise RulesError(f"'args.roll' earns no die for the Scheme: {why}")
    if scheme == MAX_SCHEME:
        raise RulesError(f"'state.scheme' is already {MAX_SCHEME}, the most the page keeps")
    return fields.new_state(state, f"A 1 on a success: one die added to the Scheme ({_many_dice(scheme + 1)})",
                      scheme=scheme + 1)


def scheme_spend_die(state: Any, args: Any = None) -> dict:
    """Before rolling for a test, remove 1 die from the Scheme (its d6 is added to Ability): refused at 0."""
    fields.read_args(args, (), "scheme_spend_die")
    scheme = fields.read_state(state, (_SCHEME_STATE,), ("scheme",))["scheme"]
    if scheme == 0:
        raise RulesError("'state.scheme' is 0: there is no die in the Scheme to remove")
    return fields.new_state(state, f"Removed 1 die from the Scheme for this Test ({_many_dice(scheme - 1)} left)",
                      scheme=scheme - 1)


def scheme_negate_setback(state: Any, args: Any = None) -> dict:
    """Subtract two dice from the Scheme to negate a declared setback: refused with fewer than two."""
    fields.read_args(args, (), "scheme_negate_setback")
    scheme = fields.read_state(state, (_SCHEME_STATE,), ("scheme",))["scheme"]
    if scheme < NEGATE_COST:
        raise RulesError(f"'state.scheme' is {scheme}: negating a setback takes {NEGATE_COST} dice from the Scheme")
    return fields.new_state(state, f"Subtracted {NEGATE_COST} dice from the Scheme to negate the setback "
                             f"({_many_dice(scheme - NEGATE_COST)} left)", scheme=scheme - NEGATE_COST)


def _op(name: str, label: str, help: str, state: tuple, args: tuple = ()) -> dict:
    return {"name": name, "label": label, "help": help, "state": [d.schema() for d in state],
            "args": [d.schema() for d in args]}


TABLE = {
    "xp_earn": xp_earn,
    "xp_spend": xp_spend,
    "exert": exert,
    "activate_conviction": activate_conviction,
    "move_significance": move_significance,
    "end_session": end_session,
    "scheme_add": scheme_add,
    "scheme_spend_die": scheme_spend_die,
    "scheme_negate_setback": scheme_negate_setback,
}

TABLE_OPS = [
    _op("xp_earn", "Earn XP", "Experience (XP) is awarded at the rate of 1 per Scene.", (_XP_STATE,), (_SCENES,)),
    _op("xp_spend", "Spend XP", "At the text's prices (see extras.xp_costs); refuses what cannot be afforded. "
        "Returns the state with xp lowered and \"cost\".", (_XP_STATE,), (_KIND, _CURRENT)),
    _op("exert", "Spend Exertion", "Subtract a number of Exertion (never below 0).", (_EXERTION_STATE,), (_AMOUNT,)),
    _op("activate_conviction", "Activate a Conviction", "Spend one Exertion to declare one of their Convictions "
        "relevant to the Scene.", (_EXERTION_STATE,)),
    _op("move_significance", "Move Significance", "At the end of each Session, move 1 point of Significance from "
        "one Conviction to another (each stays within 1 to 3; once per Session).",
        (_CONVICTIONS_STATE, _MOVED_STATE), (_FROM, _TO)),
    _op("end_session", "End the Session", "Close the Session: Significance may be moved again at the end of the "
        "next one.", (_MOVED_STATE,)),
    _op("scheme_add", "Add a die to the Scheme", "A success with at least one 1 among the difficulty dice adds one "
        "die (not on a Test that used a Scheme die). Call once per roll.", (_SCHEME_STATE,), (_TEST_ARG,)),
    _op("scheme_spend_die", "Use a Scheme die", "Before rolling for a test, remove 1 die from the Scheme.",
        (_SCHEME_STATE,)),
    _op("scheme_negate_setback", "Negate a setback", f"Subtract {NEGATE_COST} dice from the Scheme to negate a "
        "declared setback.", (_SCHEME_STATE,)),
]
