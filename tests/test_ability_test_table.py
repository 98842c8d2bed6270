"""Tests for arbiter.ability_test.table: XP earned and spent, the Exertion pool, Convictions and their Significance,
and the shared Scheme."""

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ability_test_helpers import base, roll
from arbiter import RulesError, api
from arbiter import ability_test as at


# --- table state: XP ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("xp, scenes, after", [(0, 1, 1), (5, 3, 8), (0, 20, 20), (99_998, 1, 99_999)])
def test_xp_is_earned_at_one_per_scene_ability_test_17(xp, scenes, after):
    """ability_test-17: Experience is awarded at the rate of 1 per Scene."""
    out = at.xp_earn({"xp": xp}, {"scenes": scenes})
    assert out["xp"] == after and f"{after} XP" in out["note"]


@pytest.mark.parametrize(
    "state, args, words",
    [
        ({"xp": 0}, {"scenes": 0}, "'args.scenes' must be from 1 to 20"),
        ({"xp": 0}, {"scenes": 21}, "'args.scenes' must be from 1 to 20"),
        ({"xp": 0}, {"scenes": 1.0}, "'args.scenes' must be a whole number"),
        ({"xp": 0}, {"scene": 1}, "unknown field 'args.scene'"),
        ({}, None, "'state.xp' is missing: Experience"),
        ({"xp": -1}, None, "'state.xp' must be from 0 to 99999"),
        ({"xp": 99_999}, None, "'state.xp' would go above 99999"),
        ({"xp": "3"}, None, "'state.xp' must be a whole number"),
    ],
)
def test_xp_earn_refuses_bad_input_ability_test_17(state, args, words):
    """ability_test-17: scenes are 1 to 20 and the sheet keeps 0 to 99 999 XP; anything else names the field."""
    with pytest.raises(RulesError, match=words):
        at.xp_earn(state, args)


@pytest.mark.parametrize(
    "kind, current, xp, left",
    [
        ("new_skill", 0, 2, 0),
        ("new_item", 0, 10, 7),
        ("advance_skill", 3, 5, 0),
        ("advance_skill", 9, 20, 9),
        ("advance_standard_item", 4, 6, 0),
        ("advance_attribute", 2, 9, 4),
    ],
)
def test_xp_spend_uses_the_texts_prices_ability_test_18(kind, current, xp, left):
    """ability_test-18: spending XP costs what xp_cost says and returns the XP left and the cost."""
    out = at.xp_spend({"xp": xp, "name": "Ines"}, {"kind": kind, "current": current})
    assert (out["xp"], out["cost"], out["name"]) == (left, at.xp_cost(kind, current), "Ines")
    assert out["note"].startswith(f"Spent {out['cost']} XP")


def test_xp_spend_refuses_what_cannot_be_afforded_ability_test_18():
    """ability_test-18: a cost above the XP held is refused, naming the cost and the XP held."""
    with pytest.raises(RulesError, match=r"costs 5 XP, but only 4 XP are held"):
        at.xp_spend({"xp": 4}, {"kind": "advance_skill", "current": 3})
    with pytest.raises(RulesError, match=r"costs 2 XP, but only 1 XP is held"):
        at.xp_spend({"xp": 1}, {"kind": "new_skill"})


@pytest.mark.parametrize(
    "args, words",
    [
        ({"kind": "advance_unique_item", "current": 1}, "'args.kind' advance_unique_item has no price"),
        ({"kind": "advance_focused_skill", "current": 1}, "'args.kind' advance_focused_skill has no price"),
        ({"kind": "advance_item", "current": 1}, "'args.kind' must be one of new_skill, new_item"),
        ({"kind": "advance_skill", "current": 10}, r"'args.current' must be from 1 to 9 for advance_skill"),
        ({"kind": "advance_attribute", "current": 5}, r"'args.current' must be from 1 to 4 for advance_attribute"),
        ({"kind": "new_item", "current": 1}, r"'args.current' must be from 0 to 0 for new_item"),
        ({"kind": "advance_skill", "current": True}, "'args.current' must be a whole number"),
        ({"kind": "new_skill", "rank": 0}, "unknown field 'args.rank'"),
        ({"current": 2}, "'args.kind' is missing"),
    ],
)
def test_xp_spend_refuses_unpriced_or_impossible_purchases_ability_test_18(args, words):
    """ability_test-18: unpriced kinds (ability_test-15) and ranks past the maximum (ability_test-16) are refused."""
    with pytest.raises(RulesError, match=words):
        at.xp_spend({"xp": 50}, args)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(at.XP_COSTS), st.integers(0, 10), st.integers(0, 40))
def test_xp_spend_never_goes_below_zero_ability_test_18(cost, current, xp):
    """ability_test-18: spending succeeds exactly when the cost is affordable, and XP never goes below 0."""
    if not cost.current_min <= current <= cost.current_max:
        return
    price = at.xp_cost(cost.kind, current)
    if price > xp:
        with pytest.raises(RulesError, match="'state.xp'"):
            at.xp_spend({"xp": xp}, {"kind": cost.kind, "current": current})
    else:
        assert at.xp_spend({"xp": xp}, {"kind": cost.kind, "current": current})["xp"] == xp - price >= 0


# --- table state: Exertion and Convictions ------------------------------------------------------------------------


@pytest.mark.parametrize("exertion, amount, left", [(3, 1, 2), (3, 3, 0), (99, 40, 59)])
def test_exert_subtracts_from_the_pool_ability_test_19(exertion, amount, left):
    """ability_test-19: spending Exertion subtracts that number from the pool."""
    assert at.exert({"exertion": exertion}, {"amount": amount})["exertion"] == left


@pytest.mark.parametrize(
    "state, args, words",
    [
        ({"exertion": 2}, {"amount": 3}, r"'args.amount' must be from 1 to 2 \(the Exertion left\)"),
        ({"exertion": 0}, {"amount": 1}, "'state.exertion' is 0: no Exertion left"),
        ({"exertion": 2}, {"amount": 0}, "'args.amount' must be from 1 to 99"),
        ({"exertion": 100}, None, "'state.exertion' must be from 0 to 99"),
        ({"exertion": -1}, None, "'state.exertion' must be from 0 to 99"),
        ({}, None, "'state.exertion' is missing"),
    ],
)
def test_exert_never_goes_below_zero_ability_test_19(state, args, words):
    """ability_test-19: the Exertion pool is 0 to 99 and never goes below 0."""
    with pytest.raises(RulesError, match=words):
        at.exert(state, args)


@pytest.mark.parametrize("exertion, says", [(2, "has 2 Exertion left"), (0, "has no Exertion left")])
def test_exert_refused_says_what_is_left_in_a_players_words(exertion, says):
    """A refused Exert says, of the character, how much Exertion is left ("Mira has 2 Exertion left"), and carries
    it as a number (`left`, in call_json's answer too) so the page offers no more than that."""
    with pytest.raises(RulesError) as err:
        at.exert({"exertion": exertion}, {"amount": 3})
    assert (err.value.says, err.value.holder, err.value.left) == (says, True, exertion)
    answer = json.loads(
        api.call_json("table", json.dumps(["ability_test", "exert", {"exertion": exertion}, {"amount": 3}]))
    )
    assert (answer["ok"], answer["left"]) == (False, exertion)


def test_the_exert_choice_names_its_action_for_the_table_to_check():
    """The Exert choice names the action it offers (the amount the roll needs), as the choices the table checks
    before they are taken do; a refusal of another kind carries no `left`."""
    weak = {"type1": 1, "type2": 1, "difficulty": 4}
    r = next(r for r in (api.roll("ability_test", weak, s) for s in range(1000)) if r["outcome"] == "failure")
    (choice,) = [c for c in r["choices"] if c["name"] == "exert"]
    assert choice["action"] == {"exert": choice["exert_needed"]}
    assert RulesError("'x' must be 1").left is None


def test_activating_a_conviction_costs_one_exertion_ability_test_20():
    """ability_test-20: declaring a Conviction relevant spends one Exertion, refused with none left; named by no id
    (the old call), it records no declaration."""
    out = at.activate_conviction({"exertion": 2, "xp": 4})
    assert out == {
        "exertion": 1,
        "xp": 4,
        "exertion_charged": 1,
        "note": "Spent 1 Exertion to activate a Conviction (1 left)",
    }
    with pytest.raises(RulesError, match="'state.exertion' is 0: activating a Conviction costs one Exertion"):
        at.activate_conviction({"exertion": 0})
    with pytest.raises(RulesError, match="unknown field 'args.amount'"):
        at.activate_conviction({"exertion": 2}, {"amount": 1})


CONVICTIONS = [
    {"text": "The mission always comes first", "significance": 3},
    {"text": "physical pleasures are for the weak", "significance": 1},
    {"text": "those who cannot protect their things do not deserve to keep them", "significance": 2},
]


def test_moving_significance_moves_one_point_ability_test_21():
    """ability_test-21: 1 point of Significance moves from one Conviction to another, once per Session."""
    state = {"convictions": copy.deepcopy(CONVICTIONS), "xp": 3}
    before = copy.deepcopy(state)
    out = at.move_significance(state, {"from": 0, "to": 1})
    assert state == before
    assert [c["significance"] for c in out["convictions"]] == [2, 2, 2]
    assert out["moved_this_session"] is True and out["xp"] == 3
    assert out["note"] == (
        "Moved 1 point of Significance from “The mission always comes first” (3 → 2) to "
        "“physical pleasures are for the weak” (1 → 2)"
    )
    with pytest.raises(RulesError, match="'state.moved_this_session' is true"):
        at.move_significance(out, {"from": 2, "to": 1})
    ended = at.end_session(out)
    assert ended["moved_this_session"] is False and ended["convictions"] == out["convictions"]
    assert [c["significance"] for c in at.move_significance(ended, {"from": 2, "to": 1})["convictions"]] == [2, 3, 1]


@pytest.mark.parametrize(
    "args, words",
    [
        ({"from": 1, "to": 2}, r"'args.from': Conviction 1 has Significance 1, the lowest"),
        ({"from": 2, "to": 0}, r"'args.to': Conviction 0 has Significance 3, the highest"),
        ({"from": 2, "to": 2}, r"'args.to' must be another Conviction than 'args.from' \(both 2\)"),
        ({"from": 3, "to": 1}, r"'args.from' must be from 0 to 2 \(the Convictions listed\)"),
        ({"from": 0, "to": 7}, r"'args.to' must be from 0 to 2"),
        ({"from": -1, "to": 1}, "'args.from' must be from 0 to 49"),
        ({"from": 0}, "'args.to' is missing"),
        ({"to": 1}, "'args.from' is missing"),
    ],
)
def test_significance_stays_within_one_to_three_ability_test_21(args, words):
    """ability_test-21: a move that would leave 1 to 3, or stays on one Conviction, is refused."""
    with pytest.raises(RulesError, match=words):
        at.move_significance({"convictions": CONVICTIONS}, args)


@pytest.mark.parametrize(
    "state, words",
    [
        ({}, "'state.convictions' is missing"),
        ({"convictions": "many"}, "'state.convictions' must be a list of 0 to 50"),
        ({"convictions": [{"text": "x", "significance": 1}] * 51}, "'state.convictions' must be a list of 0 to 50"),
        ({"convictions": [CONVICTIONS[0], {"text": "x"}]}, r"'state.convictions\[1\].significance' is missing"),
        (
            {"convictions": [CONVICTIONS[0], {"text": "x", "significance": 4}]},
            r"'state.convictions\[1\].significance' must be from 1 to 3",
        ),
        (
            {"convictions": [CONVICTIONS[0], {"text": "x" * 201, "significance": 1}]},
            r"'state.convictions\[1\].text' must be text of at most 200",
        ),
        ({"convictions": [CONVICTIONS[0], "x"]}, r"'state.convictions\[1\]' must be an object"),
        ({"convictions": [CONVICTIONS[0]]}, "at least 2 Convictions"),
        ({"convictions": CONVICTIONS, "moved_this_session": "no"}, "'state.moved_this_session' must be true or false"),
    ],
)
def test_the_sheets_convictions_are_checked_ability_test_22(state, words):
    """ability_test-22: a sheet lists 0 to 50 Convictions, each a text and a Significance of 1 to 3."""
    with pytest.raises(RulesError, match=words):
        at.move_significance(state, {"from": 0, "to": 1})


def test_a_convictions_other_keys_are_kept_ability_test_22():
    """ability_test-22: keys the page keeps on a Conviction (an id) survive a move unchanged."""
    state = {"convictions": [{**c, "id": i} for i, c in enumerate(CONVICTIONS)]}
    out = at.move_significance(state, {"from": 0, "to": 1})
    assert [c["id"] for c in out["convictions"]] == [0, 1, 2]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 3), min_size=2, max_size=6), st.integers(0, 5), st.integers(0, 5))
def test_a_move_keeps_the_total_and_the_range_ability_test_21(significances, i, j):
    """ability_test-21: any allowed move keeps the total Significance and every Conviction within 1 to 3."""
    state = {"convictions": [{"text": f"c{k}", "significance": s} for k, s in enumerate(significances)]}
    try:
        out = at.move_significance(state, {"from": i, "to": j})
    except RulesError:
        n = len(significances)
        assert i >= n or j >= n or i == j or significances[i] == 1 or significances[j] == 3
        return
    after = [c["significance"] for c in out["convictions"]]
    assert sum(after) == sum(significances) and all(1 <= s <= 3 for s in after)
    assert after[i] == significances[i] - 1 and after[j] == significances[j] + 1


# --- table state: the Scheme --------------------------------------------------------------------------------------


def test_a_success_with_a_one_adds_a_die_to_the_scheme_ability_test_23():
    """ability_test-23: a Test succeeded with at least one 1 adds one die to the shared Scheme."""
    r = roll(base(7), 1, 3)
    assert r["scheme_gain"]
    out = at.scheme_add({"scheme": 2}, {"roll": r})
    assert out == {"scheme": 3, "note": "A 1 on a success: one die added to the Scheme (3 dice)"}


@pytest.mark.parametrize(
    "request_, faces, words",
    [
        (base(3), (6, 1), "earns no die for the Scheme: it needs at least one 1"),  # a failure
        (base(9), (2, 3), "earns no die for the Scheme: it needs at least one 1"),  # a success without a 1
        ({**base(3), "scheme_die": True}, (4, 1, 2), "earns no die for the Scheme: a Scheme die was used"),
    ],
)
def test_only_a_roll_that_earned_it_adds_a_die_ability_test_23(request_, faces, words):
    """ability_test-23: a roll without scheme_gain (a failure, no 1, or a Scheme die used) adds nothing."""
    with pytest.raises(RulesError, match=words):
        at.scheme_add({"scheme": 2}, {"roll": roll(request_, *faces)})


def _earning_roll(change=None):
    r = roll(base(7), 1, 3)
    if change:
        change(r)
    return r


@pytest.mark.parametrize(
    "state, args, words",
    [
        ({"scheme": 2}, {}, "'args.roll' is missing"),
        ({"scheme": 2}, {"roll": 3}, "'args.roll' must be an object"),
        ({"scheme": 2}, {"roll": {"system": "luck"}}, "'args.roll' must be an ability_test roll"),
        ({"scheme": 2}, {"roll": _earning_roll(lambda r: r.update(dice=[1, 7]))}, "'args.roll.dice' must be a list"),
        (
            {"scheme": 2},
            {"roll": _earning_roll(lambda r: r.update(scheme_gain=False))},
            "'args.roll.scheme_gain' does not match",
        ),
        (
            {"scheme": 2},
            {"roll": _earning_roll(lambda r: r.update(rolled=[2, 3], dice=[2, 3]))},
            "'args.roll.total' does not match",
        ),
        ({"scheme": 99}, {"roll": _earning_roll()}, "'state.scheme' is already 99"),
        ({}, {"roll": _earning_roll()}, "'state.scheme' is missing"),
        ({"scheme": 100}, {"roll": _earning_roll()}, "'state.scheme' must be from 0 to 99"),
    ],
)
def test_scheme_add_checks_the_roll_and_the_pool_ability_test_23(state, args, words):
    """ability_test-23: the roll must be an ability_test roll the dice could give; the Scheme holds 0 to 99 dice."""
    with pytest.raises(RulesError, match=words):
        at.scheme_add(state, args)


def test_scheme_dice_leave_one_before_a_test_and_two_against_a_setback_ability_test_24():
    """ability_test-24: one die is removed before a Test, two negate a setback; never below 0."""
    assert at.scheme_spend_die({"scheme": 1})["scheme"] == 0
    assert at.scheme_negate_setback({"scheme": 2})["scheme"] == 0
    assert at.scheme_negate_setback({"scheme": 5})["note"].startswith("Subtracted 2 dice from the Scheme")
    with pytest.raises(RulesError, match="'state.scheme' is 0: there is no die in the Scheme"):
        at.scheme_spend_die({"scheme": 0})
    with pytest.raises(RulesError, match="'state.scheme' is 1: negating a setback takes 2 dice"):
        at.scheme_negate_setback({"scheme": 1})


SCHEME_OPS = st.lists(st.sampled_from(["add", "spend", "negate"]), max_size=30)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 99), SCHEME_OPS)
def test_the_scheme_stays_within_its_range_ability_test_24(start, ops):
    """ability_test-24: any run of adds, spends and negations (refusals skipped) keeps the Scheme within 0 to 99."""
    earning = _earning_roll()
    state = {"scheme": start}
    for op in ops:
        before = state["scheme"]
        try:
            if op == "add":
                state = at.scheme_add(state, {"roll": earning})
            elif op == "spend":
                state = at.scheme_spend_die(state)
            else:
                state = at.scheme_negate_setback(state)
        except RulesError:
            assert (op, before) in {("add", 99), ("spend", 0), ("negate", 0), ("negate", 1)}
            continue
        assert state["scheme"] - before == {"add": 1, "spend": -1, "negate": -2}[op]
        assert 0 <= state["scheme"] <= 99


def test_api_table_ability_test():
    """Through the API: XP earned and spent, a Scheme die added from a rolled Test; inputs are never changed."""
    from arbiter import api

    sheet = {"xp": 1, "exertion": 2, "name": "Ines"}
    before = copy.deepcopy(sheet)
    out = api.table("ability_test", "xp_earn", sheet, {"scenes": 2})
    assert out["xp"] == 3 and sheet == before
    out = api.table("ability_test", "xp_spend", out, {"kind": "new_skill"})
    assert (out["xp"], out["cost"]) == (1, 2)
    earns = roll(base(12, difficulty=1), 1)  # a success with a 1 among the difficulty dice
    assert earns["outcome"] == "success" and earns["scheme_gain"]
    assert api.table("ability_test", "scheme_add", {"scheme": 0}, {"roll": earns})["scheme"] == 1
    earns_none = roll(base(12, difficulty=1), 6)  # a success without a 1
    assert earns_none["outcome"] == "success" and not earns_none["scheme_gain"]
    with pytest.raises(RulesError, match="earns no die"):
        api.table("ability_test", "scheme_add", {"scheme": 0}, {"roll": earns_none})
    spec = next(s for s in api.systems() if s["id"] == "ability_test")
    assert [o["name"] for o in spec["table_ops"]] == list(at.TABLE)


# --- spending XP on the sheet (what table.js's spendXp chose and changed) -------------------------------------------

_SHEET = {
    "attributes": {a: 2 for a in at.ATTRIBUTES},
    "convictions": [],
    "exertion": 0,
    "moved_this_session": False,
    "xp": 10,
    "skills": [
        {"id": "s1", "name": "Climb", "level": 2, "focused": False, "masteries": 1},
        {"id": "s2", "name": "Lore", "level": 1, "focused": True, "masteries": 0},
        {"id": "s3", "name": "Guns", "level": 10, "focused": False, "masteries": 0},
    ],
    "items": [
        {"id": "i1", "name": "Rope", "unique": False, "level": 1},
        {"id": "i2", "name": "Blade", "unique": True, "level": 1},
    ],
}


@pytest.mark.parametrize(
    "args, cost, changed",
    [
        ({"what": "skill:s1"}, 4, lambda s: s["skills"][0].update(level=3)),
        ({"what": "item:i1"}, 3, lambda s: s["items"][0].update(level=2)),
        ({"what": "attr:Power"}, 5, lambda s: s["attributes"].update(Power=3)),
        (
            {"what": "new_skill", "name": "  Swim ", "id": "n1"},
            2,
            lambda s: s["skills"].append({"id": "n1", "name": "Swim", "level": 1, "focused": False, "masteries": 0}),
        ),
        (
            {"what": "new_item", "name": "Lamp", "id": "n2", "unique": True},
            3,
            lambda s: s["items"].append({"id": "n2", "name": "Lamp", "unique": True, "level": 1}),
        ),
    ],
)
def test_xp_advance_spends_at_the_price_of_what_it_advances_ability_test_17(args, cost, changed):
    """ability_test-17: a new Skill or Item begins with 1 rank; a Skill, Item or Attribute goes up by 1, at its price
    (2 + rank, 3 + score...); the rest of the sheet is kept and the input never changes."""
    sheet = copy.deepcopy(_SHEET)
    out = at.xp_advance(sheet, args)
    assert sheet == _SHEET
    expected = copy.deepcopy(_SHEET)
    changed(expected)
    assert out.pop("cost") == cost and out.pop("note").startswith(f"Spent {cost} XP")
    assert out == {**expected, "xp": 10 - cost}


@pytest.mark.parametrize(
    "args, words",
    [
        ({"what": "skill:s2"}, "'args.kind' advance_focused_skill has no price"),
        ({"what": "item:i2"}, "'args.kind' advance_unique_item has no price"),
        ({"what": "skill:s3"}, "'args.current' must be from 1 to 9 for advance_skill"),
        ({"what": "skill:gone"}, "^That Skill is no longer on the sheet.$"),
        ({"what": "item:gone"}, "^That Item is no longer on the sheet.$"),
        ({"what": "new_skill", "name": "  ", "id": "n1"}, "^Name the new Skill first.$"),
        ({"what": "new_item", "id": "n1"}, "^Name the new Item first.$"),
        ({"what": "new_skill", "name": "Swim"}, "'args.id' must be the new Skill's own id"),
        ({"what": "new_skill", "name": "Swim", "id": "s1"}, "'args.id' must be the new Skill's own id"),
        (
            {"what": "attr:Luck"},
            "'args.what' must be new_skill, new_item, skill:<id>, item:<id> or attr:<one of Mental",
        ),
        ({"what": "new_skill:x", "name": "Swim", "id": "n1"}, "'args.what' must be new_skill"),
        ({}, "'args.what' is missing"),
    ],
)
def test_xp_advance_refuses_as_the_table_did_ability_test_17(args, words):
    """ability_test-17: no price in the text, a rank at its limit, something gone from the sheet or a nameless new
    Skill or Item are refused, in the table's words or naming the field."""
    with pytest.raises(RulesError, match=words):
        at.xp_advance(copy.deepcopy(_SHEET), args)


def test_xp_advance_refuses_what_the_xp_cannot_pay_ability_test_17():
    """ability_test-17: nothing changes when the XP held cannot pay."""
    with pytest.raises(RulesError, match="'state.xp': Advance an Attribute by 1 \\(now 2\\) costs 5 XP, but only 4"):
        at.xp_advance({**_SHEET, "xp": 4}, {"what": "attr:Mental"})


@pytest.mark.parametrize(
    "what, cost",
    [("skill:s0", 2), ("item:i0", 3)],
)
def test_a_skill_or_item_at_rank_0_is_begun_at_the_price_of_a_new_one_ability_test_16(what, cost):
    """ability_test-16: a Skill at rank 0 advances to 1 for 2 XP (Begin a new Skill with 1 rank: 2 XP; 2+current rank
    says the same at 0), a Standard Item at 0 for 3 XP (Begin a new Item with 1 rank: 3 XP), not refused."""
    sheet = copy.deepcopy(_SHEET)
    sheet["skills"].append({"id": "s0", "name": "Swim", "level": 0, "focused": False, "masteries": 0})
    sheet["items"].append({"id": "i0", "name": "Lamp", "unique": False, "level": 0})
    out = at.xp_advance(sheet, {"what": what})
    assert out["cost"] == cost and out["xp"] == 10 - cost
    kind, key = what.split(":")
    assert next(x for x in out[f"{kind}s"] if x["id"] == key)["level"] == 1


def test_a_live_tables_scheme_die_is_checked_against_the_hosts_scheme():
    """ability_test-31: a player's phone joined to a live table pays a Scheme die from the Host's Scheme, refused in
    words naming it when it is empty; the Host's own Scheme then pays the same roll once, and no character there."""
    request = {"type1": 1, "type2": 1, "difficulty": 2, "scheme_die": True}
    hosts = {"character": None, "scheme": {"scheme": 0, "tracked": True, "set": False}, "host": True}
    assert (
        api.turn("ability_test", {"request": request}, hosts)["refused"]["words"] == "The Host's Scheme has no die left"
    )
    tapped = api.turn("ability_test", {"request": request}, {**hosts, "scheme": {"scheme": 2, "tracked": True}})
    assert tapped["scheme"]["scheme"] == 1
    sent = api.live_roll("ability_test", tapped["roll"]["request"], [{"drawn": tapped["roll"]["drawn"]}], "Ann", 0)
    holds = {"table": {"character": None, "scheme": {"scheme": 3, "tracked": True}}, "marked": [], "seen": []}
    added = api.live_read(sent["text"], holds)["added"]
    assert added["scheme"]["scheme"] == 2 and added["character"] is None and len(added["entries"]) == 1
