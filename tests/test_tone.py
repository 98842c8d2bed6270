"""Tests for arbiter.tone: every outcome of every procedure has its class (`tone`) in the roll's JSON, and a botch or a
fumble names the dice that make it."""

from __future__ import annotations

import pytest

from arbiter import ability_test, arbitration, fields, luck, ten_again, threat, two_dice
from arbiter.procedures import PROCEDURES
from arbiter.tone import Tone
from scripted import ScriptedDice

OPPOSED = {
    "arbitration": {"opposed": {"skills": [3]}},
    "two_dice": {"opposed": {"trait": 0}},
    "ten_again": {"opposed": {"pool": 3}},
}

# system, request (over the defaults), faces, the outcome, its tone, the dice that make a botch or fumble (per side)
CASES = [
    ("arbitration", {}, (1, 1, 1), "fumble", "botch", {"": [0, 1, 2]}),
    ("arbitration", {}, (1, 2, 2), "failure", "failure", {"": []}),
    ("arbitration", {}, (2, 2, 2), "mediocre", "success", {"": []}),
    ("arbitration", {}, (4, 4, 4), "fair", "success", {"": []}),
    ("arbitration", {}, (6, 6, 6), "good", "success", {"": []}),
    ("arbitration", {"skills": [5]}, (6, 6, 6, 6, 1), "exceptional", "success", {"": []}),
    ("arbitration", {"skills": [5]}, (6, 6, 6, 6, 6), "outstanding", "success", {"": []}),
    ("arbitration", {"skills": [0]}, (), "failure", "failure", {"": []}),
    # reduced to a fumble by the defender's success: no die of the aggressor's makes it
    ("arbitration", OPPOSED["arbitration"], (2, 2, 2, 3, 3, 3), "fumble", "botch", {"": [], "defender": []}),
    ("arbitration", OPPOSED["arbitration"], (4, 4, 4, 1, 1, 1), "fair", "success", {"": [], "defender": [0, 1, 2]}),
    ("two_dice", {"trait": 5}, (2, 3), "success", "success", {"": []}),
    ("two_dice", {}, (2, 3), "failure", "failure", {"": []}),
    ("two_dice", {"trait": 10}, (1, 1), "failure", "botch", {"": [0, 1]}),
    ("two_dice", {}, (6, 6), "success", "success", {"": []}),
    ("two_dice", OPPOSED["two_dice"], (5, 5, 2, 2), "actor", "success", {"": [], "target": []}),
    ("two_dice", OPPOSED["two_dice"], (2, 2, 5, 5), "target", "failure", {"": [], "target": []}),
    ("two_dice", OPPOSED["two_dice"], (1, 1, 2, 2), "target", "botch", {"": [0, 1], "target": []}),
    ("two_dice", OPPOSED["two_dice"], (2, 2, 1, 1), "actor", "success", {"": [], "target": [0, 1]}),
    ("threat", {}, (3,), "happens", "failure", {}),
    ("threat", {}, (5,), "lessened", "mixed", {}),
    ("threat", {}, (6,), "avoided", "success", {}),
    ("threat", {"threats": [{"name": "Dodge"}, {"name": "Stun"}]}, (6, 2), "avoided / happens", "mixed", {}),
    ("threat", {"threats": [{"name": "Dodge"}, {"name": "Stun"}]}, (1, 2), "happens / happens", "failure", {}),
    ("luck", {"dice": 0}, (), "0", "failure", {}),
    *[
        ("luck", {}, (face,), str(face), tone, {})
        for face, tone in ((1, "failure"), (2, "failure"), (3, "failure"), (4, "mixed"), (5, "mixed"), (6, "success"))
    ],
    ("ten_again", {}, (8, 2, 3), "success", "success", {"": []}),
    ("ten_again", {}, (2, 3, 4), "failure", "failure", {"": []}),
    ("ten_again", {}, (1, 3, 1), "botch", "botch", {"": [0, 2]}),
    ("ten_again", {"risky": True}, (1, 8, 1), "botch", "botch", {"": [2]}),  # the first 1 ate the 8
    ("ten_again", OPPOSED["ten_again"], (8, 9, 2, 8, 2, 3), "actor", "success", {"": [], "target": []}),
    ("ten_again", OPPOSED["ten_again"], (8, 2, 2, 8, 9, 3), "target", "failure", {"": [], "target": []}),
    ("ten_again", OPPOSED["ten_again"], (8, 2, 2, 8, 2, 3), "tie", "mixed", {"": [], "target": []}),
    ("ten_again", OPPOSED["ten_again"], (1, 2, 2, 8, 2, 3), "target", "botch", {"": [0], "target": []}),
    ("ten_again", OPPOSED["ten_again"], (2, 2, 2, 2, 1, 3), "tie", "mixed", {"": [], "target": [1]}),
    ("ability_test", {}, (1, 2), "success", "success", {}),
    ("ability_test", {}, (3, 3), "failure", "failure", {}),
]

# Where each side's botch or fumble dice are: the key of the side in the roll ("" for the roll itself), the key of
# its list.
DECIDING = {"arbitration": "fumble_dice", "two_dice": "fumble_dice", "ten_again": "botch_dice"}


def rolled(system, request, faces):
    m = PROCEDURES[system]
    dice = ScriptedDice(*faces)
    out = m.roll(fields.parse(m.FIELDS, request), dice)
    assert dice.left == []
    return out


@pytest.mark.parametrize("system, request_, faces, outcome, tone, deciding", CASES)
def test_each_outcome_has_its_tone_and_names_the_dice_of_a_botch(system, request_, faces, outcome, tone, deciding):
    """The roll's JSON carries the class of its outcome, and each side lists the dice that make its botch/fumble."""
    r = rolled(system, request_, faces)
    assert (r["outcome"], r["tone"]) == (outcome, tone)
    for side, dice in deciding.items():
        assert (r[side] if side else r)[DECIDING[system]] == dice


# Every outcome each procedure can give (a Threat Roll's per threat), from its own declarations.
OUTCOMES = {
    "arbitration": {o.value for o in arbitration.Outcome},
    "two_dice": {o.value for o in two_dice.Outcome},
    "threat": {o.value for o in threat.Outcome},
    "luck": set(luck.EXTRAS["outcome_labels"]),
    "ten_again": {o.value for o in ten_again.Outcome} | {w.value for w in ten_again.Winner},
    "ability_test": {o.value for o in ability_test.Outcome},
}


@pytest.mark.parametrize("system", list(PROCEDURES))
def test_the_cases_cover_every_outcome_of_every_procedure(system):
    """Each procedure's every outcome (and each side of a contest) is among the cases above, with a tone."""
    assert set(OUTCOMES) == set(PROCEDURES)
    seen = {part for s, _, _, outcome, _, _ in CASES if s == system for part in outcome.split(" / ")}
    assert seen == OUTCOMES[system]


FOLLOW_UPS = [
    ("ten_again", {}, (2, 3, 4, 8, 1, 1), {"spend_will": True}, "success"),
    ("ability_test", {}, (3, 3), {"exert": 3}, "success"),
    ("threat", {"threats": [{"name": "Dodge"}, {"name": "Stun"}]}, (6, 2), {"assign": [[1], [0]]}, "mixed"),
]


@pytest.mark.parametrize("system, request_, faces, action, tone", FOLLOW_UPS)
def test_a_follow_up_gives_its_own_tone(system, request_, faces, action, tone):
    """The roll after a follow-up carries the tone of its new outcome (a Will's 8 turns a failure to a success)."""
    first = rolled(system, request_, faces[: len(faces) - (3 if system == "ten_again" else 0)])
    m = PROCEDURES[system]
    assert (
        m.act(first, action, ScriptedDice(*faces[len(faces) - 3 :]) if system == "ten_again" else None)["tone"] == tone
    )


@pytest.mark.parametrize(
    "tones, overall",
    [
        ([Tone.SUCCESS], Tone.SUCCESS),
        ([Tone.FAILURE, Tone.FAILURE], Tone.FAILURE),
        ([Tone.SUCCESS, Tone.FAILURE], Tone.MIXED),
        ([Tone.MIXED, Tone.SUCCESS], Tone.MIXED),
    ],
)
def test_overall_is_the_parts_tone_when_they_agree_else_mixed(tones, overall):
    """Several parts read as one: their class when all agree, else mixed."""
    assert Tone.overall(tones) is overall
