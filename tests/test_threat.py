"""Threat Roll (seed 002): pool, assignment of dice to threats, outcomes, example texts, Pay the Price, odds."""

import copy
import itertools
import json
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import strategies
from arbiter import RulesError, api, fields, threat
from scripted import ScriptedDice
from stats import assert_fits

SEED_TEXT = (Path(__file__).resolve().parent.parent / "docs" / "seeds" / threat.SEED).read_text(encoding="utf-8")
SEED_LINES = SEED_TEXT.splitlines()

LARGEST = {"rating": 10, "threats": [{"name": f"T{i}", "desperate": i % 2 == 0} for i in range(8)], "extra_dice": 10}


def parse(rating=1, threats=("Fail",), extra_dice=0, desperate=()):
    """A parsed request: `threats` are names, `desperate` the indexes of the Desperate ones."""
    return fields.parse(
        threat.FIELDS,
        {
            "rating": rating,
            "extra_dice": extra_dice,
            "threats": [{"name": n, "desperate": i in desperate} for i, n in enumerate(threats)],
        },
    )


def scripted_roll(req, *faces):
    dice = ScriptedDice(*faces)
    r = threat.roll(req, dice)
    assert dice.left == []
    return r


def outcomes(r):
    return [t["outcome"] for t in r["threats"]]


# --- pool ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rating, n, extra, pool",
    [
        (3, 1, 0, 3),  # d6 equal to the ability rating
        (3, 2, 0, 4),  # two threats: +1d
        (3, 3, 0, 5),  # three threats: +2d
        (0, 1, 0, 0),
        (0, 8, 0, 7),
        (2, 3, 1, 5),  # a Pact's extra die
        (2, 3, -2, 2),  # a Pact's cost in dice
        (10, 8, 10, 27),  # the largest request
    ],
)
def test_pool_is_rating_plus_threats_minus_one_threat_1(rating, n, extra, pool):
    """threat-1: the pool is the rating plus the number of threats minus one (plus Pact dice), and that many are rolled."""
    req = parse(rating, [f"T{i}" for i in range(n)], extra)
    assert threat.pool(rating, n, extra) == pool
    r = scripted_roll(req, *[4] * pool)
    assert r["pool"] == pool and r["dice"] == [4] * pool
    assert r["steps"][0].startswith(f"Pool: rating {rating} + {n} threat")
    assert r["steps"][0].endswith(f"= {pool} dice")


ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("rating, n, extra", [(0, 1, 0), (2, 1, 0), (2, 3, 0), (10, 8, 0), (2, 3, 1), (2, 3, -2)])
def test_the_tab_and_description_count_the_dice_as_the_text_does_threat_1(rating, n, extra):
    """threat-1, threat-2: the Threat tab's hint and description say how many dice as the text does (the rating, plus
    the number of threats minus one, plus Pact dice), and the pool their words give is the pool rolled."""
    spec = next(s for s in api.systems() if s["id"] == threat.ID)
    formula = spec["hint"].removeprefix("d6: ")  # "rating + threats − 1", read as arithmetic
    assert spec["hint"].startswith("d6: ") and f"d6 equal to the {formula}, ± Pact dice;" in spec["description"]
    words = eval(formula.replace("−", "-"), {"__builtins__": {}}, {"rating": rating, "threats": n})  # noqa: S307
    rolled = api.roll(
        threat.ID, {"rating": rating, "threats": [{"name": f"T{i}"} for i in range(n)], "extra_dice": extra}
    )
    assert max(0, words + extra) == rolled["pool"] == len(rolled["dice"])


def test_no_page_or_doc_says_a_d6_per_threat():
    """threat-1: nothing says "a d6 per threat" (the pool is not one die per threat): not the engine, the page, the
    docs nor the README."""
    places = [
        ROOT / "index.html",
        ROOT / "README.md",
        *[p for d in ("py", "static", "docs") for p in (ROOT / d).rglob("*")],
    ]
    said = [p for p in places if p.is_file() and p.suffix in (".py", ".js", ".html", ".md", ".css", ".json", ".txt")]
    assert len(said) > 20
    assert [p.relative_to(ROOT) for p in said if "d6 per threat" in p.read_text(encoding="utf-8")] == []


@pytest.mark.parametrize(
    "request_, field, allowed",
    [
        ({"rating": 11}, "'rating'", "0 to 10"),
        ({"rating": -1}, "'rating'", "0 to 10"),
        ({"rating": True}, "'rating'", "0 to 10"),
        ({"rating": "3"}, "'rating'", "0 to 10"),
        ({"rating": 2.0}, "'rating'", "0 to 10"),
        ({"extra_dice": 11}, "'extra_dice'", "-10 to 10"),
        ({"extra_dice": -11}, "'extra_dice'", "-10 to 10"),
        ({"extra_dice": False}, "'extra_dice'", "-10 to 10"),
        ({"threats": []}, "'threats'", "1 to 8"),
        ({"threats": [{"name": "x", "desperate": False}] * 9}, "'threats'", "1 to 8"),
        ({"threats": {"name": "x"}}, "'threats'", "1 to 8"),
        ({"threats": [{"name": "x" * 81, "desperate": False}]}, "'threats\\[0\\].name'", "80 characters"),
        ({"threats": [{"name": 3, "desperate": False}]}, "'threats\\[0\\].name'", "80 characters"),
        ({"threats": [{"name": "x", "desperate": 1}]}, "'threats\\[0\\].desperate'", "true or false"),
        ({"threats": [{"name": "x", "harm": 2}]}, "'threats\\[0\\].harm'", "allowed: name, desperate"),
        ({"threats": ["Dodge"]}, "'threats\\[0\\]'", "object"),
        ({"ability": "Charm"}, "'ability'", "allowed: rating, threats, extra_dice"),
    ],
)
def test_bad_requests_are_refused_threat_1(request_, field, allowed):
    """threat-1: out of range, wrong type, bool for a number and unknown fields are refused, naming field and range."""
    with pytest.raises(RulesError, match=field) as err:
        fields.parse(threat.FIELDS, request_)
    assert allowed.replace("\\", "") in str(err.value)


@pytest.mark.parametrize("request_", [None, [], "rating=3", 3])
def test_non_object_request_is_refused(request_):
    """A request that is not an object is refused."""
    with pytest.raises(RulesError, match="object"):
        fields.parse(threat.FIELDS, request_)


def test_published_limits_threat_1():
    """threat-1: the fields publish rating 0..10, 1..8 threats with 80-character names, extra dice -10..10."""
    schema = {f.name: f.schema() for f in threat.FIELDS}
    assert (schema["rating"]["min"], schema["rating"]["max"]) == (0, 10)
    assert (schema["extra_dice"]["min"], schema["extra_dice"]["max"]) == (-10, 10)
    assert (schema["threats"]["min_len"], schema["threats"]["max_len"]) == (1, 8)
    inner = {f["name"]: f for f in schema["threats"]["fields"]}
    assert inner["name"]["max_len"] == 80 and inner["desperate"]["type"] == "bool"
    assert fields.parse(threat.FIELDS, fields.defaults(threat.FIELDS)) == {
        "rating": 1,
        "threats": ({"name": "Fail", "desperate": False},),
        "extra_dice": 0,
    }


@pytest.mark.parametrize("rating, n, extra", [(0, 1, -1), (1, 2, -10), (0, 3, -3)])
def test_pool_floors_at_zero_and_every_threat_comes_to_pass_threat_2(rating, n, extra):
    """threat-2: Pact dice can take the pool to 0 but not below; with no dice every threat comes to pass."""
    req = parse(rating, [f"T{i}" for i in range(n)], extra)
    r = scripted_roll(req)
    assert r["pool"] == 0 and r["dice"] == []
    assert outcomes(r) == ["happens"] * n
    assert all(t["die"] is None and t["dice"] == [] for t in r["threats"])
    assert "floored at 0" in r["steps"][0] and "No dice to roll" in r["steps"]
    assert r["choices"] == []


# --- assignment ------------------------------------------------------------------------------------


def test_default_assignment_follows_priority_threat_3():
    """threat-3: the highest die goes to the first threat, the next to the second, and so on."""
    r = scripted_roll(parse(1, ["Persuasion", "Bargaining", "Research"]), 2, 6, 4)
    assert r["assignment"] == [[1], [2], [0]]
    assert [t["die"] for t in r["threats"]] == [6, 4, 2]
    assert outcomes(r) == ["avoided", "lessened", "happens"]
    assert r["outcome"] == "avoided / lessened / happens"
    assert "Highest die to the first threat" in r["steps"][2]


def test_equal_faces_go_in_roll_order_threat_3():
    """threat-3: of two equal dice, the one rolled first goes to the higher-priority threat."""
    r = scripted_roll(parse(1, ["A", "B", "C"]), 5, 1, 5)
    assert r["assignment"] == [[0], [2], [1]]


def test_leftover_dice_are_stacked_on_the_first_threat_threat_4():
    """threat-4: more dice than threats: the leftover (lowest) dice go on the first threat and change nothing."""
    r = scripted_roll(parse(3, ["Dodge", "Stun"]), 1, 6, 3, 5)
    assert r["assignment"] == [[1, 2, 0], [3]]
    assert r["unassigned"] == []
    assert [t["die"] for t in r["threats"]] == [6, 5]
    assert outcomes(r) == ["avoided", "lessened"]
    assert "takes the highest of 6, 3, 1" in r["steps"][3]


def test_a_threat_takes_its_highest_die_threat_4():
    """threat-4: a threat with stacked dice takes its highest die."""
    r = scripted_roll(parse(3, ["Dodge", "Stun"]), 1, 6, 3, 5)
    r2 = threat.act(r, {"assign": [[0, 2], [3, 1]]}, None)
    assert [t["die"] for t in r2["threats"]] == [3, 6]
    assert outcomes(r2) == ["happens", "avoided"]
    assert r2["threats"][1]["dice"] == [3, 1]


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


def test_a_threat_with_no_die_comes_to_pass_threat_6():
    """threat-6: when there are fewer dice than threats, the last threats get no die and come to pass."""
    r = scripted_roll(parse(0, ["Dodge", "Stun", "Fail"]), 6, 6)
    assert [t["die"] for t in r["threats"]] == [6, 6, None]
    assert outcomes(r) == ["avoided", "avoided", "happens"]
    assert r["threats"][2]["text"] == "On a 1-3 your action is not successful."
    assert "Fail: no die, it happens" in r["steps"]
    r2 = threat.act(r, {"assign": [[0, 1], [], []]}, None)
    assert outcomes(r2) == ["avoided", "happens", "happens"]


# --- outcomes and texts ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "face, desperate, expected",
    [
        (1, False, "happens"),
        (2, False, "happens"),
        (3, False, "happens"),
        (4, False, "lessened"),
        (5, False, "lessened"),
        (6, False, "avoided"),
        (1, True, "happens"),
        (3, True, "happens"),
        (4, True, "happens"),
        (5, True, "happens"),
        (6, True, "avoided"),
    ],
)
def test_each_face_reads_as_the_rule_says_threat_7(face, desperate, expected):
    """threat-7: 1-3 happens, 4/5 lessened, 6 avoided; a Desperate threat happens on 1-5 and is never lessened."""
    r = scripted_roll(parse(1, ["Gravely injured"], desperate={0} if desperate else ()), face)
    assert r["threats"][0]["outcome"] == expected
    assert r["threats"][0]["desperate"] is desperate
    assert threat.outcome_of(face, desperate).value == expected


@pytest.mark.parametrize("name", list(threat.EXAMPLES))
def test_example_texts_are_the_seed_words_threat_8(name):
    """threat-8: each example threat's 1-3 and 4/5 texts are copied word for word from its line in the seed."""
    group, happens, lessened = threat.EXAMPLES[name]
    assert f"- {name}: {happens} {lessened}" in SEED_LINES
    assert SEED_TEXT.index(group) < SEED_TEXT.index(f"- {name}:")
    assert happens.startswith("On a 1-3") and lessened.startswith(("On a 4/5", "On 4/5"))


def test_all_thirteen_examples_are_known_threat_8():
    """threat-8: every "- Name: On a 1-3 …" line of the Example Threats has its entry."""
    listed = [line[2:].split(":")[0] for line in SEED_LINES if line.startswith("- ") and ": On a 1-3" in line]
    assert listed == list(threat.EXAMPLES) and len(listed) == 13


@pytest.mark.parametrize("name", ["Persuasion", " persuasion ", "PERSUASION", "\tPersuasion\n"])
@pytest.mark.parametrize(
    "face, desperate, which", [(2, False, 1), (4, False, 2), (5, False, 2), (4, True, 1), (5, True, 1)]
)
def test_example_text_follows_the_outcome_threat_8(name, face, desperate, which):
    """threat-8: a name matching an example (trimmed, any case) shows its 1-3 text when it happens, its 4/5 when lessened."""
    r = scripted_roll(parse(1, [name], desperate={0} if desperate else ()), face)
    assert r["threats"][0]["text"] == threat.EXAMPLES["Persuasion"][which]
    assert r["threats"][0]["name"] == name


@pytest.mark.parametrize("name", ["Persuasions", "Persuasion: guard", "the doorman asks for your invitation", ""])
def test_other_names_have_no_text_threat_8(name):
    """threat-8: a name that is not an example threat has no text."""
    for face in (2, 4, 6):
        r = scripted_roll(parse(1, [name]), face)
        assert r["threats"][0]["text"] is None


@pytest.mark.parametrize("name", list(threat.EXAMPLES))
def test_avoided_has_no_text_threat_9(name):
    """threat-9: on a 6 the threat is totally avoided and shows no example text."""
    r = scripted_roll(parse(1, [name]), 6)
    assert r["threats"][0]["outcome"] == "avoided" and r["threats"][0]["text"] is None


def test_steps_and_summary_read_like_the_rule():
    """The steps give the pool, the dice, the assignment and each threat's die and outcome, in order."""
    r = scripted_roll(parse(2, ["Persuasion", "Dodge"], desperate={1}), 5, 2, 6)
    assert r["steps"] == [
        "Pool: rating 2 + 2 threats − 1 = 3 dice",
        "3 dice: 5 2 6",
        "Highest die to the first threat, the next to the second, …",
        "Persuasion: 6, avoided (takes the highest of 6, 2)",
        "Dodge (desperate): 5, happens",
    ]
    assert r["summary"] == "Threat Roll, 3 dice (5 2 6): Persuasion: 6, avoided; Dodge (desperate): 5, happens"
    assert json.loads(json.dumps(r)) == r


def test_pact_dice_show_in_the_pool_step_threat_2():
    """threat-2: extra dice from Pacts are added (or removed) in the pool step."""
    r = scripted_roll(parse(2, ["A"], extra_dice=-1), 3)
    assert r["steps"][0] == "Pool: rating 2 + 1 threat − 1 − 1 from Pacts = 1 die"
    r = scripted_roll(parse(0, ["A"], extra_dice=-3))
    assert r["steps"][0] == "Pool: rating 0 + 1 threat − 1 − 3 from Pacts = 0 dice (−3, floored at 0)"


def test_request_is_echoed_as_json():
    """The roll carries its request in JSON form (lists, not tuples), so act() can re-check it."""
    r = scripted_roll(parse(1, ["A", "B"], desperate={1}), 3, 4)
    assert r["request"] == {
        "rating": 1,
        "extra_dice": 0,
        "threats": [{"name": "A", "desperate": False}, {"name": "B", "desperate": True}],
    }


# --- Pay the Price ---------------------------------------------------------------------------------


def test_pay_the_price_options_are_the_seed_words_threat_10():
    """threat-10: the eight options and the rule are copied word for word from the seed."""
    assert len(threat.PAY_THE_PRICE) == 8
    start = SEED_LINES.index("Pay the Price")
    listed = [line[2:] for line in SEED_LINES[start:] if line.startswith("- ")]
    assert listed == list(threat.PAY_THE_PRICE)
    assert threat.PAY_THE_PRICE_RULE == SEED_LINES[start + 1]
    assert threat.EXTRAS["pay_the_price"] == listed


ANN, BO = "Ann", "Bo"


def test_marking_an_option_records_who_picked_it_threat_10():
    """threat-10: picking an option marks it with the player who picked it, alongside the marks already made."""
    assert threat.pay_the_price([], 0, ANN) == {0: ANN}
    assert threat.pay_the_price([{"option": 3, "by": BO}], 7, " Ann ") == {3: BO, 7: ANN}
    assert threat.marks_json({7: ANN, 3: BO}) == [{"option": 3, "by": BO}, {"option": 7, "by": ANN}]


def test_another_player_may_not_pick_a_marked_option_threat_10():
    """threat-10: No other player may pick that option for the rest of the Situation; the message names who marked
    it and what is unmarked."""
    with pytest.raises(RulesError, match="No other player may pick that option for the rest of the Situation") as err:
        threat.pay_the_price([{"option": 3, "by": ANN}, {"option": 5, "by": BO}], 5, ANN)
    assert "'option' 5 (“Suffer a setback, making the situation harder for yourself”) is marked by Bo" in str(err.value)
    assert "unmarked: 0, 1, 2, 4, 6, 7" in str(err.value)


@pytest.mark.parametrize("again", ["Bo", "bo", " BO "])
def test_the_player_who_marked_an_option_may_pick_it_again_threat_10(again):
    """threat-10: only another player is refused: the one who marked the option picks it again (names compared
    trimmed and ignoring case), and it stays marked as theirs."""
    marks = [{"option": 3, "by": ANN}, {"option": 5, "by": BO}]
    assert threat.pay_the_price(marks, 5, again) == {3: ANN, 5: BO}


@pytest.mark.parametrize("by", [ANN, None])
def test_old_marks_without_names_are_nobodys_threat_10(by):
    """threat-10: a mark kept as a bare option number (before marks had names) reads as marked by someone unnamed:
    every player is refused it, as before; the other marks are kept, reported with "by" null."""
    with pytest.raises(RulesError, match=r"is marked by someone \(a mark kept without a name\): No other player"):
        threat.pay_the_price([2, {"option": 4, "by": BO}], 2, by)
    assert threat.pay_the_price([2, 6], 1, ANN) == {1: ANN, 2: None, 6: None}
    assert threat.pay_the_price([{"option": 2, "by": None}], 1) == {1: None, 2: None}


@pytest.mark.parametrize("last", range(8))
def test_marking_the_last_option_unmarks_all_threat_10(last):
    """threat-10: If all options are marked, unmark all of them, whoever marked them."""
    others = [{"option": o, "by": (ANN, BO)[o % 2]} for o in range(8) if o != last]
    assert threat.pay_the_price(others, last, "Cy") == {}
    assert threat.pay_the_price([o for o in range(8) if o != last], last, ANN) == {}


@pytest.mark.parametrize(
    "marked, option, by, words",
    [
        ([], 8, ANN, "'option' must be a whole number from 0 to 7"),
        ([], -1, ANN, "'option' must be a whole number from 0 to 7"),
        ([], True, ANN, "'option' must be a whole number from 0 to 7"),
        ([], "1", ANN, "'option' must be a whole number from 0 to 7"),
        ([8], 0, ANN, r"'marked\[0\]' must be a mark"),
        ([True], 0, ANN, r"'marked\[0\]' must be a mark"),
        ([{"option": 9, "by": BO}], 0, ANN, r"'marked\[0\]' must be a mark"),
        ([{"option": 1, "by": BO, "when": 3}], 0, ANN, r"'marked\[0\]' must be a mark"),
        ([{"by": BO}], 0, ANN, r"'marked\[0\]' must be a mark"),
        ([{"option": 1, "by": ""}], 0, ANN, r"'marked\[0\].by' must be the player's name"),
        ([{"option": 1, "by": 7}], 0, ANN, r"'marked\[0\].by' must be the player's name"),
        (
            [{"option": 1, "by": ANN}, {"option": 1, "by": BO}],
            0,
            ANN,
            r"'marked\[1\]' repeats option 1, marked by Ann: a mark records the one player who picked it",
        ),
        ([1, {"option": 1, "by": ANN}], 0, ANN, r"'marked\[1\]' repeats option 1, marked by someone"),
        ([1, 1], 0, ANN, r"'marked\[1\]' repeats option 1"),
        (list(range(9)), 0, ANN, "'marked' must be a list of 0 to 8 marks"),
        ("01", 2, ANN, "'marked' must be a list of 0 to 8 marks"),
        (None, 0, ANN, "'marked' must be a list of 0 to 8 marks"),
        ([], 0, "  ", "'by' must be the player's name"),
        ([], 0, "x" * 81, "'by' must be the player's name"),
        ([], 0, ["Ann"], "'by' must be the player's name"),
    ],
)
def test_bad_pay_the_price_input_is_refused_threat_10(marked, option, by, words):
    """threat-10: options are numbered 0 to 7, each marked at most once by one player, a name is 1 to 80
    characters; anything else is refused, naming the argument."""
    with pytest.raises(RulesError, match=words):
        threat.pay_the_price(marked, option, by)


def test_marks_are_never_changed_in_place_threat_10():
    """threat-10: marking returns new marks and leaves the given ones alone."""
    marks = [{"option": 0, "by": ANN}, 1]
    threat.pay_the_price(marks, 2, BO)
    assert marks == [{"option": 0, "by": ANN}, 1]


# --- extras ----------------------------------------------------------------------------------------


def test_extras_quote_the_seed():
    """EXTRAS carry the examples by group, the outcome words and the ability ratings, all from the seed."""
    extras = threat.EXTRAS
    assert json.loads(json.dumps(extras)) == extras
    assert {n: e["group"] for n, e in extras["examples"].items()} == {
        **dict.fromkeys(["Persuasion", "Entreaty", "Bargaining", "Intimidation", "Impatience", "Frustrated"], "Social"),
        **dict.fromkeys(["Snooping", "Research", "Wayfinding"], "Investigation"),
        **dict.fromkeys(["Dodge", "Stun", "Fail", "Sneaking"], "Peril"),
    }
    assert list(extras["ability_ratings"]) == [
        "Charm",
        "Command",
        "Finesse",
        "Muscle",
        "Rig",
        "Scout",
        "Scramble",
        "Shadow",
    ]
    for name, text in extras["ability_ratings"].items():
        assert f"- {name}: {text}" in SEED_LINES
    for words in extras["outcomes"].values():
        assert words in SEED_TEXT
    assert threat.ACTIONS[0]["name"] == "assign" and json.loads(json.dumps(threat.ACTIONS)) == threat.ACTIONS


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

requests = strategies.request(threat.FIELDS)


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
    from arbiter import api

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
    from arbiter import api

    r = api.roll("threat", {"rating": 2, "threats": [{"name": "A", "desperate": False}]}, seed=7)
    with pytest.raises(RulesError, match="not assigned"):
        api.act("threat", r, {"assign": [[0]]})


@pytest.mark.benchmark(group="odds")
def test_bench_odds_largest(benchmark):
    """Benchmark: odds() for the largest request (rating 10, 8 threats, 10 extra dice: 27 dice)."""
    req = fields.parse(threat.FIELDS, LARGEST)
    result = benchmark(threat.odds, req)
    assert len(result["threats"]) == 8


def _dodge(face: int, desperate: bool = False) -> dict:
    req = fields.parse(threat.FIELDS, {"rating": 1, "threats": [{"name": "Dodge", "desperate": desperate}]})
    return threat.roll(req, ScriptedDice(face))


def test_act_pay_the_price_marks_the_option_with_the_player_threat_10():
    """threat-10: Paying the Price after a roll marks the picked option with the player and keeps the dice as
    assigned; the answer reports every mark with its name."""
    rolled = _dodge(5)
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
    rolled = _dodge(4)
    marked = [{"option": 2, "by": BO}]
    with pytest.raises(RulesError, match="is marked by Bo: No other player may pick that option"):
        threat.act(rolled, {"pay_the_price": 2, "by": ANN, "marked": marked}, ScriptedDice())
    again = threat.act(rolled, {"pay_the_price": 2, "by": BO, "marked": marked}, ScriptedDice())
    assert again["pay_the_price"]["marked"] == [{"option": 2, "by": BO}]


def test_act_pay_the_price_in_the_old_form_threat_10():
    """threat-10: the old action, bare option numbers and no "by", still works: the pick is kept without a name, so
    nobody may pick it again, and the old marks refuse everyone."""
    rolled = _dodge(5)
    paid = threat.act(rolled, {"pay_the_price": 7, "marked": [0, 2]}, ScriptedDice())
    assert paid["pay_the_price"]["marked"] == [{"option": o, "by": None} for o in (0, 2, 7)]
    assert paid["pay_the_price"]["by"] is None and paid["steps"][-1] == "Paid the Price: Take 1 Harm."
    with pytest.raises(RulesError, match="is marked by someone"):
        threat.act(rolled, {"pay_the_price": 7, "by": ANN, "marked": paid["pay_the_price"]["marked"]}, ScriptedDice())


def test_act_pay_the_price_last_option_unmarks_all_threat_10():
    """threat-10: the pick that marks the last option unmarks all of them."""
    paid = threat.act(_dodge(5), {"pay_the_price": 7, "by": ANN, "marked": list(range(7))}, ScriptedDice())
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
    rolled = _dodge(face, desperate)
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


def test_threat_13_luck_ranks_the_threats_in_their_order_of_priority():
    """threat-13: the first threat's outcome weighs before the second's; success is the first threat not coming to pass;
    a reassignment changes no die and no luck."""
    from arbiter import chances

    req = parse(rating=2, threats=("a", "b"))
    first_avoided = threat.roll(req, ScriptedDice(6, 1, 1))  # avoided / happens
    second_avoided = threat.roll(req, ScriptedDice(5, 6, 1))  # sorted: 6 to the first: avoided / lessened
    lessened_both = threat.roll(req, ScriptedDice(5, 4, 1))  # lessened / lessened
    lucks = [chances.luck(threat, r) for r in (lessened_both, first_avoided, second_avoided)]
    assert [x["rank"] for x in lucks] == ["lessened / lessened", "avoided / happens", "avoided / lessened"]
    assert lucks[0]["p_worse"] < lucks[1]["p_worse"] < lucks[2]["p_worse"]
    assert all(x["success"] for x in lucks)
    moved = threat.act(first_avoided, {"assign": [[1], [0, 2]]}, ScriptedDice())
    assert chances.luck(threat, moved) == lucks[1]


# --- one Price per narrow escape (threat-14), marks that arrive all marked (threat-10), the Price on the sheet -------


def _two_narrow() -> dict:
    """A roll with two threats narrowly avoided (a 5 and a 4) and one that comes to pass."""
    return scripted_roll(parse(1, ["Fail", "Dodge", "Stun"]), 5, 4, 2)


def test_one_price_per_narrow_escape_threat_14():
    """threat-14: a roll with one threat narrowly avoided pays one Price: the roll keeps it, its steps say it, and
    Pay the Price then leaves the choices and is refused with the reason."""
    paid = threat.act(_dodge(5), {"pay_the_price": 0, "by": ANN, "marked": []}, ScriptedDice())
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
    rolled = _two_narrow()
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
    rolled = _two_narrow()
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
        threat.act({**_dodge(5), "prices_paid": prices}, {"pay_the_price": 0, "by": BO, "marked": []}, ScriptedDice())


def test_marks_that_arrive_all_marked_count_as_unmarked_threat_10():
    """threat-10: "If all options are marked, unmark all of them": marks arriving with all eight marked (an import,
    an older table) allow any pick, and afterwards only the new pick is marked."""
    every = [{"option": o, "by": BO} for o in range(8)]
    assert threat.pay_the_price(every, 4, ANN) == {4: ANN}
    assert threat.pay_the_price(list(range(8)), 0, None) == {0: None}
    paid = threat.act(_dodge(4), {"pay_the_price": 2, "by": ANN, "marked": every}, ScriptedDice())
    assert paid["pay_the_price"]["marked"] == [{"option": 2, "by": ANN}]


@pytest.mark.parametrize("option, op", [(1, "lose_insight"), (3, "spend_gear"), (7, "take_harm")])
def test_the_price_is_paid_on_the_sheet_threat_15(option, op):
    """threat-15: Lose one Insight, Spend a point of Gear and Take 1 Harm are ops on the rolling character's sheet;
    the other options, the roll and a reassignment cost nothing."""
    assert threat.costs(None, {"pay_the_price": option, "by": ANN, "marked": []}) == [
        {"by": "character", "system": "threat", "op": op, "args": None, "times": 1}
    ]
    for other in set(range(8)) - {1, 3, 7}:
        assert threat.costs(None, {"pay_the_price": other}) == []
    assert threat.costs(None, {"assign": [[0]]}) == [] == threat.costs(parse(), None)


COUNTERS = {"renown": 3, "aether": 2, "insight": 2, "gear": 1, "harm": 5}


@pytest.mark.parametrize(
    "op, counter, after, note",
    [
        ("lose_insight", "insight", 1, "Lost one Insight (Insight 1)"),
        ("spend_gear", "gear", 0, "Spent a point of Gear (Gear 0)"),
        ("take_harm", "harm", 6, "Took 1 Harm (Harm 6)"),
    ],
)
def test_paying_on_the_sheet_changes_one_counter_threat_15(op, counter, after, note):
    """threat-15: each op changes its one counter by one and says so; the rest of the sheet is as it was."""
    sheet = {"ratings": {"Charm": 2}, "counters": dict(COUNTERS)}
    out = threat.TABLE[op](copy.deepcopy(sheet), None)
    assert out == {**sheet, "counters": {**COUNTERS, counter: after}, "note": note}


@pytest.mark.parametrize(
    "op, counters, says",
    [
        ("lose_insight", {**COUNTERS, "insight": 0}, "has no Insight left"),
        ("spend_gear", {**COUNTERS, "gear": 0}, "has no Gear left"),
        ("take_harm", {**COUNTERS, "harm": threat.MAX_COUNTER}, "has Harm at the sheet's maximum, 999"),
    ],
)
def test_a_price_the_sheet_cannot_pay_is_refused_in_its_holders_name_threat_15(op, counters, says):
    """threat-15: with no Insight or Gear left, or Harm at its maximum, the op is refused, said of the character."""
    with pytest.raises(RulesError) as e:
        threat.TABLE[op]({"counters": counters}, None)
    assert (e.value.says, e.value.holder) == (says, True)


# --- each die's marks, as the page draws them (the page compares no face) -----------------------------------------


def test_marks_keep_the_die_each_threat_takes_and_dim_the_rest():
    """threat-4: the die each threat takes (its highest) is kept; the leftover dice stacked on the first are dim."""
    r = scripted_roll(parse(3, ["Dodge", "Stun"]), 1, 6, 3, 5)
    assert r["marks"] == [["dim"], ["kept"], ["dim"], ["kept"]]


def test_marks_keep_the_first_of_equal_highest_dice_as_assigned():
    """Of a threat's equal highest dice, the first in its list (as the Warden gave it) is the one kept."""
    r = scripted_roll(parse(3, ["A", "B"]), 5, 1, 5, 2)
    r2 = threat.act(r, {"assign": [[2, 0], [1, 3]]}, None)
    assert r2["marks"] == [["dim"], ["dim"], ["kept"], ["kept"]]
    assert scripted_roll(parse(0, ["A"]))["marks"] == []  # no dice: no marks


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
    (offer,) = [c for c in _two_narrow()["choices"] if c["name"] == "pay_the_price"]
    assert offer["ends"] == "settles the dice: no reassigning after"
    paid = threat.act(_two_narrow(), {"pay_the_price": 0, "by": ANN, "marked": []}, ScriptedDice())
    (offer,) = [c for c in paid["choices"] if c["name"] == "pay_the_price"]
    assert "ends" not in offer
    (offer,) = _dodge(5)["choices"]
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


def test_a_price_shared_by_link_is_checked_against_the_receiving_tables_marks_threat_18():
    """threat-18: a roll shared by link with Ann's Price (option 2, her phone's Situation unmarked) is refused on a
    table where Bo marked option 2, naming him; on a table where Bo marked option 1 it is added and marks option 2 by
    Ann beside his."""
    request = {"rating": 2, "threats": [{"name": "Fail"}]}
    rolled = next(
        r
        for r in (api.roll("threat", request, seed=s) for s in range(100))
        if any(c["name"] == "pay_the_price" for c in r["choices"])
    )
    action = {"pay_the_price": 2, "by": "Ann", "marked": []}
    after = api.act("threat", rolled, action, seed=1)
    steps = [{"drawn": rolled["drawn"]}, {"action": action, "drawn": after["drawn"]}]
    fragment = api.share_link("threat", request, steps, "Ann", 0)["fragment"]
    refused = api.add_shared(fragment, None, [{"option": 2, "by": "Bo"}], [])
    assert "marked by Bo" in refused["refused"]["words"] and refused["entries"] == []
    added = api.add_shared(fragment, None, [{"option": 1, "by": "Bo"}], [])
    assert added["marked"] == [{"option": 1, "by": "Bo"}, {"option": 2, "by": "Ann"}]


def test_a_roll_whose_prices_paid_disagrees_with_its_own_fields_is_refused_threat_14():
    """threat-14: one Price for each threat narrowly avoided; a roll that drops the Price it paid (its steps and its
    pay_the_price still say it) cannot pay another, nor have its dice reassigned."""
    from arbiter import api

    rolled = api.roll("threat", {"rating": 2, "threats": [{"name": "A"}, {"name": "B"}]}, dice=[5, 4, 1])
    paid = api.act("threat", rolled, {"pay_the_price": 0, "by": "Ann", "marked": []})
    again = api.act("threat", paid, {"pay_the_price": 1, "by": "Ann", "marked": []})
    assert len(again["prices_paid"]) == 2
    dropped = {**again, "prices_paid": []}
    with pytest.raises(RulesError, match="'roll.prices_paid' disagrees"):
        api.act("threat", dropped, {"pay_the_price": 2, "by": "Ann", "marked": []})
    with pytest.raises(RulesError, match="'roll.prices_paid' disagrees"):
        api.act("threat", {**paid, "prices_paid": []}, {"assign": [[0], [1, 2]]})
