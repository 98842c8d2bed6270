"""Player words everywhere (issue 20), in real Chromium: over a scripted evening of rolls and follow-ups of each
procedure as characters, every log entry and every import error is said in the words of the forms (no snake_case
name, no path, no JSON, no schema number), and a second character of the same name is asked about first."""

from __future__ import annotations

import json
import re

import pytest

from page_helpers import follow_up, form, roll, set_field, wait_until
from steps import TAB
from table_helpers import (
    characters,
    create,
    edit,
    export_table,
    fill_from_sheet,
    import_file,
    keep_the_scheme_elsewhere,
    records,
    sheet_input,
)

SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")  # a name from the code: negate_setback, convictions_declared
PATH = re.compile(r"\[\d+\]|'[a-z]+\.")  # a path: characters[0], 'log.dice
JSONISH = re.compile(r"[{}]|\":")


def developer_words(text: str) -> list[str]:
    """What in `text` is the code's and not a player's: snake_case names, paths, JSON, schema numbers."""
    found = SNAKE.findall(text) + PATH.findall(text) + JSONISH.findall(text)
    return found + (["schema"] if "schema" in text.lower() else [])


def first_roll_offering(page, system, name, tries=60):
    """Roll `system` until a roll offers the choice `name` (each roll logged); fail after `tries`."""
    for _ in range(tries):
        if any(c["name"] == name for c in roll(page, system)["choices"]):
            return
    pytest.fail(f"no {name} offered in {tries} rolls")


def evening(page):
    """Rolls and follow-ups of each procedure, as characters and as nobody."""
    keep_the_scheme_elsewhere(page)  # a negation is not held to a fresh table's empty Scheme
    create(page, "ten_again", "Rook")
    fill_from_sheet(page, "ten_again")
    set_field(page, "ten_again", "pool", 4)
    roll(page, "ten_again")
    follow_up(page, "ten_again", form(page, "ten_again").locator('[data-choice="spend_will-actor"] button'))

    page.click(f'nav.tabs a[data-tab="{TAB["ability_test"]}"]')
    create(page, "ability_test", "Mira")
    edit(page, sheet_input(page, "exertion"), 3, lambda: characters(page)["Mira"]["sheet"]["exertion"] == 3)
    fill_from_sheet(page, "ability_test")
    for path, value in {"type1": 1, "type2": 1, "difficulty": 4}.items():
        set_field(page, "ability_test", path, value)
    roll(page, "ability_test")  # Ability 2 never beats four dice: Exertion is offered
    follow_up(page, "ability_test", form(page, "ability_test").locator('[data-choice="exert"] button'))
    first_roll_offering(page, "ability_test", "negate_setback")
    follow_up(page, "ability_test", form(page, "ability_test").locator('[data-choice="negate_setback"] button'))

    page.click(f'nav.tabs a[data-tab="{TAB["threat"]}"]')
    create(page, "threat", "Ann")
    fill_from_sheet(page, "threat")
    set_field(page, "threat", "rating", 2)
    form(page, "threat").locator('[data-path="threats"] [data-add]').click()
    first = roll(page, "threat")["assignment"][0][0]
    page.evaluate("(i) => window.arbiterPage.procs.threat.tap(i)", first)  # as a tap on that die does
    follow_up(page, "threat", form(page, "threat").locator("[data-threats] li").nth(1).locator("button"))
    first_roll_offering(page, "threat", "pay_the_price")
    price = form(page, "threat").locator("details.price")
    price.locator("summary").click()
    if price.locator("[data-price-player]").count():  # as nobody, the player is named here; as Ann, she pays
        price.locator("[data-price-player]").fill("Ann")
    follow_up(page, "threat", price.locator(".price-list button").nth(2))

    for system in ("arbitration", "two_dice", "luck"):
        roll(page, system)


def test_a_scripted_evening_speaks_in_player_words(app):
    """Every log entry of an evening of each procedure's rolls and follow-ups, and every error of a few bad files'
    imports, is in a player's words: the forms' labels, what a follow-up did, names; no code's name, path, JSON or
    schema number."""
    page = app("#ten_again")
    evening(page)
    entries = page.locator(".log-entry")
    texts = entries.all_inner_texts()
    kinds = entries.evaluate_all("els => els.map((e) => e.dataset.kind)")
    assert kinds.count("follow-up") >= 5 and kinds.count("roll") >= 8, kinds
    for text in texts:
        assert not developer_words(text), (developer_words(text), text)
    log = "\n".join(texts)
    assert "Negated the setback with two Scheme dice" in log
    assert "Expended a Will: +3 dice" in log and "Ann paid the Price: " in log and "The dice reassigned: " in log
    assert "Type I Attribute 1" in log  # a request said by its form's labels

    good = export_table(page)
    mira = next(i for i, c in enumerate(good["characters"]) if c["name"] == "Mira")
    rook = next(i for i, c in enumerate(good["characters"]) if c["name"] == "Rook")
    bad = json.loads(json.dumps(good))
    bad["characters"][rook]["sheet"]["will"] = 999
    bad["characters"][mira]["sheet"]["exertion"] = -1
    bad["log"][0]["dice"] = [0]
    bad["log"][1]["kind"] = "nonsense"
    bad["scheme"]["scheme"] = 1000
    files = {
        "fields.json": json.dumps(bad),
        "text.json": "hello, this is not a table",
        "other.json": json.dumps({"app": "something else"}),
        "newer.json": json.dumps(dict(good, schema=good["schema"] + 1)),
        "extra.json": json.dumps(dict(good, colour="red")),
    }
    before = records(page)
    reports = {}
    for name, text in files.items():
        report = import_file(page, name, text)
        wait_until(
            page,
            "(f) => { const r = document.querySelector('[data-import]'); "
            "return r.dataset.import === 'refused' && r.textContent.startsWith(f); }",
            10_000,
            name,
        )
        reports[name] = report.locator("li").all_inner_texts()
        assert reports[name], name
        for error in reports[name]:
            assert not developer_words(error), (name, developer_words(error), error)
    assert records(page) == before  # nothing imported
    will = "Rook’s Will (current) must be from 0 to"
    assert any(e.startswith(will) and e.endswith(", got 999") for e in reports["fields.json"]), reports
    assert any(e.startswith("Mira’s ") and e.endswith(", got -1") for e in reports["fields.json"]), reports
    assert any(e.startswith("Log entry 1’s Faces 1 ") for e in reports["fields.json"]), reports
    assert any(e.startswith("The Scheme’s ") for e in reports["fields.json"]), reports
    assert page.locator("#table").inner_text().lower().count("schema") == 0


def test_a_second_character_of_the_same_name_is_asked_first(app):
    """Creating a character named as one already here asks first: Cancel keeps one, yes makes a second."""
    page = app("#ten_again")
    create(page, "ten_again", "Mira")
    page.fill("#new-char-name", " mira ")
    page.click('[data-create="character"] button[type=submit]')
    ask = page.locator("[data-twin]")
    ask.wait_for()
    assert "There is already a character named mira" in ask.inner_text()
    assert page.evaluate("() => document.activeElement.dataset.k") == "new:twin:no"
    ask.get_by_role("button", name="Cancel").click()
    ask.wait_for(state="detached")
    assert list(characters(page)) == ["Mira"]
    page.fill("#new-char-name", "Mira")
    page.click('[data-create="character"] button[type=submit]')
    page.locator("[data-twin]").get_by_role("button", name="Create another Mira").click()
    wait_until(
        page,
        lambda: [r["data"]["name"] for k, r in records(page).items() if k.startswith("char:")] == ["Mira", "Mira"],
        what="a second Mira",
    )
