"""Writes py/arbiter/fairness_power.py: how many faces find a loaded die, for the test Arbiter actually runs.

The test (arbiter.fairness.Fairness): n faces of a d`k` are called unfair when n ≥ MIN_EXPECTED·k and
chi2_sf(float(X²), k − 1) < ALPHA, X² = (k Σ count² − n²)/n. The loaded die (arbiter.fairness.loaded_die): face 1
comes up 2/(k + 1) of the time, each other face 1/(k + 1). Its power at n, the chance that n faces of it are called
unfair, has no closed form (X² is a lattice variable; the noncentral chi-square law the textbooks give is only its
large-sample approximation, and overstates it by about 5 points at the counts that matter), so it is simulated here,
once, with NumPy, and checked in: the page (Pyodide, no NumPy) only looks it up.

For each k from 2 to 100: SAMPLES sequences (SAMPLES_ABOVE above d`FEWER_ABOVE`) of throws of the loaded die (a PCG64 generator seeded with SeedSequence
((SEED, k))), each started from the counts of its first throws (one multinomial draw: to the first count the test is
said at, MIN_EXPECTED·k, for dice up to FROM_THE_START sides; else to FIRST times the textbook figure,
noncentral_figure, where the power is still short of POWER: checked), then followed a throw at a time
(`integers(0, k + 1)`, k read as face 1) to TOP times the textbook figure (where the power is at least MARGIN:
checked). So the power at every count n is the share of the same sequences called unfair at n (Σ count² grows by
2·count + 1 of the face thrown; at each n the test's own cut, the smallest Σ count² whose p is below ALPHA, is found
with arbiter.fairness.chi2_sf itself). The power rises unevenly with n (X² is a lattice variable), so the faces
needed are the smallest n from which the simulated power stays at or above POWER up to the top count. The power said
at that count is the simulated one; its standard error is about √(0.2 · 0.8 / sequences) near POWER: 0.0013 with the
10⁵ sequences of each die up to d51, 0.0025 with the 2.5·10⁴ of each larger die (whose sequences are longer).

    .venv/bin/python py/tools/fairness_power.py [--sides K ...]   (all of 2..100 by default; rewrites the module)
"""

from __future__ import annotations

import argparse
import math
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "py"))
from arbiter import fairness  # noqa: E402

OUT = ROOT / "py" / "arbiter" / "fairness_power.py"
SAMPLES = 100_000  # sequences per die, up to d`FEWER_ABOVE`
FEWER_ABOVE = 51
SAMPLES_ABOVE = 25_000  # sequences per die above it (their runs are longer: the power said, a little less sure)
SEED = 28
SIDES = range(2, 101)
FROM_THE_START = 12  # dice up to this many sides are simulated from the first count the test is said at
FIRST = Fraction(17, 20)  # the first count simulated, as a share of the noncentral chi-square figure (power < POWER)
TOP = Fraction(13, 10)  # the top count simulated, as a share of the noncentral chi-square figure
MARGIN = 0.85  # the simulated power at the top count must be at least this: the power stays above POWER beyond
BLOCK = 64  # throws drawn at once


def called_unfair(n: int, sides: int, square_sum: int) -> bool:
    """The test's own verdict (Fairness.unfair) on n faces whose counts' squares sum to `square_sum`."""
    x2 = Fraction(sides * square_sum - n * n, n)
    return fairness.chi2_sf(float(x2), sides - 1) < fairness.ALPHA


def cut(n: int, sides: int, critical: float) -> int:
    """The smallest Σ count² that n faces of a d`sides` are called unfair at (p falls as Σ count² grows)."""
    s = math.ceil((n * critical + n * n) / sides)
    while called_unfair(n, sides, s - 1):
        s -= 1
    while not called_unfair(n, sides, s):
        s += 1
    return s


def noncentral_figure(sides: int) -> int:
    """The textbook figure: the smallest n whose noncentral chi-square power (df = k − 1, noncentrality n·w²) is at
    least POWER. It overstates the test's power; here it only sets how far the simulation goes."""
    from scipy import stats

    df = sides - 1
    critical = stats.chi2.isf(float(fairness.ALPHA), df)
    w2 = float(fairness.effect_size(fairness.loaded_die(sides)))
    n = 1
    while stats.ncx2.sf(critical, df, n * w2) < float(fairness.POWER):
        n += 1
    return n


def samples_for(sides: int) -> int:
    return SAMPLES if sides <= FEWER_ABOVE else SAMPLES_ABOVE


def simulate(sides: int, samples: int) -> tuple[int, int, list[float]]:
    """(first, top, power): power[i] is the simulated power at n = first + i, from FIRST to TOP times the noncentral
    figure (never below the count the test is first said at, MIN_EXPECTED · sides). Each sequence starts from the
    counts of its first `first` throws, drawn at once (a multinomial draw), and goes on a throw at a time."""
    figure = noncentral_figure(sides)
    first = fairness.MIN_EXPECTED * sides
    if sides > FROM_THE_START:
        first = max(first, math.floor(figure * FIRST))
    top = math.ceil(figure * TOP)
    critical = fairness.chi2_isf(float(fairness.ALPHA), sides - 1)
    cuts = np.array([cut(n, sides, critical) for n in range(first, top + 1)], dtype=np.int64)
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence((SEED, sides))))
    loaded = np.array([float(p) for p in fairness.loaded_die(sides)])
    counts = rng.multinomial(first, loaded, size=samples).astype(np.int32).ravel()
    square_sum = (counts.astype(np.int64) ** 2).reshape(samples, sides).sum(axis=1)
    base = np.arange(samples, dtype=np.int64) * sides
    caught = [int(np.count_nonzero(square_sum >= cuts[0]))]
    n = first
    while n < top:
        throws = rng.integers(0, sides + 1, size=(min(BLOCK, top - n), samples), dtype=np.int64)
        throws[throws == sides] = 0  # k + 1 equally likely values, two of them face 1
        for row in throws:
            at = base + row
            before = counts[at]
            counts[at] = before + 1
            square_sum += 2 * before + 1
            n += 1
            caught.append(int(np.count_nonzero(square_sum >= cuts[n - first])))
    return first, top, [c / samples for c in caught]


def faces_needed(first: int, power: list[float]) -> int:
    """The smallest count from which the power stays at or above POWER (to the top count)."""
    want = float(fairness.POWER)
    i = len(power)
    while i > 0 and power[i - 1] >= want:
        i -= 1
    return first + i


def entry(sides: int) -> tuple[int, float]:
    """(faces needed, the simulated power there) for a d`sides`."""
    first, top, power = simulate(sides, samples_for(sides))
    if power[-1] < MARGIN:
        raise SystemExit(f"d{sides}: power {power[-1]} at the top count {top} is below {MARGIN}: raise TOP")
    if first > fairness.MIN_EXPECTED * sides and max(power[:8]) >= float(fairness.POWER):
        raise SystemExit(f"d{sides}: power {max(power[:8])} near the first count {first} is not short: lower FIRST")
    n = faces_needed(first, power)
    return n, round(power[n - first], 4)


HEAD = '''"""How many faces find a loaded die, for the test Arbiter runs: written by py/tools/fairness_power.py (its docstring
says how), not by hand. FACES_NEEDED[k] = (the smallest count of d`k` faces from which the simulated power stays at
or above fairness.POWER, the simulated power at that count), for k from 2 to 100."""

SAMPLES = {samples}  # simulated sequences per die, up to d{fewer_above}
FEWER_ABOVE = {fewer_above}
SAMPLES_ABOVE = {samples_above}  # per die above it
SEED = {seed}

FACES_NEEDED: dict[int, tuple[int, float]] = {{
'''


def write(table: dict[int, tuple[int, float]], out: Path = OUT) -> None:
    lines = [HEAD.format(samples=SAMPLES, fewer_above=FEWER_ABOVE, samples_above=SAMPLES_ABOVE, seed=SEED)]
    lines += [f"    {k}: {table[k]!r},\n" for k in sorted(table)]
    lines.append("}\n")
    out.write_text("".join(lines), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sides", type=int, nargs="*", default=list(SIDES))
    parser.add_argument("--out", type=Path, default=OUT, help="the module to write (only the dice simulated)")
    args = parser.parse_args(argv)
    table = {}
    if args.out == OUT:
        from arbiter.fairness_power import FACES_NEEDED

        table.update(FACES_NEEDED)
    for k in args.sides:
        table[k] = entry(k)
        print(f"d{k}: {table[k]}", flush=True)
    write(table, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
