"""Threat Roll (seed 002): a d6 pool of ability rating + threats − 1, each die assigned to a threat.

Usually, on a 1-3, the threat comes to pass; on a 4/5, it is averted or lessened in some way; on a 6,
it's totally avoided. Desperate Threats come to pass on a 1-5 and are avoided on a 6. The roll's
`outcome` is the threats' outcomes in priority order joined by " / " (e.g. "avoided / happens"), so a
generic page can show it; each threat's own outcome is in `threats`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from math import factorial
from typing import Any

from . import chances, fields
from .dice import order_statistic
from .dice import roll as roll_dice
from .errors import RulesError
from .headline import chance_of
from .shapes import (
    BOOL,
    INT,
    JSON,
    MARKS,
    NUMBER,
    TEXT,
    Items,
    Key,
    Nullable,
    Table,
    choice,
    odds_json,
    roll_json,
    shape,
)
from .stored import ListOf, Record, int_map
from .tone import Tone

ID = "threat"
TITLE = "Threat Roll"
SEED = "002_6d399949fcc08b42.txt"
LABEL, HINT = "Threat", "a d6 per threat"  # its tab's name and hint, in the text's words
DESCRIPTION = "Threat Roll: a d6 per threat; 1-3 it happens, 4/5 lessened, 6 avoided."

SIDES = 6

FIELDS = (
    fields.Int("rating", "Ability rating", 0, 10, default=1, help="Gather d6 equal to the ability rating."),
    fields.Records(
        "threats",
        "Threats",
        (
            fields.Text(
                "name",
                "Threat",
                max_len=80,
                default="",
                help="Threats are situation-dependent, e.g. “the doorman asks for your invitation”.",
            ),
            fields.Bool(
                "desperate",
                "Desperate",
                help="Desperate Threats come to pass on a 1-5, and are avoided on a 6; they are not lessened on a 4/5.",
            ),
        ),
        1,
        8,
        default=({"name": "Fail", "desperate": False},),
        help="Listed in the order of priority: the highest die goes to the first threat. "
        "Then add dice equal to the number of threats minus one.",
    ),
    fields.Int(
        "extra_dice",
        "Extra dice (from Pacts)",
        -10,
        10,
        default=0,
        help="Could I take my time on this and get an extra die?",
    ),
)

ACTIONS = [
    {
        "name": "assign",
        "label": "Assign the dice",
        "help": "The Warden should then roll the dice, and assign each die to a threat. "
        "Give one list of die indexes per threat; every die goes to exactly one threat, "
        "and a threat takes its highest die.",
    },
    {
        "name": "pay_the_price",
        "label": "Pay the Price",
        "help": "The Referee may ask you to Pay the Price when you narrowly avoid a Threat without an obvious “lesser” "
        "outcome (a 4 or 5 on a threat that is not Desperate). Give the option picked, the player who picks it "
        'and the options already marked this Situation with who marked them: {"pay_the_price": 3, '
        '"by": "Ann", "marked": [{"option": 0, "by": "Bo"}]}. No other player may pick a '
        "marked option; the player who marked it may pick it again.",
    },
]


class Outcome(Enum):
    """What becomes of one threat."""

    HAPPENS = "happens"
    LESSENED = "lessened"
    AVOIDED = "avoided"


TONE = {Outcome.HAPPENS: Tone.FAILURE, Outcome.LESSENED: Tone.MIXED, Outcome.AVOIDED: Tone.SUCCESS}  # threat-12
# The seed's Example Threats, word for word: name -> (group, the 1-3 text, the 4/5 text).
EXAMPLES: dict[str, tuple[str, str, str]] = {
    "Persuasion": (
        "Social",
        "On a 1-3, they don’t believe you.",
        "On a 4/5, they need some concrete evidence or assurance. Maybe a guard demands a bribe, "
        "maybe a town refuses to evacuate in the face of danger, maybe a duke orders your execution.",
    ),
    "Entreaty": (
        "Social",
        "On a 1-3, they make a demand of you before agreeing to your request.",
        "On a 4/5, you only need to agree to the demand first and may complete it later.",
    ),
    "Bargaining": (
        "Social",
        "On a 1-3 they refuse you, and may or may not name their price.",
        "On 4/5 they’ll name their price and hear your counter offer.",
    ),
    "Intimidation": (
        "Social",
        "On a 1-3 they brush off your threat and may flee, escalate, or pretend to cooperate.",
        "On a 4/5 they will give you what they think you want, and then may flee or barricade themself away from you.",
    ),
    "Impatience": (
        "Social",
        "On a 1-3 they will end the interaction after the next exchange.",
        "On a 4/5 their patience is tested and they become Frustrated.",
    ),
    "Frustrated": (
        "Social",
        "On a 1-3 they will end the interaction (including by force, if they see it necessary).",
        "On a 4/5 they will allow you the last word, but may not respond.",
    ),
    "Snooping": (
        "Investigation",
        "On a 1-3 you are caught in the act.",
        "On a 4/5 you have a choice: leave behind indelible evidence of an intruder or clean up and try "
        "to talk your way out.",
    ),
    "Research": (
        "Investigation",
        "On a 1-3 you find some trivia, but nothing that seems relevant.",
        "On a 4/5 you find relevant information, but it’s up to you to make it useful.",
    ),
    "Wayfinding": (
        "Investigation",
        "On a 1-3 you are completely lost; the Referee will describe your surroundings.",
        "On a 4/5 you end up somewhere you didn’t intend, but at least you know where.",
    ),
    "Dodge": (
        "Peril",
        "On a 1-3 you take the full Harm.",
        "On a 4/5 you take half Harm, rounded down (consult violence-and-harm > Harm rules for 0 Harm).",
    ),
    "Stun": (
        "Peril",
        "On a 1-3 you’re unable to act for the duration.",
        "On a 4/5 you’ll have an additional Threat that you were too slow.",
    ),
    "Fail": (
        "Peril",
        "On a 1-3 your action is not successful.",
        "On a 4/5 the Referee may give you partial success, or may give you full success as long as you Pay the Price.",
    ),
    "Sneaking": (
        "Peril",
        "On a 1-3 you are spotted and your location is known.",
        "On a 4/5 your presence is detected but you aren’t spotted yet.",
    ),
}

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

ABILITY_RATINGS = {
    "Charm": "get someone on your side, spin a convincing lie, make a good impression",
    "Command": "bark orders (to an individual or a crowd), intimidate someone, resist beguiling or mind-altering effects",
    "Finesse": "act with precision and care, manipulate something delicate, wield a tool or weapon with panache",
    "Muscle": "apply brute force, fight with your strength, endure harsh circumstances",
    "Rig": "use or improvise a gadget, sail a ship, decipher complex mechanisms",
    "Scout": "explore dangerous locations, take a potshot, read a situation",
    "Scramble": "navigate treacherous terrain, perform feats of acrobatics, reflexively avoid danger",
    "Shadow": "move unseen, follow a target, do violence from hiding",
}

EXTRAS = {
    "examples": {name: {"group": g, "happens": h, "lessened": less} for name, (g, h, less) in EXAMPLES.items()},
    "outcomes": {
        "happens": "the threat comes to pass",
        "lessened": "it is averted or lessened in some way",
        "avoided": "it’s totally avoided",
    },
    "pay_the_price": list(PAY_THE_PRICE),
    "pay_the_price_rule": PAY_THE_PRICE_RULE,
    "ability_ratings": dict(ABILITY_RATINGS),
}

_EXAMPLE_KEYS = {name.casefold(): name for name in EXAMPLES}


# --- the rules as pure functions -------------------------------------------------------------------


def pool(rating: int, threats: int, extra_dice: int = 0) -> int:
    """Dice equal to the ability rating, plus the number of threats minus one, plus Pact dice; never below 0."""
    return max(0, rating + threats - 1 + extra_dice)


def outcome_of(die: int | None, desperate: bool) -> Outcome:
    """1-3 comes to pass, 4/5 lessened, 6 avoided; a Desperate threat comes to pass on 1-5; no die: it comes to pass."""
    if die is None or die <= (5 if desperate else 3):
        return Outcome.HAPPENS
    return Outcome.AVOIDED if die == SIDES else Outcome.LESSENED


def example_text(name: str, outcome: Outcome) -> str | None:
    """The seed's example text for this outcome when `name` is an example threat (case and spaces ignored)."""
    key = _EXAMPLE_KEYS.get(name.strip().casefold())
    if key is None or outcome is Outcome.AVOIDED:
        return None
    _, happens, lessened = EXAMPLES[key]
    return happens if outcome is Outcome.HAPPENS else lessened


def default_assignment(faces: tuple[int, ...], threats: int) -> tuple[tuple[int, ...], ...]:
    """Highest die to the first threat, the next to the second, …; leftover (lower) dice are stacked on the first."""
    order = sorted(range(len(faces)), key=lambda i: (-faces[i], i))  # equal faces: the earlier die first
    assignment = [[order[t]] if t < len(order) else [] for t in range(threats)]
    assignment[0].extend(order[threats:])
    return tuple(tuple(a) for a in assignment)


def check_assignment(assign: Any, dice: int, threats: int) -> tuple[tuple[int, ...], ...]:
    """An assignment as the Warden gives it: one list of die indexes per threat, each die in exactly one list."""
    where = "'action.assign'"
    if not isinstance(assign, list) or len(assign) != threats:
        raise RulesError(
            f"{where} must be a list of {threats} lists of die indexes (one per threat), got {assign!r:.100}"
        )
    seen: set[int] = set()
    out = []
    for t, indexes in enumerate(assign):
        if not isinstance(indexes, list):
            raise RulesError(f"{where}[{t}] must be a list of die indexes from 0 to {dice - 1}, got {indexes!r:.100}")
        for i in indexes:
            if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < dice:
                raise RulesError(f"{where}[{t}] must hold die indexes from 0 to {dice - 1}, got {i!r}")
            if i in seen:
                raise RulesError(f"{where}: die {i} is assigned twice; each die goes to exactly one threat")
            seen.add(i)
        out.append(tuple(indexes))
    missing = sorted(set(range(dice)) - seen)
    if missing:
        raise RulesError(
            f"{where}: assign each die to a threat; die {', '.join(map(str, missing))} "
            f"{'is' if len(missing) == 1 else 'are'} not assigned (indexes 0 to {dice - 1})"
        )
    return tuple(out)


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


def _dice(n: int) -> str:
    return f"{n} {'die' if n == 1 else 'dice'}"


# --- values ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Threat:
    """One threat facing the Warden, as the Referee lays it out."""

    name: str
    desperate: bool = False

    def label(self, index: int) -> str:
        shown = self.name.strip() or f"Threat {index + 1}"
        return f"{shown} (desperate)" if self.desperate else shown


@dataclass(frozen=True, slots=True)
class ThreatResult:
    """A threat with the dice assigned to it; it takes its highest die."""

    threat: Threat
    index: int
    dice: tuple[int, ...]
    die: int | None

    @property
    def outcome(self) -> Outcome:
        return outcome_of(self.die, self.threat.desperate)

    @property
    def text(self) -> str | None:
        return example_text(self.threat.name, self.outcome)

    def __str__(self) -> str:
        if self.die is None:
            return f"{self.threat.label(self.index)}: no die, it {self.outcome.value}"
        return f"{self.threat.label(self.index)}: {self.die}, {self.outcome.value}"


@dataclass(frozen=True, slots=True)
class ThreatRoll:
    """The rolled dice and how they are assigned to the threats."""

    rating: int
    extra_dice: int
    threats: tuple[Threat, ...]
    faces: tuple[int, ...]
    assignment: tuple[tuple[int, ...], ...]
    by_warden: bool = False

    @property
    def pool(self) -> int:
        return pool(self.rating, len(self.threats), self.extra_dice)

    @property
    def results(self) -> tuple[ThreatResult, ...]:
        return tuple(
            ThreatResult(t, i, dice, max((self.faces[d] for d in dice), default=None))
            for i, (t, dice) in enumerate(zip(self.threats, self.assignment))
        )

    @property
    def outcome(self) -> str:
        return " / ".join(r.outcome.value for r in self.results)

    @property
    def marks(self) -> list[list[str]]:
        """Each die's marks, as the page draws them: the die each threat takes (its highest, the first of equal ones)
        kept, every other die dim."""
        taken = {next(d for d in r.dice if self.faces[d] == r.die) for r in self.results if r.die is not None}
        return [["kept" if i in taken else "dim"] for i in range(len(self.faces))]

    @property
    def narrowly_avoided(self) -> tuple[int, ...]:
        """The threats narrowly avoided: a 4 or 5 on a threat that is not Desperate (the only ones that may bring
        Pay the Price, threat-11)."""
        return tuple(r.index for r in self.results if r.outcome is Outcome.LESSENED)

    def steps(self) -> list[str]:
        n = len(self.threats)
        raw = self.rating + n - 1 + self.extra_dice
        parts = f"rating {self.rating} + {n} threat{'s' if n != 1 else ''} − 1"
        if self.extra_dice:
            parts += f" {'+' if self.extra_dice > 0 else '−'} {abs(self.extra_dice)} from Pacts"
        pool_step = f"Pool: {parts} = {_dice(self.pool)}"
        if raw < 0:
            pool_step += f" (−{-raw}, floored at 0)"
        steps = [
            pool_step,
            f"{_dice(self.pool)}: {' '.join(map(str, self.faces))}" if self.faces else "No dice to roll",
        ]
        steps.append(
            "The Warden assigns each die to a threat"
            if self.by_warden
            else "Highest die to the first threat, the next to the second, …"
        )
        for r in self.results:
            stacked = (
                f" (takes the highest of {', '.join(str(self.faces[d]) for d in r.dice)})" if len(r.dice) > 1 else ""
            )
            steps.append(f"{r}{stacked}")
        return steps

    def __str__(self) -> str:
        rolled = f"{_dice(self.pool)} ({' '.join(map(str, self.faces))})" if self.faces else "no dice"
        return f"Threat Roll, {rolled}: " + "; ".join(str(r) for r in self.results)


# --- the module contract -----------------------------------------------------------------------------


def _threats(req: dict) -> tuple[Threat, ...]:
    return tuple(Threat(t["name"], t["desperate"]) for t in req["threats"])


def _request_json(req: dict) -> dict:
    return {"rating": req["rating"], "threats": [dict(t) for t in req["threats"]], "extra_dice": req["extra_dice"]}


def _result(req: dict, value: ThreatRoll, prices: tuple[dict, ...] = ()) -> dict:
    """The roll as JSON; `prices`, the Prices paid after it so far ({"picked", "option", "by", "unmarked_all"}), one for
    each threat narrowly avoided at most: once one is paid the dice are settled (no more reassigning)."""
    assigned = {d for a in value.assignment for d in a}
    choices = []
    if value.faces and len(value.threats) > 1 and not prices:  # one threat: reassigning changes nothing (threat-5)
        choices.append(
            {"name": "assign", "label": "Reassign the dice", "dice": len(value.faces), "threats": len(value.threats)}
        )
    left = len(value.narrowly_avoided) - len(prices)
    if left > 0:
        choices.append(
            {
                "name": "pay_the_price",
                "label": "Pay the Price",
                "threats": list(value.narrowly_avoided),
                "options": len(PAY_THE_PRICE),
                "left": left,
                "actions": [{"pay_the_price": i} for i in range(len(PAY_THE_PRICE))],
            }
        )
    steps = value.steps() + [_paid_step(p) for p in prices]
    out = {
        "system": ID,
        "request": _request_json(req),
        "pool": value.pool,
        "dice": list(value.faces),
        "assignment": [list(a) for a in value.assignment],
        "marks": value.marks,
        "unassigned": [d for d in range(len(value.faces)) if d not in assigned],
        "threats": [
            {
                "name": r.threat.name,
                "desperate": r.threat.desperate,
                "die": r.die,
                "dice": list(r.dice),
                "outcome": r.outcome.value,
                "text": r.text,
            }
            for r in value.results
        ],
        "steps": steps,
        "outcome": value.outcome,
        "summary": str(value),
        "tone": Tone.overall(TONE[r.outcome] for r in value.results).value,
        "choices": choices,
        "prices_paid": [{k: p[k] for k in ("picked", "option", "by", "unmarked_all")} for p in prices],
    }
    return out


def _paid_step(price: dict) -> str:
    by = f" ({price['by']})" if price["by"] else ""
    note = " All options were marked, so all are unmarked." if price.get("unmarked_all") else ""
    return f"Paid the Price{by}: {price['option']}{note}"


def roll(req: dict, dice) -> dict:
    """Roll the pool and assign the dice by priority: the highest die to the first threat, and so on."""
    threats = _threats(req)
    faces = roll_dice(dice, pool(req["rating"], len(threats), req["extra_dice"]), SIDES)
    value = ThreatRoll(req["rating"], req["extra_dice"], threats, faces, default_assignment(faces, len(threats)))
    return _result(req, value)


def _check_roll(roll: Any) -> tuple[dict, tuple[int, ...]]:
    if not isinstance(roll, dict) or roll.get("system") != ID:
        raise RulesError(f"'roll' must be a {ID} roll as returned by roll() or act()")
    req = fields.parse(FIELDS, roll.get("request"), "roll.request")
    n = pool(req["rating"], len(req["threats"]), req["extra_dice"])
    faces = roll.get("dice")
    if (
        not isinstance(faces, list)
        or len(faces) != n
        or any(isinstance(f, bool) or not isinstance(f, int) or not 1 <= f <= SIDES for f in faces)
    ):
        raise RulesError(f"'roll.dice' must be a list of {n} faces from 1 to {SIDES} (the pool of this request)")
    return req, tuple(faces)


def act(roll: dict, action: dict, dice) -> dict:
    """The roll after the Warden (re)assigns the dice: `{"assign": [[die indexes], ...]}`, one list per threat."""
    req, faces = _check_roll(roll)
    allowed = ", ".join(a["name"] for a in ACTIONS)
    if isinstance(action, dict) and "pay_the_price" in action and set(action) <= {"pay_the_price", "by", "marked"}:
        return _pay(req, faces, roll, action)
    if not isinstance(action, dict) or set(action) != {"assign"}:
        keys = ", ".join(map(repr, action)) if isinstance(action, dict) else repr(action)
        raise RulesError(f"'action' must be one of: {allowed} (got {keys:.100})")
    if not faces:
        raise RulesError("'action.assign': there are no dice to assign (the pool is 0); every threat comes to pass")
    if roll.get("prices_paid"):
        raise RulesError("'action.assign' is not allowed: a Price was paid for this roll, so its dice are settled")
    threats = _threats(req)
    assignment = check_assignment(action["assign"], len(faces), len(threats))
    value = ThreatRoll(req["rating"], req["extra_dice"], threats, faces, assignment, by_warden=True)
    return _result(req, value)


def _pay(req: dict, faces: tuple[int, ...], roll: dict, action: dict) -> dict:
    """Pay the Price after a roll that narrowly avoided a threat, one Price for each threat narrowly avoided: `by`
    marks the picked option among the Situation's `marked` ones (the page keeps them)."""
    threats = _threats(req)
    assignment = check_assignment(roll.get("assignment"), len(faces), len(threats)) if faces else ((),) * len(threats)
    by_warden = tuple(assignment) != tuple(default_assignment(faces, len(threats)))
    value = ThreatRoll(req["rating"], req["extra_dice"], threats, faces, assignment, by_warden=by_warden)
    narrow = len(value.narrowly_avoided)
    if not narrow:
        raise RulesError(
            "'action.pay_the_price' is not allowed: no threat was narrowly avoided (The Referee may ask "
            "you to Pay the Price when you narrowly avoid a Threat: a 4 or 5 on a threat that is not "
            "Desperate)"
        )
    prices = _prices_paid(roll.get("prices_paid", []), narrow)
    if len(prices) == narrow:
        raise RulesError(
            f"'action.pay_the_price' is not allowed: the Price is paid: one Price for each threat "
            f"narrowly avoided ({_threats_words(narrow)}, {_prices_words(len(prices))} paid)"
        )
    marks = pay_the_price(action.get("marked", []), action["pay_the_price"], action.get("by"))
    by = _player(action.get("by"), "action.by")
    paid = {
        "picked": action["pay_the_price"],
        "option": PAY_THE_PRICE[action["pay_the_price"]],
        "by": by,
        "marked": marks_json(marks),
        "unmarked_all": not marks,
    }
    out = _result(req, value, (*prices, paid))
    out["pay_the_price"] = paid  # the latest payment, with the Situation's marks from now on
    return out


def _threats_words(n: int) -> str:
    return f"{n} threat{'' if n == 1 else 's'} narrowly avoided"


def _prices_words(n: int) -> str:
    return f"{n} Price{'' if n == 1 else 's'}"


def _prices_paid(prices: Any, narrow: int) -> tuple[dict, ...]:
    """The Prices a roll reports paid, each checked: at most one for each threat narrowly avoided."""
    last = len(PAY_THE_PRICE) - 1
    if not isinstance(prices, list) or len(prices) > narrow:
        raise RulesError(
            f"'roll.prices_paid' must be a list of at most {narrow} Prices paid (one for each threat "
            f"narrowly avoided), got {prices!r:.100}"
        )
    out = []
    for i, p in enumerate(prices):
        picked = p.get("picked") if isinstance(p, dict) else None
        if isinstance(picked, bool) or not isinstance(picked, int) or not 0 <= picked <= last:
            raise RulesError(
                f'\'roll.prices_paid[{i}]\' must be a Price paid {{"picked": 0 to {last}, "by": name}}, got {p!r:.100}'
            )
        out.append(
            {
                "picked": picked,
                "option": PAY_THE_PRICE[picked],
                "by": _player(p.get("by"), f"roll.prices_paid[{i}].by"),
                "unmarked_all": p.get("unmarked_all") is True,
            }
        )
    return tuple(out)


def odds(req: dict) -> dict:
    """Each threat's chance to happen, be lessened or be avoided under the default assignment (exact)."""
    n = pool(req["rating"], len(req["threats"]), req["extra_dice"])
    out = []
    for i, t in enumerate(req["threats"]):
        if i >= n:  # no die left for it: it comes to pass
            out.append({"happens": Fraction(1), "lessened": Fraction(0), "avoided": Fraction(0)})
            continue
        die = order_statistic(n, i + 1, SIDES)  # the (i+1)-th highest die
        p = {o: Fraction(0) for o in Outcome}
        for face, q in die.items():
            p[outcome_of(face, t["desperate"])] += q
        out.append({o.value: p[o] for o in Outcome})
    return {"threats": out}


# --- the character sheet the table keeps (Luck's too), the request it fills, what a roll changes on the table ------

COUNTERS = ("renown", "aether", "insight", "gear", "harm")  # the text's Renown, Aether, Insight, Gear and Harm
MAX_COUNTER = 999  # the sheet's limit, not the text's
SHEET = Record(
    "sheet",
    "Threat & Luck",
    (
        int_map("ratings", "Ability ratings", tuple(ABILITY_RATINGS), FIELDS[0].min, FIELDS[0].max, FIELDS[0].default),
        int_map("counters", "Counters", COUNTERS, 0, MAX_COUNTER, 0, tuple(c.capitalize() for c in COUNTERS)),
    ),
)
CHOICES = (fields.Choice("rating", "Ability rating", tuple((r, r) for r in ABILITY_RATINGS), "Charm"),)
MARKED = ListOf(
    "marked",
    "Pay the Price options marked this Situation",
    fields.Int("marked", "Option", 0, len(PAY_THE_PRICE) - 1),
    len(PAY_THE_PRICE),
    unique=True,
)


def request_from_sheet(sheet: dict, choices: dict) -> dict:
    """Gather d6 equal to the chosen ability rating."""
    return {"rating": sheet["ratings"][choices["rating"]]}


def follows(roll: dict, earned: bool) -> tuple[list, list | None]:
    """After a roll that Paid the Price, the Situation's marks are the roll's, as it reports them (the Situation's
    record checks each mark when it is saved); nothing else follows."""
    _check_roll(roll)
    paid = roll.get("pay_the_price")
    if paid is None:
        return [], None
    marked = paid.get("marked") if isinstance(paid, dict) else None
    if not isinstance(marked, list) or len(marked) > len(PAY_THE_PRICE):
        raise RulesError(
            f"'roll.pay_the_price.marked' must be a list of at most {len(PAY_THE_PRICE)} marks, got {marked!r:.100}"
        )
    return [], marked


# --- the Price paid on the sheet: "Lose one Insight." / "Spend a point of Gear." / "Take 1 Harm." --------------------

_COUNTERS = SHEET.fields[1]
# option -> (op, counter, change, its note, what the refusal says the one paying has); the other five are narrative
PRICE_ON_SHEET = {
    1: ("lose_insight", "insight", -1, "Lost one Insight", "has no Insight left"),
    3: ("spend_gear", "gear", -1, "Spent a point of Gear", "has no Gear left"),
    7: ("take_harm", "harm", 1, "Took 1 Harm", f"has Harm at the sheet's maximum, {MAX_COUNTER}"),
}


def _price_op(name: str, counter: str, change: int, done: str, refused: str):
    """The op that pays a Price on the sheet's `counter`: `change` it, never below 0 nor above the sheet's maximum."""

    def op(state: Any, args: Any) -> dict:
        fields.read_args(args, (), name)
        counters = dict(fields.read_state(state, (_COUNTERS,), ("counters",))["counters"])
        after = counters[counter] + change
        if not 0 <= after <= MAX_COUNTER:
            raise RulesError(
                f"'state.counters.{counter}' is {counters[counter]}: {refused[4:]}", says=refused, holder=True
            )
        return fields.new_state(
            state, f"{done} ({counter.capitalize()} {after})", counters={**counters, counter: after}
        )

    return op


TABLE = {
    name: _price_op(name, counter, change, done, refused)
    for name, counter, change, done, refused in PRICE_ON_SHEET.values()
}
TABLE_OPS = [
    fields.table_op(name, PAY_THE_PRICE[option].rstrip("."), f"Pay the Price: {PAY_THE_PRICE[option]}", (_COUNTERS,))
    for option, (name, *_) in PRICE_ON_SHEET.items()
]


def costs(request: dict | None, action: dict | None, choices: dict | None = None) -> list[dict]:
    """Paying the Price with "Lose one Insight.", "Spend a point of Gear." or "Take 1 Harm." changes the sheet of the
    one rolling; the other options, the roll itself and reassigning cost nothing on the sheet."""
    option = action.get("pay_the_price") if action is not None else None
    if isinstance(option, bool) or option not in PRICE_ON_SHEET:
        return []
    return [fields.pay("character", ID, PRICE_ON_SHEET[option][0])]


# --- odds between the choices, luck and the headline (procedures.py's protocol) -----------------------------------

ORDER = tuple(o.value for o in Outcome)  # a threat's outcomes, worst first: it happens, is lessened, is avoided


def standing(roll: dict) -> dict:
    """Each threat's outcome as it stands, in the odds' shape: probability 1 for it, 0 for the other two."""
    return {"threats": [chances.one_hot(ORDER, t["outcome"]) for t in roll["threats"]]}


def odds_after(roll: dict, action: Any) -> dict:
    """Reassigning the dice and Pay the Price roll no dice: certain, the outcomes of the roll that act() gives."""
    return standing(act(roll, action, chances.NoDice()))


def choice_odds(roll: dict, choice: dict) -> None:
    """A Threat Roll's choices ask for a pick (the dice to reassign, a Price): none suggests an action."""
    return None


def what_if(req: dict) -> list[dict]:
    """Nothing is offered to add before a Threat Roll."""
    return []


def luck(roll: dict) -> dict:
    """The threats' outcomes under the default assignment (the dice as first rolled), compared threat by threat in
    their order of priority (threat-13); success is the first threat not coming to pass."""
    req = chances.request_of(FIELDS, roll)
    threats = req["threats"]
    n = pool(req["rating"], len(threats), req["extra_dice"])
    faces = sorted(chances.faces(roll, n, SIDES), reverse=True)

    def outcomes(highest: list[int]) -> tuple[int, ...]:
        return tuple(
            ORDER.index(outcome_of(highest[i] if i < len(highest) else None, t["desperate"]).value)
            for i, t in enumerate(threats)
        )

    # the sorted dice are n6 sixes, n45 fours or fives, the rest 1-3: that decides every threat's die's kind
    ways: dict[tuple[int, ...], int] = {}
    for n6 in range(n + 1):
        for n45 in range(n - n6 + 1):
            low = n - n6 - n45
            w = factorial(n) // (factorial(n6) * factorial(n45) * factorial(low)) * 2**n45 * 3**low
            key = outcomes([6] * n6 + [5] * n45 + [1] * low)
            ways[key] = ways.get(key, 0) + w
    whole = SIDES**n
    rank = outcomes(faces)
    worse = Fraction(sum(w for k, w in ways.items() if k < rank), whole)
    same = Fraction(ways[rank], whole)
    first_ok = Fraction(sum(w for k, w in ways.items() if k[0] > 0), whole)
    words = " / ".join(ORDER[i] for i in rank)
    return {
        "order": list(ORDER),
        "outcome": words,
        "rank": words,
        "p_worse": worse,
        "p_same": same,
        "p_outcome": same,
        "p_success": first_ok,
        "success": rank[0] > 0,
    }


def headline(exact: dict) -> dict:
    """Beside Roll: the chance that the first threat does not come to pass (lessened or avoided)."""
    return chance_of("T1 lessened or avoided", exact["threats"][0], (Outcome.LESSENED.value, Outcome.AVOIDED.value))


# --- the roll JSON, declared (api.systems()' "roll"), and example requests ----------------------------------------

_PAID = (
    Key("picked", INT, "the option picked, counted from 0"),
    Key("option", TEXT, "the option's words"),
    Key("by", Nullable(TEXT), "the player who pays (null: not named)"),
)

ROLL = roll_json(
    FIELDS,
    Key("pool", INT, "rating + threats − 1, plus any extra dice"),
    Key("dice", Items(INT)),
    Key("assignment", Items(Items(INT)), "per threat, the indexes of the dice it takes"),
    Key("marks", MARKS),
    Key("unassigned", Items(INT), "the indexes of the dice no threat takes"),
    Key(
        "threats",
        Items(
            shape(
                Key("name", TEXT),
                Key("desperate", BOOL),
                Key("die", Nullable(INT), "the highest die it takes (null: no die, it comes to pass)"),
                Key("dice", Items(INT), "the indexes of its dice"),
                Key("outcome", TEXT, "happens, lessened or avoided"),
                Key("text", Nullable(TEXT), "what that outcome means for a threat named after an example"),
            )
        ),
        "each threat's die and outcome, in priority order",
    ),
    Key(
        "prices_paid",
        Items(shape(*_PAID, Key("unmarked_all", BOOL, "the Situation's marks were cleared"))),
        "the Prices paid for this roll, one per threat narrowly avoided at most",
    ),
    Key(
        "pay_the_price",
        shape(
            *_PAID,
            Key(
                "marked",
                Items(shape(Key("option", INT), Key("by", Nullable(TEXT)))),
                "the Situation's marks from now on",
            ),
            Key("unmarked_all", BOOL, "every option was marked, so the marks were cleared"),
        ),
        "the latest Price paid (after Pay the Price)",
        optional=True,
    ),
    standing=odds_json(Key("threats", Items(Table(NUMBER)), "per threat, the chance of each outcome")),
    choices=(
        choice("assign", Key("dice", INT), Key("threats", INT)),
        choice(
            "pay_the_price",
            Key("threats", Items(INT), "the indexes of the threats narrowly avoided"),
            Key("options", INT),
            Key("left", INT, "the Prices still to pay"),
            Key("actions", Items(JSON), "the action of each option"),
        ),
    ),
)
"""What roll() and act() answer: the pool, its dice and their assignment, each threat's die and outcome, the Prices
paid."""

EXAMPLE_REQUESTS = {
    "plain": {"rating": 2, "threats": [{"name": "Fail"}]},
    "threats": {"rating": 2, "threats": [{"name": "a"}, {"name": "b", "desperate": True}]},
    "largest": {
        "rating": 10,
        "threats": [{"name": f"T{i}", "desperate": i % 2 == 0} for i in range(8)],
        "extra_dice": 10,
    },
}
"""Requests to try the procedure with: one threat, two (one Desperate), the largest it allows."""
