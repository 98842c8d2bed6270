"""Tests for arbiter.ability_test.exact: the best reroll, and exact odds against hand counts, brute force over every
reroll, and seeded rolls (chi-square)."""

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import strategies
from ability_test_helpers import base, parse, valid
from arbiter import ability_test as at
from stats import assert_fits

LARGEST = {
    "type1": 5,
    "type2": 5,
    "skill": 10,
    "item": 5,
    "convictions": [3] * 6,
    "difficulty": 4,
    "masteries": 10,
    "scheme_die": True,
}


# --- exact odds ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "request_, success, gain, setback",
    [
        ({"type1": 1, "type2": 1, "difficulty": 1}, Fraction(1, 6), Fraction(1, 6), Fraction(1, 6)),
        (base(7, difficulty=2), Fraction(15, 36), Fraction(9, 36), Fraction(11, 36)),
        (
            {"type1": 5, "type2": 5, "skill": 10, "item": 5, "difficulty": 4},
            Fraction(1),
            Fraction(671, 1296),
            Fraction(0),
        ),
        (base(4, difficulty=4), Fraction(0), Fraction(0), Fraction(671, 1296)),
        ({"type1": 1, "type2": 1, "difficulty": 1, "scheme_die": True}, Fraction(26, 36), Fraction(0), Fraction(4, 36)),
        (
            {"type1": 1, "type2": 1, "skill": 1, "difficulty": 1, "masteries": 1},
            Fraction(20, 36),
            Fraction(10, 36),
            Fraction(7, 36),
        ),
        (
            {"type1": 5, "type2": 5, "skill": 10, "item": 5, "difficulty": 1, "masteries": 1},
            Fraction(1),
            Fraction(11, 36),
            Fraction(0),
        ),
    ],
)
def test_odds_match_hand_counts(request_, success, gain, setback):
    """ability_test-12: odds agree with counts by hand (2d6 below 7 in 15 of 36 ways; Ability 3 against one die
    rerolled from 3-6 succeeds 2/6 + 4/6 × 2/6, and a 6 rerolled away still brings the setback: 1/6 × 4/6 + 3/6 ×
    1/6; a sure success rerolls a die that is not a 1 in the hope of one: 1/6 + 5/6 × 1/6)."""
    o = at.odds(parse(request_))
    assert o == {"outcomes": {"success": success, "failure": 1 - success}, "scheme_gain": gain, "setback": setback}


def _new_faces(k: int) -> Counter:
    """Every way k rerolled dice can land, by (sum, a 1 among them, a 6 among them)."""
    return Counter((sum(new), 1 in new, 6 in new) for new in itertools.product(range(1, 7), repeat=k))


def _every_reroll(faces: tuple[int, ...], ability: int, n: int, scheme_die: bool) -> list[tuple]:
    """For every subset of at most n dice to reroll: (success, −setback, Scheme gain, −size) in ways out of 6**n,
    and the subset. Every die rolled during the Test counts for the setback and the gain, the first faces too."""
    first_one, first_six = 1 in faces, 6 in faces
    out = []
    for size in range(n + 1):
        lands = _new_faces(size)
        for subset in itertools.combinations(range(len(faces)), size):
            kept = sum(faces) - sum(faces[i] for i in subset)
            ok = gain = setback = 0
            for (new_sum, one, six), ways in lands.items():
                if ability > kept + new_sum:
                    ok += ways
                    gain += ways if (first_one or one) and not scheme_die else 0
                elif first_six or six:
                    setback += ways
            scale = 6 ** (n - size)
            out.append(((ok * scale, -setback * scale, gain * scale, -size), subset))
    return out


def _brute_force(request: dict) -> dict:
    """Odds by enumerating every face of every die and every subset of dice to reroll, taking the subset with the
    best chance of success, then the lowest chance of a setback, then the highest chance of a Scheme gain, then
    the fewest dice."""
    d, n = request["difficulty"], min(request.get("masteries", 0), request["difficulty"])
    base_ability = (
        request["type1"]
        + request["type2"]
        + request.get("skill", 0)
        + request.get("item", 0)
        + sum(request.get("convictions", ()))
    )
    scheme_die = request.get("scheme_die", False)
    scheme = range(1, 7) if scheme_die else [0]
    success = gain = setback = 0
    for s in scheme:
        for faces in itertools.product(range(1, 7), repeat=d):
            (ok, minus_setback, g, _), _ = max(_every_reroll(faces, base_ability + s, n, scheme_die))
            success, setback, gain = success + ok, setback - minus_setback, gain + g
    total = 6 ** (d + n) * len(scheme)
    return {
        "outcomes": {"success": Fraction(success, total), "failure": 1 - Fraction(success, total)},
        "scheme_gain": Fraction(gain, total),
        "setback": Fraction(setback, total),
    }


def _abilities(d: int) -> tuple[int, ...]:
    """Abilities around the dice's spread: below, at the middle, high, and above any total (a sure success)."""
    return (3, 7 * d // 2 + 1, 6 * d - 1, 6 * d + 1)


SMALL = [base(a, difficulty=d, masteries=m) for d in (1, 2, 3, 4) for m in range(4) for a in _abilities(d)]
SMALL += [
    base(a, difficulty=d, masteries=m, scheme_die=True) for d in (1, 2, 3) for m in range(1, 4) for a in (3, 3 * d + 2)
]


@pytest.mark.parametrize("request_", SMALL, ids=lambda r: "-".join(f"{k}{v}" for k, v in r.items()))
def test_odds_match_brute_force_over_every_reroll(request_):
    """ability_test-12, ability_test-7: exact odds (success, Scheme gain, setback) equal an enumeration over every
    subset of dice to reroll under the stated policy, for difficulty 1-4 and Masteries 0-3."""
    assert at.odds(parse(request_)) == _brute_force(request_)


@pytest.mark.parametrize("d", [1, 2, 3])
def test_best_reroll_is_the_best_subset_under_the_policy(d):
    """ability_test-12: the suggested reroll is as good as the best of all subsets (chance of success, then of no
    setback, then of a Scheme gain), with the fewest dice among equals."""
    for faces in itertools.product(range(1, 7), repeat=d):
        for ability in range(2, 6 * d + 3):
            for n in range(1, d + 1):
                for scheme_die in (False, True):
                    options = _every_reroll(faces, ability, n, scheme_die)
                    chosen = at.best_reroll(faces, ability, n, scheme_die)
                    assert dict((sub, key) for key, sub in options)[chosen] == max(options)[0], (faces, ability, n)


@pytest.mark.parametrize(
    "request_, seed",
    [
        (base(9, difficulty=3, masteries=2), 4004),
        (base(6, difficulty=3, masteries=1, scheme_die=True), 4005),
        (base(8, difficulty=2), 4006),
    ],
)
def test_sampled_rolls_fit_the_odds(request_, seed):
    """20 000 seeded rolls, rerolled as odds assume, fit the exact joint chances (chi-square)."""
    req = parse(request_)
    o = at.odds(req)
    probs = {
        ("success", True): o["scheme_gain"],
        ("success", False): o["outcomes"]["success"] - o["scheme_gain"],
        ("failure", True): o["setback"],
        ("failure", False): o["outcomes"]["failure"] - o["setback"],
    }
    dice = random.Random(seed)
    seen = Counter()
    n = 20_000
    for _ in range(n):
        r = at.roll(req, dice)
        choice = next((c for c in r["choices"] if c["name"] == "reroll"), None)
        if choice and choice["suggested"]:
            r = at.act(r, {"reroll": choice["suggested"]}, dice)
        seen[(r["outcome"], r["scheme_gain"] if r["outcome"] == "success" else r["setback"])] += 1
    assert_fits(seen, {k: float(v) for k, v in probs.items()}, n)


@pytest.mark.parametrize(
    "faces, ability, rerolls, expected",
    [
        ((6, 5), 8, 2, (0, 1)),  # rerolling the 6 succeeds 2 in 6, rerolling both 21 in 36
        ((2, 2), 9, 2, (1,)),  # a sure success whatever one die shows: reroll it in the hope of a 1
        ((1, 2), 9, 2, ()),  # a sure success that has its 1 already: nothing to gain
        ((6, 6, 6, 6), 3, 4, ()),  # nothing can succeed: no reroll
        ((1, 6, 2), 8, 1, (1,)),  # the 6 is the die to reroll
        ((3, 6, 6), 9, 2, (1, 2)),
    ],
)
def test_best_reroll_rerolls_the_highest_dice_that_help(faces, ability, rerolls, expected):
    """ability_test-12: the best reroll is the k highest dice for the best k; a sure success rerolls a die in the
    hope of a 1; no reroll when none does better."""
    assert at.best_reroll(faces, ability, rerolls) == expected
    assert at.best_reroll((2, 2), 9, 2, scheme_die=True) == ()  # with a Scheme die no 1 earns anything


# --- properties ---------------------------------------------------------------------------------------------------

REQUESTS = strategies.request(at.FIELDS).map(valid)


@settings(max_examples=150, deadline=None)
@given(REQUESTS)
def test_odds_partition_and_bound_their_parts(request_):
    """Success and failure sum to exactly 1; the Scheme gain lies within success and the setback within failure."""
    o = at.odds(parse(request_))
    s, f = o["outcomes"]["success"], o["outcomes"]["failure"]
    assert s + f == 1 and 0 <= s <= 1
    assert 0 <= o["scheme_gain"] <= s and 0 <= o["setback"] <= f
    if request_["scheme_die"]:
        assert o["scheme_gain"] == 0


def _success(request_: dict) -> Fraction:
    return at.odds(parse(request_))["outcomes"]["success"]


@settings(max_examples=100, deadline=None)
@given(REQUESTS, st.sampled_from(["masteries", "skill", "item", "type1", "type2"]))
def test_more_ability_or_masteries_never_lowers_success(request_, field):
    """One more Mastery, Skill, Item or Attribute level never lowers the chance of success."""
    spec = next(f for f in at.FIELDS if f.name == field)
    if request_[field] < spec.max:
        assert _success(valid({**request_, field: request_[field] + 1})) >= _success(request_)


@settings(max_examples=100, deadline=None)
@given(REQUESTS)
def test_a_scheme_die_never_lowers_success(request_):
    """Adding a Scheme die's d6 to Ability never lowers the chance of success."""
    assert _success({**request_, "scheme_die": True}) >= _success({**request_, "scheme_die": False})


@settings(max_examples=100, deadline=None)
@given(REQUESTS)
def test_one_more_difficulty_die_never_raises_success(request_):
    """One more difficulty die never raises the chance of success, Masteries or not."""
    if request_["difficulty"] < at.MAX_DIFFICULTY:
        assert _success({**request_, "difficulty": request_["difficulty"] + 1}) <= _success(request_)


@pytest.mark.benchmark(group="odds")
def test_bench_odds_largest(benchmark):
    """Benchmark: odds() for the largest allowed request (4 dice, 10 Masteries, a Scheme die)."""
    req = parse(LARGEST)
    result = benchmark(at.odds, req)
    assert result["outcomes"]["success"] + result["outcomes"]["failure"] == 1
