"""Tests for arbiter.threat.price (seed 002): Pay the Price's options in the seed's words, the Situation's marks and
who made them, and a Price shared by link checked against the receiving table's marks."""

import pytest

from arbiter import RulesError, api, threat
from scripted import ScriptedDice
from threat_helpers import ANN, BO, SEED_LINES, dodge


# --- Pay the Price ---------------------------------------------------------------------------------


def test_pay_the_price_options_are_the_seed_words_threat_10():
    """threat-10: the eight options and the rule are copied word for word from the seed."""
    assert len(threat.PAY_THE_PRICE) == 8
    start = SEED_LINES.index("Pay the Price")
    listed = [line[2:] for line in SEED_LINES[start:] if line.startswith("- ")]
    assert listed == list(threat.PAY_THE_PRICE)
    assert threat.PAY_THE_PRICE_RULE == SEED_LINES[start + 1]
    assert threat.EXTRAS["pay_the_price"] == listed


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


# --- one Price per narrow escape (threat-14), marks that arrive all marked (threat-10), the Price on the sheet -------


def test_marks_that_arrive_all_marked_count_as_unmarked_threat_10():
    """threat-10: "If all options are marked, unmark all of them": marks arriving with all eight marked (an import,
    an older table) allow any pick, and afterwards only the new pick is marked."""
    every = [{"option": o, "by": BO} for o in range(8)]
    assert threat.pay_the_price(every, 4, ANN) == {4: ANN}
    assert threat.pay_the_price(list(range(8)), 0, None) == {0: None}
    paid = threat.act(dodge(4), {"pay_the_price": 2, "by": ANN, "marked": every}, ScriptedDice())
    assert paid["pay_the_price"]["marked"] == [{"option": 2, "by": ANN}]


# --- a Price shared by link, read against this table's marks (threat-18) -------------------------------------------


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
