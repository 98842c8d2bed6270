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

LARGEST = {"type1": 5, "type2": 5, "skill": 10, "item": 5, "convictions": [3] * 6, "difficulty": 4,
           "masteries": 10, "scheme_die": True}


# --- exact odds ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("request_, success, gain, setback", [
    ({"type1": 1, "type2": 1, "difficulty": 1}, Fraction(1, 6), Fraction(1, 6), Fraction(1, 6)),
    (base(7, difficulty=2), Fraction(15, 36), Fraction(9, 36), Fraction(11, 36)),
    ({"type1": 5, "type2": 5, "skill": 10, "item": 5, "difficulty": 4}, Fraction(1), Fraction(671, 1296),
     Fraction(0)),
    (base(4, difficulty=4), Fraction(0), Fraction(0), Fraction(671, 1296)),
    ({"type1": 1, "type2": 1, "difficulty": 1, "scheme_die": True}, Fraction(26, 36), Fraction(0), Fraction(4, 36)),
    ({"type1": 1, "type2": 1, "skill": 1, "difficulty": 1, "masteries": 1}, Fraction(20, 36), Fraction(10, 36),
     Fraction(4, 36)),
])
def test_odds_match_hand_counts(request_, success, gain, setback):
    """Odds agree with counts by hand (e.g. 2d6 below 7 in 15 of 36 ways; one reroll gives 2/6 + 4/6 × 2/6)."""
    o = at.odds(parse(request_))
    assert o == {"outcomes": {"success": success, "failure": 1 - success}, "scheme_gain": gain, "setback": setback}


def _brute_force(request: dict) -> dict:
    """Odds by enumerating every face and every subset of dice to reroll, picking the subset with the best chance
    of success (ties: fewer dice), checking every tied subset gives the same Scheme gain and setback."""
    r = at.Request.of(parse(request))
    d, n = r.difficulty, min(r.masteries, r.difficulty)
    all_faces = range(1, 7)
    success = gain = setback = Fraction(0)
    scheme = list(all_faces) if r.scheme_die else [0]
    for s in scheme:
        ability = r.base_ability + s
        for faces in itertools.product(all_faces, repeat=d):
            options = []
            for size in range(n + 1):
                for subset in itertools.combinations(range(d), size):
                    ok = g = sb = 0
                    for new in itertools.product(all_faces, repeat=size):
                        final = list(faces)
                        for i, f in zip(subset, new):
                            final[i] = f
                        won = ability > sum(final)
                        ok += won
                        g += won and 1 in final and not r.scheme_die
                        sb += not won and 6 in final
                    w = Fraction(1, 6 ** size)
                    options.append((ok * w, size, g * w, sb * w))
            best = max(options, key=lambda o: (o[0], -o[1]))
            tied = {(o[2], o[3]) for o in options if o[:2] == best[:2]}
            assert len(tied) == 1, (faces, ability, options)
            weight = Fraction(1, 6 ** d * len(scheme))
            success += best[0] * weight
            gain += best[2] * weight
            setback += best[3] * weight
    return {"outcomes": {"success": success, "failure": 1 - success}, "scheme_gain": gain, "setback": setback}


SMALL = [base(a, difficulty=d, masteries=m) for d in (1, 2, 3) for m in range(d + 1) for a in (3, 4, 7, 9, 12, 16)]
SMALL += [base(a, difficulty=d, masteries=m, scheme_die=True) for d in (1, 2) for m in range(d + 1) for a in (3, 5, 9)]


@pytest.mark.parametrize("request_", SMALL, ids=lambda r: "-".join(f"{k}{v}" for k, v in r.items()))
def test_odds_match_brute_force_over_every_reroll(request_):
    """ability_test-12: exact odds equal an enumeration over every subset of dice to reroll, under the best policy."""
    assert at.odds(parse(request_)) == _brute_force(request_)


def _success_of_reroll(faces, subset, ability) -> Fraction:
    ways = 0
    for new in itertools.product(range(1, 7), repeat=len(subset)):
        final = list(faces)
        for i, f in zip(subset, new):
            final[i] = f
        ways += ability > sum(final)
    return Fraction(ways, 6 ** len(subset))


@pytest.mark.parametrize("d", [1, 2, 3])
def test_best_reroll_is_as_good_as_any_subset(d):
    """ability_test-12: rerolling the k highest dice for the best k is as good as the best of all subsets."""
    for faces in itertools.product(range(1, 7), repeat=d):
        for ability in range(2, 6 * d + 3):
            for n in range(1, d + 1):
                best = max(_success_of_reroll(faces, s, ability)
                           for size in range(n + 1) for s in itertools.combinations(range(d), size))
                chosen = at.best_reroll(faces, ability, n)
                assert len(chosen) <= n
                assert _success_of_reroll(faces, chosen, ability) == best, (faces, ability, n)


@pytest.mark.parametrize("request_, seed", [
    (base(9, difficulty=3, masteries=2), 4004),
    (base(6, difficulty=3, masteries=1, scheme_die=True), 4005),
    (base(8, difficulty=2), 4006),
])
def test_sampled_rolls_fit_the_odds(request_, seed):
    """20 000 seeded rolls, rerolled as odds assume, fit the exact joint chances (chi-square)."""
    req = parse(request_)
    o = at.odds(req)
    probs = {("success", True): o["scheme_gain"],
             ("success", False): o["outcomes"]["success"] - o["scheme_gain"],
             ("failure", True): o["setback"],
             ("failure", False): o["outcomes"]["failure"] - o["setback"]}
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


@pytest.mark.parametrize("faces, ability, rerolls, expected", [
    ((6, 5), 8, 2, (0, 1)),      # keeping the 5 succeeds 12 in 36, rerolling both 21 in 36
    ((2, 2), 8, 2, ()),          # already a success that no reroll makes surer
    ((6, 6, 6, 6), 3, 4, ()),    # nothing can succeed: no reroll
    ((1, 6, 2), 8, 1, (1,)),     # the 6 is the die to reroll
    ((3, 6, 6), 9, 2, (1, 2)),
])
def test_best_reroll_rerolls_the_highest_dice_that_help(faces, ability, rerolls, expected):
    """ability_test-12: the best reroll is the k highest dice for the best k; no reroll when none helps."""
    assert at.best_reroll(faces, ability, rerolls) == expected


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
