"""fairness.py: "Are my dice fair?", Pearson's chi-square test of the table's faces in pure Python, checked against
SciPy (a test-only dependency: the package never imports it)."""

from __future__ import annotations

import ast
import json
import math
import random
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import special, stats

from arbiter import api, engine, fairness, fairness_power
from arbiter.errors import RulesError
from arbiter.fairness import Fairness

SIDES = (6, 10)  # the dice the procedures roll


def faces_of(counts: list[int]) -> list[int]:
    """A list of faces with these counts of faces 1, 2, …, shuffled as a table would roll them."""
    faces = [face for face, c in enumerate(counts, 1) for _ in range(c)]
    random.Random(len(faces)).shuffle(faces)
    return faces


def assert_same_p(ours: float, theirs: float) -> None:
    """Equal to 1e-9, absolute and, for a small p, relative (both 0 where the p underflows)."""
    assert abs(ours - theirs) <= 1e-9
    if theirs < 0.01:
        assert abs(ours - theirs) <= max(1e-9 * theirs, 1e-300), (ours, theirs)


def assert_matches_scipy(counts: list[int]) -> dict:
    """api.fairness of these counts gives SciPy's chisquare statistic and p-value."""
    out = api.fairness(faces_of(counts), len(counts))
    theirs = stats.chisquare(counts)
    assert out["counts"] == counts
    assert out["chi_square"] == pytest.approx(float(theirs.statistic), rel=1e-12, abs=1e-12)
    assert_same_p(out["p_value"], float(theirs.pvalue))
    return out


# --- the p-value, against scipy.stats.chisquare ------------------------------------------------------------------


@pytest.mark.parametrize("sides", SIDES)
@pytest.mark.parametrize("seed", range(20))
def test_p_value_equals_scipy_on_fair_samples(sides, seed):
    """Seeded fair dice, from just enough faces to thousands: X² and p equal SciPy's."""
    rng = random.Random(seed)
    n = rng.choice([5 * sides, 5 * sides + 1, 100, 143, 500, 2000, 20_000])
    faces = [rng.randint(1, sides) for _ in range(n)]
    counts = [faces.count(f) for f in range(1, sides + 1)]
    assert_matches_scipy(counts)


@pytest.mark.parametrize("sides", SIDES)
@pytest.mark.parametrize("weight", [1.2, 1.5, 2, 3, 10])
@pytest.mark.parametrize("n", [60, 211, 1000, 5000])
def test_p_value_equals_scipy_on_loaded_samples(sides, weight, n):
    """Seeded loaded dice (face 1 `weight` times as likely as each other), from mild to blatant: equal to SciPy's."""
    rng = random.Random(f"{sides} {weight} {n}")
    faces = rng.choices(range(1, sides + 1), weights=[weight] + [1] * (sides - 1), k=n)
    assert_matches_scipy([faces.count(f) for f in range(1, sides + 1)])


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(SIDES).flatmap(lambda k: st.lists(st.integers(0, 400), min_size=k, max_size=k)))
def test_p_value_equals_scipy_on_any_counts(counts):
    """Any counts with enough faces, fair-looking or wildly loaded: equal to SciPy's."""
    if sum(counts) < 5 * len(counts):
        counts = [c + 5 for c in counts]
    assert_matches_scipy(counts)


@pytest.mark.parametrize(
    "counts, low, high",
    [
        ([157, 43, 100, 100, 100, 100], 1e-12, 2e-12),
        ([162, 38] + [100] * 8, 5e-13, 1e-12),
        ([101, 99, 100, 100, 100, 100], 0.99999, 1),
        ([100] * 10, 1, 1),
        ([600, 0, 0, 0, 0, 0], 0, 0),
        ([5] * 9 + [200], 0, 1e-200),
    ],
)
def test_p_value_equals_scipy_at_the_extremes(counts, low, high):
    """p near 1e-12, p near and at 1, and p that underflows: equal to SciPy's, which is where the case says."""
    assert low <= stats.chisquare(counts).pvalue <= high
    assert_matches_scipy(counts)


# --- the chi-square law's pieces, against scipy.special and scipy.stats -------------------------------------------


@pytest.mark.parametrize("a", [0.5, 1, 2.5, 4.5, 10, 49.5, 200])
@pytest.mark.parametrize("ratio", [0, 1e-6, 0.1, 0.5, 0.99, 1, 1.01, 2, 5, 20])
def test_gamma_q_equals_scipy(a, ratio):
    """Q(a, x) on both sides of x = a + 1 (series and continued fraction): to 1e-12 relative."""
    for x in (ratio * a, a + 1, a + 1 + 1e-9, a + 1 - 1e-9):
        theirs = float(special.gammaincc(a, x))
        assert fairness.gamma_q(a, x) == pytest.approx(theirs, rel=1e-12, abs=1e-300)


@pytest.mark.parametrize("df", [1, 5, 9, 20])
@pytest.mark.parametrize("q", [0.5, 0.05, 0.01, 1e-6])
def test_chi2_isf_equals_scipy(df, q):
    """The critical value of the chi-square law: SciPy's chi2.isf to 1e-12 relative."""
    assert fairness.chi2_isf(q, df) == pytest.approx(float(stats.chi2.isf(q, df)), rel=1e-12)


# --- the loaded die (how many faces find it: test_fairness_power.py) ---------------------------------------------


@pytest.mark.parametrize("sides", [2, 3, 4, 6, 8, 10, 12, 20])
def test_effect_size_of_the_loaded_die(sides):
    """Cohen's w² of a die with one face twice as likely is (k − 1)/(k + 1)², and its chances sum to 1."""
    loaded = fairness.loaded_die(sides)
    assert sum(loaded) == 1 and loaded[0] == 2 * loaded[1]
    assert fairness.effect_size(loaded) == Fraction(sides - 1, (sides + 1) ** 2)


# --- enough faces, and the words ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "sides, n, more, words",
    [
        (6, 0, 30, "0 d6 faces: 30 more faces to say"),
        (6, 1, 29, "1 d6 face: 29 more faces to say"),
        (6, 29, 1, "29 d6 faces: 1 more face to say"),
        (10, 12, 38, "12 d10 faces: 38 more faces to say"),
        (10, 49, 1, "49 d10 faces: 1 more face to say"),
    ],
)
def test_before_every_face_is_expected_five_times_it_says_how_many_more(sides, n, more, words):
    """Below n = 5k nothing is tested: no X², no p, only how many more faces it needs."""
    out = api.fairness([1 + i % sides for i in range(n)], sides)
    assert (out["more_needed"], out["enough"], out["words"]) == (more, False, words)
    assert out["chi_square"] is out["p_value"] is out["p"] is out["unfair"] is None


@pytest.mark.parametrize("sides", SIDES)
def test_at_five_per_face_it_says(sides):
    """At exactly n = 5k the test is said."""
    out = api.fairness(faces_of([5] * sides), sides)
    assert out["enough"] and out["more_needed"] == 0
    assert out["words"] == f"{5 * sides} d{sides} faces: nothing chance does not explain, p = 1"


@pytest.mark.parametrize(
    "counts, words",
    [
        (
            [14, 12, 10, 10, 17, 12, 20, 10, 16, 22],
            "143 d10 faces: nothing chance does not explain, p = 0.22",
        ),
        ([1, 12, 13, 10, 10, 14], "60 d6 faces: nothing chance does not explain, p = 0.051"),
        ([4, 17, 18, 15, 15, 21], "90 d6 faces: fewer 1s than chance explains, p = 0.045"),
        ([157, 43, 100, 100, 100, 100], "600 d6 faces: more 1s than chance explains, p < 0.001"),
        ([30, 10, 10, 10, 10, 30], "100 d6 faces: more 1s and 6s than chance explains, p < 0.001"),
        ([30, 10, 30, 10, 10, 30], "120 d6 faces: more 1s, 3s and 6s than chance explains, p < 0.001"),
        ([5] * 9 + [30], "75 d10 faces: more 10s than chance explains, p < 0.001"),
    ],
)
def test_the_words(counts, words):
    """Fair enough: nothing chance does not explain; unfair (p < 0.05): the face furthest from its expectation."""
    out = api.fairness(faces_of(counts), len(counts))
    assert out["words"] == words
    assert out["unfair"] == (stats.chisquare(counts).pvalue < 0.05)
    assert out["words"].endswith(out["p"])


def test_a_face_that_comes_up_too_seldom_is_said_as_fewer():
    """A die that never rolls 6 is named by its 6s, not by the five faces above their expectation."""
    out = api.fairness(faces_of([20, 20, 20, 20, 20, 0]), 6)
    assert out["unfair"] and out["named"] == [6] and out["way"] == "fewer"
    assert out["words"].startswith("100 d6 faces: fewer 6s than chance explains")
    assert max(range(6), key=lambda i: abs(out["residuals"][i])) == 5


def test_a_fair_answer_names_no_face_and_no_way():
    out = api.fairness(faces_of([10] * 6), 6)
    assert out["unfair"] is False and out["named"] == [] and out["way"] is None


def test_the_named_face_is_the_one_furthest_above_by_standardized_residual():
    """The named face has the largest (count − expected)/√expected, which the residuals publish."""
    out = api.fairness(faces_of([10, 40, 20, 10, 10, 10]), 6)
    assert out["named"] == [2] and "more 2s" in out["words"]
    expected = 100 / 6
    assert out["residuals"] == pytest.approx([(c - expected) / math.sqrt(expected) for c in [10, 40, 20, 10, 10, 10]])
    assert max(range(6), key=lambda i: out["residuals"][i]) == 1


@pytest.mark.parametrize(
    "p, said",
    [
        (1.0, "p = 1"),
        (0.99999, "p = 0.99"),
        (0.4137, "p = 0.41"),
        (0.1, "p = 0.1"),
        (0.0519, "p = 0.051"),
        (0.05, "p = 0.05"),
        (0.04999, "p = 0.049"),
        (0.0101, "p = 0.01"),
        (0.003, "p = 0.003"),
        (0.00317, "p = 0.0031"),
        (0.001, "p = 0.001"),
        (0.000999, "p < 0.001"),
        (1e-12, "p < 0.001"),
        (0.0, "p < 0.001"),
    ],
)
def test_p_text(p, said):
    """p is cut (never rounded up) to two significant figures; below 0.001 it is "p < 0.001"."""
    assert fairness.p_text(p) == said


@settings(deadline=None)  # no timing in a test: a loaded machine took over 200 ms once
@given(st.floats(0.001, 1))
def test_a_p_shown_below_alpha_is_below_it(p):
    """The shown p is at most p and within a tenth of it, so it is below 0.05 exactly when p is."""
    shown = float(fairness.p_text(p).removeprefix("p = "))
    assert 0.9 * p < shown <= p
    assert (shown < 0.05) == (p < 0.05)


# --- the door: JSON, exact twins, bad input refused ----------------------------------------------------------------


def test_the_door_answers_json_with_exact_twins():
    """Through call_json as the page calls it: JSON-safe, X² and the expectation also exact as "p/q"."""
    counts = [14, 12, 10, 10, 17, 12, 20, 10, 16, 22]
    answer = json.loads(api.call_json("fairness", json.dumps([faces_of(counts), 10])))
    assert answer["ok"]
    out = answer["value"]
    assert out["exact"]["chi_square"] == "1681/143" and out["exact"]["expected"] == "143/10"
    assert Fraction(out["exact"]["chi_square"]) == Fraction(10 * sum(c * c for c in counts) - 143**2, 143)
    assert (out["alpha"], out["power_wanted"], out["min_expected"]) == (0.05, 0.8, 5)
    assert out["exact"]["power_wanted"] == "4/5"
    assert (out["faces_to_find_a_loaded_die"], out["power"]) == fairness_power.FACES_NEEDED[10]
    assert out["loaded_die"] == {"face": pytest.approx(2 / 11), "other": pytest.approx(1 / 11)}


@pytest.mark.parametrize(
    "faces, sides, path, says",
    [
        ([1, 2], 8, "sides", "must be one of 6, 10"),
        ([1, 2], "6", "sides", "must be one of 6, 10"),
        ([1, 2], True, "sides", "must be one of 6, 10"),
        ([1, 7], 6, "faces[1]", "must be from 1 to 6"),
        ([0, 1], 10, "faces[0]", "must be from 1 to 10"),
        ([11], 10, "faces[0]", "must be from 1 to 10"),
        ([1, 2.5], 6, "faces[1]", "must be a whole number from 1 to 6"),
        ([1, "3"], 6, "faces[1]", "must be a whole number from 1 to 6"),
        ([True], 6, "faces[0]", "must be a whole number from 1 to 6"),
        ("123", 6, "faces", "must be a list of whole numbers from 1 to 6"),
        (None, 10, "faces", "must be a list of whole numbers from 1 to 10"),
    ],
)
def test_bad_input_is_refused(faces, sides, path, says):
    """A die no procedure rolls, a face the die does not have, a non-integer: a RulesError naming the field."""
    with pytest.raises(RulesError) as caught:
        api.fairness(faces, sides)
    assert (caught.value.path, caught.value.says) == (path, says)
    assert str(caught.value).startswith(f"'{path}' {says}, got ")


def test_the_dice_tested_are_the_dice_the_procedures_roll():
    """The sides allowed come from each procedure's SIDES, never a list of fairness' own."""
    from arbiter.procedures import PROCEDURES

    assert set(engine.dice_sides()) == {m.SIDES for m in PROCEDURES.values()} == set(SIDES)


def test_fairness_is_pure_python():
    """fairness.py imports only the standard library's math and the package's own modules: it runs in Pyodide."""
    tree = ast.parse(Path(fairness.__file__).read_text(encoding="utf-8"))
    imported = {
        name
        for node in ast.walk(tree)
        if isinstance(node, (ast.Import, ast.ImportFrom)) and not getattr(node, "level", 0)
        for name in ([a.name for a in node.names] if isinstance(node, ast.Import) else [node.module])
    }
    assert imported <= {"__future__", "math", "dataclasses", "fractions", "functools"}


def test_counts_are_of_each_face():
    """Fairness.of counts each face, 1 to k, and n is their sum."""
    f = Fairness.of((1, 1, 3, 6), 6)
    assert f.counts == (2, 0, 1, 0, 0, 1) and f.n == 4 and f.expected == Fraction(2, 3)
