"""A shared roll taken into this table (receive.py, api.add_shared): each step not yet in the log paid from this
table's Scheme (and its character, when the Host picks one), checked against this table's marks, all or nothing; a
step already added is never paid or logged twice."""

from __future__ import annotations

import pytest

from arbiter import api
from arbiter.errors import RulesError

WHEN = 1_790_000_000
SCHEME_DIE = {"type1": 1, "type2": 1, "difficulty": 4, "scheme_die": True}
THREAT = {"rating": 2, "threats": [{"name": "Fail"}]}
ROOK = {
    "name": "Rook",
    "kind": "ten_again",
    "sheet": {"attributes": [], "skills": [], "resolve": 2, "composure": 2, "will": 1},
}


def scheme(n: int, tracked: bool = True) -> dict:
    return {"character": None, "scheme": {"scheme": n, "tracked": tracked}}


def link_of(system: str, request: dict, *steps: dict, who: str = "Ann") -> dict:
    return api.share_link(system, request, list(steps), who, WHEN)


def scheme_die_link() -> dict:
    rolled = api.roll("ability_test", SCHEME_DIE, seed=3)
    return link_of("ability_test", SCHEME_DIE, {"drawn": rolled["drawn"]})


def threat_paid(option: int = 2, by: str = "Ann"):
    """A Threat roll that may Pay the Price, and the same roll after `by` paid it with `option`: both links."""
    rolled = next(
        r
        for r in (api.roll("threat", THREAT, seed=s) for s in range(100))
        if any(c["name"] == "pay_the_price" for c in r["choices"])
    )
    action = {"pay_the_price": option, "by": by, "marked": []}
    after = api.act("threat", rolled, action, seed=1)
    short = link_of("threat", THREAT, {"drawn": rolled["drawn"]})
    whole = link_of("threat", THREAT, {"drawn": rolled["drawn"]}, {"action": action, "drawn": after["drawn"]})
    return short, whole


def test_a_scheme_die_is_taken_from_this_tables_scheme_once():
    """An Ability Test that used a Scheme die takes one die from this table's Scheme; the same roll, its step now
    seen in the log, takes nothing more and adds no entry."""
    link = scheme_die_link()
    taken = api.add_shared(link["fragment"], scheme(2), None, [])
    assert taken["refused"] is None and taken["scheme"] == {"scheme": 1, "tracked": True}
    assert [e["step"] for e in taken["entries"]] == [link["id"]]
    assert taken["entries"][0]["roll"] == api.shared_roll(link["fragment"])["roll"]
    again = api.add_shared(link["fragment"], scheme(1), None, [link["id"]])
    assert again["entries"] == [] and again["scheme"] is None and again["refused"] is None


def test_an_empty_scheme_refuses_the_roll_and_takes_nothing():
    """This table's Scheme is empty: the roll is refused in a player's words, with no entry and no state."""
    taken = api.add_shared(scheme_die_link()["fragment"], scheme(0), None, [])
    assert taken["refused"]["words"] == "The Scheme has no die left"
    assert taken["entries"] == [] and taken["scheme"] is None


def test_a_scheme_kept_elsewhere_is_not_counted():
    """This device does not track the Scheme: the roll is added and nothing is taken from its count."""
    taken = api.add_shared(scheme_die_link()["fragment"], scheme(0, tracked=False), None, [])
    assert taken["refused"] is None and taken["scheme"] is None and len(taken["entries"]) == 1


def test_an_option_another_player_marked_on_this_table_is_refused_naming_them():
    """This table's marks decide, not the sender's: Bo marked option 2 here, so Ann's Price with it is refused, with
    who marked it; nothing is added, not even the roll before it."""
    _, whole = threat_paid(2, "Ann")
    taken = api.add_shared(whole["fragment"], None, [{"option": 2, "by": "Bo"}], [])
    assert taken["refused"] is not None and "marked by Bo" in taken["refused"]["words"]
    assert taken["entries"] == [] and taken["marked"] is None


@pytest.mark.parametrize("here", [[], [{"option": 1, "by": "Bo"}], [{"option": 2, "by": "Ann"}]])
def test_a_price_paid_marks_this_tables_situation(here):
    """A Price paid marks this table's Situation, on top of its own marks (the same player may pick her option
    again); the follow-up's entry says what it did."""
    _, whole = threat_paid(2, "Ann")
    taken = api.add_shared(whole["fragment"], None, here, [])
    assert taken["refused"] is None
    expected = {m["option"]: m for m in [*here, {"option": 2, "by": "Ann"}]}
    assert taken["marked"] == [expected[o] for o in sorted(expected)]
    assert [e["action"] is None for e in taken["entries"]] == [True, False]
    assert "paid the Price" in taken["entries"][1]["did"]


def test_a_longer_link_of_the_same_roll_adds_only_its_new_steps():
    """The roll alone was added; a link of the same roll after its Price adds only the Price, and its id for the
    roll is the earlier link's."""
    short, whole = threat_paid()
    steps = api.shared_roll(whole["fragment"])["steps"]
    assert steps[0]["step"] == short["id"] and steps[-1]["step"] == whole["id"]
    taken = api.add_shared(whole["fragment"], None, [], [short["id"]])
    assert [e["step"] for e in taken["entries"]] == [whole["id"]]
    assert taken["entries"][0]["action"]["pay_the_price"] == 2


def test_a_characters_costs_only_when_the_host_picks_one():
    """A Will spent on the roll is taken from the character the Host picks on this device, and from nobody else."""
    request = {"pool": 2, "will": True}
    rolled = api.roll("ten_again", request, dice=[3, 4, 5, 6, 7])
    link = link_of("ten_again", request, {"drawn": rolled["drawn"]}, who="Rook")
    picked = api.add_shared(link["fragment"], {"character": ROOK, "scheme": None}, None, [])
    assert picked["character"]["will"] == ROOK["sheet"]["will"] - 1
    nobody = api.add_shared(link["fragment"], None, None, [])
    assert nobody["character"] is None and nobody["entries"][0]["notes"] == []


@pytest.mark.parametrize("seen", ["abc", [1, 2], {"a": 1}])
def test_seen_must_be_a_list_of_step_ids(seen):
    """What the log holds comes as a list of step ids; anything else is refused, naming the field."""
    with pytest.raises(RulesError, match="'seen'"):
        api.add_shared(scheme_die_link()["fragment"], None, None, seen)


def test_a_link_that_does_not_hold_together_is_refused_before_anything_is_taken():
    """A cut link is refused as when it is opened: nothing taken."""
    fragment = scheme_die_link()["fragment"]
    with pytest.raises(RulesError, match="cut or altered"):
        api.add_shared(fragment[:-6], scheme(2), None, [])
