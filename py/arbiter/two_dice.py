"""Two six-sided dice (seed 001): 2d6 + malleable trait + abilities + difficulty − multitasking; nine or
better succeeds; snake-eyes always fail and double sixes always succeed; an opposed roll is a head-to-head
roll-off in which the higher number wins and a tie goes to the target.

Draw order (two_dice-10): the actor's two dice, then in a roll-off the target's two; an impossible action draws
nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from itertools import product
from typing import Any

from . import chances
from . import dice as dicelib
from . import fields
from .errors import RulesError
from .headline import chance_of
from .shapes import INT, MARKS, OUTCOMES, TEXT, Items, Key, Nullable, odds_json, roll_json, shape, shown
from .stored import Id, ListOf, Record, named_list
from .tone import Tone

ID = "two_dice"
TITLE = "Two dice: roll nine or better"
SEED = "001_05c839695da92b5d.txt"
SIDES = 6  # the dice are d6s
LABEL, HINT = "Two dice", "2d6, nine or better"  # its tab's name and hint, in the text's words
DESCRIPTION = "2d6 + your malleable trait and modifiers: nine or better succeeds."

TARGET = 9  # "An action succeeds on a roll of nine or better."
MULTITASK = -2  # "a -2 modifier ... for each action after the first"

_TRAIT = fields.Int(
    "trait",
    "Most applicable malleable trait",
    0,
    10,
    default=0,
    help="Every roll has the character\u2019s most applicable malleable trait applied as a positive modifier.",
)
_ABILITIES = fields.IntList(
    "abilities",
    "Abilities (modifiers)",
    -10,
    10,
    0,
    5,
    default=(),
    help="Other modifiers added or subtracted from the roll based on training and other factors.",
)
_ACTIONS = fields.Int(
    "actions",
    "Actions (multitasking)",
    1,
    10,
    default=1,
    help="A -2 modifier is applied to all rolls that are part of the multitasking for each action after the first.",
)

FIELDS = (
    _TRAIT,
    _ABILITIES,
    fields.IntOrWord(
        "difficulty",
        "Difficulty modifier",
        -7,
        7,
        ("impossible",),
        default=0,
        help="The Narrator determines the difficulty modifiers of rolls: +3 laughably easy ... -7 practically "
        "impossible; the values are benchmarks, so easier than +3 is allowed (up to +7); more difficult than -7 "
        "must either be -7 or impossible. Not used in opposed rolls.",
    ),
    _ACTIONS,
    fields.Group(
        "opposed",
        "Opposed roll: the target",
        (_TRAIT, _ABILITIES, _ACTIONS),
        help="The target of the action takes a roll to prevent its success, in a head-to-head roll-off: the "
        "higher number wins and a tie always goes to the target.",
    ),
)

ACTIONS: list[dict] = []

# The text's benchmarks, word for word (value, text)
DIFFICULTY_GUIDE = (
    (3, "Laughably easy, such as attempting to jump over a foot-high shrubbery."),
    (1, "Position of advantage, like trying to impress someone who is already attracted to you."),
    (0, "Normal action. Neutral starting point."),
    (-1, "Position of disadvantage, such as doing math with a headache."),
    (-3, "Position of great disadvantage, like trying to jump onto a moving target while inebriated."),
    (
        -5,
        "Ridiculously difficult, but possible with skill, such as shooting the center out of a coin flipped into "
        "the air at the peak of its arc.",
    ),
    (
        -7,
        "Practically impossible. The only way you can possibly succeed is extreme luck or ridiculous skill, and "
        "even than it is a toss-up as to whether it will work, such as attempting to flip a moving truck off of a "
        "bridge with your bare hands.",
    ),
)

EXTRAS = {
    "target": TARGET,
    "snake_eyes": "Snake-eyes represent an unlucky or clumsy attempt, and result in further detriment to the "
    "character as seen fit by the Narrator.",
    "double_sixes": "Double sixes, on the other hand, are a lucky and serendipitous success.",
    "difficulty_guide": [{"value": v, "text": t} for v, t in DIFFICULTY_GUIDE],
    "impossible": "Impossibility is to be reserved for clear violations of core rules and game breaking actions only.",
}


class Outcome(Enum):
    """Success or failure of an unopposed roll; who wins an opposed one."""

    SUCCESS = "success"
    FAILURE = "failure"
    ACTOR = "actor"
    TARGET = "target"


class Special(Enum):
    """The two rolls that decide themselves whatever the modifiers."""

    SNAKE_EYES = "snake-eyes"
    DOUBLE_SIXES = "double sixes"


def special(a: int, b: int) -> Special | None:
    """Snake-eyes on 1+1, double sixes on 6+6, else None."""
    if a == b == 1:
        return Special.SNAKE_EYES
    if a == b == 6:
        return Special.DOUBLE_SIXES
    return None


# --- values ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Modifier:
    """What is added to the dice: trait + abilities + difficulty − multitasking (no difficulty when opposed)."""

    trait: int
    abilities: tuple[int, ...]
    difficulty: int | None
    actions: int

    @property
    def multitask(self) -> int:
        """-2 for each action after the first (may drive the difficulty past -7)."""
        return MULTITASK * (self.actions - 1)

    @property
    def total(self) -> int:
        return self.trait + sum(self.abilities) + (self.difficulty or 0) + self.multitask

    def parts(self) -> list[str]:
        out = [f"{_signed(self.trait)} trait"]
        if self.abilities:
            out.append(f"{_signed(sum(self.abilities))} abilities")
        if self.difficulty is not None:
            out.append(f"{_signed(self.difficulty)} difficulty")
        if self.multitask:
            out.append(f"{_signed(self.multitask)} multitasking ({self.actions} actions)")
        return out

    def to_json(self) -> dict:
        return {
            "trait": self.trait,
            "abilities": sum(self.abilities),
            "difficulty": self.difficulty,
            "multitask": self.multitask,
            "total": self.total,
        }


@dataclass(frozen=True, slots=True)
class Throw:
    """One side's roll: two dice plus its modifier."""

    dice: tuple[int, int]
    modifier: Modifier

    @property
    def total(self) -> int:
        return sum(self.dice) + self.modifier.total

    @property
    def special(self) -> Special | None:
        return special(*self.dice)

    @property
    def fumble_dice(self) -> list[int]:
        """Both dice of snake-eyes, which bring further detriment (two_dice-9)."""
        return [0, 1] if self.special is Special.SNAKE_EYES else []

    @property
    def marks(self) -> list[list[str]]:
        """Each die's marks, as the page draws them: both kept when the pair is snake-eyes or double sixes (the pair
        decides, whatever the total), and snake-eyes' also fumble."""
        fumble = set(self.fumble_dice)
        kept = ["kept"] if self.special is not None else []
        return [[*kept, *(["fumble"] if i in fumble else [])] for i in range(len(self.dice))]

    def __str__(self) -> str:
        a, b = self.dice
        return f"{self.total} ({a}+{b} {_signed(self.modifier.total)})"


@dataclass(frozen=True, slots=True)
class Check:
    """An unopposed roll (no dice when the action is impossible)."""

    modifier: Modifier
    throw: Throw | None

    @property
    def outcome(self) -> Outcome:
        return Outcome.FAILURE if self.throw is None else unopposed(self.throw)

    @property
    def tone(self) -> Tone:
        """Snake-eyes are a failure with further detriment: the worst (two_dice-9)."""
        return _tone(self.outcome is Outcome.SUCCESS, self.throw)

    def steps(self) -> list[str]:
        if self.throw is None:
            return ["difficulty: impossible, no roll", "Failure: the action is impossible"]
        t = self.throw
        a, b = t.dice
        out = [
            f"2 dice: {a} {b}",
            f"modifiers: {', '.join(self.modifier.parts())} = {_signed(self.modifier.total)}",
            f"total {t.total} = {a}+{b} {_signed(self.modifier.total)}",
        ]
        if t.special is Special.SNAKE_EYES:
            out.append("snake-eyes: always a failure")
        elif t.special is Special.DOUBLE_SIXES:
            out.append("double sixes: always a success")
        out.append(f"{t.total}: {self.outcome.value.capitalize()} (nine or better succeeds)")
        return out

    def __str__(self) -> str:
        if self.throw is None:
            return "Failure: the action is impossible, no roll"
        t = self.throw
        a, b = t.dice
        if t.special is Special.SNAKE_EYES:
            return f"Failure: snake-eyes ({a}+{b}) are always a failure"
        if t.special is Special.DOUBLE_SIXES:
            return f"Success: double sixes ({a}+{b}) are always a success"
        word = "Success" if self.outcome is Outcome.SUCCESS else "Failure"
        return f"{word}: {t.total} = {a}+{b} {_signed(self.modifier.total)}, nine or better succeeds"


@dataclass(frozen=True, slots=True)
class Contest:
    """An opposed roll: the actor's throw against the target's (neither rolls when the action is impossible)."""

    actor: Throw | None
    target: Throw | None
    difficulty: int | str

    @property
    def outcome(self) -> Outcome:
        if self.actor is None:
            return Outcome.TARGET
        return roll_off(self.actor, self.target)

    @property
    def tone(self) -> Tone:
        """As the actor sees it: winning is a success, losing a failure, losing on snake-eyes the worst."""
        return _tone(self.outcome is Outcome.ACTOR, self.actor)

    def steps(self) -> list[str]:
        if self.actor is None:
            return ["difficulty: impossible, no roll-off", "Target wins: the action is impossible"]
        a, t = self.actor, self.target
        out = []
        unused = f" (the {_signed(self.difficulty)} given is not used)" if self.difficulty != 0 else ""
        out.append(f"no difficulty modifier in an opposed roll{unused}")
        for who, th in (("actor", a), ("target", t)):
            x, y = th.dice
            out.append(
                f"{who}: 2 dice: {x} {y}; {', '.join(th.modifier.parts())}; total {th.total}"
                + (f" ({th.special.value})" if th.special else "")
            )
        out.append(f"{self.outcome.value.capitalize()} wins: {_why(a, t)}")
        return out

    def __str__(self) -> str:
        if self.actor is None:
            return "Target wins: the action is impossible, no roll-off"
        return f"{self.outcome.value.capitalize()} wins: {_why(self.actor, self.target)}"


def _why(a: Throw, t: Throw) -> str:
    sa, st = a.special, t.special
    if sa is not st and Special.DOUBLE_SIXES in (sa, st):
        return f"double sixes ({a if sa is Special.DOUBLE_SIXES else t}) beat anything but double sixes"
    if sa is not st and Special.SNAKE_EYES in (sa, st):
        return f"snake-eyes ({a if sa is Special.SNAKE_EYES else t}) lose to anything but snake-eyes"
    if a.total == t.total:
        return f"a tie at {a.total} always goes to the target"
    return f"{a} {'beats' if a.total > t.total else 'loses to'} {t}"


def _tone(won: bool, throw: Throw | None) -> Tone:
    if won:
        return Tone.SUCCESS
    return Tone.BOTCH if throw is not None and throw.special is Special.SNAKE_EYES else Tone.FAILURE


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"\u2212{-n}" if n < 0 else "\u00b10"


# --- the rules ---------------------------------------------------------------------------------------


def unopposed(t: Throw) -> Outcome:
    """Nine or better succeeds; snake-eyes are always a failure and double sixes always a success."""
    return _unopposed(t.special, t.total)


def _unopposed(s: Special | None, total: int) -> Outcome:
    if s is Special.SNAKE_EYES:
        return Outcome.FAILURE
    if s is Special.DOUBLE_SIXES:
        return Outcome.SUCCESS
    return Outcome.SUCCESS if total >= TARGET else Outcome.FAILURE


def roll_off(actor: Throw, target: Throw) -> Outcome:
    """Double sixes beat anything but double sixes, snake-eyes lose to anything but snake-eyes, otherwise the
    higher number wins; a tie always goes to the target."""
    return _roll_off(actor.special, actor.total, target.special, target.total)


def _roll_off(sa: Special | None, ta: int, st: Special | None, tt: int) -> Outcome:
    if sa is not st:
        if sa is Special.DOUBLE_SIXES or st is Special.SNAKE_EYES:
            return Outcome.ACTOR
        if st is Special.DOUBLE_SIXES or sa is Special.SNAKE_EYES:
            return Outcome.TARGET
    return Outcome.ACTOR if ta > tt else Outcome.TARGET


def _modifier(side: dict, difficulty: int | None) -> Modifier:
    return Modifier(side["trait"], tuple(side["abilities"]), difficulty, side["actions"])


def resolve(req: dict, dice: dicelib.DiceSource) -> Check | Contest:
    """Roll two dice for the actor (and two for the target when opposed); nothing when impossible."""
    impossible = req["difficulty"] == "impossible"
    if req["opposed"] is None:
        mod = _modifier(req, None if impossible else req["difficulty"])
        return Check(mod, None if impossible else Throw(dicelib.roll(dice, 2, SIDES, "the two dice"), mod))
    if impossible:
        return Contest(None, None, "impossible")
    actor = Throw(dicelib.roll(dice, 2, SIDES, "the actor's two dice"), _modifier(req, None))
    target = Throw(
        dicelib.roll(dice, 2, SIDES, dicelib.theirs("the target's two dice")), _modifier(req["opposed"], None)
    )
    return Contest(actor, target, req["difficulty"])


def roll(req: dict, dice: dicelib.DiceSource) -> dict:
    """Resolve a roll for a parsed request; a JSON-safe dict (see the module contract)."""
    return to_json(req, resolve(req, dice))


def to_json(req: dict, value: Check | Contest) -> dict:
    if isinstance(value, Check):
        t = value.throw
        out = {
            "dice": [] if t is None else list(t.dice),
            "total": None if t is None else t.total,
            "modifier": value.modifier.to_json(),
            "special": None if t is None or t.special is None else t.special.value,
            "fumble_dice": [] if t is None else t.fumble_dice,
            "marks": [] if t is None else t.marks,
            "target": None,
        }
    else:
        a, t = value.actor, value.target
        out = {
            "dice": [] if a is None else list(a.dice),
            "total": None if a is None else a.total,
            "modifier": _modifier(req, None).to_json(),
            "special": None if a is None or a.special is None else a.special.value,
            "fumble_dice": [] if a is None else a.fumble_dice,
            "marks": [] if a is None else a.marks,
            "target": {
                "dice": [] if t is None else list(t.dice),
                "total": None if t is None else t.total,
                "modifier": _modifier(req["opposed"], None).to_json(),
                "special": None if t is None or t.special is None else t.special.value,
                "fumble_dice": [] if t is None else t.fumble_dice,
                "marks": [] if t is None else t.marks,
            },
        }
    return {
        "system": ID,
        "request": fields.as_json(req),
        **out,
        "outcome": value.outcome.value,
        "steps": value.steps(),
        "summary": str(value),
        "tone": value.tone.value,
        "choices": [],
    }


def act(roll: dict, action: dict, dice: dicelib.DiceSource) -> dict:
    """Two-dice rolls have no follow-up choices once the dice land: every action is refused."""
    if not isinstance(roll, dict) or roll.get("system") != ID:
        raise RulesError(f"'roll' must be a {ID} roll as returned by roll()")
    fields.parse(FIELDS, roll.get("request"), "roll.request")
    keys = ", ".join(map(repr, action)) if isinstance(action, dict) else repr(action)
    raise RulesError(
        f"'action' {keys} is not allowed: two-dice rolls have no follow-up choices once the dice "
        f"land (allowed actions: none)"
    )


# --- exact odds --------------------------------------------------------------------------------------

_PAIRS = tuple(product(range(1, 7), repeat=2))


def odds(req: dict) -> dict:
    """Exact chances: {"outcomes": {"success", "failure"}} unopposed, {"actor", "target"} when opposed."""
    impossible = req["difficulty"] == "impossible"
    if req["opposed"] is None:
        if impossible:
            return {"outcomes": {"success": Fraction(0), "failure": Fraction(1)}}
        mod = _modifier(req, req["difficulty"]).total
        wins = sum(_unopposed(special(*p), sum(p) + mod) is Outcome.SUCCESS for p in _PAIRS)
        return {"outcomes": {"success": Fraction(wins, 36), "failure": Fraction(36 - wins, 36)}}
    if impossible:
        return {"outcomes": {"actor": Fraction(0), "target": Fraction(1)}}
    ma, mt = _modifier(req, None).total, _modifier(req["opposed"], None).total
    sides = [(special(*p), sum(p)) for p in _PAIRS]
    wins = sum(_roll_off(sa, ta + ma, st, tt + mt) is Outcome.ACTOR for sa, ta in sides for st, tt in sides)
    return {"outcomes": {"actor": Fraction(wins, 1296), "target": Fraction(1296 - wins, 1296)}}


# --- the character sheet the table keeps, and the request it fills ------------------------------------------------

SHEET = Record(
    "sheet",
    "Two dice",
    (
        named_list("traits", "Malleable traits", (fields.Int("value", "Value", _TRAIT.min, _TRAIT.max, default=3),)),
        named_list("abilities", "Abilities", (fields.Int("value", "Value", _ABILITIES.min, _ABILITIES.max),)),
    ),
)
CHOICES = (
    Id("trait", "Malleable trait", optional=True, help="None: 0."),
    ListOf("abilities", "Abilities that apply", Id("ability"), SHEET.fields[1].max_len),
)


def request_from_sheet(sheet: dict, choices: dict) -> dict:
    """The form's malleable trait (the chosen one's value, else 0) and the chosen abilities, in the sheet's order."""
    abilities = [a["value"] for a in sheet["abilities"] if a["id"] in choices["abilities"]]
    if len(abilities) > _ABILITIES.max_len:
        raise RulesError(f"Choose at most {_ABILITIES.max_len} abilities (the form holds {_ABILITIES.max_len}).")
    trait = next((t["value"] for t in sheet["traits"] if t["id"] == choices["trait"]), 0)
    return {"trait": trait, "abilities": abilities}


# --- odds between the choices, and the headline (procedures.py's protocol) ----------------------------------------


def _order(opposed: bool) -> tuple[str, ...]:
    """The outcomes worst first: failure, success; opposed, the target's win, the actor's."""
    pair = (Outcome.TARGET, Outcome.ACTOR) if opposed else (Outcome.FAILURE, Outcome.SUCCESS)
    return tuple(o.value for o in pair)


SUCCESSES = (Outcome.SUCCESS.value, Outcome.ACTOR.value)  # "an action succeeds"; opposed, the actor wins


def standing(roll: dict) -> dict:
    """The roll's outcome as it stands, in the odds' shape: probability 1 for its outcome, 0 for the other."""
    keys = reversed(_order(roll["request"].get("opposed") is not None))  # as odds() gives them: the better first
    return {"outcomes": chances.one_hot(keys, roll["outcome"])}


def odds_after(roll: dict, action: Any) -> dict:
    """A two-dice roll has no follow-up choices: every action is refused, as act() refuses it."""
    return standing(act(roll, action, chances.NoDice()))


def luck(rolled: dict) -> dict:
    """The roll as first rolled (its dice rolled again must give it), ranked: a failure below a success; opposed, the
    target's win below the actor's."""
    req = chances.request_of(FIELDS, rolled)
    outcome = chances.replayed(roll, req, rolled)["outcome"]
    return chances.ranked(_order(req["opposed"] is not None), odds(req)["outcomes"], outcome, SUCCESSES)


def headline(exact: dict) -> dict:
    """Beside Roll: the chance of success ("nine or better"); opposed, of the actor's win."""
    outcomes = exact["outcomes"]
    if Outcome.ACTOR.value in outcomes:
        return chance_of("Actor wins", outcomes, (Outcome.ACTOR.value,))
    return chance_of("Success", outcomes, (Outcome.SUCCESS.value,))


# --- the roll JSON, declared (api.systems()' "roll"), and example requests ----------------------------------------

_MODIFIER = shape(
    Key("trait", INT),
    Key("abilities", INT, "the abilities' sum"),
    Key(
        "difficulty",
        Nullable(INT),
        "the difficulty's modifier (null: in a contest, which has no difficulty, or an impossible action)",
    ),
    Key("multitask", INT, "the penalty for more than one action"),
    Key("total", INT),
)


def faces(roll: dict) -> list[dict]:
    """The dice a roll shows (the protocol's `faces`): the actor's two, then in an opposed roll the target's, each
    side named."""
    if roll["target"] is None:
        return shown(roll["dice"], roll["marks"], SIDES)
    t = roll["target"]
    return shown(roll["dice"], roll["marks"], SIDES, "Actor") + shown(t["dice"], t["marks"], SIDES, "Target")


_SIDE = (
    Key("dice", Items(INT), "the two dice (none: an impossible roll)"),
    Key("total", Nullable(INT), "the dice plus the modifier (null: no dice rolled)"),
    Key("modifier", _MODIFIER, "what is added to the dice"),
    Key("special", Nullable(TEXT), '"snake-eyes" or "double sixes" (null: neither)'),
    Key("fumble_dice", Items(INT), "the dice of a fumble (snake-eyes)"),
    Key("marks", MARKS),
)

ROLL = roll_json(
    FIELDS,
    *_SIDE,
    Key("target", Nullable(shape(*_SIDE)), "the target's roll in an opposed roll (null: unopposed)"),
    standing=odds_json(OUTCOMES),
)
"""What roll() answers: the actor's two dice, total and modifier, the target's in an opposed roll."""

EXAMPLE_REQUESTS = {
    "plain": {"trait": 1, "abilities": [2], "difficulty": 0},
    "contest": {"trait": 1, "opposed": {"trait": 0}},
    "edge": {"difficulty": "impossible"},
    "largest": {
        "trait": 10,
        "abilities": [10] * 5,
        "difficulty": 3,
        "actions": 1,
        "opposed": {"trait": 10, "abilities": [10] * 5, "actions": 1},
    },
}
"""Requests to try the procedure with: a plain roll, an opposed one, an impossible one, the largest it allows."""
