"""Are my dice fair? The table's own faces of one die kind, against a fair die: Pearson's chi-square goodness of fit.

With n faces of a d`k`, each face is expected n/k times; X² = Σ (count − n/k)² / (n/k), and the p-value, the chance
that a fair die strays at least this far, is Q((k−1)/2, X²/2), the regularized upper incomplete gamma function. The
test is said only once every face is expected at least MIN_EXPECTED times (n ≥ 5k: below that the chi-square law is a
poor guide); before that, how many more faces it needs. A die is called unfair at p < ALPHA.

How many faces would find a loaded die: one face coming up twice as often as each other face (2/(k+1) against
1/(k+1)), called unfair by this very test (n ≥ 5k and p < ALPHA) with chance POWER. That chance, the test's power, has
no closed form here (X² of n faces is a lattice variable, and the noncentral chi-square law is only its large-sample
approximation: it says 126 d6 faces where the test needs about 141), so it is simulated once, for every die from d2
to d100, by py/tools/fairness_power.py (its docstring says how), and looked up in the module it writes,
fairness_power.py: "about N faces" is the smallest count from which the simulated power stays at or above POWER.

Pure Python (math and fractions): the page runs it in Pyodide, without SciPy. The incomplete gamma follows Numerical
Recipes (a series below x = a + 1, Lentz's continued fraction above), accurate to about 1e-13 relative.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from . import fairness_power, fields
from .errors import RulesError

MIN_EXPECTED = 5  # every face expected at least this often before the test is said
ALPHA = Fraction(5, 100)  # a die is called unfair below this p
POWER = Fraction(8, 10)  # the chance of catching the loaded die that the faces_to_find figure gives at least
P_FLOOR = Fraction(1, 1000)  # below it, p is said as "p < 0.001"

_EPS = 1e-16
_TINY = 1e-300
_MAX_ITER = 100_000


# --- the chi-square law, in pure Python -------------------------------------------------------------------------------


def gamma_q(a: float, x: float) -> float:
    """Q(a, x) = Γ(a, x) / Γ(a), the regularized upper incomplete gamma function, for a > 0 and x ≥ 0."""
    if not a > 0 or not x >= 0:
        raise ValueError(f"gamma_q needs a > 0 and x >= 0, got a={a!r}, x={x!r}")
    if x == 0:
        return 1.0
    if x < a + 1:
        return 1.0 - _gamma_p_series(a, x)  # here Q ≥ about 0.3: 1 − P loses nothing that matters
    return _gamma_q_fraction(a, x)


def _prefactor(a: float, x: float) -> float:
    """x^a e^−x / Γ(a), through logarithms (0 when it underflows)."""
    return math.exp(a * math.log(x) - x - math.lgamma(a))


def _gamma_p_series(a: float, x: float) -> float:
    """P(a, x) by its series, Σ x^n / (a (a+1) … (a+n)), which converges fast for x < a + 1."""
    term = total = 1.0 / a
    ap = a
    for _ in range(_MAX_ITER):
        ap += 1.0
        term *= x / ap
        total += term
        if abs(term) < abs(total) * _EPS:
            return total * _prefactor(a, x)
    raise ArithmeticError(f"gamma series did not converge for a={a}, x={x}")


def _gamma_q_fraction(a: float, x: float) -> float:
    """Q(a, x) by its continued fraction, evaluated by the modified Lentz method; converges fast for x ≥ a + 1."""
    b = x + 1.0 - a
    c = 1.0 / _TINY
    d = 1.0 / b
    h = d
    for i in range(1, _MAX_ITER):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        if abs(d) < _TINY:
            d = _TINY
        c = b + an / c
        if abs(c) < _TINY:
            c = _TINY
        d = 1.0 / d
        step = d * c
        h *= step
        if abs(step - 1.0) < _EPS:
            return _prefactor(a, x) * h
    raise ArithmeticError(f"gamma continued fraction did not converge for a={a}, x={x}")


def chi2_sf(x: float, df: float) -> float:
    """P(X > x) for X chi-square with df degrees of freedom."""
    return 1.0 if x <= 0 else gamma_q(df / 2.0, x / 2.0)


def chi2_isf(q: float, df: float) -> float:
    """The x with chi2_sf(x, df) = q (0 < q < 1), by bisection to the last bit."""
    if not 0 < q < 1:
        raise ValueError(f"chi2_isf needs 0 < q < 1, got {q!r}")
    lo, hi = 0.0, max(float(df), 1.0)
    while chi2_sf(hi, df) > q:
        lo, hi = hi, hi * 2.0
    while True:
        mid = (lo + hi) / 2.0
        if mid in (lo, hi):
            return hi
        if chi2_sf(mid, df) > q:
            lo = mid
        else:
            hi = mid


# --- the loaded die and the faces it takes to find it -----------------------------------------------------------------


def loaded_die(sides: int) -> tuple[Fraction, ...]:
    """The die the power figure is for: face 1 comes up twice as often as each other face (2/(k+1), 1/(k+1))."""
    return (Fraction(2, sides + 1),) + (Fraction(1, sides + 1),) * (sides - 1)


def effect_size(probs: tuple[Fraction, ...]) -> Fraction:
    """Cohen's w² of a die with these face chances against a fair one: Σ (p − 1/k)² / (1/k)."""
    fair = Fraction(1, len(probs))
    return sum(((p - fair) ** 2 / fair for p in probs), Fraction(0))


def faces_to_find(sides: int) -> tuple[int, float]:
    """(about how many faces find the loaded die (loaded_die) at ALPHA with POWER, the power there): the smallest count
    of d`sides` faces from which the test's simulated power stays at or above POWER, and that power (its standard
    error: power_error). For d2 to d100."""
    try:
        return fairness_power.FACES_NEEDED[sides]
    except KeyError:
        raise ValueError(f"faces_to_find knows d2 to d100, got {sides!r:.100}") from None


def power_error(sides: int) -> float:
    """The standard error of the power faces_to_find says for a d`sides`: √(p (1 − p) / sequences simulated), at most
    √(0.2 · 0.8 / sequences) near POWER, to 4 places."""
    p = float(POWER)
    samples = fairness_power.SAMPLES if sides <= fairness_power.FEWER_ABOVE else fairness_power.SAMPLES_ABOVE
    return round(math.sqrt(p * (1 - p) / samples), 4)


# --- the faces of one die kind, tested ----------------------------------------------------------------------------------


def read(faces: object, sides: object, dice: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
    """`faces` and `sides` checked: sides one of `dice` (the dice the procedures roll), each face a whole number from
    1 to sides; refused with a RulesError naming the field and its range."""
    if not isinstance(sides, int) or isinstance(sides, bool) or sides not in dice:
        allowed = ", ".join(map(str, dice))
        raise RulesError(f"'sides' must be one of {allowed}, got {sides!r:.100}", says=f"must be one of {allowed}")
    if not isinstance(faces, list):
        must = f"must be a list of whole numbers from 1 to {sides}"
        raise RulesError(f"'faces' {must}, got {faces!r:.100}", says=must)
    face = fields.Int("faces", "Faces", 1, sides)
    return tuple(face.parse(v, f"faces[{i}]") for i, v in enumerate(faces)), sides


@dataclass(frozen=True, slots=True)
class Fairness:
    """The count of each face of n faces of a d`sides`, and what Pearson's chi-square test says of them."""

    sides: int
    counts: tuple[int, ...]  # counts[i]: how often face i + 1 came up

    @classmethod
    def of(cls, faces: tuple[int, ...], sides: int) -> Fairness:
        counts = [0] * sides
        for f in faces:
            counts[f - 1] += 1
        return cls(sides, tuple(counts))

    @property
    def n(self) -> int:
        return sum(self.counts)

    @property
    def expected(self) -> Fraction:
        """How often each face is expected: n / k."""
        return Fraction(self.n, self.sides)

    @property
    def more_needed(self) -> int:
        """How many more faces before every face is expected MIN_EXPECTED times (0 once it is)."""
        return max(0, MIN_EXPECTED * self.sides - self.n)

    @property
    def enough(self) -> bool:
        return self.more_needed == 0

    @property
    def chi_square(self) -> Fraction:
        """Pearson's X² = Σ (count − n/k)² / (n/k) = (k Σ count² − n²) / n, exact (n > 0)."""
        return Fraction(self.sides * sum(c * c for c in self.counts) - self.n**2, self.n)

    @property
    def p_value(self) -> float:
        """The chance a fair die strays at least this far: Q((k − 1)/2, X²/2)."""
        return chi2_sf(float(self.chi_square), self.sides - 1)

    @property
    def residuals(self) -> tuple[float, ...]:
        """Each face's standardized residual, (count − n/k) / √(n/k): how far above (or below) its expectation."""
        e = self.expected
        return tuple(float(c - e) / math.sqrt(e) for c in self.counts)

    @property
    def unfair(self) -> bool:
        return self.enough and self.p_value < ALPHA

    @property
    def furthest(self) -> tuple[str, tuple[int, ...]]:
        """The faces furthest from their expectation by standardized residual, either way (all of them when tied),
        and which way: "more" when they came up too often, "fewer" when too seldom. Every face has the same
        expectation, so the largest |count − n/k| is the largest |residual|; a tie between a face above and one
        below names the one above (a die that favours a face is what a player asks about)."""
        mean = Fraction(self.n, self.sides)
        gap = max(abs(c - mean) for c in self.counts)
        above = tuple(face for face, c in enumerate(self.counts, 1) if c - mean == gap)
        if above:
            return "more", above
        return "fewer", tuple(face for face, c in enumerate(self.counts, 1) if mean - c == gap)

    def p_said(self) -> str | None:
        """The p-value as the words say it (p_text), or None before there are enough faces."""
        return p_text(self.p_value) if self.enough else None

    def __str__(self) -> str:
        head = f"{self.n} d{self.sides} {'face' if self.n == 1 else 'faces'}"
        if not self.enough:
            more = self.more_needed
            return f"{head}: {more} more {'face' if more == 1 else 'faces'} to say"
        if self.unfair:
            way, faces = self.furthest
            return f"{head}: {way} {_and(faces)} than chance explains, {self.p_said()}"
        return f"{head}: nothing chance does not explain, {self.p_said()}"


def _and(faces: tuple[int, ...]) -> str:
    """ "1s", "1s and 6s", "1s, 3s and 6s"."""
    names = [f"{f}s" for f in faces]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def p_text(p: float) -> str:
    """How a p-value is said: "p < 0.001" below P_FLOOR, else p cut (never rounded up) to two significant figures,
    trailing zeros dropped ("p = 0.41", "p = 0.003", "p = 0.049", "p = 1"), so a p shown below 0.05 is below it."""
    exact = Fraction(p)
    if exact < P_FLOOR:
        return f"p < {float(P_FLOOR):g}"
    e = 0
    while exact < Fraction(10) ** e:
        e -= 1
    places = 1 - e  # digits after the point for two significant figures
    digits = str(math.floor(exact * 10**places)).rjust(places + 1, "0")
    said = f"{digits[:-places]}.{digits[-places:]}".rstrip("0").rstrip(".")
    return f"p = {said}"
