"""Roll Conventions (003), the rules: a pool of d10s, 8s, 9s and 10s succeed, 1s eat successes, 10s roll again.

Scoop up a die per dot (the storyteller may remove or add dice; a Will adds three), count 8s, 9s
and 10s (6s and up for initiative), let 1s eat successes on unskilled or risky rolls (10s first),
roll an extra die for every 10 left, and so on. No successes but 1s left is a botch. In a contest
both sides roll and their successes reduce each other's.

Draw order (ten_again-24), as a table rolls: the pool, the Will's dice when expended up front, then the 10s again
round by round (a die for each 10 left after the 1s, then one for each 10 among those, and so on); in a contest the
actor's pool and its rounds, then the target's. A Will after the roll draws its dice, then the rounds of its new 10s.

Here, one job: the rules over frozen values, with what they take (FIELDS), the follow-up they allow (ACTIONS) and the
numbers they publish (EXTRAS): one side's pool, its count once 1s eat, its hand with the 10s rolled again and a Will
spent, a whole roll and its outcome. Each step in words is `words`; a roll as JSON, `roll` and `act` are `rolling`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction

from .. import dice as _dice
from .. import fields
from ..dice import DiceSource
from ..tone import Tone

ID = "ten_again"
TITLE = "Roll Conventions: d10 pool, 10s roll again"
SEED = "003_afded177ba302d96.txt"
LABEL, HINT = "d10 pool", "8+ succeed, 10s again"  # its tab's name and hint, in the text's words
DESCRIPTION = "A fist full of d10: 8s, 9s and 10s succeed, 10s roll again."

SIDES = 10
THRESHOLD = 8
INITIATIVE_THRESHOLD = 6
WILL_DICE = 3
MAX_DOTS, MIN_MODIFIER, MAX_MODIFIER, MAX_REQUIRED = 30, -10, 10, 20
MAX_DICE = MAX_DOTS + MAX_MODIFIER + WILL_DICE
TAIL = Fraction(1, 10**15)  # the successes table stops once less than this is left beyond it

_SIDE_FIELDS = (
    fields.Int(
        "pool",
        "Dots in the statistic(s)",
        0,
        MAX_DOTS,
        3,
        help="Scoop up as many dice as you’ve got dots in the statistic(s) named for the type of roll you’re doing.",
    ),
    fields.Int(
        "modifier",
        "Dice the storyteller removes or adds",
        MIN_MODIFIER,
        MAX_MODIFIER,
        0,
        help="The storyteller may remove or add dice to your pool depending on the circumstances.",
    ),
    fields.Bool(
        "will",
        "Expend a Will (+3 dice)",
        False,
        help="You can add three dice to your pool by expending a single will point. "
        "You can only expend one will per action this way.",
        once=True,
    ),
    fields.Bool(
        "unskilled",
        "Unskilled (a skill in which you are untrained)",
        False,
        help="1s eat successes (unskilled or risky only): they remove 10s first.",
    ),
    fields.Bool(
        "risky",
        "Risky (a maneuver that is risky)",
        False,
        help="1s eat successes (unskilled or risky only): they remove 10s first.",
    ),
    fields.Bool(
        "initiative", "Initiative roll", False, help="For initiative rolls: 6s, 7s, 8s, 9s, and 10s are successes."
    ),
)
FIELDS = _SIDE_FIELDS + (
    fields.Int(
        "required",
        "Successes required",
        1,
        MAX_REQUIRED,
        1,
        help="They may also require multiple successes in some situations. (Not used in a contest.)",
    ),
    fields.Group(
        "opposed",
        "Contested by a roll of their own",
        _SIDE_FIELDS,
        help="Their successes reduce yours (and vice versa); consequences go to who has successes left.",
    ),
)

ACTIONS = [
    {
        "name": "spend_will",
        "label": "Expend a Will: +3 dice",
        "help": "You can expend will and roll extra dice after making a roll, but before declaring your successes. "
        'Only one will per action. Send {"spend_will": true}; in a contest add "side": "target" for '
        "the target's Will.",
    },
]

EXTRAS = {
    "threshold": THRESHOLD,
    "initiative_threshold": INITIATIVE_THRESHOLD,
    "will_dice": WILL_DICE,
    "max_dice": MAX_DICE,
    "tail": float(TAIL),
}


class Outcome(Enum):
    SUCCESS = "success"
    FAILURE = "failure"
    BOTCH = "botch"


class Winner(Enum):
    """Who has successes left after a contest."""

    ACTOR = "actor"
    TARGET = "target"
    TIE = "tie"


@dataclass(frozen=True, slots=True)
class Pool:
    """One side's request: dots, the storyteller's modifier, Will up front, and the kind of roll."""

    pool: int
    modifier: int = 0
    will: bool = False
    unskilled: bool = False
    risky: bool = False
    initiative: bool = False

    @classmethod
    def of(cls, req: dict) -> "Pool":
        return cls(**{f.name: req[f.name] for f in _SIDE_FIELDS})

    @property
    def threshold(self) -> int:
        return INITIATIVE_THRESHOLD if self.initiative else THRESHOLD

    @property
    def eats(self) -> bool:
        """1s eat successes only on unskilled or risky rolls."""
        return self.unskilled or self.risky

    def size(self, will: bool) -> int:
        """Dice in the pool: the modifier applies to the whole pool, Will's three dice included; never below 0."""
        return max(0, self.pool + self.modifier + (WILL_DICE if will else 0))

    @property
    def will_adds(self) -> int:
        """How many dice a Will adds (fewer than three when the modifier eats into them)."""
        return self.size(True) - self.size(False)


@dataclass(frozen=True, slots=True)
class Count:
    """The pool's faces after "1s eat successes": which dice were eaten, which 10s are left to roll again."""

    successes: int  # before the re-rolls
    ones: int
    ones_left: int
    tens_left: int
    eaten: tuple[int, ...]  # indexes into dice + will_dice: the 1s and the successes they removed

    @classmethod
    def of(cls, faces: tuple[int, ...], pool: Pool) -> "Count":
        ones = [i for i, f in enumerate(faces) if f == 1]
        # 10s first, the latest first (ten_again-25: by position, never by their re-rolls): the 10s left are then
        # always the earliest, so a Will rolled after the roll only ever adds 10s at the end of those left or eats
        # from the end (their re-rolls stay in order)
        hits = sorted((i for i, f in enumerate(faces) if f >= pool.threshold), key=lambda i: (-faces[i], -i))
        tens = sum(1 for f in faces if f == SIDES)
        eaten_hits = hits[: len(ones)] if pool.eats else []
        eaten_ones = ones[: len(eaten_hits)]
        return cls(
            successes=len(hits) - len(eaten_hits),
            ones=len(ones),
            ones_left=len(ones) - len(eaten_ones),
            tens_left=tens - sum(1 for i in eaten_hits if faces[i] == SIDES),
            eaten=tuple(sorted(eaten_ones + eaten_hits)),
        )


def chains(rerolls: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Split re-rolls into one chain per 10 left: each 10 rolled again rolls on until a die is not a 10."""
    out, current = [], []
    for f in rerolls:
        current.append(f)
        if f != SIDES:
            out.append(tuple(current))
            current = []
    if current:
        raise ValueError("a re-roll chain ends on a 10")
    return out


def whose(side: str, what: str) -> str:
    """Why a side's dice are rolled, in a player's words: "the pool", "the target's 10s roll again" (`side` is
    "actor" or "target" in a contest, "" otherwise)."""
    if side == "target":
        return _dice.theirs(f"the target's {what}")  # not the roller's own dice
    return f"the {side}'s {what}" if side else f"the {what}"


def roll_chains(dice: DiceSource, n: int, why: str = "the 10s roll again") -> tuple[int, ...]:
    """Roll an extra die for each of `n` 10s; 10s rolled on the extra die give more extra dice, and so on.

    Drawn round by round, as a table rolls them: one die for each of the `n` 10s, then one for each 10 among those,
    and so on; the faces come back as chains (each 10's extra dice in turn, as `rerolls` keeps them).
    """
    rolled: list[list[int]] = [[] for _ in range(n)]
    again = list(range(n))  # the chains whose last die is a 10 (or that have no die yet)
    while again:
        faces = _dice.roll(dice, len(again), SIDES, why)
        for chain, face in zip(again, faces):
            rolled[chain].append(face)
        again = [chain for chain, face in zip(again, faces) if face == SIDES]
    return tuple(f for chain in rolled for f in chain)


@dataclass(frozen=True, slots=True)
class Hand:
    """One side's roll: the pool's dice as rolled, the Will's dice, and the 10-again re-rolls in order."""

    pool: Pool
    dice: tuple[int, ...]
    will_dice: tuple[int, ...]
    will_spent: bool
    rerolls: tuple[int, ...]
    # derived once: the pool's faces after 1s eat, and the successes left with every re-roll at or above
    # the threshold added
    count: Count = field(init=False, repr=False, compare=False)
    successes: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        count = Count.of(self.dice + self.will_dice, self.pool)
        object.__setattr__(self, "count", count)
        object.__setattr__(
            self, "successes", count.successes + sum(1 for f in self.rerolls if f >= self.pool.threshold)
        )

    @property
    def ones_left(self) -> int:
        return self.count.ones_left

    @property
    def botch(self) -> bool:
        """No successes (left) but still 1s (left)."""
        return self.successes == 0 and self.ones_left > 0

    @property
    def botch_dice(self) -> list[int]:
        """On a botch, the 1s left that make it (indexes into dice + will_dice); else none."""
        faces = self.dice + self.will_dice
        return [i for i, f in enumerate(faces) if f == 1 and i not in self.count.eaten] if self.botch else []

    @property
    def marks(self) -> list[list[str]]:
        """Each die of dice + will_dice, marked as the page draws it: a 1 and the success it ate cancelled, a success
        kept, a 10 left exploded (it rolls again), Will's dice will and new (they join later), a botch's 1s botch."""
        eaten, botch, threshold = set(self.count.eaten), set(self.botch_dice), self.pool.threshold
        out = []
        for i, face in enumerate(self.dice + self.will_dice):
            marks = ["cancelled"] if i in eaten else ["kept"] if face >= threshold else []
            if face == SIDES and i not in eaten:
                marks.append("exploded")
            if i >= len(self.dice):
                marks += ["will", "new"]
            if i in botch:
                marks.append("botch")
            out.append(marks)
        return out

    @property
    def reroll_marks(self) -> list[list[str]]:
        """Each 10-again re-roll's marks: new (rolled after the pool), kept when a success, exploded when a 10."""
        return [
            ["new", *(["kept"] if f >= self.pool.threshold else []), *(["exploded"] if f == SIDES else [])]
            for f in self.rerolls
        ]

    @property
    def can_spend_will(self) -> bool:
        return not self.will_spent and self.pool.will_adds > 0


def roll_hand(pool: Pool, dice: DiceSource, side: str = "") -> Hand:
    """Roll one side (`side` names it in a contest): the pool's dice, then the Will's (when expended up front), then
    the 10s again, round by round."""
    base = _dice.roll(dice, pool.size(False), SIDES, whose(side, "pool"))
    will_dice = _dice.roll(dice, pool.will_adds, SIDES, whose(side, "Will dice")) if pool.will else ()
    tens_left = Count.of(base + will_dice, pool).tens_left
    return Hand(pool, base, will_dice, pool.will, roll_chains(dice, tens_left, whose(side, "10s roll again")))


def spend_will(hand: Hand, dice: DiceSource, side: str = "") -> tuple[Hand, list[tuple[int, ...]]]:
    """Add the Will's dice to the same roll; 10s keep their re-rolls while they are left, new 10s roll again (round
    by round). Draws the Will's dice, then the new 10s' extra dice.

    Returns the new hand and the re-roll chains dropped because a Will die's 1 now eats their 10.
    """
    will_dice = _dice.roll(dice, hand.pool.will_adds, SIDES, whose(side, "Will dice"))
    tens_left = Count.of(hand.dice + will_dice, hand.pool).tens_left
    old = chains(hand.rerolls)
    kept = old[:tens_left]
    again = roll_chains(dice, tens_left - len(kept), whose(side, "10s roll again"))
    rerolls = tuple(f for chain in kept for f in chain) + again
    return Hand(hand.pool, hand.dice, will_dice, True, rerolls), old[tens_left:]


@dataclass(frozen=True, slots=True)
class Roll:
    """A whole roll: the actor's hand, the successes required, and the contesting side's hand if any."""

    actor: Hand
    required: int
    target: Hand | None = None

    @property
    def net(self) -> int:
        """Successes left to the actor once the target's reduce them (negative: the target has some left)."""
        return self.actor.successes - (self.target.successes if self.target else 0)

    @property
    def outcome(self) -> Outcome | Winner:
        if self.target is not None:
            return Winner.ACTOR if self.net > 0 else Winner.TARGET if self.net < 0 else Winner.TIE
        if self.actor.botch:
            return Outcome.BOTCH
        return Outcome.SUCCESS if self.actor.successes >= self.required else Outcome.FAILURE

    @property
    def tone(self) -> Tone:
        """As the actor sees it: its botch is the worst, in a contest too; a tie leaves nobody successes (mixed)."""
        if self.actor.botch:
            return Tone.BOTCH
        return {
            Outcome.SUCCESS: Tone.SUCCESS,
            Outcome.FAILURE: Tone.FAILURE,
            Winner.ACTOR: Tone.SUCCESS,
            Winner.TARGET: Tone.FAILURE,
            Winner.TIE: Tone.MIXED,
        }[self.outcome]
