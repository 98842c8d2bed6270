"""Shared dice and exact-probability helpers.

Randomness is always a parameter: a `DiceSource` is anything with `randint(a, b)` (a `random.Random`,
`secrets.SystemRandom`, or a test's scripted dice). A rule draws its dice through `roll`, a batch at a time with the
reason a table rolls them ("the 10s roll again"); a source that also has `throw(n, sides, why)` (a `Thrower`) is
handed each batch whole: `Recorded` keeps every face drawn (a roll's `drawn`), `TableFaces` hands out the faces a
table rolled and, when they run short, says how many more and why (`NeedMore`). Exact odds are integer-count
polynomials turned into `Fraction`s at the end, which keeps big pools fast.
"""

from __future__ import annotations

import random
import secrets
from fractions import Fraction
from math import comb
from operator import mul
from typing import Any, Iterable, Protocol, Sequence

from .errors import RulesError


class DiceSource(Protocol):
    def randint(self, a: int, b: int) -> int: ...


class Thrower(DiceSource, Protocol):
    """A source handed each batch of dice whole, with the reason a table rolls it (`roll`)."""

    def throw(self, n: int, sides: int, why: str) -> tuple[int, ...]: ...


def source(seed: int | None = None) -> DiceSource:
    """A seeded `random.Random` for reproducible rolls, else the operating system's random source."""
    if seed is None:
        return secrets.SystemRandom()
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise RulesError(f"'seed' must be a whole number from 0 to {2**63 - 1}, got {seed!r}")
    return random.Random(seed)


ROLLED = "the roll"  # why a batch is rolled, when its rule says no more


class Theirs(str):
    """A batch's reason (`why`) that marks its dice as not the roller's own: a contest's other side, the Narrator's
    Scheme die. They are drawn as any others (and kept in `drawn`), but left out of `own`: the faces whose fairness
    is the roller's (api.fairness_summary)."""


def theirs(why: str) -> str:
    """`why`, marked as the reason for dice that are not the roller's own (Theirs)."""
    return Theirs(why)


def roll(dice: DiceSource, n: int, sides: int = 6, why: str = ROLLED) -> tuple[int, ...]:
    """Roll `n` dice with `sides` faces, in order, as one batch a table rolls together for `why` (a player's words:
    "the 10s roll again", "the target's pool")."""
    throw = getattr(dice, "throw", None)
    if n == 0:
        return ()  # no dice: nothing is thrown
    if throw is not None:
        return tuple(throw(n, sides, why))
    return tuple(dice.randint(1, sides) for _ in range(n))


class Recorded:
    """`dice`, keeping every face drawn from it in draw order (`drawn`), and those of the roller's own dice (`own`:
    all but a batch drawn for Theirs)."""

    def __init__(self, dice: DiceSource) -> None:
        self.dice = dice
        self.drawn: list[int] = []
        self.own: list[int] = []

    def randint(self, a: int, b: int) -> int:
        face = self.dice.randint(a, b)
        self.drawn.append(face)
        self.own.append(face)
        return face

    def throw(self, n: int, sides: int, why: str) -> tuple[int, ...]:
        faces = roll(self.dice, n, sides, why)
        self.drawn.extend(faces)
        if not isinstance(why, Theirs):
            self.own.extend(faces)
        return faces


class NeedMore(RulesError):
    """The table's faces ran out: `n` more d`sides` are needed, for `why` ("2 more d10: the 10s roll again")."""

    def __init__(self, n: int, sides: int, why: str) -> None:
        super().__init__(f"'dice' needs {n} more d{sides}: {why}")
        self.n, self.sides, self.why = n, sides, why


MAX_FACES = 1000  # more than the largest roll draws but for a freak run of 10s


def _nth(i: int) -> str:
    """1 -> "1st", 2 -> "2nd", 11 -> "11th"."""
    end = "th" if 10 <= i % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(i % 10, "th")
    return f"{i}{end}"


class TableFaces:
    """The faces a table rolled (`faces`, in the order rolled), handed out in that order; too few raise `NeedMore`,
    a face the die does not have a RulesError naming it. `drawn`: the faces handed out; `left`: the rest."""

    def __init__(self, faces: Any) -> None:
        if not isinstance(faces, list):
            raise RulesError(f"'dice' must be a list of faces (whole numbers, in the order rolled), got {faces!r:.100}")
        if len(faces) > MAX_FACES:
            raise RulesError(f"'dice' must hold at most {MAX_FACES} faces, got {len(faces)}")
        for i, face in enumerate(faces, 1):
            if isinstance(face, bool) or not isinstance(face, int):
                raise RulesError(f"'dice' must hold whole numbers: the {_nth(i)} face is {face!r:.100}")
        self.faces = list(faces)
        self.used = 0
        self.own: list[int] = []  # the roller's own faces among those handed out (all but Theirs)

    def throw(self, n: int, sides: int, why: str) -> tuple[int, ...]:
        batch = self.faces[self.used : self.used + n]
        for i, face in enumerate(batch, self.used + 1):
            if not 1 <= face <= sides:
                raise RulesError(f"'dice' face {face} is not on a d{sides} (the {_nth(i)} face, for {why})")
        if len(batch) < n:
            raise NeedMore(n - len(batch), sides, why)
        self.used += n
        if not isinstance(why, Theirs):
            self.own.extend(batch)
        return tuple(batch)

    def randint(self, a: int, b: int) -> int:
        if a != 1:
            raise ValueError(f"table dice are numbered from 1, not {a}")
        return self.throw(1, b, ROLLED)[0]

    @property
    def drawn(self) -> list[int]:
        return self.faces[: self.used]

    @property
    def left(self) -> list[int]:
        return self.faces[self.used :]

    def all_drawn(self, what: str) -> None:
        """Refuse faces left over once `what` ("this roll", "this follow-up") has drawn all it draws."""
        if self.left:
            extra = len(self.left)
            raise RulesError(
                f"'dice' has {extra} {'face' if extra == 1 else 'faces'} too many "
                f"({' '.join(map(str, self.left[:20]))}{' …' if extra > 20 else ''}): "
                f"{what} draws {self.used}"
            )


# --- integer-count polynomials: index = value, entry = number of ways -------------------------------

Poly = list[int]


def poly_mul(a: Sequence[int], b: Sequence[int]) -> Poly:
    """Product of two count polynomials (the distribution of a sum of independent parts, in ways)."""
    if not a or not b:
        return []
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                if y:
                    out[i + j] += x * y
    return out


def poly_pow(base: Sequence[int], n: int) -> Poly:
    """`base` to the power `n` by squaring (the sum of `n` independent dice, in ways)."""
    result: Poly = [1]
    square = list(base)
    while n:
        if n & 1:
            result = poly_mul(result, square)
        n >>= 1
        if n:
            square = poly_mul(square, square)
    return result


def face_poly(faces: Iterable[int]) -> Poly:
    """A count polynomial with one way for each listed value (e.g. range(1, 7) is one d6)."""
    faces = list(faces)
    out = [0] * (max(faces) + 1)
    for f in faces:
        out[f] += 1
    return out


D6 = face_poly(range(1, 7))


def sum_ways(n: int, sides: int = 6) -> Poly:
    """Ways to roll each total with `n` dice of `sides` faces (index = total)."""
    return poly_pow(face_poly(range(1, sides + 1)), n)


def binomial_poly(c0: int, c1: int, m: int) -> Poly:
    """Coefficients of (c0 + c1 * v)**m."""
    return [comb(m, i) * c0 ** (m - i) * c1**i for i in range(m + 1)]


_MIDDLE_CUTOFF = 4


def middle_product(a: Sequence[int], b: Sequence[int]) -> Poly:
    """c[i] = sum_j a[i + j] * b[j] for i < n = len(b), with len(a) = 2n - 1 (Karatsuba: 3 halves, not 4).

    With c_lo = MP(A0, B0) + MP(A1, B1) and c_hi = MP(A1, B0) + MP(A2, B1), y = MP(A1, B0 - B1) gives
    c_lo = MP(A0 + A1, B0) - y and c_hi = MP(A1 + A2, B1) + y.
    """
    n = len(b)
    if n <= _MIDDLE_CUTOFF:
        return [sum(map(mul, a[i : i + n], b)) for i in range(n)]
    if n % 2:
        m = n - 1
        last = b[m]
        out = [x + a[i + m] * last for i, x in enumerate(middle_product(a[: 2 * m - 1], b[:m]))]
        out.append(sum(map(mul, a[m : m + n], b)))
        return out
    m = n // 2
    a0, a1, a2 = a[: 2 * m - 1], a[m : 3 * m - 1], a[2 * m :]
    b0, b1 = b[:m], b[m:]
    y = middle_product(a1, [x - z for x, z in zip(b0, b1)])
    lo = middle_product([x + z for x, z in zip(a0, a1)], b0)
    hi = middle_product([x + z for x, z in zip(a1, a2)], b1)
    return [x - z for x, z in zip(lo, y)] + [x + z for x, z in zip(hi, y)]


def order_statistic(n: int, k: int, sides: int = 6) -> dict[int, Fraction]:
    """P(the k-th highest of n dice shows v) for v in 1..sides (k counts from 1)."""
    if not 1 <= k <= n:
        raise ValueError("k must be within 1..n")
    total = sides**n

    def at_least_k_at_or_above(v: int) -> int:
        # ways that at least k of n dice show >= v
        hi, lo = sides - v + 1, v - 1
        return sum(comb(n, j) * hi**j * lo ** (n - j) for j in range(k, n + 1))

    out = {}
    for v in range(1, sides + 1):
        ways = at_least_k_at_or_above(v) - (at_least_k_at_or_above(v + 1) if v < sides else 0)
        out[v] = Fraction(ways, total)
    return out


def exact_str(p: Fraction) -> str:
    """A probability as "p/q" (always with a denominator, "0/1" and "1/1" included)."""
    return f"{p.numerator}/{p.denominator}"
