"""Roll Conventions (003): a pool of d10s, 8s, 9s and 10s succeed, 1s eat successes, 10s roll again.

Scoop up a die per dot (the storyteller may remove or add dice; a Will adds three), count 8s, 9s
and 10s (6s and up for initiative), let 1s eat successes on unskilled or risky rolls (10s first),
roll an extra die for every 10 left, and so on. No successes but 1s left is a botch. In a contest
both sides roll and their successes reduce each other's.

Odds are exact. One side's successes have the generating function N(w) / (10**n * w**n) with
w = 1 - x/10 (each 10 left adds x * G(x), G(x) = (a + c*x) / (10 - x), a chain of re-rolls), so the
distribution is a polynomial part plus negative-binomial parts; a contest sums those pairwise in
closed form. Every coefficient is an integer until the final `Fraction`.

Table state (`TABLE`, for api.table): Will's maximum, expending it, nights of rest and Will rolls; ongoing
struggles turn by turn, and their exact odds over turns as a Markov chain on the successes accumulated.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from functools import cache
from math import comb, factorial
from operator import mul
from typing import Any

from . import dice as _dice
from . import fields
from .dice import DiceSource
from .errors import RulesError

ID = "ten_again"
TITLE = "Roll Conventions: d10 pool, 10s roll again"
SEED = "003_afded177ba302d96.txt"

SIDES = 10
THRESHOLD = 8
INITIATIVE_THRESHOLD = 6
WILL_DICE = 3
MAX_DOTS, MIN_MODIFIER, MAX_MODIFIER, MAX_REQUIRED = 30, -10, 10, 20
MAX_DICE = MAX_DOTS + MAX_MODIFIER + WILL_DICE
TAIL = Fraction(1, 10**15)  # the successes table stops once less than this is left beyond it

_SIDE_FIELDS = (
    fields.Int("pool", "Dots in the statistic(s)", 0, MAX_DOTS, 3,
               help="Scoop up as many dice as you’ve got dots in the statistic(s) named for the type of roll "
                    "you’re doing."),
    fields.Int("modifier", "Dice the storyteller removes or adds", MIN_MODIFIER, MAX_MODIFIER, 0,
               help="The storyteller may remove or add dice to your pool depending on the circumstances."),
    fields.Bool("will", "Expend a Will (+3 dice)", False,
                help="You can add three dice to your pool by expending a single will point. "
                     "You can only expend one will per action this way."),
    fields.Bool("unskilled", "Unskilled (a skill in which you are untrained)", False,
                help="1s eat successes (unskilled or risky only): they remove 10s first."),
    fields.Bool("risky", "Risky (a maneuver that is risky)", False,
                help="1s eat successes (unskilled or risky only): they remove 10s first."),
    fields.Bool("initiative", "Initiative roll", False,
                help="For initiative rolls: 6s, 7s, 8s, 9s, and 10s are successes."),
)
FIELDS = _SIDE_FIELDS + (
    fields.Int("required", "Successes required", 1, MAX_REQUIRED, 1,
               help="They may also require multiple successes in some situations. (Not used in a contest.)"),
    fields.Group("opposed", "Contested by a roll of their own", _SIDE_FIELDS,
                 help="Their successes reduce yours (and vice versa); consequences go to who has successes left."),
)

ACTIONS = [
    {"name": "spend_will", "label": "Expend a Will: +3 dice",
     "help": "You can expend will and roll extra dice after making a roll, but before declaring your successes. "
             "Only one will per action. Send {\"spend_will\": true}; in a contest add \"side\": \"target\" for "
             "the target's Will."},
]

EXTRAS = {"threshold": THRESHOLD, "initiative_threshold": INITIATIVE_THRESHOLD, "will_dice": WILL_DICE,
          "max_dice": MAX_DICE, "tail": float(TAIL)}


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
        # 10s first, the latest first: the 10s left are then always the earliest, so a Will rolled after the
        # roll only ever adds 10s at the end of those left or eats from the end (their re-rolls stay in order)
        hits = sorted((i for i, f in enumerate(faces) if f >= pool.threshold), key=lambda i: (-faces[i], -i))
        tens = sum(1 for f in faces if f == SIDES)
        eaten_hits = hits[:len(ones)] if pool.eats else []
        eaten_ones = ones[:len(eaten_hits)]
        return cls(successes=len(hits) - len(eaten_hits), ones=len(ones), ones_left=len(ones) - len(eaten_ones),
                   tens_left=tens - sum(1 for i in eaten_hits if faces[i] == SIDES),
                   eaten=tuple(sorted(eaten_ones + eaten_hits)))


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


def roll_chains(dice: DiceSource, n: int) -> tuple[int, ...]:
    """Roll an extra die for each of `n` 10s; 10s rolled on the extra die give more extra dice, and so on."""
    out: list[int] = []
    for _ in range(n):
        while True:
            out.append(dice.randint(1, SIDES))
            if out[-1] != SIDES:
                break
    return tuple(out)


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
        object.__setattr__(self, "successes",
                           count.successes + sum(1 for f in self.rerolls if f >= self.pool.threshold))

    @property
    def ones_left(self) -> int:
        return self.count.ones_left

    @property
    def botch(self) -> bool:
        """No successes (left) but still 1s (left)."""
        return self.successes == 0 and self.ones_left > 0

    @property
    def can_spend_will(self) -> bool:
        return not self.will_spent and self.pool.will_adds > 0

    @property
    def again(self) -> str:
        n_chains = len(chains(self.rerolls))
        return f", 10s rolled again: {n_chains}" if n_chains else ""

    def __str__(self) -> str:
        text = _many(self.successes, "success", "successes") + self.again
        return text + (f", {_ones(self.ones_left)} left: botch" if self.botch else "")


def roll_hand(pool: Pool, dice: DiceSource) -> Hand:
    """Roll one side: the pool's dice, then the Will's (when expended up front), then the 10s again."""
    base = _dice.roll(dice, pool.size(False), SIDES)
    will_dice = _dice.roll(dice, pool.will_adds, SIDES) if pool.will else ()
    tens_left = Count.of(base + will_dice, pool).tens_left
    return Hand(pool, base, will_dice, pool.will, roll_chains(dice, tens_left))


def spend_will(hand: Hand, dice: DiceSource) -> tuple[Hand, list[tuple[int, ...]]]:
    """Add the Will's dice to the same roll; 10s keep their re-rolls while they are left, new 10s roll again.

    Returns the new hand and the re-roll chains dropped because a Will die's 1 now eats their 10.
    """
    will_dice = _dice.roll(dice, hand.pool.will_adds, SIDES)
    tens_left = Count.of(hand.dice + will_dice, hand.pool).tens_left
    old = chains(hand.rerolls)
    kept = old[:tens_left]
    rerolls = tuple(f for chain in kept for f in chain) + roll_chains(dice, tens_left - len(kept))
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

    def __str__(self) -> str:
        a = self.actor
        if self.target is None:
            head = self.outcome.value.capitalize()
            if not a.dice and not a.will_dice:
                return f"{head}: no dice"
            if self.outcome is Outcome.BOTCH:
                return f"{head}: no successes, {_ones(a.ones_left)} left"
            return f"{head}: {_many(a.successes, 'success', 'successes')} ({self.required} required){a.again}"
        t = self.target
        if self.outcome is Winner.TIE:
            return f"Tie: {a.successes} to {t.successes} successes, none left"
        who = "Actor" if self.net > 0 else "Target"
        return (f"{who} wins: {a.successes} to {t.successes} successes, "
                f"{_many(abs(self.net), 'success', 'successes')} left")


# --- words ----------------------------------------------------------------------------------------------

def _many(n: int, one: str, more: str) -> str:
    return f"{n if n else 'no'} {one if n == 1 else more}"


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
    steps.append(f"{text} = {_many(total, 'die', 'dice')}" if total > 0 else f"{text} = {total}: no dice")
    if hand.dice:
        steps.append(f"{who}{_many(len(hand.dice), 'die', 'dice')}: {' '.join(map(str, hand.dice))}")
    if hand.will_dice:
        when = "up front" if p.will else "after the roll"
        steps.append(f"{who}Will expended {when}, {_many(len(hand.will_dice), 'die', 'dice')}: "
                     f"{' '.join(map(str, hand.will_dice))}")
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
            steps.append(f"{who}{kind}: 1s eat successes, 10s first: {_ones(len(eaten))} {verb} "
                         f"{' '.join(map(str, eaten))}; {_ones(c.ones_left)} left")
        else:
            steps.append(f"{who}{kind}: 1s eat successes, but there are none to eat; {_ones(c.ones_left)} left")
    elif c.ones:
        steps.append(f"{who}neither unskilled nor risky: {_ones(c.ones)} eat{'s' if c.ones == 1 else ''} nothing")
    for chain in dropped:
        steps.append(f"{who}a Will 1 ate a 10 before it could roll again: its re-roll "
                     f"{' → '.join(map(str, chain))} no longer counts")
    for chain in chains(hand.rerolls):
        gained = sum(1 for f in chain if f >= p.threshold)
        steps.append(f"{who}10 rolled again → {' → '.join(map(str, chain))}: "
                     f"+{gained} success{'' if gained == 1 else 'es'}")
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
            steps.append(f"{_many(a.successes, 'success', 'successes')} ({r.required} required): {r.outcome.value}")
        return steps
    steps = _side_steps(r.actor, "Actor: ", dropped.get("actor", []))
    steps += _side_steps(r.target, "Target: ", dropped.get("target", []))
    for who, hand in (("Actor", r.actor), ("Target", r.target)):
        if hand.botch:
            steps.append(f"{who}: no successes but {_ones(hand.ones_left)} left: botch")
    a, t = r.actor.successes, r.target.successes
    steps.append(f"{a} - {t} = {r.net}: " + {Winner.ACTOR: "the actor has successes left",
                                              Winner.TARGET: "the target has successes left",
                                              Winner.TIE: "nobody has successes left: tie"}[r.outcome])
    return steps


# --- JSON -----------------------------------------------------------------------------------------------


def _hand_json(hand: Hand) -> dict:
    return {"dice": list(hand.dice), "will_dice": list(hand.will_dice), "will_spent": hand.will_spent,
            "rerolls": list(hand.rerolls), "successes": hand.successes, "ones_left": hand.ones_left,
            "botch": hand.botch, "eaten": list(hand.count.eaten)}


def _choices(r: Roll) -> list[dict]:
    out = []
    for side, hand in (("actor", r.actor), ("target", r.target)):
        if hand is not None and hand.can_spend_will:
            action = {"spend_will": True} if side == "actor" else {"spend_will": True, "side": "target"}
            label = "Expend a Will" if side == "actor" else "Target expends a Will"
            out.append({"name": "spend_will", "label": f"{label}: +{hand.pool.will_adds} dice", "side": side,
                        "dice": hand.pool.will_adds, "action": action})
    return out


def _to_json(r: Roll, request: dict, dropped: dict | None = None) -> dict:
    out = {"system": ID, "request": request, **_hand_json(r.actor)}
    if r.target is not None:
        out["target"] = _hand_json(r.target)
        out["net"] = r.net
    out.update(outcome=r.outcome.value, steps=_steps(r, dropped), summary=str(r), choices=_choices(r))
    return out


def _request_json(req: dict) -> dict:
    out = dict(req)
    out["opposed"] = dict(req["opposed"]) if req["opposed"] is not None else None
    return out


def roll(req: dict, dice: DiceSource) -> dict:
    """Roll the actor's pool (and the contesting side's, when opposed): every die, each step, the outcome."""
    actor = roll_hand(Pool.of(req), dice)
    target = roll_hand(Pool.of(req["opposed"]), dice) if req["opposed"] is not None else None
    return _to_json(Roll(actor, req["required"], target), _request_json(req))


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
        raise RulesError(f"'{path}.will_spent' must be true or false (true when the request expends Will), "
                         f"got {spent!r}")
    base = _faces(data.get("dice"), f"{path}.dice", pool.size(False))
    will_dice = _faces(data.get("will_dice"), f"{path}.will_dice", pool.will_adds if spent else 0)
    rerolls = _faces(data.get("rerolls"), f"{path}.rerolls", None)
    tens_left = Count.of(base + will_dice, pool).tens_left
    try:
        n_chains = len(chains(rerolls))
    except ValueError:
        n_chains = -1
    if n_chains != tens_left:
        raise RulesError(f"'{path}.rerolls' must hold one chain per 10 left ({tens_left}), each rolling on "
                         f"until a die is not a 10, got {list(rerolls)!r:.100}")
    return Hand(pool, base, will_dice, spent, rerolls)


def _roll_from_json(roll: Any, path: str = "roll") -> tuple[Roll, dict]:
    """Rebuild a roll from its dict (the request re-parsed, every die checked): the Roll and its parsed request."""
    if not isinstance(roll, dict):
        raise RulesError(f"'{path}' must be a ten_again roll as returned by roll() or act()")
    req = fields.parse(FIELDS, roll.get("request"), f"{path}.request")
    actor = _hand_from_json(roll, Pool.of(req), path)
    target = None
    if req["opposed"] is not None:
        target = _hand_from_json(roll.get("target"), Pool.of(req["opposed"]), f"{path}.target")
    return Roll(actor, req["required"], target), req


def act(roll: dict, action: dict, dice: DiceSource) -> dict:
    """Expend a Will after the roll: its dice join the same roll (same result as rolling them up front)."""
    r, req = _roll_from_json(roll)
    actor, target = r.actor, r.target
    if not isinstance(action, dict) or "spend_will" not in action or set(action) - {"spend_will", "side"}:
        raise RulesError(f"'action' must be one of: {{\"spend_will\": true}} or, in a contest, "
                         f"{{\"spend_will\": true, \"side\": \"target\"}}; got {action!r:.100}")
    if action["spend_will"] is not True:
        raise RulesError(f"'action.spend_will' must be true, got {action['spend_will']!r}")
    side = action.get("side", "actor")
    sides = ("actor", "target") if target is not None else ("actor",)
    if side not in sides:
        raise RulesError(f"'action.side' must be one of {', '.join(sides)}, got {side!r}")
    hand = actor if side == "actor" else target
    if hand.will_spent:
        raise RulesError(f"'action.spend_will': the {side} already expended a Will on this roll; "
                         f"you can only expend one will per action")
    if hand.pool.will_adds == 0:
        raise RulesError(f"'action.spend_will': a Will adds no dice to the {side}'s pool "
                         f"(pool + modifier + {WILL_DICE} is {hand.pool.pool + hand.pool.modifier + WILL_DICE})")
    new, lost = spend_will(hand, dice)
    r = Roll(new, req["required"], target) if side == "actor" else Roll(actor, req["required"], new)
    return _to_json(r, _request_json(req), {side: lost})


# --- exact odds -----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Law:
    """One side's successes as integers: P(j) = series[j] / 10**(n + j), botch = botch / 10**n.

    The first `listed` terms leave less than TAIL beyond them (the series may hold more). The partial
    fractions series[j] = poly[j] + sum_k principal[k-1] * C(j + k - 1, k - 1), with `poly` finite, are what
    a contest needs to sum the infinite tails exactly.
    """

    n: int
    series: tuple[int, ...]
    poly: tuple[int, ...]
    principal: tuple[int, ...]
    botch: int
    listed: int

    def term(self, j: int) -> int:
        """series[j], computed from the partial fractions where the series stopped short."""
        if j < len(self.series):
            return self.series[j]
        return (self.poly[j] if j < len(self.poly) else 0) + sum(
            a * comb(j + k - 1, k - 1) for k, a in enumerate(self.principal, 1))

    def p(self, j: int) -> Fraction:
        return Fraction(self.term(j), 10 ** (self.n + j))


def _binomial_poly(c0: int, c1: int, m: int) -> list[int]:
    """Coefficients of (c0 + c1 * v)**m."""
    return [comb(m, i) * c0 ** (m - i) * c1 ** i for i in range(m + 1)]


def _numerator(n: int, threshold: int, eats: bool) -> tuple[list[int], int]:
    """N(w) with successes' generating function N(w) / (10**n * w**n), w = 1 - x/10; and the botch count."""
    a, c, blank = threshold - 1, SIDES - threshold, threshold - 2  # misses (1s too), other hits, plain misses
    if not eats:
        # every die, re-rolls included, has G(x) = (a + c x) / (10 - x) = (a + 10c - 10c w) / (10 w)
        return _binomial_poly(a + 10 * c, -10 * c, n), a ** n - blank ** n
    # u ones, t tens, m other dice (c hits and `blank` misses each): weight n! / (u! t! m!).
    # P[r] sums the weights over t - u = r (or u - t = r) as a polynomial in the hits among the m dice.
    fact = [factorial(i) for i in range(n + 1)]
    bx = [_binomial_poly(blank, c, m) for m in range(n + 1)]            # (blank + c x)**m
    bw = [_binomial_poly(blank + 10 * c, -10 * c, m) for m in range(n + 1)]  # the same in w
    finite = [0] * (n + 1)  # successes when no 10 is left: u >= t, the u - t spare 1s eat other hits
    botch = 0
    tens_w = [[0] for _ in range(n + 1)]  # r >= 1 tens left: weight polynomial in w
    for r in range(n + 1):
        px = [0] * (n - r + 1)
        pw = [0] * (n - r + 1)
        for u in range(0, (n - r) // 2 + 1):
            m = n - 2 * u - r
            weight = fact[n] // (fact[u] * fact[u + r] * fact[m])
            for i, v in enumerate(bx[m]):
                px[i] += weight * v
            if r:
                for i, v in enumerate(bw[m]):
                    pw[i] += weight * v
        tens_w[r] = pw
        for s, v in enumerate(px):  # r spare 1s: s hits leave max(0, s - r); fewer hits than 1s botch
            finite[max(0, s - r)] += v
            if s < r:
                botch += v
    # w-basis of the finite part: x = 10 (1 - w)
    finite_w = [0] * (n + 1)
    for k, v in enumerate(finite):
        if v:
            for i, b in enumerate(_binomial_poly(10, -10, k)):
                finite_w[i] += v * b
    tens_w[0] = finite_w
    # sum_r Q_r (E/w)**r, E = (1 - w)(a + 10c - 10c w) the 10 and its chain; times w**n, by Horner
    e0, e1, e2 = a + 10 * c, -(a + 20 * c), 10 * c
    acc = list(tens_w[n])
    for r in range(n - 1, -1, -1):
        nxt = [0] * (len(acc) + 2)
        for i, v in enumerate(acc):
            if v:
                nxt[i] += e0 * v
                nxt[i + 1] += e1 * v
                nxt[i + 2] += e2 * v
        for i, v in enumerate(tens_w[r]):
            nxt[n - r + i] += v
        acc = nxt
    while len(acc) > 1 and acc[-1] == 0:
        acc.pop()
    return acc, botch


def law(n: int, threshold: int, eats: bool, length: int) -> Law:
    """One side's exact law, with at least `length` terms of the series and none missing above 1 - TAIL."""
    num, botch = _numerator(n, threshold, eats)
    principal = tuple(num[n - k] if n - k < len(num) else 0 for k in range(1, n + 1))
    high = num[n:]  # polynomial part in w; in y = x/10, w = 1 - y
    poly = tuple((-1) ** i * sum(v * comb(j, i) for j, v in enumerate(high) if j >= i) for i in range(len(high)))
    size = max(length, n + 24)
    while True:
        gamma = [0] * size  # sum_k principal_k / (1 - y)**k, by Horner: prefix sums
        for k in range(n, 0, -1):
            gamma[0] += principal[k - 1]
            run = 0
            for j in range(size):
                run += gamma[j]
                gamma[j] = run
        series = [g + (poly[j] if j < len(poly) else 0) for j, g in enumerate(gamma)]
        # keep terms until less than TAIL is left: 10**(n+j) - sum_{i<=j} series[i] 10**(j-i) < 10**(n+j) * TAIL
        cum, keep = 0, None
        for j, v in enumerate(series):
            cum = cum * 10 + v
            if (10 ** (n + j) - cum) * TAIL.denominator < 10 ** (n + j):
                keep = j + 1
                break
        if keep is not None:
            return Law(n, tuple(series[:max(keep, length)]), poly, principal, botch, keep)
        size *= 2


def _law(pool: Pool, will: bool, length: int = 0) -> Law:
    return law(pool.size(will), pool.threshold, pool.eats, length)


@cache
def _nb_table() -> tuple[list[list[int]], list[list[int]]]:
    """pos and zero of U**k V**l times 891**(k + l): U = 1/(1 - x/10), V = 1/(1 - 1/(10x)).

    U V = 100/99 (U + V - 1), so each product splits into pure powers, whose positive and constant
    parts are known: U**k has constant term 1 and sums to (10/9)**k.
    """
    size = MAX_DICE + 1
    pos = [[0] * size for _ in range(size)]
    zero = [[0] * size for _ in range(size)]
    for k in range(size):
        pos[k][0] = 99 ** k * (10 ** k - 9 ** k)
        zero[k][0] = 891 ** k
    for l in range(size):
        zero[0][l] = 891 ** l
    for k in range(1, size):
        for l in range(1, size):
            pos[k][l] = 900 * (pos[k][l - 1] + pos[k - 1][l] - 891 * pos[k - 1][l - 1])
            zero[k][l] = 900 * (zero[k][l - 1] + zero[k - 1][l] - 891 * zero[k - 1][l - 1])
    return pos, zero


def contest(actor: Law, target: Law) -> tuple[Fraction, Fraction]:
    """Exact P(actor's successes > target's) and P(equal), the infinite tails summed in closed form."""
    dp = max(len(actor.poly), len(target.poly), 1)
    scale = 10 ** dp  # y-coefficient j over 10**j, brought to a common 10**(2 dp)
    a_ser = [actor.term(j) for j in range(dp)]
    t_gamma = [target.term(j) - (target.poly[j] if j < len(target.poly) else 0) for j in range(dp)]
    pos = zero = 0
    # the target's polynomial part against all of the actor: sum_j pT_j (10**nA - sum_{i<=j} a_i/10**i)
    cum = 0  # sum_{i<=j} a_i 10**(dp - i)
    for j, pt in enumerate(target.poly):
        cum += a_ser[j] * 10 ** (dp - j)
        pos += pt * 10 ** (dp - j) * (10 ** actor.n * scale - cum)
        zero += pt * a_ser[j] * 10 ** (2 * (dp - j))
    # the actor's polynomial part against the target's principal part
    run = 0  # sum_{j<i} gammaT_j 10**(dp - j)
    for i, pa in enumerate(actor.poly):
        pos += pa * 10 ** (dp - i) * run
        zero += pa * t_gamma[i] * 10 ** (2 * (dp - i))
        run += t_gamma[i] * 10 ** (dp - i)
    # principal against principal: negative binomials, from the table
    table_pos, table_zero = _nb_table()
    top = actor.n + target.n
    pp = pz = 0
    for k, ak in enumerate(actor.principal, 1):
        if ak:
            for l, tl in enumerate(target.principal, 1):
                w = ak * tl * 891 ** (top - k - l)
                pp += w * table_pos[k][l]
                pz += w * table_zero[k][l]
    denominator = 10 ** top
    p = Fraction(pos, scale * scale * denominator) + Fraction(pp, 891 ** top * denominator)
    z = Fraction(zero, scale * scale * denominator) + Fraction(pz, 891 ** top * denominator)
    return p, z


def _successes(lw: Law) -> dict[str, Fraction]:
    return {str(j): lw.p(j) for j in range(lw.listed)}


def odds(req: dict) -> dict:
    """Exact odds: outcomes, and the successes left (listed until less than 1e-15 lies beyond).

    Unopposed: {"outcomes": {success, failure, botch}, "successes": {"0": p, ...}}. In a contest:
    {"outcomes": {actor, target, tie}, "successes": {...}, "target_successes": {...},
    "botch": {"actor": p, "target": p}}, the successes being each side's own, before the other's reduce them.
    """
    actor = Pool.of(req)
    if req["opposed"] is None:
        lw = _law(actor, actor.will, req["required"])
        below = sum((lw.p(j) for j in range(req["required"])), Fraction(0))
        botch = Fraction(lw.botch, 10 ** lw.n)
        success = 1 - below
        return {"outcomes": {"success": success, "failure": 1 - success - botch, "botch": botch},
                "successes": _successes(lw)}
    target = Pool.of(req["opposed"])
    la, lt = _law(actor, actor.will), _law(target, target.will)
    win, tie = contest(la, lt)
    return {"outcomes": {"actor": win, "target": 1 - win - tie, "tie": tie},
            "successes": _successes(la), "target_successes": _successes(lt),
            "botch": {"actor": Fraction(la.botch, 10 ** la.n), "target": Fraction(lt.botch, 10 ** lt.n)}}


# --- table state: Will, a night of rest, and ongoing struggles ---------------------------------------------
#
# Pure rules over what the page keeps: each op takes `state` (the part of a sheet or of the shared state it
# reads, as a plain dict) and `args`, and returns the new state. Keys of `state` an op does not read are
# returned as they were, so the page may pass a whole sheet; a "note" says what happened, for the roll log.

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

_RESOLVE = fields.Int("resolve", "Resolve (dots)", 1, MAX_TRAIT_DOTS, 2,
                      help="Will's maximum is (resolve + composure).")
_COMPOSURE = fields.Int("composure", "Composure (dots)", 1, MAX_TRAIT_DOTS, 2,
                        help="Will's maximum is (resolve + composure).")
_WILL = fields.Int("will", "Will (current)", 0, 2 * MAX_TRAIT_DOTS, 4,
                   help="From 0 to the character’s maximum, (resolve + composure).")
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
            raise RulesError(f"'state.will' is 0: no Will remaining to expend (maximum {self.maximum})")
        return Will(self.resolve, self.composure, self.current - 1)

    def rest(self, nights: int) -> "Will":
        """Expended Will replenishes at 1 per night of good rest, up to the maximum."""
        return Will(self.resolve, self.composure, min(self.maximum, self.current + nights))

    def __str__(self) -> str:
        return f"Will {self.current}/{self.maximum}"


def _will_of(state: Any, need_will: bool = True) -> Will:
    s = fields.read_state(state, _WILL_STATE if need_will else (_RESOLVE, _COMPOSURE),
                    ("will", "resolve", "composure") if need_will else ("resolve", "composure"))
    w = Will(s["resolve"], s["composure"], s.get("will", 0))
    if w.current > w.maximum:
        raise RulesError(f"'state.will' must be from 0 to {w.maximum} (resolve {w.resolve} + composure "
                         f"{w.composure}), got {w.current}")
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


_NIGHTS = fields.Int("nights", "Nights of good rest", 1, MAX_NIGHTS, 1,
                     help="Expended Will replenishes at 1 per night (of good rest) up to the character’s maximum.")


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
    return _request_json(fields.parse(FIELDS, {"pool": w.current, **a}))


# Ongoing struggles ---------------------------------------------------------------------------------------------

_STRUGGLE_STATE = (
    fields.Int("target", "Successes needed", 1, MAX_STRUGGLE_TARGET, 5,
               help="Some rolls and contests can be continued over several turns with accumulated successes."),
    fields.Int("accumulated", "Successes accumulated", 0, MAX_ACCUMULATED, 0),
    fields.Int("turns", "Turns rolled", 0, MAX_STRUGGLE_TURNS, 0),
    fields.Choice("status", "Status", tuple((s.value, s.value.capitalize()) for s in Status), Status.ONGOING.value),
    fields.Bool("contest", "An ongoing contest", False,
                help="In an ongoing contest excess successes on the resistance roll eat successes accumulated "
                     "by the actor’s previous rolls."),
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
            raise RulesError(f"'state.status' is {self.status.value}: no more turns; "
                             f"struggle_reset starts again from scratch")
        if self.turns == MAX_STRUGGLE_TURNS:
            raise RulesError(f"'state.turns' is already {MAX_STRUGGLE_TURNS}, the most a struggle records")
        n = self.turns + 1
        if r.actor.botch:
            return (Struggle(self.target, 0, n, Status.ABORTED, self.contest),
                    f"Turn {n}: botch: the effort is aborted; start again from scratch (0/{self.target})")
        gained = r.net
        accumulated = max(0, self.accumulated + gained)
        status = Status.DONE if accumulated >= self.target else Status.ONGOING
        if gained < 0:
            eaten = self.accumulated - accumulated
            what = (f"the resistance has {_many(-gained, 'success', 'successes')} left and eats "
                    f"{eaten} accumulated" if eaten else
                    f"the resistance has {_many(-gained, 'success', 'successes')} left, nothing accumulated to eat")
        elif self.contest:
            what = f"{_many(gained, 'success', 'successes')} left after the resistance's"
        else:
            what = _many(gained, "success", "successes")
        note = f"Turn {n}: {what}: {accumulated}/{self.target}" + (": done" if status is Status.DONE else "")
        return Struggle(self.target, min(accumulated, MAX_ACCUMULATED), n, status, self.contest), note

    def to_json(self) -> dict:
        return {"target": self.target, "accumulated": self.accumulated, "turns": self.turns,
                "status": self.status.value, "contest": self.contest}


def _struggle_of(state: Any) -> Struggle:
    s = fields.read_state(state, _STRUGGLE_STATE, ("target",))
    st = Struggle(s["target"], s["accumulated"], s["turns"], Status(s["status"]), s["contest"])
    if st.status is Status.ONGOING and st.accumulated >= st.target:
        raise RulesError(f"'state.accumulated' must be from 0 to {st.target - 1} while the struggle is ongoing "
                         f"(target {st.target}), got {st.accumulated}")
    if st.status is Status.DONE and st.accumulated < st.target:
        raise RulesError(f"'state.accumulated' must be at least the target {st.target} when the struggle is done, "
                         f"got {st.accumulated}")
    if st.status is Status.ABORTED and st.accumulated:
        raise RulesError(f"'state.accumulated' must be 0 when the struggle is aborted, got {st.accumulated}")
    return st


def _kind(contest: bool) -> str:
    return "a contest (with 'opposed')" if contest else "unopposed (no 'opposed')"


_ROLL_ARG = fields.Object("roll", "A ten_again roll as returned by roll() or act()",
                    help="The turn's roll; in a contest, the actor's roll against the resistance.")


def _turn_roll(value: Any, contest: bool) -> Roll:
    """The turn's roll, rebuilt from its dict and checked against what it reports."""
    path = "args.roll"
    if value is None:
        raise RulesError(f"'{path}' is missing: {_ROLL_ARG.label}")
    if value.get("system") != ID:
        raise RulesError(f"'{path}' must be a {ID} roll as returned by roll() or act(), "
                         f"got system {value.get('system')!r:.40}")
    r, _ = _roll_from_json(value, path)
    expected = _to_json(r, value.get("request"))
    keys = ["successes", "botch", "ones_left", "outcome"] + (["net"] if r.target is not None else [])
    for key in keys:
        if value.get(key) != expected[key]:
            raise RulesError(f"'{path}.{key}' does not match the dice: expected {expected[key]!r}, "
                             f"got {value.get(key)!r:.40}")
    if r.target is not None:
        for key in ("successes", "botch"):
            if value["target"].get(key) != expected["target"][key]:
                raise RulesError(f"'{path}.target.{key}' does not match the dice: expected "
                                 f"{expected['target'][key]!r}, got {value['target'].get(key)!r:.40}")
    if (r.target is not None) != contest:
        raise RulesError(f"'{path}' must be {_kind(contest)}: the struggle's 'contest' is "
                         f"{'true' if contest else 'false'}")
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


# exact odds of a struggle: a Markov chain over the successes accumulated ---------------------------------------

_MIDDLE_CUTOFF = 4


def middle_product(a: list[int], b: list[int]) -> list[int]:
    """c[i] = sum_j a[i + j] * b[j] for i < n = len(b), with len(a) = 2n - 1 (Karatsuba: 3 halves, not 4).

    With c_lo = MP(A0, B0) + MP(A1, B1) and c_hi = MP(A1, B0) + MP(A2, B1), y = MP(A1, B0 - B1) gives
    c_lo = MP(A0 + A1, B0) - y and c_hi = MP(A1 + A2, B1) + y.
    """
    n = len(b)
    if n <= _MIDDLE_CUTOFF:
        return [sum(map(mul, a[i:i + n], b)) for i in range(n)]
    if n % 2:
        m = n - 1
        last = b[m]
        out = [x + a[i + m] * last for i, x in enumerate(middle_product(a[:2 * m - 1], b[:m]))]
        out.append(sum(map(mul, a[m:m + n], b)))
        return out
    m = n // 2
    a0, a1, a2 = a[:2 * m - 1], a[m:3 * m - 1], a[2 * m:]
    b0, b1 = b[:m], b[m:]
    y = middle_product(a1, [x - z for x, z in zip(b0, b1)])
    lo = middle_product([x + z for x, z in zip(a0, a1)], b0)
    hi = middle_product([x + z for x, z in zip(a1, a2)], b1)
    return [x - z for x, z in zip(lo, y)] + [x + z for x, z in zip(hi, y)]


@dataclass(frozen=True, slots=True)
class TurnLaw:
    """One turn of a struggle toward `target`, every chance an integer over 10**exp.

    From a successes (0..target-1): kernel[k + target - 1] ways to end at a + k (for 1 <= a + k < target),
    done[a] ways to reach the target, zero[a] ways to end at 0 (nothing left), botch ways to abort.
    """

    target: int
    exp: int
    kernel: tuple[int, ...]
    done: tuple[int, ...]
    zero: tuple[int, ...]
    botch: int

    @classmethod
    def unopposed(cls, pool: Pool, target: int) -> "TurnLaw":
        """Exact: the successes below the target from the series, the rest (reaching it) by complement."""
        lw = _law(pool, pool.will, target)
        n, exp = lw.n, lw.n + target - 1
        ways = [lw.series[j] * 10 ** (exp - n - j) for j in range(target)]
        botch = lw.botch * 10 ** (exp - n)
        below = [0]
        for w in ways:
            below.append(below[-1] + w)
        kernel = [0] * (target - 1) + [ways[0] - botch] + ways[1:]
        done = tuple(10 ** exp - below[target - a] for a in range(target))
        zero = (ways[0] - botch,) + (0,) * (target - 1)
        return cls(target, exp, tuple(kernel), done, zero, botch)

    @classmethod
    def contested(cls, actor: Pool, resistance: Pool, target: int) -> "TurnLaw":
        """Net successes over both successes tables (less than 1e-15 beyond each is left out); a botch is the
        actor's own and aborts whatever the resistance rolled."""
        la, lt = _law(actor, actor.will), _law(resistance, resistance.will)
        top_a, top_t = la.listed - 1, lt.listed - 1
        # at most 43 + 43 + 61 + 61 = 208: 20 turns stay below 10**4160, so the exact "p/q" strings keep
        # within CPython's 4300-digit limit on int-to-str conversion
        exp = la.n + lt.n + top_a + top_t
        a = [la.series[i] * 10 ** (top_a - i) for i in range(la.listed)]
        a[0] -= la.botch * 10 ** top_a
        t = [lt.series[j] * 10 ** (top_t - j) for j in range(lt.listed)]
        net = [0] * (la.listed + lt.listed - 1)  # index k + top_t
        for j, tj in enumerate(t):
            if tj:
                for i, ai in enumerate(a):
                    net[i - j + top_t] += ai * tj

        def ways(k: int) -> int:
            return net[k + top_t] if 0 <= k + top_t < len(net) else 0

        kernel = tuple(ways(k) for k in range(-(target - 1), target))
        done = tuple(sum(net[max(0, target - a + top_t):]) for a in range(target))
        zero = tuple(sum(net[:max(0, top_t - a + 1)]) for a in range(target))
        return cls(target, exp, kernel, done, zero, la.botch * 10 ** (exp - la.n))

    def within(self, accumulated: int, turns: int) -> tuple[list[Fraction], list[Fraction]]:
        """P(done within n turns) and P(aborted within n turns) for n = 1..turns, from `accumulated`."""
        at = [0] * self.target  # ways to stand at each count, over 10**(exp * turns so far)
        at[accumulated] = 1
        scale = 10 ** self.exp
        done = aborted = 0
        finish, abort = [], []
        for n in range(1, turns + 1):
            nxt = middle_product(list(self.kernel), at[::-1])
            nxt[0] = sum(map(mul, at, self.zero))
            done = done * scale + sum(map(mul, at, self.done))
            aborted = aborted * scale + sum(at) * self.botch
            at = nxt
            denominator = 10 ** (self.exp * n)
            finish.append(Fraction(done, denominator))
            abort.append(Fraction(aborted, denominator))
        return finish, abort


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
        raise RulesError(f"'state.status' is {st.status.value}: no turns are left to roll; "
                         f"struggle_reset starts again from scratch")
    if a["request"] is None:
        raise RulesError(f"'args.request' is missing: {_ODDS_ARGS[0].label}")
    req = fields.parse(FIELDS, a["request"], "args.request")
    if (req["opposed"] is not None) != st.contest:
        raise RulesError(f"'args.request' must be {_kind(st.contest)}: the struggle's 'contest' is "
                         f"{'true' if st.contest else 'false'}")
    if req["opposed"] is None:
        turn = TurnLaw.unopposed(Pool.of(req), st.target)
    else:
        turn = TurnLaw.contested(Pool.of(req), Pool.of(req["opposed"]), st.target)
    finish, abort = turn.within(st.accumulated, a["turns"])
    return {"finish_within": {str(n): p for n, p in enumerate(finish, 1)},
            "abort_within": {str(n): p for n, p in enumerate(abort, 1)}}


def _op(name: str, label: str, help: str, state: tuple, args: tuple = ()) -> dict:
    return {"name": name, "label": label, "help": help, "state": [d.schema() for d in state],
            "args": [d.schema() for d in args]}


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
    _op("will_max", "Maximum Will", "The character’s maximum, (resolve + composure). Returns {\"max\": n}.",
        (_RESOLVE, _COMPOSURE)),
    _op("spend_will", "Expend a Will", "Expending a single will point (if you have any remaining): Will − 1.",
        _WILL_STATE),
    _op("rest", "Night of rest", "Expended Will replenishes at 1 per night (of good rest) up to the character’s "
        "maximum, (resolve + composure).", _WILL_STATE, (_NIGHTS,)),
    _op("will_roll", "Will roll", "Spending your will lowers the number of dice you use for will rolls: returns "
        "the request (pool = current Will) to roll.", _WILL_STATE, _WILL_ROLL_ARGS),
    _op("struggle_turn", "Ongoing struggle: add a turn", "Adds the roll's successes (in a contest, the resistance's "
        "excess eats accumulated successes); a botch aborts the whole effort; reaching the target ends it.",
        _STRUGGLE_STATE, (_ROLL_ARG,)),
    _op("struggle_reset", "Ongoing struggle: start again", "Start again from scratch: 0 accumulated, 0 turns.",
        _STRUGGLE_STATE),
    _op("struggle_odds", "Ongoing struggle: odds", "Exact chances to be done, or aborted by a botch, within 1 to N "
        "turns of rolling the request each turn.", _STRUGGLE_STATE, _ODDS_ARGS),
]
