"""How many faces find a loaded die (arbiter.fairness_power, written by py/tools/fairness_power.py): the table
regenerated for a sample of dice, and its figures confirmed by a simulation of its own (NumPy's multinomial draws and
SciPy's chi-square law, none of the engine's code), 10⁵ samples at each count."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from arbiter import api, engine, fairness, fairness_power
from tools import fairness_power as generator

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = 100_000
CONFIRMED = (2, 3, 6, 10, 20, 100)  # the dice whose figures the independent simulation checks


def simulated_power(n: int, sides: int, seed: int) -> float:
    """The share of SAMPLES sets of n faces of the loaded die (face 1 2/(k+1) of the time, each other 1/(k+1)) that
    the test calls unfair: every face expected at least 5 times, and SciPy's chi-square p of X² below 0.05."""
    loaded = np.array([2.0] + [1.0] * (sides - 1)) / (sides + 1)
    counts = np.random.default_rng([seed, n, sides]).multinomial(n, loaded, size=SAMPLES)
    x2 = (sides * (counts.astype(np.int64) ** 2).sum(axis=1) - n * n) / n
    called = stats.chi2.sf(x2, sides - 1) < 0.05 if n >= 5 * sides else np.zeros(SAMPLES, dtype=bool)
    return float(called.mean())


@pytest.mark.parametrize("sides", CONFIRMED)
def test_the_power_said_is_the_power_of_the_test_run(sides):
    """At the faces needed the power api.fairness says is the simulated one within 1 point; from there on (the next
    few counts, and a tenth more) it stays at 80% within 1 point; one count fewer is short of it within 1 point, and
    a fifth fewer falls short."""
    out = api.fairness([], sides) if sides in engine.dice_sides() else None
    needed, power = fairness.faces_to_find(sides)
    if out is not None:
        assert (out["faces_to_find_a_loaded_die"], out["power"]) == (needed, power)
    assert power >= 0.8
    assert simulated_power(needed, sides, 1) == pytest.approx(power, abs=0.01)
    for n in (needed + 1, needed + 2, needed + 3, round(needed * 1.1)):
        assert simulated_power(n, sides, 2) >= 0.79, n
    assert simulated_power(needed - 1, sides, 3) < 0.81
    assert simulated_power(round(needed * 0.8), sides, 3) < 0.8


def test_the_d2_figures_are_the_exact_ones():
    """A d2's power is exact by the binomial law (its X² is (count₁ − count₂)²/n): the faces from which it stays at
    80% (checked to 3 times the count) are the table's, and the power said there is the exact one within 3 standard
    errors."""
    from fractions import Fraction
    from math import comb

    def exact(n: int) -> float:
        called = (c for c in range(n + 1) if generator.called_unfair(n, 2, c * c + (n - c) ** 2))
        return float(sum(Fraction(comb(n, c) * 2**c, 3**n) for c in called))

    needed, power = fairness.faces_to_find(2)
    assert exact(needed - 1) < 0.8 and all(exact(n) >= 0.8 for n in range(needed, 3 * needed))
    assert power == pytest.approx(exact(needed), abs=3 * fairness.power_error(2))


@pytest.mark.parametrize("sides", [2, 3, 6, 10, 17, 53])
def test_the_table_regenerates(sides):
    """The generator, run again for a sample of dice, writes what is checked in (its simulation is seeded)."""
    assert generator.entry(sides) == fairness_power.FACES_NEEDED[sides]


def test_every_die_from_d2_to_d100_has_a_figure():
    """A figure for every number of sides from 2 to 100, its power at least 80% and within the error stated; none
    for a die outside them."""
    assert set(fairness_power.FACES_NEEDED) == set(range(2, 101))
    for sides, (needed, power) in fairness_power.FACES_NEEDED.items():
        assert needed >= fairness.MIN_EXPECTED * sides and 0.8 <= power < 1, sides
    assert (fairness.power_error(51), fairness.power_error(52)) == (0.0013, 0.0025)
    assert api.fairness([], 10)["power_error"] == 0.0013
    with pytest.raises(ValueError, match="d2 to d100, got 101"):
        fairness.faces_to_find(101)


def test_the_noncentral_figure_overstates_the_power():
    """The textbook figure (126 d6 faces, 211 d10) is short of 80% for the test run: why the table exists."""
    for sides, textbook in ((6, 126), (10, 211)):
        assert generator.noncentral_figure(sides) == textbook
        assert simulated_power(textbook, sides, 4) < 0.76


def test_the_docs_say_the_figures_of_the_table():
    """docs/features.md says the d6's and the d10's figures as the table has them, and no old figure is said."""
    text = (ROOT / "docs" / "features.md").read_text(encoding="utf-8")
    said = re.search(r"about\s+\*\*(\d+)\s+faces\s+of\s+a\s+d6\*\*\s+or\s+\*\*(\d+)\s+of\s+a\s+d10\*\*", text)
    assert said, "features.md names the faces a d6 and a d10 need"
    assert (int(said[1]), int(said[2])) == (fairness.faces_to_find(6)[0], fairness.faces_to_find(10)[0])
    for path in [ROOT / "README.md", *ROOT.glob("docs/*.md"), *ROOT.glob("static/**/*.js")]:
        words = path.read_text(encoding="utf-8")
        assert not re.search(r"\b126 faces|\b211 (faces|of a d10)", words), path


@pytest.mark.benchmark(group="fairness")
@pytest.mark.parametrize("sides, n", [(6, 0), (100, 0), (10, 300), (10, 50_000)])
def test_bench_fairness(benchmark, sides, n):
    """api.fairness's figures alone (no faces: the look-up), and with 300 and 50,000 faces (the log's 5,000 rolls of
    ten dice): what the page asks per die kind. d100 is not a die the procedures roll yet: its figures are asked of
    fairness directly."""
    faces = [1 + i % sides for i in range(n)]
    if sides in engine.dice_sides():
        out = benchmark(api.fairness, faces, sides)
        assert out["faces_to_find_a_loaded_die"] == fairness_power.FACES_NEEDED[sides][0]
    else:
        assert benchmark(fairness.faces_to_find, sides) == fairness_power.FACES_NEEDED[sides]
