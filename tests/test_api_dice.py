"""api's table dice: every roll and follow-up says the faces it drew ("drawn"), takes a table's faces instead
(`dice=`) and answers as a seeded call that drew them, and dice_needed / dice_needed_act say what comes next."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import strategies
from arbiter import RulesError, api
from arbiter.procedures import PROCEDURES

IDS = list(PROCEDURES)
EXAMPLES = [(m.ID, name, request) for m in PROCEDURES.values() for name, request in m.EXAMPLE_REQUESTS.items()]
DONE = {"dice": 0, "sides": None, "for": None}

# Requests that draw in every way a procedure draws: contests, Will up front, a Scheme die, 1s that eat, no dice.
SPREAD = [
    ("arbitration", {"skills": [4], "opposed": {"skills": [3]}}),
    ("arbitration", {"skills": [1], "complexity": "tricky", "opposed": {"skills": [3]}}),
    ("arbitration", {"skills": [3], "opposed": {"skills": [0]}}),
    ("two_dice", {"opposed": {}}),
    ("two_dice", {"difficulty": "impossible"}),
    ("threat", {"rating": 3, "threats": [{"name": "A"}, {"name": "B", "desperate": True}]}),
    ("threat", {"rating": 0, "threats": [{"name": "A"}]}),
    ("luck", {"dice": 3, "for": 1}),
    ("luck", {"dice": 1, "against": 3}),
    ("ten_again", {"pool": 8, "will": True}),
    ("ten_again", {"pool": 8, "risky": True}),
    ("ten_again", {"pool": 6, "unskilled": True, "opposed": {"pool": 6, "will": True, "risky": True}}),
    ("ten_again", {"pool": 0}),
    ("ten_again", {"pool": 30, "modifier": 10, "initiative": True}),
    ("ability_test", {"type1": 2, "type2": 2, "skill": 2, "difficulty": 4, "masteries": 3, "scheme_die": True}),
    ("ability_test", {"type1": 1, "type2": 1, "difficulty": 1}),
]
REQUESTS = [(s, r) for s, _, r in EXAMPLES] + SPREAD


def follow_ups(roll: dict) -> list[dict]:
    """Actions to take after `roll`: each choice's own action or the one its odds suggest, a reroll of every die a
    Masteries reroll may take, a threat's dice all on its first threat and a Price."""
    out = []
    for choice in roll["choices"]:
        for action in (choice.get("action"), (choice.get("odds") or {}).get("action")):
            if action and action not in out:
                out.append(action)
    if roll["system"] == "ability_test" and any(c["name"] == "reroll" for c in roll["choices"]):
        out.append({"reroll": list(range(min(roll["request"]["masteries"], len(roll["dice"]))))})
    if roll["system"] == "threat" and roll["dice"]:
        out.append({"assign": [list(range(len(roll["dice"])))] + [[] for _ in roll["threats"][1:]]})
    if any(c["name"] == "pay_the_price" for c in roll["choices"]):
        out.append({"pay_the_price": 3})
    return out


def the_same_from_the_table(system: str, request: dict, seed: int) -> dict:
    """A seeded roll, checked: its `drawn` fed back through `dice=` answers the same, and dice_needed counts down."""
    rolled = api.roll(system, request, seed=seed)
    assert api.roll(system, request, dice=rolled["drawn"]) == rolled
    counts_down(rolled["drawn"], lambda faces: api.dice_needed(system, request, faces))
    return rolled


def counts_down(drawn: list[int], needed) -> None:
    """Faces fed one by one: each prefix needs at least one more die and no more than the rest of `drawn`; within a
    batch one face fewer each time; 0 exactly at the last face."""
    before = None
    for i in range(len(drawn) + 1):
        now = needed(drawn[:i])
        if i == len(drawn):
            assert now == DONE, (drawn, i, now)
            break
        assert 1 <= now["dice"] <= len(drawn) - i and now["sides"] >= 2 and now["for"], (drawn, i, now)
        if before is not None and before["dice"] > 1:
            assert now == {**before, "dice": before["dice"] - 1}, (drawn, i, before, now)
        before = now


def the_same_after(system: str, rolled: dict, action: dict, seed: int) -> dict | None:
    """A seeded follow-up of `rolled` (None when the rules refuse it), checked as a roll is."""
    try:
        after = api.act(system, rolled, action, seed=seed)
    except RulesError:
        return None
    assert api.act(system, rolled, action, dice=after["drawn"]) == after
    counts_down(after["drawn"], lambda faces: api.dice_needed_act(system, rolled, action, faces))
    return after


# --- a seeded roll's faces, fed back -----------------------------------------------------------------------------


@pytest.mark.parametrize("system, request_", REQUESTS)
def test_a_seeded_rolls_drawn_faces_give_the_same_answer(system, request_):
    """For every procedure and a spread of requests, `drawn` fed back through dice= answers the same, and
    dice_needed counts down to 0 exactly at the last face."""
    for seed in range(25):
        the_same_from_the_table(system, request_, seed)


@pytest.mark.parametrize("system, request_", REQUESTS)
def test_each_follow_up_from_the_tables_faces_gives_the_same_answer(system, request_):
    """Each follow-up (a Will, either side's, a Masteries reroll, Exertion, a reassignment, a Price...) answers the
    same from its own `drawn` faces, and the next step's too (one that rolls nothing: from [])."""
    taken, offered = set(), False
    for seed in range(25):
        rolled = api.roll(system, request_, seed=seed)
        offered = offered or bool(follow_ups(rolled))
        for action in follow_ups(rolled):
            after = the_same_after(system, rolled, action, seed + 1000)
            if after is None:
                continue
            taken.add(next(iter(action)))
            for action2 in follow_ups(after):
                the_same_after(system, after, action2, seed + 2000)
    assert taken or not offered, "no follow-up was taken"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), system=st.sampled_from(IDS), seed=st.integers(0, 2**32))
def test_any_request_from_the_tables_faces_gives_the_same_answer(data, system, seed):
    """Any request the rules take, with any seed: the table's faces give the seeded answer, and so do its
    follow-ups."""
    request_ = data.draw(strategies.request(PROCEDURES[system].FIELDS, small=True))
    try:
        rolled = the_same_from_the_table(system, request_, seed)
    except RulesError:
        assume(False)
    for action in follow_ups(rolled):
        the_same_after(system, rolled, action, seed + 1)


def test_ten_again_draws_the_10s_round_by_round():
    """A d10 pool asks first for its pool, then for one die per 10 left after the 1s, then for each 10 among
    those; a contest names each side."""
    request_ = {"pool": 3, "risky": True, "opposed": {"pool": 1}}
    asks = [
        api.dice_needed("ten_again", request_, faces)
        for faces in ([], [10, 10, 1], [10, 10, 1, 10], [10, 10, 1, 10, 4])
    ]
    assert asks == [
        {"dice": 3, "sides": 10, "for": "the actor's pool"},
        {"dice": 1, "sides": 10, "for": "the actor's 10s roll again"},
        {"dice": 1, "sides": 10, "for": "the actor's 10s roll again"},
        {"dice": 1, "sides": 10, "for": "the target's pool"},
    ]
    r = api.roll("ten_again", {"pool": 3}, dice=[10, 10, 2, 10, 8, 3])
    assert r["rerolls"] == [10, 3, 8] and r["successes"] == 4 and r["drawn"] == [10, 10, 2, 10, 8, 3]


def test_a_will_after_the_roll_asks_for_its_dice_then_its_10s():
    """A Will after the roll asks for its three dice, then for its new 10s; its `drawn` holds only those."""
    r = api.roll("ten_again", {"pool": 2}, dice=[3, 4])
    will = {"spend_will": True}
    assert api.dice_needed_act("ten_again", r, will, []) == {"dice": 3, "sides": 10, "for": "the Will dice"}
    assert api.dice_needed_act("ten_again", r, will, [10, 9, 10]) == {
        "dice": 2,
        "sides": 10,
        "for": "the 10s roll again",
    }
    after = api.act("ten_again", r, will, dice=[10, 9, 10, 1, 10, 6])
    assert after["drawn"] == [10, 9, 10, 1, 10, 6] and after["rerolls"] == [1, 10, 6]
    with pytest.raises(RulesError, match=r"^'dice' needs 1 more d10: the 10s roll again$"):
        api.act("ten_again", r, will, dice=[10, 9, 10, 1, 10])


def test_an_ability_test_asks_for_the_narrators_scheme_die_first():
    """With a Scheme die the Narrator's die is asked for first, then the difficulty dice; a reroll asks for the
    picked dice."""
    request_ = {"type1": 2, "type2": 2, "skill": 2, "difficulty": 2, "masteries": 2, "scheme_die": True}
    assert api.dice_needed("ability_test", request_, []) == {"dice": 1, "sides": 6, "for": "the Narrator's Scheme die"}
    assert api.dice_needed("ability_test", request_, [3]) == {"dice": 2, "sides": 6, "for": "the difficulty dice"}
    r = api.roll("ability_test", request_, dice=[3, 6, 5])
    assert (r["scheme_roll"], r["dice"]) == (3, [6, 5])
    asks = api.dice_needed_act("ability_test", r, {"reroll": [1, 0]}, [])
    assert asks == {"dice": 2, "sides": 6, "for": "the dice rerolled with Masteries"}
    assert api.act("ability_test", r, {"reroll": [1, 0]}, dice=[1, 2])["dice"] == [1, 2]
    assert api.dice_needed_act("ability_test", r, {"exert": 1}, []) == DONE


@pytest.mark.parametrize(
    "system, request_, faces, own",
    [
        ("ten_again", {"pool": 2, "opposed": {"pool": 2}}, [3, 10, 4, 5, 6], [3, 10, 4]),
        ("ability_test", {"type1": 2, "type2": 2, "difficulty": 2, "scheme_die": True}, [3, 6, 5], [6, 5]),
        ("arbitration", {"skills": [2], "opposed": {"skills": [1]}}, None, None),
        ("two_dice", {"trait": 2, "opposed": {"trait": 1}}, [1, 2, 3, 4], [1, 2]),
        ("luck", {"dice": 2}, [3, 4], [3, 4]),
    ],
)
def test_drawn_own_leaves_out_the_other_side_and_the_narrators_die(system, request_, faces, own):
    """A roll's "drawn_own" is the roller's own faces among "drawn": not a contest's other side's (the target's pool
    and its 10s, the defender's dicepool), not the Narrator's Scheme die; the same whoever's dice (app or table)."""
    if faces is None:  # the arbitration defender's dice follow the aggressor's: take a seeded roll's
        rolled = api.roll(system, request_, seed=3)
        faces = rolled["drawn"]
        own = rolled["dice"]  # the aggressor's; the defender's are rolled["defender"]["dice"]
    r = api.roll(system, request_, dice=faces)
    assert r["drawn"] == faces and r["drawn_own"] == own
    assert api.roll(system, request_, seed=5)["drawn_own"] is not None


def test_a_targets_will_is_not_the_rollers_own():
    r = api.roll("ten_again", {"pool": 1, "opposed": {"pool": 1}}, dice=[3, 4])
    action = next(c["action"] for c in r["choices"] if c.get("side") == "target")
    after = api.act("ten_again", r, action, dice=[5, 6, 7])
    assert after["drawn"] == [5, 6, 7] and after["drawn_own"] == []


@pytest.mark.parametrize(
    "system, request_, faces, action",
    [
        ("ability_test", {"type1": 1, "type2": 1, "difficulty": 2}, [6, 6], {"exert": 1}),
        ("ability_test", {"type1": 1, "type2": 1, "difficulty": 2}, [6, 6], {"negate_setback": True}),
        ("threat", {"rating": 2, "threats": [{"name": "A"}, {"name": "B"}]}, [2, 5, 6], {"assign": [[2], [0, 1]]}),
        ("threat", {"rating": 1, "threats": [{"name": "Dodge"}]}, [5], {"pay_the_price": 7}),
    ],
)
def test_a_follow_up_that_rolls_nothing_draws_nothing(system, request_, faces, action):
    """Exertion, negating a setback, a reassignment and Pay the Price draw [] and need no face."""
    r = api.roll(system, request_, dice=faces)
    assert api.dice_needed_act(system, r, action, []) == DONE
    assert api.act(system, r, action, seed=1)["drawn"] == [] and api.act(system, r, action, dice=[]) == api.act(
        system, r, action, seed=2
    )


def test_drawn_is_the_faces_in_draw_order():
    """An app roll's `drawn` is every face it drew, in draw order: a contest the actor's then the target's."""
    r = api.roll("two_dice", {"opposed": {}}, seed=4)
    assert r["drawn"] == r["dice"] + r["target"]["dice"]
    r = api.roll("arbitration", {"skills": [1], "complexity": "tricky", "opposed": {"skills": [3]}}, seed=4)
    assert r["drawn"] == []
    r = api.roll("ability_test", {"type1": 2, "type2": 2, "difficulty": 3, "scheme_die": True}, seed=4)
    assert r["drawn"] == [r["scheme_roll"], *r["dice"]]


# --- refusals ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "system, request_, faces, words",
    [
        ("ten_again", {"pool": 3}, [10, 10, 2], r"^'dice' needs 2 more d10: the 10s roll again$"),
        ("ten_again", {"pool": 3}, [4], r"^'dice' needs 2 more d10: the pool$"),
        ("ten_again", {"pool": 1, "opposed": {"pool": 2}}, [4, 7], r"^'dice' needs 1 more d10: the target's pool$"),
        (
            "arbitration",
            {"skills": [2], "opposed": {"skills": [2]}},
            [3, 3],
            r"needs 2 more d6: the defender's dicepool",
        ),
        (
            "ability_test",
            {"type1": 1, "type2": 1, "scheme_die": True},
            [],
            r"needs 1 more d6: the Narrator's Scheme die",
        ),
        ("two_dice", {}, [], r"^'dice' needs 2 more d6: the two dice$"),
        ("luck", {"dice": 2}, [6], r"^'dice' needs 1 more d6: the Luck Roll's pool$"),
        ("threat", {"rating": 2, "threats": [{"name": "A"}]}, [], r"needs 2 more d6: the Threat Roll's pool"),
        ("two_dice", {}, [3, 4, 5], r"^'dice' has 1 face too many \(5\): this roll draws 2$"),
        ("ten_again", {"pool": 0}, [1, 2], r"^'dice' has 2 faces too many \(1 2\): this roll draws 0$"),
        ("two_dice", {}, [3, 7], r"^'dice' face 7 is not on a d6 \(the 2nd face, for the two dice\)$"),
        ("luck", {"dice": 2}, [0, 1], r"^'dice' face 0 is not on a d6"),
        ("ten_again", {"pool": 2}, [3, 11], r"^'dice' face 11 is not on a d10"),
        ("ten_again", {"pool": 2}, [10, 3, 0], r"face 0 is not on a d10 \(the 3rd face, for the 10s roll again\)"),
        ("luck", {"dice": 2}, [3, True], r"^'dice' must hold whole numbers: the 2nd face is True$"),
        ("luck", {"dice": 2}, [3.0, 2], r"must hold whole numbers: the 1st face is 3.0"),
        ("luck", {"dice": 2}, ["3", 2], r"must hold whole numbers: the 1st face is '3'"),
        ("luck", {"dice": 2}, "3 2", r"^'dice' must be a list of faces"),
        ("luck", {"dice": 2}, {"faces": [3, 2]}, r"^'dice' must be a list of faces"),
        ("luck", {"dice": 2}, [1] * 1001, r"at most 1000 faces"),
    ],
)
def test_wrong_faces_are_refused_in_a_players_words(system, request_, faces, words):
    """Too few faces say how many more, of which die and why; too many, or a face the die does not have, or not a
    whole number, are refused naming it; dice_needed refuses all but too few, which it answers."""
    with pytest.raises(RulesError, match=words) as refused:
        api.roll(system, request_, dice=faces)
    assert refused.value.path == "dice"
    if "needs" in words:
        needed = api.dice_needed(system, request_, faces)
        assert f"'dice' needs {needed['dice']} more d{needed['sides']}: {needed['for']}" == str(refused.value)
    else:
        with pytest.raises(RulesError, match=words):
            api.dice_needed(system, request_, faces)


def test_a_follow_up_refuses_wrong_faces():
    """A follow-up takes exactly its own faces: none left over, none missing, none off the die."""
    r = api.roll("ten_again", {"pool": 2, "opposed": {"pool": 2}}, dice=[3, 4, 5, 6])
    target = {"spend_will": True, "side": "target"}
    with pytest.raises(RulesError, match=r"^'dice' needs 1 more d10: the target's Will dice$"):
        api.act("ten_again", r, target, dice=[3, 4])
    with pytest.raises(RulesError, match=r"^'dice' has 1 face too many \(9\): this follow-up draws 3$"):
        api.act("ten_again", r, target, dice=[3, 4, 5, 9])
    with pytest.raises(RulesError, match="face 12 is not on a d10"):
        api.dice_needed_act("ten_again", r, target, [12])
    a = api.roll("ability_test", {"type1": 1, "type2": 1, "difficulty": 2}, dice=[6, 6])
    with pytest.raises(RulesError, match=r"has 1 face too many \(2\): this follow-up draws 0"):
        api.act("ability_test", a, {"exert": 1}, dice=[2])


@pytest.mark.parametrize("door", ["roll", "act"])
def test_a_seed_and_the_tables_faces_together_are_refused(door):
    """`seed` draws the app's dice and `dice` are the table's: both at once is refused."""
    r = api.roll("luck", {"dice": 1}, dice=[4])
    with pytest.raises(RulesError, match="'dice' cannot come with a 'seed'"):
        if door == "roll":
            api.roll("luck", {"dice": 1}, seed=3, dice=[4])
        else:
            api.act("ten_again", api.roll("ten_again", {"pool": 1}, dice=[2]), {"spend_will": True}, 3, [1, 2, 3])
    assert r["drawn"] == [4]


def test_a_roll_from_the_tables_faces_goes_back_into_act_and_odds():
    """The answer to dice= is a roll like any other: act, odds_after and luck take it, its `drawn` and all."""
    r = api.roll("ten_again", {"pool": 3, "risky": True}, dice=[1, 10, 8])
    assert api.luck("ten_again", r)["outcome"] == "success"
    assert api.odds_after("ten_again", r, {"spend_will": True})["outcomes"]["success"] < 1
    after = api.act("ten_again", r, {"spend_will": True}, dice=[2, 3, 4])
    assert after["drawn"] == [2, 3, 4] and after["dice"] == [1, 10, 8]


# --- the page's door -------------------------------------------------


def test_call_json_takes_the_tables_faces_and_says_what_is_needed():
    """Through the page's door: roll with dice (the seed null), dice_needed and dice_needed_act, and a refusal as a
    value naming "dice"."""
    r = json.loads(api.call_json("roll", json.dumps(["luck", {"dice": 2}, None, [3, 5]])))["value"]
    assert (r["dice"], r["drawn"]) == ([3, 5], [3, 5])
    needed = json.loads(api.call_json("dice_needed", json.dumps(["luck", {"dice": 2}, [3]])))["value"]
    assert needed == {"dice": 1, "sides": 6, "for": "the Luck Roll's pool"}
    act = json.loads(api.call_json("dice_needed_act", json.dumps(["luck", r, {"x": 1}, []])))
    assert act["ok"] is False and "no follow-up choices" in act["error"]
    refused = json.loads(api.call_json("roll", json.dumps(["luck", {"dice": 2}, None, [3]])))
    assert (refused["ok"], refused["path"], refused["says"]) == (False, "dice", "needs 1 more d6: the Luck Roll's pool")


def test_a_roll_passed_in_is_never_changed():
    """act with the table's faces leaves the roll it is given as it was."""
    r = api.roll("ability_test", {"type1": 2, "type2": 2, "difficulty": 3, "masteries": 1, "skill": 1}, dice=[4, 5, 6])
    before = copy.deepcopy(r)
    api.act("ability_test", r, {"reroll": [2]}, dice=[1])
    assert r == before
