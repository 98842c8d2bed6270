"""Characters at the table, in real Chromium with real IndexedDB: one of each kind made, its sheet filling its form
and kept across a reload; the kind a new one takes; a sheet's numbers shown and refused by their fields within the
limits CPython declares (Will's by resolve + composure); counters; names shown as text; the keyboard alone; a phone's
width."""

from __future__ import annotations

import copy
import re

import pytest

from arbiter import RulesError, api
from page_helpers import request_of, roll, wait_until
from steps import TAB
from table_helpers import (
    SETUP,
    add_row,
    characters,
    create,
    edit,
    fill_from_sheet,
    log,
    pick_character,
    selected_sheet,
    sheet_input,
    sheet_list,
    start_struggle,
    will_shown,
)


@pytest.mark.parametrize("kind", list(SETUP))
def test_a_character_of_each_kind_fills_its_form_rolls_and_survives_a_reload(app, kind):
    """A sheet of each kind fills its procedure's form; the roll is logged under its name; a reload keeps both."""
    page = app(f"#{TAB[kind]}")
    create(page, kind, "Hero")
    want = SETUP[kind](page)
    fill_from_sheet(page, kind)
    request = request_of(page, kind)
    for key, value in want.items():
        assert request[key] == value, key
    assert page.locator(f"#panel-{TAB[kind]}").is_visible()
    result = roll(page, kind)
    assert {k: result["request"][k] for k in want} == want
    entries = [e for e in log(page) if e["kind"] == "roll"]
    assert entries[-1]["character"]["name"] == "Hero" and entries[-1]["system"] == kind
    assert entries[-1]["summary"] == result["summary"] and entries[-1]["request"] == result["request"]
    stored = characters(page)["Hero"]

    page.reload()
    page.wait_for_selector("#table[data-ready]", state="attached", timeout=60_000)
    assert characters(page)["Hero"] == stored
    pick_character(page, "Hero")
    assert page.locator(".log-entry.roll .who").first.inner_text() == "Hero"
    assert result["summary"] in page.locator(".log-entry.roll").first.inner_text()
    assert [e for e in log(page) if e["kind"] == "roll"] == entries


def test_a_new_characters_kind_follows_the_tab_until_one_is_picked(app):
    """The Kind of a new character is the shown tab's (the first load shows Arbitration; a tap on "d10 pool" makes it
    a d10 pool one without a redraw of the table); a kind picked by hand holds until another tab is shown. The table
    says what was made in good English ("an Ability Test character")."""
    page = app()
    kind = page.locator("#new-char-kind")
    assert kind.input_value() == "arbitration"
    page.click('nav.tabs a[data-tab="ten_again"]')
    assert kind.input_value() == "ten_again"
    page.fill("#new-char-name", "Mira")
    page.click('[data-create="character"] button[type=submit]')
    wait_until(page, lambda: characters(page).get("Mira", {}).get("kind") == "ten_again", what="Mira, a d10 pool one")
    page.select_option("#new-char-kind", "two_dice")
    assert kind.input_value() == "two_dice"  # picked by hand: it holds while the tab stays
    page.click('nav.tabs a[data-tab="ability_test"]')
    assert kind.input_value() == "ability_test"
    page.fill("#new-char-name", "Bo")
    page.click('[data-create="character"] button[type=submit]')
    wait_until(
        page, lambda: characters(page).get("Bo", {}).get("kind") == "ability_test", what="Bo, an Ability Test one"
    )
    assert page.locator("[data-table-status]").inner_text() == "Bo: an Ability Test character, saved on this device."


def test_a_sheet_field_out_of_range_says_so_by_its_label(app):
    """A sheet's number out of range (its declared range, or its own max: Will's, resolve + composure) is refused
    beside it, naming the field by its bare label and the range (it read "'Will (current)' must be from 0 to 20",
    quoted as a path, and above the maximum only atop the sheet); nothing is saved."""
    page = app("#ten_again")
    create(page, "ten_again", "Mira")
    box = sheet_input(page, "will")
    before = characters(page)["Mira"]["sheet"]["will"]
    box.fill("-3")
    box.press("Tab")
    error = box.locator("xpath=ancestor::label[1]").locator("output.field-error")
    error.wait_for(timeout=5_000)
    assert re.fullmatch(r"Will \(current\) must be from 0 to \d+", error.inner_text()), error.inner_text()
    assert box.get_attribute("aria-invalid") == "true" and characters(page)["Mira"]["sheet"]["will"] == before
    # above the character's own maximum (resolve + composure, the box's data-max once the engine said it): said
    # there too, not only atop the sheet
    wait_until(page, """() => document.querySelector('.sheet [data-k$=":sheet.will"]').dataset.max !== '20'""", 10_000)
    most = int(box.get_attribute("data-max"))
    box.fill(str(most + 1))
    box.press("Tab")
    wait_until(
        page,
        "([el, most]) => el.textContent === `Will (current) must be from 0 to ${most}`",
        5_000,
        [error.element_handle(), most],
    )
    assert characters(page)["Mira"]["sheet"]["will"] == before


def test_a_resolve_below_the_will_kept_is_refused_in_the_engines_words(app):
    """ten_again-12 on the page: lowering Resolve under what the Will kept needs is refused beside Resolve with the
    sheet's limit as check_sheet words it (Will is never cut down for it); once Will is lower, Resolve may follow and
    Will's box then allows no more than the new maximum."""
    page = app("#ten_again")
    create(page, "ten_again", "Mira")
    wait_until(page, lambda: will_shown(page).startswith("Will 4/4"), what="Will 4/4")
    box = sheet_input(page, "resolve")
    box.fill("1")
    box.press("Tab")
    error = box.locator("xpath=ancestor::label[1]").locator("output.field-error")
    error.wait_for(timeout=5_000)
    with pytest.raises(RulesError) as refused:
        api.check_sheet("ten_again", {**characters(page)["Mira"]["sheet"], "resolve": 1})
    assert (
        error.inner_text()
        == "Will (current) " + refused.value.says
        == "Will (current) must be from 0 to 3 (resolve + composure)"
    )
    assert box.get_attribute("aria-invalid") == "true" and characters(page)["Mira"]["sheet"]["resolve"] == 2
    edit(page, sheet_input(page, "will"), 3, lambda: characters(page)["Mira"]["sheet"]["will"] == 3)
    edit(page, sheet_input(page, "resolve"), 1, lambda: characters(page)["Mira"]["sheet"]["resolve"] == 1)
    wait_until(page, lambda: will_shown(page).startswith("Will 3/3"), what="Will 3/3")
    assert sheet_input(page, "will").get_attribute("data-max") == "3"


def test_counters_step_up_and_down_within_their_limits(app):
    """Harm and the other counters go up and down by one and never below zero."""
    page = app("#threat")
    create(page, "threat", "Wren")
    page.get_by_role("button", name="Harm +1").click()
    page.get_by_role("button", name="Harm +1").click()
    wait_until(page, lambda: characters(page)["Wren"]["sheet"]["counters"]["harm"] == 2, what="Harm 2")
    page.get_by_role("button", name="Insight -1").click()
    wait_until(page, "() => document.querySelector('[data-sheet-status]').textContent.includes('from 0 to 999')", 5_000)
    assert characters(page)["Wren"]["sheet"]["counters"]["insight"] == 0


def test_typed_names_are_shown_as_text(app):
    """A name that looks like markup is shown as those characters, never parsed as HTML."""
    page = app("#two_dice")
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    evil = "<img src=x onerror=alert(1)>"
    create(page, "two_dice", evil)
    add_row(page, "traits", evil, 2)
    fill_from_sheet(page, "two_dice")
    roll(page, "two_dice")
    table = page.locator("#table")
    assert table.locator("img").count() == 0
    assert evil in page.locator(".char-list").inner_text() and evil in page.locator(".log-entry").first.inner_text()
    # A fixed wait on purpose: it checks that nothing happens (no alert from the name; there is no event to await).
    page.wait_for_timeout(200)
    assert dialogs == []


def test_keyboard_alone_creates_a_character_and_fills_a_form(app):
    """Type a name, press Enter to create; Tab to a control and press Space or Enter to use it."""
    page = app("#ten_again")
    page.focus("#new-char-name")
    page.keyboard.type("Jo")
    page.keyboard.press("Enter")
    page.wait_for_selector('.sheet h4:has-text("Jo")')
    assert page.evaluate("document.activeElement.dataset.k").endswith(":name")
    page.locator('.sheet [data-add="attributes"]').focus()
    page.keyboard.press("Enter")
    wait_until(
        page, "() => document.activeElement.matches('.sheet [data-list=attributes] input[type=text]:not(.int)')", 5_000
    )
    page.keyboard.type("Wits")
    page.keyboard.press("Tab")
    page.keyboard.type("3")
    page.keyboard.press("Tab")
    wait_until(
        page,
        lambda: sheet_list(page, "Jo", "attributes") and sheet_list(page, "Jo", "attributes")[0]["dots"] == 3,
        what="Wits 3",
    )
    page.locator(".sheet .use").get_by_label("Wits 3").focus()
    page.keyboard.press("Space")
    page.locator('.sheet [data-fill="ten_again"]').focus()
    page.keyboard.press("Enter")
    wait_until(page, lambda: request_of(page, "ten_again")["pool"] == 3, what="the form filled with a pool of 3")


def test_phone_width_has_no_horizontal_scroll(app):
    """At 360 px, every kind of sheet, a struggle and the log fit without scrolling sideways."""
    page = app("#ability_test", width=360, height=740)
    for kind in SETUP:
        create(page, kind, f"A {kind} character with a rather long name")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360, kind
    add_row(page, "skills", "Long-winded skill name that goes on", 10, 3, True)
    start_struggle(page, "A struggle", 5)
    roll(page, "ability_test")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


# --- the limits the table shows and refuses are Python's ------------------------------------------------------------


SPECS = {s["id"]: s for s in api.systems()}


FROM_TO = re.compile(r"from (-?\d+) to (-?\d+)")


def _decl_at(kind, sheet, parts):
    """The published declaration of a sheet field, from the parts of its input's data-k after "sheet" (a list
    entry by its id), and its path as check_sheet names it."""
    decl, value, path = SPECS[kind]["sheet"], sheet, []
    for part in parts:
        if decl["type"] == "list":
            index = next(i for i, entry in enumerate(value) if entry["id"] == part)
            decl, value = decl["of"], value[index]
            path.append(index)
        else:
            decl = next(f for f in decl["fields"] if f["name"] == part)
            value = value.get(part, decl.get("default"))  # a field kept before it existed: its default
            path.append(part)
    return decl, path


def _python_refusal(kind, sheet, path, bad):
    changed = copy.deepcopy(sheet)
    node = changed
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = bad
    with pytest.raises(RulesError) as refused:
        api.check_sheet(kind, changed)
    return str(refused.value)


def _rows(kind):
    """A value for one entry of each list of records the sheet has, so that every kind of number input is shown."""
    return [
        (f["name"], [v for k, v in f["of"]["default"].items() if k != "id"])
        for f in SPECS[kind]["sheet"]["fields"]
        if f["type"] == "list" and f["of"]["type"] == "record"
    ]


@pytest.mark.parametrize("kind", list(SETUP))
def test_each_sheet_number_shows_and_refuses_pythons_limits(app, kind):
    """Every number on a sheet of each kind carries the min and max arbiter.api.systems() declares for it (Will: its
    maximum from will_max), and one past the maximum is refused by the field, beside it, with the range CPython's
    check_sheet names, nothing saved."""
    page = app(f"#{TAB[kind]}")
    create(page, kind, "Lim")
    for name, values in _rows(kind):
        add_row(page, name, *[v if not isinstance(v, str) else "x" for v in values])
    if kind == "ten_again":
        wait_until(page, "() => document.querySelector('.sheet [data-k$=\":sheet.will\"]').dataset.max === '4'", 5_000)
    sheet = selected_sheet(page)
    inputs = page.evaluate("""() => [...document.querySelectorAll('.sheet .sheet-fields input.int')]
        .map((el) => [el.dataset.k, el.dataset.min, el.dataset.max])""")
    assert inputs
    seen = set()
    for key, shown_min, shown_max in inputs:
        decl, path = _decl_at(kind, sheet, key.split(":sheet.", 1)[1].split("."))
        seen.add(tuple(p for p in path if not isinstance(p, int)))
        if path == ["will"]:
            want = (0, api.table("ten_again", "will_max", sheet)["max"])
            python = _will_refusal(sheet, want[1] + 1)
        else:
            want = (decl["min"], decl["max"])
            python = _python_refusal(kind, sheet, path, want[1] + 1)
        assert (int(shown_min), int(shown_max)) == want, key
        assert FROM_TO.search(python).groups() == tuple(map(str, want)), python
        field = page.locator(f'[data-k="{key}"]')
        field.fill(str(want[1] + 1))
        field.press("Tab")
        error = field.locator("xpath=ancestor::label[1]").locator("output.field-error")  # Will's by it too
        error.wait_for(timeout=5_000)
        words = error.inner_text()
        assert FROM_TO.search(words).groups() == FROM_TO.search(python).groups(), (key, words, python)
    ints = {
        tuple(p for p in path if not isinstance(p, int)) for path, decl in _int_fields(SPECS[kind]["sheet"]["fields"])
    }
    assert seen == ints, "every number the sheet declares is shown"
    # A fixed wait on purpose: it checks that nothing happens (a refused value starts no write to wait for).
    page.wait_for_timeout(200)
    assert selected_sheet(page) == sheet, "nothing one past a limit was saved"


def _int_fields(fields, path=()):
    for f in fields:
        if f["type"] == "int":
            yield path + (f["name"],), f
        elif f["type"] == "record":
            yield from _int_fields(f["fields"], path + (f["name"],))
        elif f["type"] == "list" and f["of"]["type"] == "record":
            yield from _int_fields(f["of"]["fields"], path + (f["name"],))


def _will_refusal(sheet, will):
    with pytest.raises(RulesError) as refused:
        api.table("ten_again", "rest", {**sheet, "will": will}, {"nights": 1})
    return str(refused.value)
