"""Tests for arbiter.threat.rolling (seed 002): roll and act through JSON: the Warden reassigning, Pay the Price
after a threat narrowly avoided (one Price for each), a roll read back and checked, the tone and the draw order."""

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter import RulesError, api, fields, threat
from scripted import ScriptedDice
from threat_helpers import ANN, BO, dodge, outcomes, parse, requests, scripted_roll


# --- assignment ------------------------------------------------------------------------------------


def test_the_warden_reassigns_any_number_of_times_threat_5():
    """threat-5: `assign` puts each die where the Warden says, and can be done again."""
    r = scripted_roll(parse(1, ["Sneaking", "Snooping", "Wayfinding"]), 6, 2, 4)
    r2 = threat.act(r, {"assign": [[2], [1], [0]]}, None)
    assert outcomes(r2) == ["lessened", "happens", "avoided"]
    assert "The Warden assigns each die to a threat" in r2["steps"]
    assert r2["choices"][0] == {"name": "assign", "label": "Reassign the dice", "dice": 3, "threats": 3}
    r3 = threat.act(r2, {"assign": [[0], [1], [2]]}, None)
    assert outcomes(r3) == ["avoided", "happens", "lessened"]
    assert r3["dice"] == r["dice"]


@pytest.mark.parametrize(
    "assign, message",
    [
        ([[0], [1], []], "die 2 is not assigned"),
        ([[0], [], []], "die 1, 2 are not assigned"),
        ([[0, 1], [1], [2]], "die 1 is assigned twice"),
        ([[0], [1], [3]], "from 0 to 2"),
        ([[0], [1], [-1]], "from 0 to 2"),
        ([[0], [True], [2]], "from 0 to 2"),
        ([[0], ["1"], [2]], "from 0 to 2"),
        ([[0], [1], 2], r"'action.assign'\[2\] must be a list"),
        ([[0, 1, 2]], "3 lists of die indexes"),
        ([[0], [1], [2], []], "3 lists of die indexes"),
        ("0,1,2", "3 lists of die indexes"),
    ],
)
def test_bad_assignments_are_refused_threat_5(assign, message):
    """threat-5: every die goes to exactly one threat, by a valid index, with one list per threat."""
    r = scripted_roll(parse(1, ["A", "B", "C"]), 3, 4, 5)
    with pytest.raises(RulesError, match=message):
        threat.act(r, {"assign": assign}, None)


def test_a_single_threat_offers_no_reassigning_threat_5():
    """threat-5: with one threat every die is its own, so reassigning can change nothing and is not offered."""
    r = scripted_roll(parse(3, ["Dodge"]), 2, 6, 1)
    assert "assign" not in [c["name"] for c in r["choices"]]
    r = scripted_roll(parse(2, ["Dodge", "Stun"]), 2, 6, 1)
    assert [c["name"] for c in r["choices"]] == ["assign"]


def test_assign_is_refused_with_no_dice_threat_5():
    """threat-5: with a pool of 0 there is nothing to assign, and no choice is offered."""
    r = scripted_roll(parse(0, ["A"]))
    assert r["choices"] == []
    with pytest.raises(RulesError, match="no dice to assign"):
        threat.act(r, {"assign": [[]]}, None)


@pytest.mark.parametrize("action", [{"reroll": [0]}, {"assign": [[0], [1], [2]], "spend_will": True}, {"Assign": []}])
def test_unknown_actions_are_refused(action):
    """An action other than `assign` is refused, naming the allowed action."""
    r = scripted_roll(parse(1, ["A", "B", "C"]), 3, 4, 5)
    with pytest.raises(RulesError, match="'action' must be one of: assign"):
        threat.act(r, action, None)


@pytest.mark.parametrize(
    "tamper, field",
    [
        (lambda r: r.update(system="luck"), "'roll'"),
        (lambda r: r.update(dice=[3, 4, 7]), "'roll.dice'"),
        (lambda r: r.update(dice=[3, 4, True]), "'roll.dice'"),
        (lambda r: r.update(dice=[3, 4]), "'roll.dice'"),
        (lambda r: r.update(dice=[3, 4, 5, 6]), "'roll.dice'"),
        (lambda r: r.update(dice="345"), "'roll.dice'"),
        (lambda r: r["request"].update(rating=11), "'roll.request.rating'"),
        (lambda r: r["request"].update(rating=2), "'roll.dice'"),
        (lambda r: r.pop("request"), "'roll.request'"),
        (
            lambda r: r["request"]["threats"].append({"name": "D", "desperate": "yes"}),
            r"'roll.request.threats\[3\].desperate'",
        ),
    ],
)
def test_tampered_rolls_are_refused(tamper, field):
    """act() re-checks the roll it is given: a foreign or altered roll is refused, naming the field."""
    r = scripted_roll(parse(1, ["A", "B", "C"]), 3, 4, 5)
    tamper(r)
    with pytest.raises(RulesError, match=field):
        threat.act(r, {"assign": [[0], [1], [2]]}, None)


# --- outcomes and texts ----------------------------------------------------------------------------


def test_request_is_echoed_as_json():
    """The roll carries its request in JSON form (lists, not tuples), so act() can re-check it."""
    r = scripted_roll(parse(1, ["A", "B"], desperate={1}), 3, 4)
    assert r["request"] == {
        "rating": 1,
        "extra_dice": 0,
        "threats": [{"name": "A", "desperate": False}, {"name": "B", "desperate": True}],
    }


# --- properties ------------------------------------------------------------------------------------


@given(requests, st.randoms(use_true_random=False), st.data())
@settings(max_examples=200, deadline=None)
def test_act_never_changes_its_input(request_, rng, data):
    """act() returns a new roll for any valid assignment and leaves the roll it was given untouched."""
    req = fields.parse(threat.FIELDS, request_)
    r = threat.roll(req, rng)
    if not r["dice"]:
        return
    n = len(req["threats"])
    owners = data.draw(st.lists(st.integers(0, n - 1), min_size=len(r["dice"]), max_size=len(r["dice"])))
    assign = [[d for d, o in enumerate(owners) if o == t] for t in range(n)]
    before = copy.deepcopy(r)
    r2 = threat.act(r, {"assign": assign}, rng)
    assert r == before
    assert r2["assignment"] == assign and r2["dice"] == r["dice"]
    for t, dice in zip(r2["threats"], assign):
        die = max((r["dice"][d] for d in dice), default=None)
        assert t["die"] == die and t["outcome"] == threat.outcome_of(die, t["desperate"]).value


# --- through the API -------------------------------------------------------------------------------


def test_api_roll_act_and_odds():
    """The API rolls, reassigns and gives odds for a Threat Roll as JSON."""

    request_ = {
        "rating": 2,
        "threats": [{"name": "Persuasion", "desperate": False}, {"name": "Dodge", "desperate": True}],
    }
    r = api.roll("threat", request_, seed=7)
    assert r["system"] == "threat" and len(r["dice"]) == 3 and r["choices"][0]["name"] == "assign"
    r2 = api.act("threat", r, {"assign": [[0], [1, 2]]}, seed=1)
    assert r2["assignment"] == [[0], [1, 2]]
    o = api.odds("threat", request_)
    assert [set(t) for t in o["threats"]] == [{"happens", "lessened", "avoided"}] * 2
    assert o["exact"]["threats"][1]["lessened"] == "0/1"
    spec = next(s for s in api.systems() if s["id"] == "threat")
    assert spec["extras"]["pay_the_price"] == list(threat.PAY_THE_PRICE)


def test_api_refuses_bad_assignments():
    """The API passes a refused assignment on as a RulesError."""

    r = api.roll("threat", {"rating": 2, "threats": [{"name": "A", "desperate": False}]}, seed=7)
    with pytest.raises(RulesError, match="not assigned"):
        api.act("threat", r, {"assign": [[0]]})


def test_act_pay_the_price_marks_the_option_with_the_player_threat_10():
    """threat-10: Paying the Price after a roll marks the picked option with the player and keeps the dice as
    assigned; the answer reports every mark with its name."""
    rolled = dodge(5)
    before = copy.deepcopy(rolled)
    paid = threat.act(rolled, {"pay_the_price": 7, "by": ANN, "marked": [{"option": 0, "by": BO}, 2]}, ScriptedDice())
    assert rolled == before
    assert paid["pay_the_price"] == {
        "picked": 7,
        "option": "Take 1 Harm.",
        "by": ANN,
        "unmarked_all": False,
        "marked": [{"option": 0, "by": BO}, {"option": 2, "by": None}, {"option": 7, "by": ANN}],
    }
    assert paid["dice"] == [5] and paid["threats"][0]["outcome"] == "lessened"
    assert paid["steps"][-1] == "Paid the Price (Ann): Take 1 Harm."
    assert json.loads(json.dumps(paid)) == paid


def test_act_pay_the_price_refuses_only_another_players_mark_threat_10():
    """threat-10: act refuses an option marked by someone else, naming them, and lets its marker pick it again."""
    rolled = dodge(4)
    marked = [{"option": 2, "by": BO}]
    with pytest.raises(RulesError, match="is marked by Bo: No other player may pick that option"):
        threat.act(rolled, {"pay_the_price": 2, "by": ANN, "marked": marked}, ScriptedDice())
    again = threat.act(rolled, {"pay_the_price": 2, "by": BO, "marked": marked}, ScriptedDice())
    assert again["pay_the_price"]["marked"] == [{"option": 2, "by": BO}]


def test_act_pay_the_price_in_the_old_form_threat_10():
    """threat-10: the old action, bare option numbers and no "by", still works: the pick is kept without a name, so
    nobody may pick it again, and the old marks refuse everyone."""
    rolled = dodge(5)
    paid = threat.act(rolled, {"pay_the_price": 7, "marked": [0, 2]}, ScriptedDice())
    assert paid["pay_the_price"]["marked"] == [{"option": o, "by": None} for o in (0, 2, 7)]
    assert paid["pay_the_price"]["by"] is None and paid["steps"][-1] == "Paid the Price: Take 1 Harm."
    with pytest.raises(RulesError, match="is marked by someone"):
        threat.act(rolled, {"pay_the_price": 7, "by": ANN, "marked": paid["pay_the_price"]["marked"]}, ScriptedDice())


def test_act_pay_the_price_last_option_unmarks_all_threat_10():
    """threat-10: the pick that marks the last option unmarks all of them."""
    paid = threat.act(dodge(5), {"pay_the_price": 7, "by": ANN, "marked": list(range(7))}, ScriptedDice())
    assert (paid["pay_the_price"]["marked"], paid["pay_the_price"]["unmarked_all"]) == ([], True)
    assert paid["steps"][-1] == "Paid the Price (Ann): Take 1 Harm. All options were marked, so all are unmarked."


@pytest.mark.parametrize(
    "face, desperate, offered",
    [
        (1, False, False),
        (3, False, False),  # it comes to pass: nothing narrowly avoided
        (4, False, True),
        (5, False, True),  # a 4/5: narrowly avoided
        (6, False, False),  # totally avoided
        (4, True, False),
        (5, True, False),  # Desperate: a 4/5 comes to pass
        (6, True, False),
    ],
)
def test_pay_the_price_only_when_a_threat_is_narrowly_avoided_threat_11(face, desperate, offered):
    """threat-11: Pay the Price is offered, and accepted, only when a threat that is not Desperate got a 4 or 5."""
    rolled = dodge(face, desperate)
    choice = [c for c in rolled["choices"] if c["name"] == "pay_the_price"]
    assert choice == (
        [
            {
                "name": "pay_the_price",
                "label": "Pay the Price",
                "threats": [0],
                "options": 8,
                "left": 1,
                "actions": [{"pay_the_price": i} for i in range(8)],
            }
        ]
        if offered
        else []
    )
    action = {"pay_the_price": 0, "by": ANN, "marked": []}
    if offered:
        assert threat.act(rolled, action, ScriptedDice())["pay_the_price"]["marked"] == [{"option": 0, "by": ANN}]
    else:
        with pytest.raises(
            RulesError,
            match=r"^'action.pay_the_price' is not allowed: no threat was narrowly "
            r"avoided \(The Referee may ask you to Pay the Price when you narrowly "
            r"avoid a Threat: a 4 or 5 on a threat that is not Desperate\)$",
        ):
            threat.act(rolled, action, ScriptedDice())


def test_pay_the_price_follows_the_assignment_threat_11():
    """threat-11: the offer reads the threats as the dice are assigned: a reassignment can make or take it away,
    and it names every threat narrowly avoided; with no dice nothing is narrowly avoided."""
    req = fields.parse(
        threat.FIELDS,
        {"rating": 1, "threats": [{"name": "Fail", "desperate": False}, {"name": "Dodge", "desperate": False}]},
    )
    rolled = threat.roll(req, ScriptedDice(6, 2))
    assert "pay_the_price" not in [c["name"] for c in rolled["choices"]]
    rolled = threat.roll(req, ScriptedDice(5, 4))
    (choice,) = [c for c in rolled["choices"] if c["name"] == "pay_the_price"]
    assert choice["threats"] == [0, 1]
    stacked = threat.act(rolled, {"assign": [[0, 1], []]}, ScriptedDice())
    (choice,) = [c for c in stacked["choices"] if c["name"] == "pay_the_price"]
    assert choice["threats"] == [0]
    none = threat.roll(
        fields.parse(threat.FIELDS, {"rating": 0, "threats": [{"name": "Fail", "desperate": False}]}), ScriptedDice()
    )
    assert none["choices"] == []
    with pytest.raises(RulesError, match="no threat was narrowly avoided"):
        threat.act(none, {"pay_the_price": 0, "by": ANN}, ScriptedDice())


@pytest.mark.parametrize(
    "threats, faces, tone",
    [
        (("Fail",), (2,), "failure"),
        (("Fail",), (4,), "mixed"),
        (("Fail",), (6,), "success"),
        (("Dodge", "Stun"), (6, 6), "success"),
        (("Dodge", "Stun"), (6, 3), "mixed"),
        (("Dodge", "Stun"), (5, 4), "mixed"),
        (("Dodge", "Stun"), (3, 3), "failure"),
    ],
)
def test_a_rolls_tone_is_its_threats_when_they_agree_else_mixed_threat_12(threats, faces, tone):
    """threat-12: happens reads as failure, lessened as mixed, avoided as success; the roll's is theirs when they
    agree, else mixed."""
    assert scripted_roll(parse(rating=1, threats=threats), *faces)["tone"] == tone


# --- one Price per narrow escape (threat-14), marks that arrive all marked (threat-10), the Price on the sheet -------


def two_narrow() -> dict:
    """A roll with two threats narrowly avoided (a 5 and a 4) and one that comes to pass."""
    return scripted_roll(parse(1, ["Fail", "Dodge", "Stun"]), 5, 4, 2)


def test_one_price_per_narrow_escape_threat_14():
    """threat-14: a roll with one threat narrowly avoided pays one Price: the roll keeps it, its steps say it, and
    Pay the Price then leaves the choices and is refused with the reason."""
    paid = threat.act(dodge(5), {"pay_the_price": 0, "by": ANN, "marked": []}, ScriptedDice())
    assert paid["prices_paid"] == [{"picked": 0, "option": "Mark an Ideal.", "by": ANN, "unmarked_all": False}]
    assert paid["steps"][-1] == "Paid the Price (Ann): Mark an Ideal."
    assert paid["choices"] == []
    with pytest.raises(
        RulesError,
        match=r"^'action.pay_the_price' is not allowed: the Price is paid: one Price for "
        r"each threat narrowly avoided \(1 threat narrowly avoided, 1 Price paid\)$",
    ):
        threat.act(paid, {"pay_the_price": 4, "by": ANN, "marked": paid["pay_the_price"]["marked"]}, ScriptedDice())


def test_two_narrow_escapes_pay_two_prices_threat_14():
    """threat-14: two threats narrowly avoided pay two Prices, each listed in the steps and kept in order; the same
    player may pick their own mark again for the second; a third is refused."""
    rolled = two_narrow()
    (offer,) = [c for c in rolled["choices"] if c["name"] == "pay_the_price"]
    assert (offer["threats"], offer["left"]) == ([0, 1], 2)
    first = threat.act(rolled, {"pay_the_price": 3, "by": ANN, "marked": []}, ScriptedDice())
    (offer,) = [c for c in first["choices"] if c["name"] == "pay_the_price"]
    assert offer["left"] == 1
    second = threat.act(
        first, {"pay_the_price": 3, "by": "ann", "marked": first["pay_the_price"]["marked"]}, ScriptedDice()
    )
    assert [(p["picked"], p["by"]) for p in second["prices_paid"]] == [(3, ANN), (3, "ann")]
    assert second["steps"][-2:] == [
        "Paid the Price (Ann): Spend a point of Gear.",
        "Paid the Price (ann): Spend a point of Gear.",
    ]
    assert second["pay_the_price"]["marked"] == [{"option": 3, "by": ANN}]
    assert second["choices"] == []
    with pytest.raises(RulesError, match=r"\(2 threats narrowly avoided, 2 Prices paid\)"):
        threat.act(second, {"pay_the_price": 5, "by": BO, "marked": []}, ScriptedDice())


def test_a_price_paid_settles_the_dice_threat_14():
    """threat-14: once a Price is paid, reassigning leaves the choices and act refuses it; before, it is offered."""
    rolled = two_narrow()
    assert "assign" in [c["name"] for c in rolled["choices"]]
    paid = threat.act(rolled, {"pay_the_price": 0, "by": ANN, "marked": []}, ScriptedDice())
    assert "assign" not in [c["name"] for c in paid["choices"]]
    with pytest.raises(RulesError, match="a Price was paid for this roll, so its dice are settled"):
        threat.act(paid, {"assign": [[2], [1], [0]]}, ScriptedDice())


@pytest.mark.parametrize(
    "prices, words",
    [
        ("x", "must be a list of at most 1 Prices paid"),
        ([{"picked": 0, "by": ANN}, {"picked": 1, "by": ANN}], "must be a list of at most 1 Prices paid"),
        ([{"picked": 8, "by": ANN}], r"'roll.prices_paid\[0\]' must be a Price paid"),
        ([{"by": ANN}], r"'roll.prices_paid\[0\]' must be a Price paid"),
        ([{"picked": 0, "by": ""}], r"'roll.prices_paid\[0\].by' must be the player's name"),
    ],
)
def test_tampered_prices_paid_are_refused_threat_14(prices, words):
    """threat-14: the Prices a roll reports paid are checked: at most one per narrow escape, each a real option."""
    with pytest.raises(RulesError, match=words):
        threat.act({**dodge(5), "prices_paid": prices}, {"pay_the_price": 0, "by": BO, "marked": []}, ScriptedDice())


# --- each die's marks, as the page draws them (the page compares no face) -----------------------------------------


def test_marks_arriving_with_a_roll_are_recomputed_never_trusted():
    """A roll that carries marks is accepted by act (assign, Pay the Price), and its marks come from the dice."""
    r = scripted_roll(parse(1, ["Sneaking", "Snooping", "Wayfinding"]), 6, 2, 4)
    tampered = {**r, "marks": [["kept"], ["kept"], ["botch"]]}
    r2 = threat.act(tampered, {"assign": [[2], [1], [0]]}, None)
    assert r2["marks"] == [["kept"], ["kept"], ["kept"]]
    paid = threat.act({**r2, "marks": []}, {"pay_the_price": 0, "by": "Ann"}, None)
    assert paid["marks"] == r2["marks"]


def test_paying_the_price_says_it_settles_the_dice_threat_16():
    """threat-16: while reassigning is open, Pay the Price says before the tap that it settles the dice; with one
    threat, or once a Price is paid, there is nothing to end and it says nothing."""
    (offer,) = [c for c in two_narrow()["choices"] if c["name"] == "pay_the_price"]
    assert offer["ends"] == "settles the dice: no reassigning after"
    paid = threat.act(two_narrow(), {"pay_the_price": 0, "by": ANN, "marked": []}, ScriptedDice())
    (offer,) = [c for c in paid["choices"] if c["name"] == "pay_the_price"]
    assert "ends" not in offer
    (offer,) = dodge(5)["choices"]
    assert offer["name"] == "pay_the_price" and "ends" not in offer


def test_draw_order_threat_17():
    """threat-17: the pool is drawn in one throw, in the order of `dice`; reassigning and Pay the Price draw
    nothing."""
    dice = ScriptedDice(3, 6, 1)
    r = threat.roll(parse(rating=2, threats=("A", "B")), dice)
    assert r["dice"] == [3, 6, 1] and dice.batches == [(3, 6, "the Threat Roll's pool")]
    dice = ScriptedDice()
    threat.act(r, {"assign": [[0, 1], [2]]}, dice)
    dodge = threat.roll(parse(threats=("Dodge",)), ScriptedDice(5))
    threat.act(dodge, {"pay_the_price": 7}, dice)
    assert dice.batches == []


def test_a_roll_whose_prices_paid_disagrees_with_its_own_fields_is_refused_threat_14():
    """threat-14: one Price for each threat narrowly avoided; a roll that drops the Price it paid (its steps and its
    pay_the_price still say it) cannot pay another, nor have its dice reassigned."""

    rolled = api.roll("threat", {"rating": 2, "threats": [{"name": "A"}, {"name": "B"}]}, dice=[5, 4, 1])
    paid = api.act("threat", rolled, {"pay_the_price": 0, "by": "Ann", "marked": []})
    again = api.act("threat", paid, {"pay_the_price": 1, "by": "Ann", "marked": []})
    assert len(again["prices_paid"]) == 2
    dropped = {**again, "prices_paid": []}
    with pytest.raises(RulesError, match="'roll.prices_paid' disagrees"):
        api.act("threat", dropped, {"pay_the_price": 2, "by": "Ann", "marked": []})
    with pytest.raises(RulesError, match="'roll.prices_paid' disagrees"):
        api.act("threat", {**paid, "prices_paid": []}, {"assign": [[0], [1, 2]]})
