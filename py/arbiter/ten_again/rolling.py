"""Roll Conventions (003), one roll: a pool of d10s, 8s, 9s and 10s succeed, 1s eat successes, 10s roll again.

Scoop up a die per dot (the storyteller may remove or add dice; a Will adds three), count 8s, 9s
and 10s (6s and up for initiative), let 1s eat successes on unskilled or risky rolls (10s first),
roll an extra die for every 10 left, and so on. No successes but 1s left is a botch. In a contest
both sides roll and their successes reduce each other's.

Draw order (ten_again-24), as a table rolls: the pool, the Will's dice when expended up front, then the 10s again
round by round (a die for each 10 left after the 1s, then one for each 10 among those, and so on); in a contest the
actor's pool and its rounds, then the target's. A Will after the roll draws its dice, then the rounds of its new 10s.

Here: the procedure's inputs (FIELDS), its follow-up choice (ACTIONS) and published numbers (EXTRAS); the rules
over frozen values; each step in words; a roll as JSON, out and back in (every die checked); `roll` and `act`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from typing import Any

from .. import dice as _dice
from .. import fields
from ..dice import DiceSource
from ..errors import RulesError
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


# --- the rules over frozen values ---------------------------------------------------------------------


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

    @property
    def again(self) -> str:
        n_chains = len(chains(self.rerolls))
        return f", 10s rolled again: {n_chains}" if n_chains else ""

    def __str__(self) -> str:
        text = many(self.successes, "success", "successes") + self.again
        return text + (f", {_ones(self.ones_left)} left: botch" if self.botch else "")


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

    def __str__(self) -> str:
        a = self.actor
        if self.target is None:
            head = self.outcome.value.capitalize()
            if not a.dice and not a.will_dice:
                return f"{head}: no dice"
            if self.outcome is Outcome.BOTCH:
                return f"{head}: no successes, {_ones(a.ones_left)} left"
            return f"{head}: {many(a.successes, 'success', 'successes')} ({self.required} required){a.again}"
        t = self.target
        if self.outcome is Winner.TIE:
            return f"Tie: {a.successes} to {t.successes} successes, none left"
        who = "Actor" if self.net > 0 else "Target"
        return (
            f"{who} wins: {a.successes} to {t.successes} successes, {many(abs(self.net), 'success', 'successes')} left"
        )


# --- words ----------------------------------------------------------------------------------------------


def many(n: int, one: str, more: str) -> str:
    return f"{n if n else 'no'} {one if n == 1 else more}"


def dice_count(n: int) -> str:
    """ "1 die", "3 dice"."""
    return f"{n} {'die' if n == 1 else 'dice'}"


def _ones(n: int) -> str:
    return "a 1" if n == 1 else f"{n if n else 'no'} 1s"


def _signed(n: int) -> str:
    return f"+ {n}" if n >= 0 else f"- {-n}"


def _side_steps(hand: Hand, who: str, dropped: list[tuple[int, ...]] = ()) -> list[str]:
    p = hand.pool
    steps = []
    total = p.pool + p.modifier + (WILL_DICE if hand.will_spent else 0)
    text = f"{who}Pool: {p.pool} dot{'' if p.pool == 1 else 's'}"
    if p.modifier:
        text += f" {_signed(p.modifier)}"
    if hand.will_spent:
        text += f" + {WILL_DICE} Will"
    steps.append(f"{text} = {many(total, 'die', 'dice')}" if total > 0 else f"{text} = {total}: no dice")
    if hand.dice:
        steps.append(f"{who}{many(len(hand.dice), 'die', 'dice')}: {' '.join(map(str, hand.dice))}")
    if hand.will_dice:
        when = "up front" if p.will else "after the roll"
        steps.append(
            f"{who}Will expended {when}, {many(len(hand.will_dice), 'die', 'dice')}: "
            f"{' '.join(map(str, hand.will_dice))}"
        )
    if not hand.dice and not hand.will_dice:
        return steps
    faces = hand.dice + hand.will_dice
    hits = sum(1 for f in faces if f >= p.threshold)
    which = "6s, 7s, 8s, 9s and 10s (initiative)" if p.initiative else "8s, 9s and 10s"
    steps.append(f"{who}{which} are successes: {hits}")
    c = hand.count
    if p.eats and c.ones:
        eaten = [faces[i] for i in c.eaten if faces[i] != 1]
        kind = "unskilled" if p.unskilled else "risky"
        if eaten:
            verb = "removes" if len(eaten) == 1 else "remove"
            steps.append(
                f"{who}{kind}: 1s eat successes, 10s first: {_ones(len(eaten))} {verb} "
                f"{' '.join(map(str, eaten))}; {_ones(c.ones_left)} left"
            )
        else:
            steps.append(f"{who}{kind}: 1s eat successes, but there are none to eat; {_ones(c.ones_left)} left")
    elif c.ones:
        steps.append(f"{who}neither unskilled nor risky: {_ones(c.ones)} eat{'s' if c.ones == 1 else ''} nothing")
    for chain in dropped:
        steps.append(
            f"{who}a Will 1 ate a 10 before it could roll again: its re-roll "
            f"{' → '.join(map(str, chain))} no longer counts"
        )
    for chain in chains(hand.rerolls):
        gained = sum(1 for f in chain if f >= p.threshold)
        steps.append(
            f"{who}10 rolled again → {' → '.join(map(str, chain))}: +{gained} success{'' if gained == 1 else 'es'}"
        )
    return steps


def _steps(r: Roll, dropped: dict[str, list] | None = None) -> list[str]:
    dropped = dropped or {}
    if r.target is None:
        steps = _side_steps(r.actor, "", dropped.get("actor", []))
        a = r.actor
        if not a.dice and not a.will_dice:
            steps.append("no dice: failure")
        elif r.outcome is Outcome.BOTCH:
            steps.append(f"no successes left but {_ones(a.ones_left)} left: botch")
        else:
            steps.append(f"{many(a.successes, 'success', 'successes')} ({r.required} required): {r.outcome.value}")
        return steps
    steps = _side_steps(r.actor, "Actor: ", dropped.get("actor", []))
    steps += _side_steps(r.target, "Target: ", dropped.get("target", []))
    for who, hand in (("Actor", r.actor), ("Target", r.target)):
        if hand.botch:
            steps.append(f"{who}: no successes but {_ones(hand.ones_left)} left: botch")
    if r.required > 1:  # ten_again-8
        steps.append(f"{r.required} successes required: not used in a contest (who has successes left decides)")
    a, t = r.actor.successes, r.target.successes
    steps.append(
        f"{a} - {t} = {r.net}: "
        + {
            Winner.ACTOR: "the actor has successes left",
            Winner.TARGET: "the target has successes left",
            Winner.TIE: "nobody has successes left: tie",
        }[r.outcome]
    )
    return steps


# --- JSON -----------------------------------------------------------------------------------------------


def _hand_json(hand: Hand) -> dict:
    return {
        "dice": list(hand.dice),
        "will_dice": list(hand.will_dice),
        "will_spent": hand.will_spent,
        "rerolls": list(hand.rerolls),
        "successes": hand.successes,
        "ones_left": hand.ones_left,
        "botch": hand.botch,
        "botch_dice": hand.botch_dice,
        "eaten": list(hand.count.eaten),
        "marks": hand.marks,
        "reroll_marks": hand.reroll_marks,
    }


def _choices(r: Roll) -> list[dict]:
    out = []
    for side, hand in (("actor", r.actor), ("target", r.target)):
        if hand is not None and hand.can_spend_will:
            action = {"spend_will": True} if side == "actor" else {"spend_will": True, "side": "target"}
            label = "Expend a Will" if side == "actor" else "Target expends a Will"
            out.append(
                {
                    "name": "spend_will",
                    "label": f"{label}: +{dice_count(hand.pool.will_adds)}",
                    "side": side,
                    "dice": hand.pool.will_adds,
                    "action": action,
                }
            )
    return out


def roll_to_json(r: Roll, request: dict, dropped: dict | None = None) -> dict:
    out = {"system": ID, "request": request, **_hand_json(r.actor)}
    if r.target is not None:
        out["target"] = _hand_json(r.target)
        out["net"] = r.net
    out.update(
        outcome=r.outcome.value, steps=_steps(r, dropped), summary=str(r), tone=r.tone.value, choices=_choices(r)
    )
    return out


def request_json(req: dict) -> dict:
    out = dict(req)
    out["opposed"] = dict(req["opposed"]) if req["opposed"] is not None else None
    return out


def check_will(req: dict) -> dict:
    """`req` unless it expends a Will that adds no dice (dots + modifier + 3 ≤ 0, either side): such a Will is
    neither taken nor charged (ten_again-7)."""
    for path, side in (("will", req), ("opposed.will", req["opposed"])):
        if side is not None and side["will"] and Pool.of(side).will_adds == 0:
            total = side["pool"] + side["modifier"] + WILL_DICE
            raise RulesError(
                f"'{path}' is not allowed: a Will would add no dice (dots {side['pool']} "
                f"{_signed(side['modifier'])} + {WILL_DICE} = {total}), so none is expended",
                says=f"is not allowed: a Will would add no dice (dots {side['pool']} "
                f"{_signed(side['modifier'])} + {WILL_DICE} = {total})",
            )
    return req


def roll(req: dict, dice: DiceSource) -> dict:
    """Roll the actor's pool (and the contesting side's, when opposed): every die, each step, the outcome."""
    check_will(req)
    contest = req["opposed"] is not None
    actor = roll_hand(Pool.of(req), dice, "actor" if contest else "")
    target = roll_hand(Pool.of(req["opposed"]), dice, "target") if contest else None
    return roll_to_json(Roll(actor, req["required"], target), request_json(req))


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _faces(value: Any, path: str, count: int | None) -> tuple[int, ...]:
    ok = isinstance(value, list) and all(_is_int(f) and 1 <= f <= SIDES for f in value)
    if not ok or (count is not None and len(value) != count):
        many = f"{count} faces" if count is not None else "faces"
        raise RulesError(f"'{path}' must be a list of {many} from 1 to {SIDES}, got {value!r:.100}")
    return tuple(value)


def _hand_from_json(data: Any, pool: Pool, path: str) -> Hand:
    """Rebuild a hand from a roll dict, refusing anything the rules could not have rolled."""
    if not isinstance(data, dict):
        raise RulesError(f"'{path}' must be an object with dice, will_dice, will_spent and rerolls")
    spent = data.get("will_spent")
    if not isinstance(spent, bool) or (pool.will and not spent):
        raise RulesError(
            f"'{path}.will_spent' must be true or false (true when the request expends Will), got {spent!r}"
        )
    base = _faces(data.get("dice"), f"{path}.dice", pool.size(False))
    will_dice = _faces(data.get("will_dice"), f"{path}.will_dice", pool.will_adds if spent else 0)
    rerolls = _faces(data.get("rerolls"), f"{path}.rerolls", None)
    tens_left = Count.of(base + will_dice, pool).tens_left
    try:
        n_chains = len(chains(rerolls))
    except ValueError:
        n_chains = -1
    if n_chains != tens_left:
        raise RulesError(
            f"'{path}.rerolls' must hold one chain per 10 left ({tens_left}), each rolling on "
            f"until a die is not a 10, got {list(rerolls)!r:.100}"
        )
    return Hand(pool, base, will_dice, spent, rerolls)


def roll_from_json(roll: Any, path: str = "roll") -> tuple[Roll, dict]:
    """Rebuild a roll from its dict (the request re-parsed, every die checked): the Roll and its parsed request."""
    if not isinstance(roll, dict):
        raise RulesError(f"'{path}' must be a ten_again roll as returned by roll() or act()")
    req = fields.parse(FIELDS, roll.get("request"), f"{path}.request")
    actor = _hand_from_json(roll, Pool.of(req), path)
    target = None
    if req["opposed"] is not None:
        target = _hand_from_json(roll.get("target"), Pool.of(req["opposed"]), f"{path}.target")
    return Roll(actor, req["required"], target), req


def did(roll: dict, action: dict, after: dict) -> str:
    """What a follow-up did, in a player's words for the log: "Expended a Will: +3 dice (9 2 10)", or the target's."""
    side = action.get("side", "actor")
    hand = after if side == "actor" else after["target"]
    faces = hand.get("will_dice") or []
    words = f"xpended a Will: +{len(faces)} {'die' if len(faces) == 1 else 'dice'} ({' '.join(map(str, faces))})"
    return f"E{words}" if side == "actor" else f"The target e{words}"


def will_side(r: Roll, action: Any) -> str:
    """The side ("actor" or "target") whose Will `action` expends after the roll, refused as `act` refuses it."""
    if not isinstance(action, dict) or "spend_will" not in action or set(action) - {"spend_will", "side"}:
        raise RulesError(
            f"'action' must be one of: {{\"spend_will\": true}} or, in a contest, "
            f'{{"spend_will": true, "side": "target"}}; got {action!r:.100}'
        )
    if action["spend_will"] is not True:
        raise RulesError(f"'action.spend_will' must be true, got {action['spend_will']!r}")
    side = action.get("side", "actor")
    sides = ("actor", "target") if r.target is not None else ("actor",)
    if side not in sides:
        raise RulesError(f"'action.side' must be one of {', '.join(sides)}, got {side!r}")
    hand = r.actor if side == "actor" else r.target
    if hand.will_spent:
        raise RulesError(
            f"'action.spend_will': the {side} already expended a Will on this roll; "
            f"you can only expend one will per action"
        )
    if hand.pool.will_adds == 0:
        raise RulesError(
            f"'action.spend_will': a Will adds no dice to the {side}'s pool "
            f"(pool + modifier + {WILL_DICE} is {hand.pool.pool + hand.pool.modifier + WILL_DICE})"
        )
    return side


def act(roll: dict, action: dict, dice: DiceSource) -> dict:
    """Expend a Will after the roll: its dice join the same roll (same result as rolling them up front)."""
    r, req = roll_from_json(roll)
    side = will_side(r, action)
    actor, target = r.actor, r.target
    new, lost = spend_will(actor if side == "actor" else target, dice, side if target is not None else "")
    r = Roll(new, req["required"], target) if side == "actor" else Roll(actor, req["required"], new)
    return roll_to_json(r, request_json(req), {side: lost})
