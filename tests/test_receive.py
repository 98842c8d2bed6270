"""A shared roll taken into this table (receive.py, api.add_shared): each step not yet in the log paid from this
table's Scheme (and its character, when the Host picks one), checked against this table's marks, all or nothing; a
step already added is never paid or logged twice."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from strategies import request

from arbiter import ability_test as at
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


# --- the Scheme die a Test earns, chained by Python from step to step (issue 28) ------------------------------------

FIRST = ({"type1": 5, "type2": 5, "skill": 5, "difficulty": 2, "masteries": 2}, [1, 2], {"reroll": [1]}, [3], 1)
SECOND = (
    {"type1": 3, "type2": 3, "skill": 4, "difficulty": 3, "masteries": 2},
    [1, 2, 3],
    {"reroll": [1, 2]},
    [6, 6],
    0,
)


def two_links(request: dict, faces: list, action: dict, more: list) -> tuple[dict, dict]:
    """The roll's first link, and the longer one after its follow-up."""
    rolled = api.roll("ability_test", request, dice=faces)
    after = api.act("ability_test", rolled, action, dice=more)
    short = link_of("ability_test", request, {"drawn": rolled["drawn"]})
    whole = link_of("ability_test", request, {"drawn": rolled["drawn"]}, {"action": action, "drawn": after["drawn"]})
    return short, whole


def in_two_parts(short: dict, whole: dict, start: dict) -> dict:
    """The Scheme after the first link is added, then the longer one: only its unseen steps."""
    first = api.add_shared(short["fragment"], start, None, [])
    now = {"character": None, "scheme": first["scheme"] or start["scheme"]}
    second = api.add_shared(whole["fragment"], now, None, [e["step"] for e in first["entries"]])
    assert first["refused"] is None and second["refused"] is None
    return second["scheme"] or now["scheme"]


@pytest.mark.parametrize("request_, faces, action, more, scheme_after", [FIRST, SECOND])
def test_a_shared_test_pays_its_scheme_die_once_as_the_taps_do(request_, faces, action, more, scheme_after):
    """ability_test-8, one die per Test: a success with a 1 adds a die, a reroll that keeps the 1 adds none again, and
    a reroll that turns it into a failure takes it back; whole or in two parts, from a Scheme of 0, tracked."""
    short, whole = two_links(request_, faces, action, more)
    taken = api.add_shared(whole["fragment"], scheme(0), None, [])
    assert taken["refused"] is None and taken["scheme"] == {"scheme": scheme_after, "tracked": True}
    assert in_two_parts(short, whole, scheme(0)) == {"scheme": scheme_after, "tracked": True}


def _follow_up(data, roll: dict) -> dict | None:
    """One follow-up the roll offers, drawn: a reroll of some dice, Exertion, or negating the setback."""
    offered = [c for c in roll["choices"] if c["name"] in ("reroll", "exert", "negate_setback")]
    if not offered:
        return None
    choice = data.draw(st.sampled_from(offered))
    if choice["name"] == "reroll":
        picked = data.draw(st.sets(st.integers(0, len(roll["dice"]) - 1), min_size=1, max_size=choice["max"]))
        return {"reroll": sorted(picked)}
    if choice["name"] == "exert":
        return {"exert": data.draw(st.integers(1, 3))}
    return {"negate_setback": True}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    request_=request(at.FIELDS, small=True).map(
        lambda r: {**r, "convictions": [], "convictions_declared": 0, "masteries": r["masteries"] if r["skill"] else 0}
    ),
    start=st.integers(0, 4),
    seed=st.integers(0, 2**16),
    data=st.data(),
)
def test_a_shared_test_changes_the_scheme_as_the_same_taps(request_, start, seed, data):
    """Any Test with follow-ups (Scheme dice spent up front, earned, taken back, spent to negate a setback), tapped
    on one phone from a tracked Scheme, then shared: added whole, or in two parts, it leaves the Scheme as the taps
    did; and the taps leave one die per Test (ability_test-8): what was spent, plus one while it stands a success
    with a 1."""
    here = scheme(start)
    tapped = api.turn("ability_test", {"request": request_, "seed": seed}, here)
    assume(tapped["refused"] is None)
    now = tapped["scheme"] or here["scheme"]
    steps, spent = [{"drawn": tapped["roll"]["drawn"]}], int(request_["scheme_die"])
    roll = tapped["roll"]
    for k in range(data.draw(st.integers(1, 3))):
        action = _follow_up(data, roll)
        if action is None:
            break
        try:
            answer = api.turn("ability_test", {"roll": roll, "action": action, "seed": seed + k}, scheme(now["scheme"]))
        except RulesError:
            continue  # a follow-up the rules refuse here: the taps go on without it
        if answer["refused"] is not None:
            continue
        assert not any(n.startswith("Not done") for n in answer["notes"])
        roll, now = answer["roll"], answer["scheme"] or now
        spent += 2 * ("negate_setback" in action)
        steps.append({"action": action, "drawn": roll["drawn"]})
    assert now["scheme"] == start - spent + int(roll["scheme_gain"])
    whole = link_of("ability_test", request_, *steps)
    taken = api.add_shared(whole["fragment"], scheme(start), None, [])
    assert taken["refused"] is None and (taken["scheme"] or here["scheme"]) == now
    cut = data.draw(st.integers(1, len(steps)))
    first = link_of("ability_test", request_, *steps[:cut])
    assert in_two_parts(first, whole, scheme(start)) == now


# --- a Price shared by link, read against this table's marks (threat-18) --------------------------------------------

FAIL = {"rating": 1, "threats": [{"name": "Fail"}]}
BO_AND_CY = [{"option": 0, "by": "Cy"}, {"option": 3, "by": "Bo"}]


def price_link(action: dict, who: str = "Ann") -> dict:
    """A Threat roll of one 4 (narrowly avoided) whose Price is `action`, as a link carries it."""
    return link_of("threat", FAIL, {"drawn": [4]}, {"action": action, "drawn": []}, who=who)


@pytest.mark.parametrize(
    "action, words",
    [
        ({"pay_the_price": 3, "by": "Ann"}, "“Spend a point of Gear.” is marked by Bo"),  # no "marked": this table's
        ({"pay_the_price": 3, "by": "Bo", "marked": []}, "Ann's roll says the Price was picked by Bo"),
        ({"pay_the_price": 3}, "“Spend a point of Gear.” is marked by Bo"),  # no "by": read as Ann's
    ],
)
def test_a_forged_price_is_refused_and_leaves_this_tables_marks(action, words):
    """threat-18: whatever marks the link's action carries, this table's decide; a Price picked for another player
    than the link's roller is refused, and one without "by" is the roller's. Bo's and Cy's marks stay as they are."""
    taken = api.add_shared(price_link(action)["fragment"], None, BO_AND_CY, [])
    assert taken["refused"] is not None and words in taken["refused"]["words"]
    assert taken["entries"] == [] and taken["marked"] is None


def test_a_price_named_for_its_roller_or_made_as_nobody_marks_this_table():
    """threat-10, threat-18: a Price without "by" from Ann marks it as Ann's; a roll as nobody keeps its typed name."""
    ann = api.add_shared(price_link({"pay_the_price": 5})["fragment"], None, BO_AND_CY, [])
    assert ann["refused"] is None and ann["marked"] == [*BO_AND_CY, {"option": 5, "by": "Ann"}]
    typed = api.add_shared(price_link({"pay_the_price": 5, "by": "Di"}, who="")["fragment"], None, BO_AND_CY, [])
    assert typed["refused"] is None and typed["marked"] == [*BO_AND_CY, {"option": 5, "by": "Di"}]
    bo = api.add_shared(price_link({"pay_the_price": 0, "by": "Bo"}, who="")["fragment"], None, BO_AND_CY, [])
    assert "“Mark an Ideal.” is marked by Cy" in bo["refused"]["words"]


def test_a_price_marked_here_by_another_may_be_left_out_and_the_roll_added():
    """threat-18: a Price this table's marks refuse names the option by its words and who marked it, and the step it
    was; the Host may add the roll without it: its entry says "Price refused: pick again", nothing is marked."""
    link = price_link({"pay_the_price": 7, "by": "Ann"})
    sam = [{"option": 7, "by": "Sam"}]
    refused = api.add_shared(link["fragment"], None, sam, [])
    assert "“Take 1 Harm.” is marked by Sam" in refused["refused"]["words"]
    assert refused["refused"]["leave_out"] == link["id"]
    taken = api.add_shared(link["fragment"], None, sam, [], [link["id"]])
    assert taken["refused"] is None and taken["marked"] is None
    assert [(e["left_out"], e["did"]) for e in taken["entries"]] == [(False, None), (True, "Price refused: pick again")]
    assert taken["entries"][1]["roll"] == taken["entries"][0]["roll"]  # the Price left out changes nothing


def test_a_forged_price_cannot_be_left_out():
    """Forged links refuse the whole link, even when the Host would leave the step out."""
    link = price_link({"pay_the_price": 3, "by": "Bo"})
    taken = api.add_shared(link["fragment"], None, BO_AND_CY, [], [link["id"]])
    assert taken["refused"] is not None and taken["entries"] == []
