"""Threat Roll (seed 002), the rules: a d6 pool of ability rating + threats − 1, each die assigned to a threat.

Usually, on a 1-3, the threat comes to pass; on a 4/5, it is averted or lessened in some way; on a 6,
it's totally avoided. Desperate Threats come to pass on a 1-5 and are avoided on a 6. The roll's
`outcome` is the threats' outcomes in priority order joined by " / " (e.g. "avoided / happens"), so a
generic page can show it; each threat's own outcome is in `threats`.

Draw order (threat-17): the pool in one throw, in the order of `dice`; reassigning and Pay the Price draw nothing.

Here, one job: the rules, with what they take (FIELDS), the follow-ups they allow (ACTIONS) and the text's words
they publish (the Example Threats, the ability ratings: EXTRAS); as pure functions (the pool, a die's outcome, the
default assignment, the Warden's checked) and over frozen values (a threat, its die, a whole roll and its steps).
A roll as JSON, `roll` and `act` are `rolling`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from .. import fields
from ..errors import RulesError
from ..tone import Tone
from .price import PAY_THE_PRICE, PAY_THE_PRICE_RULE


ID = "threat"
TITLE = "Threat Roll"
SEED = "002_6d399949fcc08b42.txt"
# Its tab's name and hint, in the text's words: "Gather d6 equal to the ability rating. Then add dice equal to the
# number of threats minus one" (threat-1), and a Pact's dice (threat-2).
LABEL, HINT = "Threat", "d6: rating + threats − 1"
DESCRIPTION = "Threat Roll: d6 equal to the rating + threats − 1, ± Pact dice; 1-3 it happens, 4/5 lessened, 6 avoided."

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
