"""Will, in real Chromium with real IndexedDB: spent by hand, ticked on a roll or after it (three dice join the same
roll), rested back a night at a time, rolled as a Will roll; a roll the character cannot pay for (no Will left, an
empty Scheme) is refused by Roll in a player's words, nothing rolled, logged or spent, and so is a Will that would add
no dice."""

from __future__ import annotations

from page_helpers import check_shown, follow_up, form, request_of, roll, said_by_roll, set_field, table_idle, wait_until
from table_helpers import (
    add_row,
    characters,
    create,
    edit,
    fill_from_sheet,
    log,
    scheme,
    sheet_input,
    strong,
    track_scheme,
    will_shown,
)


def test_will_is_spent_rested_and_rolled(app):
    """Expending Will (by hand, ticked on a roll, or after it) lowers the sheet; a night restores 1; a Will roll uses what is left."""
    page = app("#ten_again")
    create(page, "ten_again", "Bo")
    wait_until(page, lambda: will_shown(page).startswith("Will 4/4"), what="Will 4/4")
    add_row(page, "attributes", "Wits", 2)
    page.locator(".sheet .use").get_by_label("Wits 2").check()
    page.locator('.sheet [data-op="spend_will"]').click()
    wait_until(page, lambda: will_shown(page).startswith("Will 3/4"), what="Will 3/4")
    assert "Spent 1 Will (3/4 left)" in page.locator("[data-sheet-status]").inner_text()

    fill_from_sheet(page, "ten_again")
    set_field(page, "ten_again", "will", True)
    first = roll(page, "ten_again")
    assert first["will_spent"]
    wait_until(page, lambda: characters(page)["Bo"]["sheet"]["will"] == 2, what="Will 2 after a roll with Will")
    set_field(page, "ten_again", "will", False)
    roll(page, "ten_again")
    follow_up(page, "ten_again", form(page, "ten_again").locator('[data-choice="spend_will-actor"] button'))
    wait_until(page, lambda: characters(page)["Bo"]["sheet"]["will"] == 1, what="Will 1 after spending it on a roll")
    page.locator('.sheet [data-op="rest"]').click()
    wait_until(page, lambda: will_shown(page).startswith("Will 2/4"), what="Will 2/4 after a night")
    page.locator('.sheet [data-op="will_roll"]').click()
    wait_until(page, lambda: request_of(page, "ten_again")["pool"] == 2, what="a Will roll of 2 dice")

    edit(page, sheet_input(page, "resolve"), 1, lambda: characters(page)["Bo"]["sheet"]["resolve"] == 1)
    wait_until(page, lambda: will_shown(page).startswith("Will 2/3"), what="Will 2/3")
    edit(page, sheet_input(page, "will"), 0, lambda: characters(page)["Bo"]["sheet"]["will"] == 0)
    page.locator('.sheet [data-op="spend_will"]').click()
    wait_until(
        page, "() => document.querySelector('[data-sheet-status]').textContent.includes('no Will remaining')", 5_000
    )
    assert characters(page)["Bo"]["sheet"]["will"] == 0
    notes = [e["note"] for e in log(page) if e["kind"] == "note"]
    assert any("Rested a night" in n for n in notes)


def rolling_with_no_will_left(page, name: str) -> None:
    """A ten_again character `name` with no Will left fills the form from its sheet, "Expend a Will" ticked."""
    create(page, "ten_again", name)
    edit(page, sheet_input(page, "will"), 0, lambda: characters(page)[name]["sheet"]["will"] == 0)
    add_row(page, "attributes", "Wits", 2)
    page.locator(".sheet .use").get_by_label("Wits 2").check()
    fill_from_sheet(page, "ten_again")
    set_field(page, "ten_again", "will", True)


def test_a_roll_the_character_cannot_pay_for_is_not_made(app):
    """Ticking "Expend a Will" with no Will left, or a Scheme die with an empty Scheme, stops the roll before it is
    made: the form says who cannot pay and why, no dice are rolled, nothing is logged and nothing is spent; Will
    after the roll is offered disabled, with the reason."""
    page = app("#ten_again")
    rolling_with_no_will_left(page, "Cy")
    before = log(page)
    page.evaluate("() => { window.__before = window.arbiterPage.procs.ten_again.roll; }")
    form(page, "ten_again").locator("button[data-roll]").click()
    error = form(page, "ten_again").locator("output.field-error[role=alert]")
    error.wait_for(timeout=10_000)
    assert error.inner_text() == "Cy has no Will left"
    table_idle(page)  # the refusal ends the tap; had it rolled anyway, the table would have logged it by now
    assert page.evaluate("() => window.arbiterPage.procs.ten_again.roll === window.__before")
    assert log(page) == before and characters(page)["Cy"]["sheet"]["will"] == 0
    set_field(page, "ten_again", "will", False)
    rolled = roll(page, "ten_again")  # without Will the same character rolls
    before = log(page)
    will = form(page, "ten_again").locator('[data-choice="spend_will-actor"]')  # Will after the roll: not offered
    wait_until(
        page,
        """() => document.querySelector(
        'form[data-system="ten_again"] [data-choice="spend_will-actor"] button').disabled""",
        10_000,
    )
    refusal = will.locator("[data-refusal]").inner_text()
    assert refusal == "Cy has no Will left"
    assert page.evaluate("() => window.arbiterPage.procs.ten_again.roll")["dice"] == rolled["dice"]
    assert log(page) == before and characters(page)["Cy"]["sheet"]["will"] == 0

    strong(page, "Di")  # rolling as a character: the table's Scheme counts
    fill_from_sheet(page, "ability_test")
    set_field(page, "ability_test", "scheme_die", True)
    assert scheme(page) == 0
    before = log(page)
    form(page, "ability_test").locator("button[data-roll]").click()
    error = form(page, "ability_test").locator("output.field-error[role=alert]")
    error.wait_for(timeout=10_000)
    assert error.inner_text().startswith("The Scheme has no die left: it was never set on this phone")
    table_idle(page)  # the refusal ends the tap; had it rolled anyway, the table would have logged it by now
    assert log(page) == before and scheme(page) == 0

    # The Scheme is the table's on this device: nobody rolling as a character, it is still held to its count...
    page.locator('[data-k="stop:ability_test"]').click()
    form(page, "ability_test").locator("button[data-roll]").click()
    wait_until(
        page,
        """() => document.querySelector('form[data-system="ability_test"] output.field-error[role=alert]')
        ?.textContent.startsWith('The Scheme has no die left: it was never set on this phone')""",
        10_000,
    )
    assert log(page) == before and scheme(page) == 0
    # ...until the table says it keeps its Scheme elsewhere (on paper): then the form is the player's own
    track_scheme(page, False)
    result = roll(page, "ability_test")
    assert result["scheme_roll"] is not None and scheme(page) == 0
    assert log(page)[-1]["summary"] == result["summary"] and "Scheme" not in log(page)[-1]["note"]


def test_no_will_left_is_said_by_roll_on_a_phone(phone_app):
    """At 360 × 640, a character with no Will left rolling with "Expend a Will" is refused by Roll, in view, in a
    player's words ("Rook has no Will left": no path); nothing is rolled, logged or spent."""
    page = phone_app("#ten_again")
    rolling_with_no_will_left(page, "Rook")
    before = log(page)
    form(page, "ten_again").locator("button[data-roll]").click()
    assert said_by_roll(page, "ten_again") == "Rook has no Will left"
    assert "state.will" not in form(page, "ten_again").text_content()
    assert page.evaluate("() => window.arbiterPage.procs.ten_again.roll") is None
    assert log(page) == before and characters(page)["Rook"]["sheet"]["will"] == 0


def test_spend_will_adds_three_dice_to_the_roll(app):
    """After the roll, expending a Will adds three dice to the same roll, shown on the canvas."""
    page = app("#ten_again")
    set_field(page, "ten_again", "pool", 4)
    first = roll(page, "ten_again")
    button = form(page, "ten_again").locator('[data-choice="spend_will-actor"] button')
    after = follow_up(page, "ten_again", button)
    assert after["dice"] == first["dice"] and len(after["will_dice"]) == 3 and after["will_spent"]
    check_shown(page, "ten_again", after)
    assert form(page, "ten_again").locator('[data-choice="spend_will-actor"]').count() == 0


def test_a_will_that_would_add_no_dice_is_refused_by_roll(phone_app):
    """ten_again-7 on the page: a d10 form with 0 dots, the storyteller's −3 and "Expend a Will" is refused by Roll
    with the reason in the form's words (no path), nothing is rolled and the bar shows no chance."""
    page = phone_app("#ten_again")
    set_field(page, "ten_again", "pool", 0)
    set_field(page, "ten_again", "modifier", -3)
    set_field(page, "ten_again", "will", True)
    form(page, "ten_again").locator("button[data-roll]").click()
    words = said_by_roll(page, "ten_again")
    assert words.startswith("Expend a Will") and "would add no dice (dots 0 - 3 + 3 = 0)" in words, words
    assert "'will'" not in form(page, "ten_again").text_content()
    assert page.evaluate("() => window.arbiterPage.procs.ten_again.roll") is None
    headline = form(page, "ten_again").locator("[data-headline]")
    wait_until(
        page,
        "(el) => el.querySelector('[data-no-odds]') && !el.querySelector('[data-p]')",
        10_000,
        headline.element_handle(),
    )
