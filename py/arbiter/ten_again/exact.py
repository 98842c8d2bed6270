"""Roll Conventions (003), exact odds: one roll, a contest, and one turn of an ongoing struggle.

One side's successes have the generating function N(w) / (10**n * w**n) with
w = 1 - x/10 (each 10 left adds x * G(x), G(x) = (a + c*x) / (10 - x), a chain of re-rolls), so the
distribution is a polynomial part plus negative-binomial parts; a contest sums those pairwise in
closed form. Every coefficient is an integer until the final `Fraction`. A struggle's turn (`TurnLaw`) is one
step of a Markov chain on the successes accumulated.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from math import comb, factorial
from operator import mul

from ..dice import binomial_poly, middle_product
from .rolling import check_will
from .rules import MAX_DICE, SIDES, TAIL, Pool


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
            a * comb(j + k - 1, k - 1) for k, a in enumerate(self.principal, 1)
        )

    def p(self, j: int) -> Fraction:
        return Fraction(self.term(j), 10 ** (self.n + j))


def _numerator(n: int, threshold: int, eats: bool) -> tuple[list[int], int]:
    """N(w) with successes' generating function N(w) / (10**n * w**n), w = 1 - x/10; and the botch count."""
    a, c, blank = threshold - 1, SIDES - threshold, threshold - 2  # misses (1s too), other hits, plain misses
    if not eats:
        # every die, re-rolls included, has G(x) = (a + c x) / (10 - x) = (a + 10c - 10c w) / (10 w)
        return binomial_poly(a + 10 * c, -10 * c, n), a**n - blank**n
    # u ones, t tens, m other dice (c hits and `blank` misses each): weight n! / (u! t! m!).
    # P[r] sums the weights over t - u = r (or u - t = r) as a polynomial in the hits among the m dice.
    fact = [factorial(i) for i in range(n + 1)]
    bx = [binomial_poly(blank, c, m) for m in range(n + 1)]  # (blank + c x)**m
    bw = [binomial_poly(blank + 10 * c, -10 * c, m) for m in range(n + 1)]  # the same in w
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
            for i, b in enumerate(binomial_poly(10, -10, k)):
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


@lru_cache(maxsize=64)
def law(n: int, threshold: int, eats: bool, length: int) -> Law:
    """One side's exact law, with at least `length` terms of the series and none missing above 1 - TAIL (kept for
    the next call: odds() and its what-if share a side, and the page asks again on every change of the form)."""
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
            return Law(n, tuple(series[: max(keep, length)]), poly, principal, botch, keep)
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
        pos[k][0] = 99**k * (10**k - 9**k)
        zero[k][0] = 891**k
    for j in range(size):
        zero[0][j] = 891**j
    for k in range(1, size):
        for j in range(1, size):
            pos[k][j] = 900 * (pos[k][j - 1] + pos[k - 1][j] - 891 * pos[k - 1][j - 1])
            zero[k][j] = 900 * (zero[k][j - 1] + zero[k - 1][j] - 891 * zero[k - 1][j - 1])
    return pos, zero


def contest(actor: Law, target: Law) -> tuple[Fraction, Fraction]:
    """Exact P(actor's successes > target's) and P(equal), the infinite tails summed in closed form."""
    dp = max(len(actor.poly), len(target.poly), 1)
    scale = 10**dp  # y-coefficient j over 10**j, brought to a common 10**(2 dp)
    a_ser = [actor.term(j) for j in range(dp)]
    t_gamma = [target.term(j) - (target.poly[j] if j < len(target.poly) else 0) for j in range(dp)]
    pos = zero = 0
    # the target's polynomial part against all of the actor: sum_j pT_j (10**nA - sum_{i<=j} a_i/10**i)
    cum = 0  # sum_{i<=j} a_i 10**(dp - i)
    for j, pt in enumerate(target.poly):
        cum += a_ser[j] * 10 ** (dp - j)
        pos += pt * 10 ** (dp - j) * (10**actor.n * scale - cum)
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
            for j, tl in enumerate(target.principal, 1):
                w = ak * tl * 891 ** (top - k - j)
                pp += w * table_pos[k][j]
                pz += w * table_zero[k][j]
    denominator = 10**top
    p = Fraction(pos, scale * scale * denominator) + Fraction(pp, 891**top * denominator)
    z = Fraction(zero, scale * scale * denominator) + Fraction(pz, 891**top * denominator)
    return p, z


def _successes(lw: Law) -> dict[str, Fraction]:
    return {str(j): lw.p(j) for j in range(lw.listed)}


def odds(req: dict) -> dict:
    """Exact odds: outcomes, and the successes left (listed until less than 1e-15 lies beyond).

    Unopposed: {"outcomes": {success, failure, botch}, "successes": {"0": p, ...}}. In a contest:
    {"outcomes": {actor, target, tie}, "successes": {...}, "target_successes": {...},
    "botch": {"actor": p, "target": p}}, the successes being each side's own, before the other's reduce them.
    """
    actor = Pool.of(check_will(req))
    if req["opposed"] is None:
        lw = _law(actor, actor.will, req["required"])
        below = sum((lw.p(j) for j in range(req["required"])), Fraction(0))
        botch = Fraction(lw.botch, 10**lw.n)
        success = 1 - below
        return {
            "outcomes": {"success": success, "failure": 1 - success - botch, "botch": botch},
            "successes": _successes(lw),
        }
    target = Pool.of(req["opposed"])
    la, lt = _law(actor, actor.will), _law(target, target.will)
    win, tie = contest(la, lt)
    return {
        "outcomes": {"actor": win, "target": 1 - win - tie, "tie": tie},
        "successes": _successes(la),
        "target_successes": _successes(lt),
        "botch": {"actor": Fraction(la.botch, 10**la.n), "target": Fraction(lt.botch, 10**lt.n)},
    }


# --- one turn of an ongoing struggle ---------------------------------------------------------------------


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
        done = tuple(10**exp - below[target - a] for a in range(target))
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
        a[0] -= la.botch * 10**top_a
        t = [lt.series[j] * 10 ** (top_t - j) for j in range(lt.listed)]
        net = [0] * (la.listed + lt.listed - 1)  # index k + top_t
        for j, tj in enumerate(t):
            if tj:
                for i, ai in enumerate(a):
                    net[i - j + top_t] += ai * tj

        def ways(k: int) -> int:
            return net[k + top_t] if 0 <= k + top_t < len(net) else 0

        kernel = tuple(ways(k) for k in range(-(target - 1), target))
        done = tuple(sum(net[max(0, target - a + top_t) :]) for a in range(target))
        zero = tuple(sum(net[: max(0, top_t - a + 1)]) for a in range(target))
        return cls(target, exp, kernel, done, zero, la.botch * 10 ** (exp - la.n))

    def within(self, accumulated: int, turns: int) -> tuple[list[Fraction], list[Fraction]]:
        """P(done within n turns) and P(aborted within n turns) for n = 1..turns, from `accumulated`."""
        at = [0] * self.target  # ways to stand at each count, over 10**(exp * turns so far)
        at[accumulated] = 1
        scale = 10**self.exp
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
