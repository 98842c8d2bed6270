"""Tests for arbiter.threat.rules (seed 002): the pool, the default assignment of dice to threats, each face's
outcome, the Example Threats' words, the steps and the dice's marks, and what the tab and EXTRAS publish."""

import json
from pathlib import Path

import pytest

from arbiter import RulesError, api, fields, threat
from threat_helpers import SEED_LINES, SEED_TEXT, outcomes, parse, scripted_roll


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
