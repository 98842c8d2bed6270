"""Rolling as a character, in real Chromium with real IndexedDB: a sheet fills its procedure's form (Luck's from a
Threat & Luck sheet too), the form says who rolls until "stop", the sheet remembers its last choices across a reload,
and a sheet CPython refuses to roll leaves the form as it was."""

from __future__ import annotations

import pytest

from arbiter import RulesError, api
from page_helpers import IN_VIEW, form, request_of, roll, set_field, wait_until
from table_helpers import (
    add_row,
    characters,
    create,
    fill_from_sheet,
    log,
    pick_character,
    selected_sheet,
    setup_ability_test,
    use_select,
)


def test_the_form_says_who_rolls_and_a_sheet_remembers_its_last_choices(phone_app):
    """At 360 × 640: after Fill, "Rolling as Hero" is at the top of the form, in view; a hand edit keeps her rolling
    but the log holds the request as rolled; "stop" ends it there; and what was picked for the sheet's last roll
    (its attributes, Skill and Item) survives a reload of the page, so Fill gives the same request."""
    page = phone_app("#ability_test")
    create(page, "ability_test", "Hero")
    want = setup_ability_test(page)
    fill_from_sheet(page, "ability_test")
    who = form(page, "ability_test").locator("[data-rolling-as]")
    assert who.inner_text().startswith("Rolling as Hero") and who.evaluate(IN_VIEW)
    filled = request_of(page, "ability_test")
    assert {k: filled[k] for k in want} == want
    roll(page, "ability_test")
    wait_until(page, lambda: characters(page)["Hero"].get("choices"), what="the last choices kept")

    set_field(page, "ability_test", "type1", 5)  # by hand: still Hero's roll, logged as rolled
    assert who.inner_text().startswith("Rolling as Hero")
    rolled = roll(page, "ability_test")
    entry = [e for e in log(page) if e["kind"] == "roll"][-1]
    assert rolled["request"]["type1"] == 5 and entry["request"] == rolled["request"]
    assert entry["character"]["name"] == "Hero"

    who.locator("button[data-stop-rolling]").click()
    wait_until(page, lambda: who.count() == 0, what="no one rolling")
    roll(page, "ability_test")
    assert [e for e in log(page) if e["kind"] == "roll"][-1]["character"] is None

    stored = characters(page)["Hero"]
    page.reload()
    page.wait_for_selector("#table[data-ready]", state="attached", timeout=60_000)
    assert characters(page)["Hero"] == stored
    pick_character(page, "Hero")
    assert use_select(page, "skill").evaluate("s => s.selectedOptions[0].textContent") == "Fencing 2, 1 Mastery"
    fill_from_sheet(page, "ability_test")
    assert request_of(page, "ability_test") == filled
    assert form(page, "ability_test").locator("[data-rolling-as]").evaluate(IN_VIEW)


def test_luck_rolls_are_logged_for_a_threat_sheet(app):
    """A Threat & Luck sheet also rolls Luck as its character."""
    page = app("#threat")
    create(page, "threat", "Wren")
    fill_from_sheet(page, "luck")
    roll(page, "luck")
    entry = [e for e in log(page) if e["kind"] == "roll"][-1]
    assert entry["system"] == "luck" and entry["character"]["name"] == "Wren"


def test_a_sheet_python_refuses_to_roll_does_not_fill_the_form(app):
    """ "Fill the … form" asks arbiter.api.request_from_sheet: a d10 pool over the form's 30 dice, or Masteries with a
    Skill of 0, is refused on the sheet in CPython's words, and the form keeps what it held."""
    page = app("#ten_again")
    create(page, "ten_again", "Big")
    for i in range(4):
        add_row(page, "attributes", f"Stat{i}", 10)
    for i in range(4):
        page.locator(".sheet .use").get_by_label(f"Stat{i} 10").check()
    before = request_of(page, "ten_again")
    fill_from_sheet(page, "ten_again")
    sheet = selected_sheet(page)
    with pytest.raises(RulesError) as refused:
        api.request_from_sheet("ten_again", sheet, {"stats": [a["id"] for a in sheet["attributes"]]})
    assert "'pool' must be from 0 to 30" in str(refused.value)
    status = page.locator(".sheet [data-sheet-status]")
    assert status.inner_text() == str(refused.value) and "error" in status.get_attribute("class")
    assert request_of(page, "ten_again") == before

    page.click('nav.tabs a[data-tab="ability_test"]')
    create(page, "ability_test", "Raw")
    add_row(page, "skills", "Lore", 0, 1)
    use_select(page, "skill").select_option(label="Lore 0, 1 Mastery")
    before = request_of(page, "ability_test")
    fill_from_sheet(page, "ability_test")
    sheet = selected_sheet(page)
    with pytest.raises(RulesError) as refused:
        api.request_from_sheet("ability_test", sheet, {"skill": sheet["skills"][0]["id"]})
    assert "Masteries need a relevant Skill" in str(refused.value)
    assert page.locator(".sheet [data-sheet-status]").inner_text() == str(refused.value)
    assert request_of(page, "ability_test") == before
