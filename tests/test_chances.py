"""chances: the roll as it stands, odds after a follow-up without dice, and luck, for the single-module procedures
(ten_again's and ability_test's own answers are in test_ten_again_after.py and test_ability_test_after.py)."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from arbiter import arbitration, chances, fields, luck, threat, two_dice
from arbiter.errors import RulesError
from arbiter.procedures import PROCEDURES
from scripted import ScriptedDice


def _all_rolls(m, request: dict, n: int):
    """Every roll of `request` (n d6 in all, both sides), each as likely."""
    req = fields.parse(m.FIELDS, request)
    for faces in itertools.product(range(1, 7), repeat=n):
        yield m.roll(req, ScriptedDice(*faces))


CASES = [
    (arbitration, {"skills": [2], "complexity": "moderate"}, 2),
    (arbitration, {"skills": [1], "complexity": "moderate", "opposed": {"skills": [1], "complexity": "moderate"}}, 2),
    (arbitration, {"skills": [3], "complexity": "moderate", "opposed": {"skills": [1], "complexity": "easy"}}, 5),
    (two_dice, {"trait": 1, "difficulty": -2}, 2),
    (two_dice, {"trait": 1, "opposed": {"trait": 2}}, 4),
    (luck, {"dice": 3}, 3),
    (luck, {"dice": 1, "against": 2}, 0),
    (threat, {"rating": 2, "threats": [{"name": "a"}, {"name": "b", "desperate": True}]}, 3),
    (threat, {"rating": 0, "threats": [{"name": "a", "desperate": True}, {"name": "b"}, {"name": "c"}]}, 2),
]


@pytest.mark.parametrize("m,request_,n", CASES, ids=lambda x: getattr(x, "ID", None))
def test_luck_percentiles_average_exactly_one_half(m, request_, n):
    """Over every roll, equally likely, the mean percentile is exactly ½; the chance of success is the share of
    rolls that succeed; each roll's chance of its rank is the share of rolls of that rank."""
    rolls = list(_all_rolls(m, request_, n))
    lucks = [chances.luck(m, r) for r in rolls]
    whole = len(rolls)
    assert sum(x["p_worse"] + x["p_same"] / 2 for x in lucks) / whole == Fraction(1, 2)
    successes = sum(x["success"] for x in lucks)
    assert all(x["p_success"] == Fraction(successes, whole) for x in lucks)
    ranks = Counter(x["rank"] for x in lucks)
    assert all(x["p_same"] == Fraction(ranks[x["rank"]], whole) for x in lucks)


def test_luck_refuses_a_roll_that_does_not_match_its_dice():
    """A roll whose outcome was changed by hand is refused: its dice are rolled again to find the outcome."""
    r = arbitration.roll(
        fields.parse(arbitration.FIELDS, {"skills": [2], "complexity": "moderate"}), ScriptedDice(1, 1)
    )
    with pytest.raises(RulesError, match="does not match its dice"):
        chances.luck(arbitration, dict(r, outcome="outstanding"))
    with pytest.raises(RulesError, match="roll.dice"):
        chances.luck(arbitration, dict(r, dice=[1, 9]))


def test_a_reassignment_is_certain():
    """threat: odds after reassigning the dice are the resulting roll's outcomes with certainty (act, no dice)."""
    req = fields.parse(threat.FIELDS, {"rating": 2, "threats": [{"name": "a"}, {"name": "b"}]})
    r = threat.roll(req, ScriptedDice(6, 2, 5))
    after = chances.odds_after(threat, r, {"assign": [[1], [0, 2]]})
    assert after == {
        "threats": [{"happens": 1, "lessened": 0, "avoided": 0}, {"happens": 0, "lessened": 0, "avoided": 1}]
    }
    assert chances.standing(threat, r)["threats"][0] == {"happens": 0, "lessened": 0, "avoided": 1}


@pytest.mark.parametrize("m", [arbitration, two_dice, luck])
def test_procedures_without_follow_ups_refuse_odds_after(m):
    """A procedure with no follow-up choice refuses every action in odds_after, as act() does."""
    req = fields.parse(m.FIELDS, {})
    r = m.roll(req, ScriptedDice(*[3] * 10))
    with pytest.raises(RulesError, match="no follow-up"):
        chances.odds_after(m, r, {"anything": True})
    assert chances.standing(m, r)["outcomes"][r["outcome"]] == 1


@pytest.mark.parametrize("m,request_,n", [c for c in CASES if c[0] is not threat], ids=lambda x: getattr(x, "ID", None))
def test_a_better_outcome_is_luckier(m, request_, n):
    """The order is worst first: the text's tiers from a fumble up (arbitration), failure before success (the
    target's win before the actor's), the Luck Roll's 0 to 6; a better outcome never has a lower percentile."""
    lucks = [chances.luck(m, r) for r in _all_rolls(m, request_, n)]
    order = lucks[0]["order"]
    expected = {
        "arbitration": [o.value for o, *_ in reversed(arbitration.TIERS)],
        "two_dice": ["target", "actor"] if request_.get("opposed") else ["failure", "success"],
        "luck": [str(v) for v in range(7)],
    }[m.ID]
    assert order == expected
    by_outcome = {x["outcome"]: x["p_worse"] + x["p_same"] / 2 for x in lucks}
    ranked = [by_outcome[o] for o in order if o in by_outcome]
    assert ranked == sorted(ranked)


@pytest.mark.parametrize(
    "before, after, said",
    [
        (Fraction(1), Fraction(1), {"words": "no gain", "tone": "muted"}),
        (Fraction(1), Fraction(108, 125), {"words": "risky", "tone": "warn"}),
        (Fraction(0), Fraction(1, 3), None),
        (Fraction(0), Fraction(1), None),
    ],
)
def test_verdict_words_a_follow_up_that_cannot_help(before, after, said):
    """A follow-up's note: lower after than before is risky (a warning), certain both times is no gain (muted), a
    chance raised has none."""
    assert chances.verdict(before, after, "no gain", "risky") == said


def test_a_procedure_without_note_words_none():
    """A procedure that leaves `note` out has no note on any follow-up (the protocol's optional part)."""
    r = threat.roll(
        fields.parse(threat.FIELDS, {"rating": 2, "threats": [{"name": "a"}, {"name": "b"}]}), ScriptedDice(5, 2, 3)
    )
    assert "note" not in vars(threat)
    assert chances.note(PROCEDURES["threat"], r, {"assign": [[1], [0, 2]]}, {}) is None  # through the adapter
