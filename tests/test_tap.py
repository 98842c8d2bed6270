"""A tap at the table in one answer (arbiter.tap, api.turn and api.check): the costs paid from the table's states, the
roll, what follows, its luck, and the checks of what comes next; nothing rolled or changed when the table cannot pay."""

import copy
import re
import json

import pytest

from arbiter import RulesError, api

ROOK = {
    "name": "Rook",
    "kind": "ten_again",
    "sheet": {"attributes": [], "skills": [], "resolve": 2, "composure": 2, "will": 1},
}
ATTRIBUTES = ("Mental", "Physical", "Social", "Weird", "Control", "Endurance", "Power", "Presence")
MIRA = {
    "name": "Mira",
    "kind": "ability_test",
    "sheet": {
        "attributes": {a: 2 for a in ATTRIBUTES},
        "skills": [],
        "items": [],
        "convictions": [],
        "exertion": 3,
        "xp": 0,
        "moved_this_session": False,
    },
}
ANN = {
    "name": "Ann",
    "kind": "threat",
    "sheet": {
        "ratings": {r: 1 for r in ("Charm", "Command", "Finesse", "Muscle", "Rig", "Scout", "Scramble", "Shadow")},
        "counters": {"renown": 0, "aether": 0, "insight": 1, "gear": 0, "harm": 0},
    },
}


def table(character=None, scheme=None):
    return {"character": copy.deepcopy(character), "scheme": scheme}


def test_a_roll_as_nobody_is_the_engines_roll_with_its_luck():
    """As nobody, a tap answers the roll api.roll makes with the same seed, its luck entry, and changes nothing."""
    answer = api.turn("ten_again", {"request": {"pool": 4}, "seed": 7}, table())
    assert answer["roll"] == api.roll("ten_again", {"pool": 4}, seed=7)
    assert answer["luck_entry"] == api.luck_entry("ten_again", answer["roll"])
    assert (answer["refused"], answer["character"], answer["scheme"], answer["notes"], answer["paid"]) == (
        None,
        None,
        None,
        [],
        [],
    )
    assert json.loads(json.dumps(answer)) == answer


def test_a_will_is_taken_from_the_one_rolling_once():
    """ten_again-13: a roll with a Will ticked, as a character, takes one Will from their sheet in the same answer,
    says so for the log, and checks what comes next on the new sheet: the next such roll is refused ahead."""
    sent = table(ROOK)
    answer = api.turn("ten_again", {"request": {"pool": 3, "will": True}, "seed": 1}, sent)
    assert answer["character"] == {**ROOK["sheet"], "will": 0}
    assert sent["character"] == ROOK  # what was sent is never changed
    assert answer["notes"] == ["Spent 1 Will (0/4 left)"]
    assert [p["op"] for p in answer["paid"]] == ["spend_will"]
    assert answer["next"]["request"]["will"] is False  # spent for that roll only: the form unticks it
    assert answer["next"]["odds"] == api.odds("ten_again", answer["next"]["request"])
    assert answer["checks"]["ahead"] is None  # the form as the roll leaves it asks no Will
    rook = {**ROOK, "sheet": answer["character"]}
    assert api.check("ten_again", {"pool": 3, "will": True}, None, table(rook))["ahead"]["words"] == (
        "Rook has no Will left"
    )
    assert answer["roll"]["will_spent"] is True and len(answer["roll"]["will_dice"]) == 3


def test_a_tap_the_table_cannot_pay_rolls_nothing():
    """ten_again-13: with no Will left, a roll expending one is refused in a player's words; nothing is rolled or
    changed, no note or luck."""
    rook = {**ROOK, "sheet": {**ROOK["sheet"], "will": 0}}
    answer = api.turn("ten_again", {"request": {"pool": 3, "will": True}}, table(rook))
    assert answer["refused"]["words"] == "Rook has no Will left"
    assert (answer["roll"], answer["character"], answer["notes"], answer["luck_entry"], answer["paid"]) == (
        None,
        None,
        [],
        None,
        [],
    )


def test_a_follow_up_is_paid_in_the_same_answer():
    """ten_again-6, ten_again-13: expending a Will after the roll takes it from the sheet with the follow-up; its
    choice is then refused by the checks (none offered: one Will per action)."""
    first = api.turn("ten_again", {"request": {"pool": 2}, "seed": 3}, table(ROOK))
    assert first["checks"]["choices"] == [None]  # Rook can pay the Will the roll offers
    after = api.turn("ten_again", {"roll": first["roll"], "action": {"spend_will": True}, "seed": 4}, table(ROOK))
    assert after["roll"] == api.act("ten_again", first["roll"], {"spend_will": True}, seed=4)
    assert after["character"]["will"] == 0 and after["luck_entry"] is None
    rook = {**ROOK, "sheet": {**ROOK["sheet"], "will": 0}}
    assert (
        api.check("ten_again", {"pool": 2}, first["roll"], table(rook))["choices"][0]["words"]
        == "Rook has no Will left"
    )


def test_a_scheme_die_leaves_the_scheme_only_while_this_device_tracks_it():
    """ability_test-7 at the table: a Test with a Scheme die takes one from the tracked Scheme, in the same answer;
    from an empty Scheme it is refused ("The Scheme has no die left"); a Scheme kept elsewhere is neither checked nor
    changed."""
    request = {"type1": 3, "type2": 3, "scheme_die": True}
    answer = api.turn("ability_test", {"request": request, "seed": 2}, table(scheme={"scheme": 2, "tracked": True}))
    assert answer["scheme"]["scheme"] in (1, 2)  # one taken; one back if the Test earns a die (a success with a 1)
    assert answer["paid"][0]["op"] == "scheme_spend_die"
    empty = api.turn("ability_test", {"request": request}, table(scheme={"scheme": 0, "tracked": True}))
    assert empty["refused"]["words"] == "The Scheme has no die left" and empty["roll"] is None
    elsewhere = api.turn("ability_test", {"request": request, "seed": 2}, table(scheme={"scheme": 0, "tracked": False}))
    assert elsewhere["roll"] is not None and elsewhere["scheme"] is None


def test_an_empty_scheme_never_set_on_this_phone_says_where_it_lives_and_the_ways_out():
    """Issue 30: a Scheme this device never set (`set` false: a player's phone that never got the Host's table) says,
    when empty, that it lives on the Host's phone, and the two ways out; one emptied here says only that it is empty;
    a roll that changes it sets it. A Host adding a shared roll is told to set it on the Table."""
    request = {"type1": 1, "type2": 1, "difficulty": 4, "scheme_die": True}
    never = api.turn("ability_test", {"request": request}, table(scheme={"scheme": 0, "tracked": True, "set": False}))
    words = never["refused"]["words"]
    assert words.startswith("The Scheme has no die left: it was never set on this phone")
    assert "the Host's phone" in words and "get the Host's table" in words and "set the Scheme here" in words
    emptied = api.turn("ability_test", {"request": request}, table(scheme={"scheme": 0, "tracked": True, "set": True}))
    assert emptied["refused"]["words"] == "The Scheme has no die left"
    paid = api.turn("ability_test", {"request": request}, table(scheme={"scheme": 2, "tracked": True, "set": False}))
    assert paid["scheme"]["set"] is True
    link = api.share_link("ability_test", request, [{"drawn": paid["roll"]["drawn"]}], "Ann", 1_790_000_000)
    host = api.add_shared(link["fragment"], table(scheme={"scheme": 0, "tracked": True, "set": False}), None, [])
    assert host["refused"]["words"].endswith("Set the Scheme on the Table first, then add the roll.")


def test_what_follows_a_test_is_kept_and_earned_once():
    """ability_test-8 at the table: a success with a 1 adds a die to the Scheme in the same answer, and says the roll
    earned it, so a follow-up that keeps the success adds none again."""
    for seed in range(400):
        answer = api.turn(
            "ability_test",
            {"request": {"type1": 5, "type2": 5, "skill": 10, "difficulty": 1}, "seed": seed},
            table(scheme={"scheme": 0, "tracked": True}),
        )
        if answer["roll"]["scheme_gain"]:
            break
    assert answer["scheme"] == {"scheme": 1, "tracked": True} and answer["earned"] is True
    assert [p["op"] for p in answer["paid"]] == ["scheme_add"]


def test_exertion_and_convictions_are_paid_and_the_sheet_fills_again():
    """ability_test-13, ability_test-25: a Conviction activated from the sheet costs one Exertion and is declared for
    the Scene in the same answer, and the answer brings the request the sheet fills now (declared: no Exertion)."""
    mira = copy.deepcopy(MIRA)
    mira["sheet"]["convictions"] = [{"id": "c1", "text": "Never again", "significance": 2}]
    choices = {"type1": "Mental", "type2": "Control", "skill": "", "masteries": True, "item": "", "convictions": ["c1"]}
    request = api.request_from_sheet("ability_test", mira["sheet"], choices)
    answer = api.turn("ability_test", {"request": request, "choices": choices, "seed": 5}, table(mira))
    assert answer["character"]["exertion"] == 2 and answer["character"]["scene_convictions"] == ["c1"]
    assert answer["refill"] == {**request, "convictions_declared": 1}


def test_convictions_declared_without_naming_them_are_refused_for_a_character_and_free_for_nobody():
    """ability_test-13, ability_test-20: "a character may spend one Exertion to declare one of their Convictions": a
    roll as a character whose request holds only Significances (no `choices` naming the sheet's Convictions) is
    refused, asking to pick them on the sheet, and nothing is rolled or paid; as nobody there is no sheet to pay from,
    so it is rolled free."""
    request = {"type1": 3, "type2": 3, "difficulty": 2, "convictions": [3], "convictions_declared": 0}
    refused = api.turn("ability_test", {"request": request, "seed": 1}, table(MIRA))
    assert refused["roll"] is None and refused["character"] is None
    assert refused["refused"]["words"].startswith("Mira: pick the Convictions to declare on the sheet")
    free = api.turn("ability_test", {"request": request, "seed": 1}, table())
    assert free["refused"] is None and free["roll"]["ability"] == 3 + 3 + 3 and free["character"] is None


def test_each_price_the_sheet_cannot_pay_is_checked_on_its_own():
    """threat-15 at the table: the checks of a roll offering Pay the Price say, option by option, what the one
    rolling cannot pay ("Ann has no Gear left"), and nothing for the narrative options."""
    for seed in range(100):
        rolled = api.roll("threat", {"rating": 1}, seed=seed)
        if rolled["choices"]:
            break
    (prices,) = api.check("threat", {"rating": 1}, rolled, table(ANN))["choices"]
    assert [p and p["words"] for p in prices] == [None, None, None, "Ann has no Gear left", None, None, None, None]
    assert api.check("threat", {"rating": 1}, rolled, table())["choices"] == [[None] * 8]


@pytest.mark.parametrize(
    "step, tables, words",
    [
        ({"pool": 3}, None, "'step' must be"),
        ({"request": {"pool": 3}, "extra": 1}, None, "'step' must be"),
        ({"request": {"pool": 3}}, {"character": "Rook"}, "'table.character' must be"),
        ({"request": {"pool": 3}}, {"who": None}, "'table' must be an object with character and scheme"),
        (
            {"request": {"pool": 3, "will": True}},
            {"character": {**ROOK, "kind": "elf"}, "scheme": None},
            "'table.character.kind' must be one of",
        ),
    ],
)
def test_bad_taps_are_refused_naming_the_field(step, tables, words):
    """A step or a table the page should never send is refused, naming the field; nothing is rolled."""
    with pytest.raises(RulesError, match=words):
        api.turn("ten_again", step, tables)


def test_the_form_as_a_roll_leaves_it_comes_with_its_odds():
    """After a roll the answer brings the form as it stands next (what is spent for one roll only unticked: a Will on
    either side, a Scheme die; the rest as it was) and its odds; a follow-up leaves the form alone (no "next")."""
    contest = {"pool": 3, "will": True, "risky": True, "opposed": {"pool": 2, "will": True}}
    answer = api.turn("ten_again", {"request": contest, "seed": 3}, table())
    after = answer["next"]["request"]
    assert (after["will"], after["risky"], after["opposed"]["will"], after["opposed"]["pool"]) == (
        False,
        True,
        False,
        2,
    )
    assert answer["next"]["odds"] == api.odds("ten_again", after)
    scheme = api.turn("ability_test", {"request": {"type1": 3, "scheme_die": True}, "seed": 1}, table())
    assert scheme["next"]["request"]["scheme_die"] is False
    for choice in answer["roll"]["choices"]:
        follow = api.turn("ten_again", {"roll": answer["roll"], "action": choice["action"], "seed": 2}, table())
        assert follow["next"] is None


def test_check_says_what_a_roll_will_spend():
    """Issue 20: Roll says what the tap will take ("Roll · 1 Will (2 left)"): api.check's "spends" names each count a
    roll of the request lowers, with what is left; nothing when it takes nothing, is refused, or nobody rolls."""
    rook = {**ROOK, "sheet": {**ROOK["sheet"], "will": 3}}
    assert api.check("ten_again", {"pool": 3, "will": True}, None, table(rook))["spends"] == "1 Will (2 left)"
    assert api.check("ten_again", {"pool": 3}, None, table(rook))["spends"] is None
    assert api.check("ten_again", {"pool": 3, "will": True}, None, table())["spends"] is None
    assert (
        api.check("ten_again", {"pool": 3, "will": True}, None, table(ROOK | {"sheet": {**ROOK["sheet"], "will": 0}}))[
            "spends"
        ]
        is None
    )  # refused ahead: said by Roll as the refusal instead
    scheme = {"scheme": 4, "tracked": True}
    request = {**api.roll("ability_test", {}, seed=1)["request"], "scheme_die": True}
    assert api.check("ability_test", request, None, table(MIRA, scheme))["spends"] == "1 Scheme die (3 left)"
    assert api.check("ability_test", request, None, table(MIRA, {**scheme, "tracked": False}))["spends"] is None


SNAKE = r"\b[a-z]+_[a-z_]+\b"


def _first_roll_offering(system, request, name, seeds=range(200)):
    """The first roll (by seed) of `request` that offers the choice `name`, with that choice."""
    for seed in seeds:
        rolled = api.roll(system, request, seed=seed)
        for choice in rolled["choices"]:
            if choice["name"] == name:
                return rolled, choice
    raise AssertionError(f"no seed offers {name}")


@pytest.mark.parametrize(
    "system, request_, name, action, words",
    [
        ("ability_test", {"type1": 1, "type2": 1, "difficulty": 4}, "negate_setback", {"negate_setback": True}, None),
        (
            "ability_test",
            {"type1": 3, "type2": 3, "skill": 1, "difficulty": 3, "masteries": 2},
            "reroll",
            {"reroll": [0, 1]},
            None,
        ),
        ("ability_test", {"type1": 3, "type2": 2, "difficulty": 2}, "exert", None, None),
        ("ten_again", {"pool": 4}, "spend_will", {"spend_will": True}, "Expended a Will: +3 dice ("),
        (
            "threat",
            {"rating": 2, "threats": [{"name": "Fall"}, {"name": "Foe"}]},
            "assign",
            {"assign": [[0], [1, 2]]},
            None,
        ),
    ],
)
def test_a_follow_up_says_what_it_did_in_a_players_words(system, request_, name, action, words):
    """A follow-up's answer says what it did for the log ("did"), in a player's words: no snake_case name, no JSON."""
    rolled, choice = _first_roll_offering(system, request_, name)
    action = action or choice["action"]
    answer = api.turn(system, {"roll": rolled, "action": action, "seed": 5}, table())
    did = answer["did"]
    assert did and not re.search(SNAKE, did) and "{" not in did and "[" not in did, did
    if words:
        assert did.startswith(words), did
    first = api.turn(system, {"request": request_, "seed": 5}, table())
    assert first["did"] is None  # a roll did no follow-up


def test_the_setback_negated_says_its_price():
    """ability_test-10's negation in the log: "Negated the setback with two Scheme dice"."""
    rolled, _ = _first_roll_offering("ability_test", {"type1": 1, "type2": 1, "difficulty": 4}, "negate_setback")
    answer = api.turn("ability_test", {"roll": rolled, "action": {"negate_setback": True}}, table())
    assert answer["did"] == "Negated the setback with two Scheme dice"


def test_a_follow_up_without_words_of_its_own_is_said_by_its_label():
    """A procedure that gives no `did` is said by the label its ACTIONS declare for the action."""
    from arbiter import procedures

    class Bare:
        ACTIONS = [{"name": "flip", "label": "Flip again"}]

    did = procedures.OPTIONAL["did"](Bare)  # the adapter's default
    assert did({}, {"flip": True}, {}) == "Flip again"
    assert did({}, {"what": 1}, {}) == "A follow-up"


def test_a_turn_takes_the_tables_faces():
    """api.turn rolls and follows up from the table's faces as roll and act do; too few refuse the turn whole."""
    table = {"character": None, "scheme": None}
    turned = api.turn("ten_again", {"request": {"pool": 2}, "dice": [10, 4, 9]}, table)
    assert turned["roll"] == api.roll("ten_again", {"pool": 2}, dice=[10, 4, 9])
    after = api.turn("ten_again", {"roll": turned["roll"], "action": {"spend_will": True}, "dice": [1, 2, 3]}, table)
    assert after["roll"]["drawn"] == [1, 2, 3]
    with pytest.raises(RulesError, match="needs 1 more d10"):
        api.turn("ten_again", {"request": {"pool": 2}, "dice": [10, 4]}, table)


def _counting_costs(monkeypatch, system):
    """The procedure's cost function wrapped, in this test only, to count each cost it computes (by what it is
    asked: the request, the action and the sheet's choices)."""
    from arbiter.procedures import PROCEDURES

    m = PROCEDURES[system]
    asked: list[str] = []
    real = m.costs

    def counted(request, action, choices=None):
        asked.append(json.dumps([request, action, choices], sort_keys=True))
        return real(request, action, choices)

    monkeypatch.setattr(m, "costs", counted)
    return asked


@pytest.mark.parametrize(
    "system, request_, who",
    [
        ("ability_test", {"type1": 3, "type2": 3, "scheme_die": True}, MIRA),
        ("ten_again", {"pool": 3}, ROOK),
    ],
)
def test_a_tap_computes_each_cost_once(monkeypatch, system, request_, who):
    """A tap (a roll, then a follow-up) pays its cost, checks the next roll and each choice and says what it spends,
    computing each of those costs once: the procedure's cost function is asked nothing twice in one tap."""
    asked = _counting_costs(monkeypatch, system)
    scheme = {"scheme": 3, "tracked": True}
    first = api.turn(system, {"request": request_, "seed": 3}, table(who, scheme))
    assert first["refused"] is None and asked
    assert len(asked) == len(set(asked)), asked
    assert asked.count(json.dumps([first["roll"]["request"], None, None], sort_keys=True)) == 1
    action = next(c["action"] for c in first["roll"]["choices"] if "action" in c)
    asked.clear()
    api.turn(system, {"roll": first["roll"], "action": action, "seed": 3}, table(who, scheme))
    assert asked and len(asked) == len(set(asked)), asked
