"""headline.py: the one chance beside Roll is the main outcome's, computed from the procedure's own exact odds."""

from __future__ import annotations

from fractions import Fraction

import pytest

from arbiter import api

SPEC = {s["id"]: s for s in api.systems()}


def exact(system, request):
    out = api.odds(system, request)["exact"]
    [(label, p)] = out["headline"].items()
    return {"label": label, "p": Fraction(p)}, out


def opposed(system):
    group = next(f for f in SPEC[system]["fields"] if f["name"] == "opposed")
    return {**SPEC[system]["defaults"], "opposed": {g["name"]: g["default"] for g in group["fields"]}}


@pytest.mark.parametrize("system", ["two_dice", "ten_again", "ability_test"])
def test_a_success_is_the_headline(system):
    """Where the odds have a success, the headline is its chance."""
    head, out = exact(system, SPEC[system]["defaults"])
    assert head == {"label": "Success", "p": Fraction(out["outcomes"]["success"])}


def test_arbitration_counts_every_tier_of_success():
    """Arbitration's headline is any success tier: everything but a failure or a fumble."""
    head, out = exact("arbitration", {**SPEC["arbitration"]["defaults"], "skills": [4]})
    rest = Fraction(out["outcomes"]["failure"]) + Fraction(out["outcomes"]["fumble"])
    assert head["label"] == "Success" and head["p"] == 1 - rest and 0 < head["p"] < 1


@pytest.mark.parametrize("system", ["two_dice", "ten_again"])
def test_opposed_the_actors_win_is_the_headline(system):
    """Opposed, the headline is the actor's win."""
    head, out = exact(system, opposed(system))
    assert head["p"] == Fraction(out["outcomes"]["actor"]) and "Actor" in head["label"]


def test_threat_headline_is_the_first_threat_not_coming_to_pass():
    """A Threat Roll's headline: its first threat lessened or avoided."""
    head, out = exact("threat", SPEC["threat"]["defaults"])
    first = out["threats"][0]
    assert head["p"] == Fraction(first["lessened"]) + Fraction(first["avoided"])


def test_luck_headline_is_the_likeliest_result_with_its_label():
    """A Luck Roll has no success: the headline is its likeliest result (the higher on a tie), labelled as published."""
    head, out = exact("luck", {"dice": 3, "for": 0, "against": 0})
    assert head["label"] == SPEC["luck"]["extras"]["outcome_labels"]["6"]
    assert head["p"] == max(Fraction(p) for p in out["outcomes"].values())
