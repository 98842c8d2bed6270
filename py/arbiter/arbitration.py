"""The arbitration engine (seed 000): a d6 dicepool from the lowest relevant skill, the further relevant
traits and the complexity; remove the 1s, sum the rest into quality tiers; opposed rolls subtract the
defender's sum when the defender succeeds.

Draw order (arbitration-7): the aggressor's dicepool, then in an opposed roll the defender's; the defender draws
nothing after the aggressor's automatic failure, and a dicepool of zero or less draws nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from typing import Any

from . import chances
from . import dice as dicelib
from . import fields
from .errors import RulesError
from .headline import chance_of
from .shapes import BOOL, INT, MARKS, OUTCOMES, TEXT, Items, Key, Nullable, odds_json, roll_json, shape, shown
from .stored import Id, ListOf, Record, named_list
from .tone import Tone

ID = "arbitration"
TITLE = "Arbitration: dicepool, remove the 1s, sum into quality"
SEED = "000_ef89e3349de7fbb1.txt"
SIDES = 6  # the dice are d6s
LABEL, HINT = "Arbitration", "d6 pool, 1s removed"  # its tab's name and hint, in the text's words
DESCRIPTION = "Skill ± complexity in d6: remove the 1s, sum the rest into a quality."

# value, label (the text's table), dice added to or subtracted from the dicepool
COMPLEXITY = (
    ("very_easy", "Very Easy", 2),
    ("easy", "Easy", 1),
    ("moderate", "Moderate", 0),
    ("tricky", "Tricky", -1),
    ("difficult", "Difficult", -2),
    ("very_difficult", "Very Difficult", -3),
)
COMPLEXITY_DICE = {value: n for value, _, n in COMPLEXITY}
COMPLEXITY_LABEL = {value: label for value, label, _ in COMPLEXITY}


def _dice_words(n: int) -> str:
    if n == 0:
        return "no change to dicepool"
    if n > 0:
        return f"+{n} {'die' if n == 1 else 'dice'} to dicepool"
    return f"\u2212{-n} {'die' if n == -1 else 'dice'} from dicepool"


SIDE = (
    fields.IntList(
        "skills",
        "Relevant skill values",
        0,
        30,
        1,
        5,
        default=(3,),
        help="The base number is the value of the most appropriate Skill; when two or more traits of the same "
        "type seem equally applicable, the lowest of the relevant trait values is used.",
    ),
    fields.IntList(
        "modifiers",
        "Further relevant traits (dice)",
        -5,
        5,
        0,
        4,
        default=(),
        help="Further relevant traits on the character sheet, as dice added or removed "
        "(e.g. a -1 penalty for the injury: one-eyed).",
    ),
    fields.Choice(
        "complexity",
        "Complexity",
        tuple((value, f"{label} ({_dice_words(n)})") for value, label, n in COMPLEXITY),
        default="moderate",
        help="The Host summarises the complexities of the situation from very easy through to very difficult.",
    ),
)

FIELDS = SIDE + (
    fields.Group(
        "opposed",
        "Opposed roll: the defender",
        SIDE,
        help="Both make their rolls as per normal; when the defender rolls a success (six or higher) its sum "
        "is subtracted from the aggressor's roll.",
    ),
)

ACTIONS: list[dict] = []


class Outcome(Enum):
    """The tiers of the sum of dice rolled, from the text's table."""

    FUMBLE = "fumble"
    FAILURE = "failure"
    MEDIOCRE = "mediocre"
    FAIR = "fair"
    GOOD = "good"
    EXCEPTIONAL = "exceptional"
    OUTSTANDING = "outstanding"

    @property
    def label(self) -> str:
        """The table's words, e.g. "Success (Fair)"."""
        return _TIER_LABEL[self]

    @property
    def short(self) -> str:
        """A short name for sentences, e.g. "Fair success"."""
        if self in (Outcome.FUMBLE, Outcome.FAILURE):
            return self.value.capitalize()
        return f"{self.value.capitalize()} success"

    @property
    def success(self) -> bool:
        """Six or higher: "a success (that is six or higher)"."""
        return self not in (Outcome.FUMBLE, Outcome.FAILURE)

    @property
    def tone(self) -> Tone:
        """A fumble is the worst failure; every quality of success is a success."""
        return Tone.BOTCH if self is Outcome.FUMBLE else Tone.SUCCESS if self.success else Tone.FAILURE


# outcome, lowest and highest sum (None: no upper limit), label; in the text's order
TIERS = (
    (Outcome.OUTSTANDING, 30, None, "Success (Outstanding)"),
    (Outcome.EXCEPTIONAL, 24, 29, "Success (Exceptional)"),
    (Outcome.GOOD, 18, 23, "Success (Good)"),
    (Outcome.FAIR, 12, 17, "Success (Fair)"),
    (Outcome.MEDIOCRE, 6, 11, "Success (Mediocre)"),
    (Outcome.FAILURE, 1, 5, "Failure"),
    (Outcome.FUMBLE, 0, 0, "Fumble (Abject failure, worst-case scenario ensues)"),
)
_TIER_LABEL = {o: label for o, _, _, label in TIERS}

EXTRAS = {
    "complexity": [{"value": value, "label": label, "dice": n} for value, label, n in COMPLEXITY],
    "tiers": [{"outcome": o.value, "min": lo, "max": hi, "label": label} for o, lo, hi, label in TIERS],
}


def tier(value: int) -> Outcome:
    """The outcome of a sum (or of an opposed, modified value): 0 is a fumble, five or less a failure, and
    each multiple of six raises the quality of the success a notch, up to 30+."""
    if value <= 0:
        return Outcome.FUMBLE
    return (Outcome.FAILURE, Outcome.MEDIOCRE, Outcome.FAIR, Outcome.GOOD, Outcome.EXCEPTIONAL, Outcome.OUTSTANDING)[
        min(value // 6, 5)
    ]


# --- values ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Pool:
    """How a dicepool is made: the lowest relevant skill, further traits and the complexity."""

    skills: tuple[int, ...]
    modifiers: tuple[int, ...]
    complexity: str
    skill: int = field(init=False)  # the lowest of the relevant trait values
    size: int = field(init=False)  # the final dicepool (zero or less: an automatic failure)

    def __post_init__(self) -> None:
        object.__setattr__(self, "skill", min(self.skills))
        object.__setattr__(self, "size", self.skill + sum(self.modifiers) + COMPLEXITY_DICE[self.complexity])

    @classmethod
    def of(cls, side: dict) -> Pool:
        return cls(tuple(side["skills"]), tuple(side["modifiers"]), side["complexity"])

    def __str__(self) -> str:
        parts = [f"lowest skill {self.skill}" if len(self.skills) > 1 else f"skill {self.skill}"]
        if self.modifiers:
            parts.append("traits " + " ".join(_signed(m) for m in self.modifiers))
        parts.append(f"{COMPLEXITY_LABEL[self.complexity]} {_signed(COMPLEXITY_DICE[self.complexity])}")
        n = self.size
        return f"dicepool {n} ({', '.join(parts)})" + ("" if n > 0 else ": no dice, an automatic failure")


@dataclass(frozen=True, slots=True)
class Roll:
    """One character's roll: the dice as rolled (none when the dicepool is zero or less, or when the roll
    was not needed)."""

    pool: Pool
    dice: tuple[int, ...]
    ones: int = field(init=False)  # dice showing a 1, removed before summing (the Host's consequence count)
    kept: tuple[int, ...] = field(init=False)
    sum: int | None = field(init=False)  # 0 when every die was removed; None when nothing was rolled
    outcome: Outcome | None = field(init=False)  # an automatic failure is a failure; None when not rolled

    def __post_init__(self) -> None:
        kept = tuple(d for d in self.dice if d != 1)
        total = None if self.automatic_failure or not self.dice else sum(kept)
        outcome = Outcome.FAILURE if self.automatic_failure else None if total is None else tier(total)
        for name, value in (("ones", self.dice.count(1)), ("kept", kept), ("sum", total), ("outcome", outcome)):
            object.__setattr__(self, name, value)

    @property
    def automatic_failure(self) -> bool:
        return self.pool.size <= 0

    @property
    def fumble_dice(self) -> list[int]:
        """The dice that make a fumble: every die, when every die rolled is removed (all showed 1)."""
        return list(range(len(self.dice))) if self.dice and not self.kept else []

    @property
    def marks(self) -> list[list[str]]:
        """Each die's marks, as the page draws them: a 1 removed, any other face kept; every die of a fumble also
        marked fumble."""
        fumble = set(self.fumble_dice)
        return [
            ["removed" if d == 1 else "kept", *(["fumble"] if i in fumble else [])] for i, d in enumerate(self.dice)
        ]

    @property
    def success(self) -> bool:
        return self.outcome is not None and self.outcome.success

    def __str__(self) -> str:
        if self.automatic_failure:
            return f"Failure: automatic, the dicepool is {self.pool.size}"
        if not self.dice:
            return "not rolled"
        if not self.kept:
            return f"Fumble: {_all_ones(len(self.dice))}"
        text = f"{self.outcome.short}: {self.sum} = {'+'.join(map(str, self.kept))}"
        return text + (f", {_ones(self.ones)} removed" if self.ones else "")


@dataclass(frozen=True, slots=True)
class Arbitration:
    """A whole arbitration: the aggressor's roll and, in an opposed roll, the defender's."""

    aggressor: Roll
    defender: Roll | None = None

    @property
    def subtracted(self) -> int:
        """What the defender takes off: its sum when it rolled a success (six or higher), else nothing."""
        d = self.defender
        return d.sum if d is not None and d.success else 0

    @property
    def result(self) -> int | None:
        """The value used for the tier: the aggressor's sum, less a successful defender's sum, floored at 0."""
        a = self.aggressor
        if a.automatic_failure:
            return None
        return max(0, a.sum - self.subtracted)

    @property
    def outcome(self) -> Outcome:
        if self.aggressor.automatic_failure:
            return Outcome.FAILURE
        return tier(self.result)

    def steps(self) -> list[str]:
        a, d = self.aggressor, self.defender
        out = _side_steps(a, "" if d is None else "aggressor: ")
        if a.automatic_failure:
            if d is not None:
                out.append("the defender does not roll: the action is an automatic failure")
            out.append("Failure (automatic failure)")
            return out
        if d is not None:
            if d.automatic_failure:
                out.append(f"defender: {d.pool}")
                out.append("defender fails automatically: nothing subtracted")
            else:
                out += _side_steps(d, "defender: ")
                if d.success:
                    raw = a.sum - d.sum
                    floor = ", negative numbers are not used" if raw < 0 else ""
                    out.append(f"defender succeeded with {d.sum}: {a.sum} \u2212 {d.sum} = {max(raw, 0)}{floor}")
                else:
                    out.append(f"defender failed with {d.sum}: nothing subtracted")
        o = self.outcome
        out.append(f"{self.result}: {o.label}")
        return out

    def __str__(self) -> str:
        a, d = self.aggressor, self.defender
        if d is None or a.automatic_failure or not a.kept:
            return str(a)
        removed = f", {_ones(a.ones)} removed" if a.ones else ""
        if self.subtracted:
            if a.sum <= d.sum:
                return (
                    f"Fumble: {a.sum} \u2212 {d.sum} (the defender's success) is reduced to 0, "
                    f"negative numbers are not used{removed}"
                )
            return f"{self.outcome.short}: {self.result} = {a.sum} \u2212 {d.sum} (the defender's success){removed}"
        why = "fails automatically" if d.automatic_failure else f"failed with {d.sum}"
        return f"{self.outcome.short}: {a.sum} = {'+'.join(map(str, a.kept))}{removed}, the defender {why}"


def _side_steps(r: Roll, who: str) -> list[str]:
    out = [f"{who}{r.pool}"]
    if r.automatic_failure:
        return out
    out.append(f"{who}{_count(len(r.dice), 'die', 'dice')}: {' '.join(map(str, r.dice))}")
    if not r.kept:
        out.append(f"{who}every die removed ({_ones(r.ones)}): a fumble")
    elif r.ones:
        out.append(f"{who}removed {_ones(r.ones)} ({_count(r.ones, 'consequence', 'consequences')} for the Host)")
    else:
        out.append(f"{who}no 1s to remove")
    if r.kept:
        out.append(f"{who}sum {r.sum} = {'+'.join(map(str, r.kept))}")
    return out


_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def _ones(n: int) -> str:
    """ "one 1", "two 1s", "12 1s"."""
    word = _WORDS[n] if n < len(_WORDS) else str(n)
    return f"{word} 1" if n == 1 else f"{word} 1s"


def _all_ones(n: int) -> str:
    return "the only die showed 1" if n == 1 else f"all {n} dice showed 1"


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"\u2212{-n}" if n < 0 else "\u00b10"


# --- the procedure -----------------------------------------------------------------------------------


def resolve(req: dict, dice: dicelib.DiceSource) -> Arbitration:
    """Roll the aggressor's dicepool and, in an opposed roll, the defender's (neither rolls when the
    aggressor's dicepool is zero or less: the action is an automatic failure)."""
    pool = Pool.of(req)
    opposed = req["opposed"] is not None
    aggressor = Roll(pool, dicelib.roll(dice, max(pool.size, 0), SIDES, _for("aggressor" if opposed else "")))
    if not opposed:
        return Arbitration(aggressor)
    dpool = Pool.of(req["opposed"])
    roll_it = not aggressor.automatic_failure and dpool.size > 0
    defender = Roll(dpool, dicelib.roll(dice, dpool.size, SIDES, _for("defender")) if roll_it else ())
    return Arbitration(aggressor, defender)


def _for(who: str) -> str:
    """Why a side's dice are rolled, in a player's words: "the dicepool", "the defender's dicepool"."""
    if who == "defender":
        return dicelib.theirs("the defender's dicepool")  # not the roller's own dice
    return f"the {who}'s dicepool" if who else "the dicepool"


def roll(req: dict, dice: dicelib.DiceSource) -> dict:
    """Resolve an arbitration roll for a parsed request; a JSON-safe dict (see the module contract)."""
    return to_json(req, resolve(req, dice))


def to_json(req: dict, arb: Arbitration) -> dict:
    a, d = arb.aggressor, arb.defender
    return {
        "system": ID,
        "request": fields.as_json(req),
        "pool": a.pool.size,
        "dice": list(a.dice),
        "ones": a.ones,
        "kept": list(a.kept),
        "sum": a.sum,
        "result": arb.result,
        "outcome": arb.outcome.value,
        "automatic_failure": a.automatic_failure,
        "fumble_dice": a.fumble_dice,
        "marks": a.marks,
        "defender": None
        if d is None
        else {
            "pool": d.pool.size,
            "dice": list(d.dice),
            "ones": d.ones,
            "kept": list(d.kept),
            "sum": d.sum,
            "outcome": None if d.outcome is None else d.outcome.value,
            "automatic_failure": d.automatic_failure,
            "fumble_dice": d.fumble_dice,
            "marks": d.marks,
            "subtracted": arb.subtracted,
        },
        "steps": arb.steps(),
        "summary": str(arb),
        "tone": arb.outcome.tone.value,
        "choices": [],
    }


def act(roll: dict, action: dict, dice: dicelib.DiceSource) -> dict:
    """Arbitration has no follow-up choices once the dice land: every action is refused."""
    if not isinstance(roll, dict) or roll.get("system") != ID:
        raise RulesError(f"'roll' must be an {ID} roll as returned by roll()")
    fields.parse(FIELDS, roll.get("request"), "roll.request")
    keys = ", ".join(map(repr, action)) if isinstance(action, dict) else repr(action)
    raise RulesError(
        f"'action' {keys} is not allowed: arbitration has no follow-up choices once the dice land "
        f"(allowed actions: none)"
    )


# --- exact odds --------------------------------------------------------------------------------------

# one die in count-polynomial form: a 1 is removed (contributes 0), faces 2..6 count themselves
_DIE = [1, 0, 1, 1, 1, 1, 1]


def sum_ways(n: int) -> list[int]:
    """Ways for each sum of n dice after removing the 1s (index = sum; 0 only when every die shows 1)."""
    return dicelib.poly_pow(_DIE, n)


def odds(req: dict) -> dict:
    """Exact chance of each of the seven outcomes, as `Fraction`s summing to 1."""
    counts = {o: 0 for o in Outcome}
    n = Pool.of(req).size
    if n <= 0:
        counts[Outcome.FAILURE] = 1
        return _fractions(counts, 1)
    a_ways = sum_ways(n)
    if req["opposed"] is None:
        for a, w in enumerate(a_ways):
            counts[tier(a)] += w
        return _fractions(counts, 6**n)
    m = Pool.of(req["opposed"]).size
    if m <= 0:
        d_fail, d_success, d_total = 1, [], 1  # an automatic failure subtracts nothing
    else:
        d_ways = sum_ways(m)
        d_fail, d_success, d_total = sum(d_ways[:6]), d_ways, 6**m
    # prefix[k] = ways the defender succeeds with a sum below k (sums below six are not successes)
    prefix = [0]
    for d, w in enumerate(d_success):
        prefix.append(prefix[-1] + (w if d >= 6 else 0))
    top = len(d_success) - 1

    def succeeding(lo: int, hi: int | None) -> int:
        lo = max(lo, 6)
        hi = top if hi is None else min(hi, top)
        return prefix[hi + 1] - prefix[lo] if lo <= hi else 0

    for a, wa in enumerate(a_ways):
        if not wa:
            continue
        counts[tier(a)] += wa * d_fail
        # a defender's success d gives max(0, a - d); the tier [lo, hi] needs a - hi <= d <= a - lo,
        # and the fumble (lo = 0) takes every d >= a because negative numbers are not used
        for o, lo, hi, _ in TIERS:
            counts[o] += wa * succeeding(a - hi if hi is not None else 0, a - lo if lo > 0 else None)
    return _fractions(counts, 6**n * d_total)


def _fractions(counts: dict, total: int) -> dict:
    assert sum(counts.values()) == total
    return {"outcomes": {o.value: Fraction(counts[o], total) for o in Outcome}}


# --- the character sheet the table keeps, and the request it fills ------------------------------------------------

SHEET = Record(
    "sheet",
    "Arbitration",
    (
        named_list("skills", "Skills", (fields.Int("value", "Value", SIDE[0].min, SIDE[0].max, default=3),)),
        named_list("traits", "Trait modifiers", (fields.Int("modifier", "Modifier", SIDE[1].min, SIDE[1].max),)),
    ),
)
CHOICES = (
    ListOf("skills", "Relevant skills (the lowest counts)", Id("skill"), SHEET.fields[0].max_len),
    ListOf("traits", "Trait modifiers that apply", Id("trait"), SHEET.fields[1].max_len),
)


def request_from_sheet(sheet: dict, choices: dict) -> dict:
    """The form's relevant skill values and further traits: the chosen skills and traits, in the sheet's order."""
    skills = [s["value"] for s in sheet["skills"] if s["id"] in choices["skills"]]
    modifiers = [t["modifier"] for t in sheet["traits"] if t["id"] in choices["traits"]]
    most, most_mods = SIDE[0].max_len, SIDE[1].max_len
    if not skills:
        raise RulesError("Choose at least one relevant skill.")
    if len(skills) > most:
        raise RulesError(f"Choose at most {most} skills (the form holds {most}).")
    if len(modifiers) > most_mods:
        raise RulesError(f"Choose at most {most_mods} trait modifiers (the form holds {most_mods}).")
    return {"skills": skills, "modifiers": modifiers}


# --- odds between the choices, and the headline (procedures.py's protocol) ----------------------------------------

ORDER = tuple(o.value for o in Outcome)  # the text's tiers, worst first: a fumble, a failure, then each success
SUCCESSES = tuple(o.value for o in Outcome if o.success)  # "a success (that is six or higher)"


def standing(roll: dict) -> dict:
    """The roll's tier as it stands, in the odds' shape: probability 1 for its outcome, 0 for the other tiers."""
    return {"outcomes": chances.one_hot(ORDER, roll["outcome"])}


def odds_after(roll: dict, action: Any) -> dict:
    """An Arbitration has no follow-up choices: every action is refused, as act() refuses it."""
    return standing(act(roll, action, chances.NoDice()))


def luck(rolled: dict) -> dict:
    """The roll as first rolled (its dice rolled again must give it), ranked by its tier, worst first: a fumble, a
    failure, a mediocre … an outstanding success."""
    req = chances.request_of(FIELDS, rolled)
    outcome = chances.replayed(roll, req, rolled)["outcome"]
    return chances.ranked(ORDER, odds(req)["outcomes"], outcome, SUCCESSES)


def headline(exact: dict) -> dict:
    """The chance of a success of any tier (six or higher), beside Roll."""
    return chance_of("Success", exact["outcomes"], SUCCESSES)


def faces(roll: dict) -> list[dict]:
    """The dice a roll shows (the protocol's `faces`): the aggressor's, then in a contest the defender's, each side
    named."""
    if roll["defender"] is None:
        return shown(roll["dice"], roll["marks"], SIDES)
    d = roll["defender"]
    return shown(roll["dice"], roll["marks"], SIDES, "Aggressor") + shown(d["dice"], d["marks"], SIDES, "Defender")


# --- the roll JSON, declared (api.systems()' "roll"), and example requests ----------------------------------------

_SIDE = (
    Key("pool", INT, "the dicepool: skills, modifiers and the Complexity"),
    Key("dice", Items(INT), "every die rolled"),
    Key("ones", INT, "the 1s removed: each a consequence the Host may introduce"),
    Key("kept", Items(INT), "the dice left once the 1s are removed"),
    Key("sum", Nullable(INT), "the kept dice's sum (null: no dice rolled)"),
)
_FAILING = (
    Key("automatic_failure", BOOL, "the dicepool is zero or less: an automatic failure, no dice rolled"),
    Key("fumble_dice", Items(INT), "the dice of a fumble"),
    Key("marks", MARKS),
)

ROLL = roll_json(
    FIELDS,
    *_SIDE,
    Key(
        "result",
        Nullable(INT),
        "the aggressor's sum less a successful defender's, at least 0, read on the table (null: an automatic failure)",
    ),
    *_FAILING,
    Key(
        "defender",
        Nullable(
            shape(
                *_SIDE,
                Key(
                    "outcome",
                    Nullable(TEXT),
                    "the defender's tier, a failure at a dicepool of zero or less "
                    "(null: not rolled, as the aggressor failed automatically)",
                ),
                *_FAILING,
                Key("subtracted", INT, "what the defender's success takes away"),
            )
        ),
        "the defender's roll in a contest (null: unopposed)",
    ),
    standing=odds_json(OUTCOMES),
)
"""What roll() answers: the aggressor's dice and result, the defender's side in a contest."""

EXAMPLE_REQUESTS = {
    "plain": {"skills": [4], "modifiers": [1], "complexity": "moderate"},
    "contest": {"skills": [4], "opposed": {"skills": [3]}},
    "edge": {"skills": [0], "opposed": {"skills": [3]}},
    "defenceless": {"skills": [3], "opposed": {"skills": [0]}},
    "largest": {
        "skills": [30] * 5,
        "modifiers": [5] * 4,
        "complexity": "very_easy",
        "opposed": {"skills": [30] * 5, "modifiers": [5] * 4, "complexity": "very_easy"},
    },
}
"""Requests to try the procedure with: a plain roll, a contest, an aggressor's automatic failure (the defender does
not roll), a defender's, and the largest it allows (most dice)."""
