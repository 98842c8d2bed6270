"""Tests for arbiter.ability_test.scene: Convictions declared relevant to the Scene, and a new Scene's XP."""

import copy

import pytest

from ability_test_helpers import parse, roll
from arbiter import RulesError, api
from arbiter import ability_test as at
from arbiter.ability_test import scene

MISSION = {"id": "c1", "text": "The mission always comes first", "significance": 3}
PLEASURES = {"id": "c2", "text": "physical pleasures are for the weak", "significance": 1}
SHEET = {**at.SHEET.default, "convictions": [MISSION, PLEASURES], "exertion": 2, "xp": 4}


def test_declaring_a_conviction_spends_one_exertion_and_records_it_ability_test_25():
    """ability_test-25: spend one Exertion to declare one of their Convictions relevant to the Scene: the sheet
    keeps its id in scene_convictions; the other keys come back as they were."""
    out = scene.activate_conviction(copy.deepcopy(SHEET), {"conviction": "c1"})
    assert out == {
        **SHEET,
        "exertion": 1,
        "scene_convictions": ["c1"],
        "exertion_charged": 1,
        "note": "Spent 1 Exertion to declare “The mission always comes first” relevant to this Scene (1 left)",
    }


def test_a_conviction_declared_this_scene_costs_no_more_exertion_ability_test_25():
    """ability_test-25: activating a Conviction declared already this Scene adds its Significance to a later Test
    without another Exertion, and says so; another Conviction still costs one."""
    once = scene.activate_conviction(copy.deepcopy(SHEET), {"conviction": "c1"})
    again = scene.activate_conviction(once, {"conviction": "c1"})
    assert (again["exertion"], again["scene_convictions"], again["exertion_charged"]) == (1, ["c1"], 0)
    assert again["note"] == (
        "“The mission always comes first” is declared relevant to this Scene already: its "
        "Significance adds again, no Exertion is charged (1 left)"
    )
    other = scene.activate_conviction(again, {"conviction": "c2"})
    assert (other["exertion"], other["scene_convictions"], other["exertion_charged"]) == (0, ["c1", "c2"], 1)
    free = scene.activate_conviction({**other, "exertion": 0}, {"conviction": "c1"})
    assert (free["exertion"], free["exertion_charged"]) == (0, 0)  # no Exertion left, none needed


def test_a_sheet_without_the_key_has_nothing_declared_ability_test_25():
    """ability_test-25: a sheet kept before scene_convictions existed has no Conviction declared; it stays a valid
    sheet, and a fresh one leaves the key out."""
    old = {k: v for k, v in SHEET.items() if k != "scene_convictions"}
    assert "scene_convictions" not in at.SHEET.default
    assert api.check_sheet("ability_test", copy.deepcopy(old)) == old
    assert api.check_sheet("ability_test", {**old, "scene_convictions": ["c2"]})["scene_convictions"] == ["c2"]
    assert scene.activate_conviction(old, {"conviction": "c2"})["exertion_charged"] == 1


@pytest.mark.parametrize(
    "state, args, words",
    [
        (
            {**SHEET, "exertion": 0},
            {"conviction": "c1"},
            "'state.exertion' is 0: declaring “The mission always comes first” relevant to the Scene costs one Exertion",
        ),
        (SHEET, {"conviction": "c9"}, "'args.conviction': no Conviction on the sheet has the id 'c9'"),
        ({"exertion": 2}, {"conviction": "c1"}, "'state.convictions' is missing"),
        (SHEET, {"conviction": "c 1"}, "'args.conviction' must be an id"),
        (
            {**SHEET, "scene_convictions": ["c1", "c1"]},
            {"conviction": "c1"},
            r"'state.scene_convictions\[1\]' repeats an earlier entry",
        ),
        ({**SHEET, "scene_convictions": "c1"}, {"conviction": "c1"}, "'state.scene_convictions' must be a list"),
    ],
)
def test_declaring_refuses_what_the_sheet_cannot_pay_or_does_not_hold_ability_test_25(state, args, words):
    """ability_test-25: refused with no Exertion left, for a Conviction not on the sheet, or a bad list of ids."""
    with pytest.raises(RulesError, match=words):
        scene.activate_conviction(copy.deepcopy(state), args)


def test_a_new_scene_awards_xp_and_clears_the_declarations_ability_test_26():
    """ability_test-26: Experience (XP) is awarded at the rate of 1 per Scene, and a new Scene has no Conviction
    declared: the next activation costs one Exertion again."""
    declared = scene.activate_conviction(copy.deepcopy(SHEET), {"conviction": "c1"})
    out = scene.new_scene(declared)
    assert (out["xp"], out["scene_convictions"]) == (5, [])
    assert out["note"] == (
        "New Scene: earned 1 XP (5 XP); the 1 Conviction declared relevant to the last Scene is no longer declared"
    )
    assert scene.activate_conviction(out, {"conviction": "c1"})["exertion_charged"] == 1
    assert scene.new_scene({"xp": 0})["note"] == "New Scene: earned 1 XP (1 XP)"


@pytest.mark.parametrize(
    "state, args, words",
    [
        ({"xp": 99_999}, None, "'state.xp' would go above 99999"),
        ({}, None, "'state.xp' is missing"),
        ({"xp": 1}, {"scenes": 2}, "new_scene takes no arguments"),
    ],
)
def test_a_new_scene_refuses_bad_state_ability_test_26(state, args, words):
    """ability_test-26: the sheet holds at most 99 999 XP; new_scene takes no arguments."""
    with pytest.raises(RulesError, match=words):
        scene.new_scene(state, args)


def test_the_table_publishes_the_scene_ops_ability_test_25_ability_test_26():
    """ability_test-25, ability_test-26: api.table runs both ops, and systems() publishes what they read."""
    out = api.table("ability_test", "activate_conviction", SHEET, {"conviction": "c2"})
    assert (out["exertion"], out["scene_convictions"]) == (1, ["c2"])
    ops = {o["name"]: o for o in next(s for s in api.systems() if s["id"] == "ability_test")["table_ops"]}
    assert [f["name"] for f in ops["activate_conviction"]["state"]] == ["exertion", "convictions", "scene_convictions"]
    assert [f["name"] for f in ops["activate_conviction"]["args"]] == ["conviction"]
    assert [f["name"] for f in ops["new_scene"]["state"]] == ["xp", "scene_convictions"]


def test_a_test_with_a_conviction_declared_earlier_spends_no_exertion_for_it_ability_test_13():
    """ability_test-13, ability_test-25: the Test adds every activated Conviction's Significance, and reports one
    Exertion only for those not declared relevant to this Scene already."""
    r = roll({"type1": 2, "type2": 2, "convictions": [3, 1], "convictions_declared": 1, "difficulty": 1}, 6)
    assert (r["ability"], r["exertion_spent"]) == (8, 1)
    assert r["steps"][0] == (
        "Ability 8 = 2 (Type I) + 2 (Type II) + 3 (Conviction: Pivotal) + 1 (Conviction: "
        "Valued); 1 Exertion spent to activate 1 Conviction; 1 Conviction declared relevant to "
        "this Scene already: no Exertion"
    )
    assert api.costs("ability_test", r["request"]) == api.costs("ability_test", {"convictions": [3]})
    all_declared = roll({"type1": 2, "type2": 2, "convictions": [3], "convictions_declared": 1, "difficulty": 1}, 6)
    assert all_declared["exertion_spent"] == 0 and api.costs("ability_test", all_declared["request"]) == []


def test_more_convictions_declared_than_activated_are_refused_ability_test_13():
    """ability_test-13: convictions_declared counts among the Convictions activated, so it is at most their
    number."""
    with pytest.raises(RulesError, match=r"'convictions_declared' must be from 0 to 1 \(the Convictions activated\)"):
        at.odds(parse({"convictions": [2], "convictions_declared": 2}))


def test_a_sheet_fills_convictions_declared_ability_test_25():
    """ability_test-25: request_from_sheet counts the chosen Convictions the sheet declared this Scene."""
    sheet = {**SHEET, "scene_convictions": ["c2"]}
    choices = {"type1": "Mental", "type2": "Power", "convictions": ["c1", "c2"]}
    out = api.request_from_sheet("ability_test", sheet, choices)
    assert (out["convictions"], out["convictions_declared"]) == ([3, 1], 1)
    old = {k: v for k, v in SHEET.items() if k != "scene_convictions"}
    assert api.request_from_sheet("ability_test", old, choices)["convictions_declared"] == 0
