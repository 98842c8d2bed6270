"""The payers a procedure declares (issue 31, "a protocol with its defaults"): what pays a roll's costs beside the
character rolling is each procedure's PAYERS (stored.Payer: its record, its holder's name, its refusal's words, what
Roll says it spends), gathered by records.PAYERS and read by tap.py and receive.py, which word none of their own; a
step of a shared roll added without its follow-up is logged in the procedure's LEFT_OUT words. Each read through the
adapter, with its default (none; "Left out on this table") for a procedure that declares nothing."""

from __future__ import annotations

import dataclasses

import pytest

from arbiter import api, procedures, records, stored
from arbiter.procedures import PROCEDURES

SCHEME = records.PAYERS["scheme"]
REQUEST = {"type1": 1, "type2": 1, "difficulty": 4, "scheme_die": True}


def table(scheme):
    return {"character": None, "scheme": scheme}


def test_the_scheme_is_ability_tests_payer_and_no_other_procedure_declares_one():
    """The Scheme pays because ability_test declares it among its PAYERS (one of its own RECORDS); every other
    procedure's PAYERS is the adapter's default, none, and only threat words a step left out of a shared roll."""
    assert list(records.PAYERS) == ["scheme"]
    assert PROCEDURES["ability_test"].PAYERS == (SCHEME,) and SCHEME.record in PROCEDURES["ability_test"].RECORDS
    assert {i for i, m in PROCEDURES.items() if m.PAYERS} == {"ability_test"}
    assert PROCEDURES["threat"].LEFT_OUT == "Price refused: pick again"
    assert {m.LEFT_OUT for i, m in PROCEDURES.items() if i != "threat"} == {procedures.OPTIONAL["LEFT_OUT"](None)}


@pytest.fixture
def renamed(monkeypatch):
    """The Scheme's payer declared in other words (its holder, unit, and never-set words): what tap.py and
    receive.py say must follow."""
    other = dataclasses.replace(
        SCHEME,
        holder="The Pool",
        unit=("pool die", "pool dice"),
        never_set=": never filled here.",
        never_set_host=": fill it on the Table first.",
    )
    monkeypatch.setitem(records.PAYERS, "scheme", other)
    return other


def test_a_refusal_and_what_roll_spends_are_in_the_declared_words(renamed):
    """The holder's name in a refusal, the words an empty count never set adds (and the Host's own), and what Roll
    says a roll spends all come from the payer's declaration, not from tap.py."""
    empty = api.turn("ability_test", {"request": REQUEST}, table({"scheme": 0, "tracked": True}))
    assert empty["refused"]["words"] == "The Pool has no die left"
    never = api.turn("ability_test", {"request": REQUEST}, table({"scheme": 0, "tracked": True, "set": False}))
    assert never["refused"]["words"] == "The Pool has no die left: never filled here."
    spends = api.check("ability_test", REQUEST, None, table({"scheme": 4, "tracked": True}))["spends"]
    assert spends == "1 pool die (3 left)"
    paid = api.turn("ability_test", {"request": REQUEST, "seed": 3}, table({"scheme": 2, "tracked": True}))
    link = api.share_link("ability_test", REQUEST, [{"drawn": paid["roll"]["drawn"]}], "Ann", 1_790_000_000)
    host = api.add_shared(link["fragment"], table({"scheme": 0, "tracked": True, "set": False}), None, [])
    assert host["refused"]["words"] == "The Pool has no die left: fill it on the Table first."


def test_the_table_a_tap_takes_holds_the_character_and_the_declared_payers(monkeypatch):
    """The table's keys are the character's and each declared payer's: another key is refused, naming them; without
    the Scheme's declaration a tap has no Scheme to pay from (a cost of it is refused as the character's)."""
    with pytest.raises(Exception, match="'table' must be an object with character and scheme"):
        api.turn("ability_test", {"request": REQUEST}, {"character": None, "pool": None})
    monkeypatch.delitem(records.PAYERS, "scheme")
    with pytest.raises(Exception, match=r"'table' must be an object with character \(each may be null\)"):
        api.turn("ability_test", {"request": REQUEST}, table({"scheme": 2, "tracked": True}))
    answer = api.turn("ability_test", {"request": REQUEST, "seed": 3}, {"character": None})
    assert "scheme" not in answer and answer["paid"] == []  # nobody rolls: the character's costs are not the table's


def test_a_payer_must_be_one_of_its_procedures_records():
    """A PAYERS entry that is not one of its procedure's own RECORDS is refused when the registry is read."""
    stray = stored.Payer(stored.Record("pool", "The Pool", ()), "The Pool", "pool", ("pool die", "pool dice"))
    assert records.payers_of(PROCEDURES) == records.PAYERS
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(PROCEDURES["ability_test"], "PAYERS", (stray,))
        with pytest.raises(ImportError, match="a payer must be one of its own RECORDS"):
            records.payers_of(PROCEDURES)
