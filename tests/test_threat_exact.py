"""Tests for arbiter.threat.exact (seed 002): each threat's exact odds against every face enumerated, seeded rolls
against the odds (chi-square), properties of the odds, and their benchmark."""

import copy
import itertools
import json
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter import fields, threat
from stats import assert_fits
from threat_helpers import parse, requests, scripted_roll


LARGEST = {"rating": 10, "threats": [{"name": f"T{i}", "desperate": i % 2 == 0} for i in range(8)], "extra_dice": 10}


# --- odds ------------------------------------------------------------------------------------------


def brute_force(req):
    """Per threat, the exact chance of each outcome by rolling every combination of faces through roll()."""
    n = threat.pool(req["rating"], len(req["threats"]), req["extra_dice"])
    counts = [Counter() for _ in req["threats"]]
    for faces in itertools.product(range(1, 7), repeat=n):
        for c, t in zip(counts, scripted_roll(req, *faces)["threats"]):
            c[t["outcome"]] += 1
    return [{o: Fraction(c[o], 6**n) for o in ("happens", "lessened", "avoided")} for c in counts]


@pytest.mark.parametrize(
    "rating, names, extra, desperate",
    [
        (0, ["A"], 0, ()),
        (1, ["A"], 0, ()),
        (1, ["A"], 0, {0}),
        (1, ["A", "B"], 0, ()),
        (2, ["A", "B", "C"], 0, {1}),
        (0, ["A", "B", "C", "D"], 0, {0, 3}),
        (3, ["A", "B"], 1, {1}),
        (1, ["A", "B", "C"], -1, ()),
        (4, ["A"], 1, ()),
    ],
)
def test_odds_match_brute_force(rating, names, extra, desperate):
    """odds() under the default assignment equals enumerating every roll, exactly."""
    req = parse(rating, names, extra, desperate)
    assert threat.odds(req) == {"threats": brute_force(req)}


def test_odds_of_a_known_case():
    """With one die for one threat: 1/2 happens, 1/3 lessened, 1/6 avoided; Desperate: 5/6 happens."""
    assert threat.odds(parse(1, ["A", "B"], -1, {1})) == {
        "threats": [
            {"happens": Fraction(1, 2), "lessened": Fraction(1, 3), "avoided": Fraction(1, 6)},
            {"happens": Fraction(1), "lessened": Fraction(0), "avoided": Fraction(0)},
        ]
    }
    assert threat.odds(parse(1, ["A"], desperate={0}))["threats"][0] == {
        "happens": Fraction(5, 6),
        "lessened": Fraction(0),
        "avoided": Fraction(1, 6),
    }


def test_roll_fits_odds_chi_square():
    """20 000 seeded rolls agree with odds() for every threat (chi-square, fixed seed)."""
    req = parse(1, ["Persuasion", "Dodge", "Stun", "Fail"], -1, {1})  # pool 3: the fourth threat gets no die
    n = 20_000
    rng = random.Random(2002)
    counts = [Counter() for _ in req["threats"]]
    for _ in range(n):
        for c, t in zip(counts, threat.roll(req, rng)["threats"]):
            c[t["outcome"]] += 1
    for c, p in zip(counts, threat.odds(req)["threats"]):
        assert_fits(c, {k: float(v) for k, v in p.items()}, n)
    assert counts[3] == Counter(happens=n)


# --- properties ------------------------------------------------------------------------------------


@given(requests)
@settings(max_examples=200, deadline=None)
def test_odds_sum_to_one_and_desperate_is_never_lessened(request_):
    """For every threat the three chances sum to exactly 1; a Desperate threat has no chance to be lessened."""
    req = fields.parse(threat.FIELDS, request_)
    got = threat.odds(req)["threats"]
    assert len(got) == len(req["threats"])
    for p, t in zip(got, req["threats"]):
        assert sum(p.values()) == 1 and all(0 <= v <= 1 for v in p.values())
        if t["desperate"]:
            assert p["lessened"] == 0


@given(requests, st.sampled_from(["rating", "extra_dice"]))
@settings(max_examples=200, deadline=None)
def test_one_more_die_never_hurts(request_, field):
    """One more die never raises any threat's chance to happen nor lowers its chance to be avoided."""
    limit = 10
    if request_[field] >= limit:
        request_ = {**request_, field: limit - 1}
    before = threat.odds(fields.parse(threat.FIELDS, request_))["threats"]
    after = threat.odds(fields.parse(threat.FIELDS, {**request_, field: request_[field] + 1}))["threats"]
    for b, a in zip(before, after):
        assert a["happens"] <= b["happens"] and a["avoided"] >= b["avoided"]


@given(requests, st.data())
@settings(max_examples=200, deadline=None)
def test_desperate_never_helps(request_, data):
    """Declaring a threat Desperate never lowers its chance to come to pass, nor changes the others."""
    i = data.draw(st.integers(0, len(request_["threats"]) - 1))
    calm = [dict(t) for t in request_["threats"]]
    calm[i]["desperate"] = False
    grim = copy.deepcopy(calm)
    grim[i]["desperate"] = True
    a = threat.odds(fields.parse(threat.FIELDS, {**request_, "threats": calm}))["threats"]
    b = threat.odds(fields.parse(threat.FIELDS, {**request_, "threats": grim}))["threats"]
    assert b[i]["happens"] >= a[i]["happens"] and b[i]["avoided"] == a[i]["avoided"]
    assert a[:i] + a[i + 1 :] == b[:i] + b[i + 1 :]


@given(requests, st.randoms(use_true_random=False))
@settings(max_examples=200, deadline=None)
def test_roll_outcomes_are_possible_under_odds(request_, rng):
    """Every threat's rolled outcome has a non-zero chance in odds(), and its die is the highest assigned face."""
    req = fields.parse(threat.FIELDS, request_)
    r = threat.roll(req, rng)
    assert json.loads(json.dumps(r)) == r
    assert len(r["dice"]) == r["pool"] == threat.pool(req["rating"], len(req["threats"]), req["extra_dice"])
    for t, p in zip(r["threats"], threat.odds(req)["threats"]):
        assert p[t["outcome"]] > 0
        assert t["die"] == max((r["dice"][d] for d in t["dice"]), default=None)
    assert sorted(d for a in r["assignment"] for d in a) == list(range(r["pool"]))


# --- benchmark ---------------------------------------------------------------------------------------


@pytest.mark.benchmark(group="odds")
def test_bench_odds_largest(benchmark):
    """Benchmark: odds() for the largest request (rating 10, 8 threats, 10 extra dice: 27 dice)."""
    req = fields.parse(threat.FIELDS, LARGEST)
    result = benchmark(threat.odds, req)
    assert len(result["threats"]) == 8
