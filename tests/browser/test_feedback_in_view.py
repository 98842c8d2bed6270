"""Feedback where the thumb is (issue 29), at 360 × 640: the Log view opens at the newest roll (the luck and "Are my
dice fair?" folded above it under one line); a sheet's Fill refused says why by that Fill, in view; "No odds" beside
Roll takes the player to the ⚠ that says why, wherever it is in the form. A refused wake lock: test_views.py."""

from __future__ import annotations

from page_helpers import IN_VIEW, form, roll, set_field, show_view, wait_until
from table_helpers import create

# Whole in the viewport above the views' navigation and the Roll bar (what covers the screen's bottom on a phone).
ABOVE_BARS = """(el) => { const r = el.getBoundingClientRect();
  const covers = [...document.querySelectorAll('nav.views, .view[data-current] [data-bar]')]
    .map((c) => [getComputedStyle(c).position, c.getBoundingClientRect()])
    .filter(([position, box]) => position === 'fixed' && box.height > 0).map(([, box]) => box.top);
  return r.height > 0 && r.top >= 0 && r.bottom <= Math.min(innerHeight, ...covers); }"""


def test_the_log_opens_at_the_newest_roll(phone_app):
    """After rolls with their luck, a tap on Log shows the newest roll's entry whole, above the navigation, with no
    scrolling: the luck charts and "Are my dice fair?" are folded under one line above the list."""
    page = phone_app("#luck")
    rolls = [roll(page, "luck") for _ in range(4)]
    show_view(page, "roll")
    page.evaluate("scrollTo(0, document.body.scrollHeight)")
    page.locator('nav.views a[data-view="log"]').tap()
    newest = page.locator(".log-list .log-entry").first
    newest.wait_for()
    assert rolls[-1]["summary"] in newest.inner_text()
    assert newest.evaluate(ABOVE_BARS), f"the newest roll is at {newest.bounding_box()}, out of the 360 × 640 view"
    assert newest.evaluate(IN_VIEW)
    fold = page.locator("[data-log-luck]")
    assert fold.evaluate("(el) => !el.open") and fold.locator("summary").evaluate(ABOVE_BARS)


def test_a_refused_fill_is_said_by_the_fill_tapped(phone_app):
    """A d10 pool character with no statistics: "Fill the d10 pool form" is refused, and the reason is said right
    under the "Roll as" section, in view where the tap was (it was at the sheet's foot, two screens below)."""
    page = phone_app("#table")
    create(page, "ten_again", "Nobody")
    fill = page.locator('.sheet [data-fill="ten_again"]')
    fill.tap()
    wait_until(page, "() => document.querySelector('#table').dataset.filling === undefined", 10_000)
    status = page.locator(".sheet [data-sheet-status]")
    wait_until(page, lambda: status.inner_text().strip(), what="the refusal to be said")
    assert "error" in status.get_attribute("class"), status.inner_text()
    assert status.evaluate(ABOVE_BARS), f"the refusal is at {status.bounding_box()}, out of the 360 × 640 view"
    assert page.evaluate("() => document.body.dataset.view") == "table"  # refused: the form is not shown


def test_no_odds_takes_the_player_to_the_warning(phone_app):
    """A field refused at the top of a form (Type I of 9) while the player is at the page's foot: the bar says there
    are no odds; a tap on it scrolls the field's ⚠ into view and focuses the field."""
    page = phone_app("#ability_test")
    set_field(page, "ability_test", "type1", "9")
    warning = form(page, "ability_test").locator(".field:has([data-path='type1']) > output.field-error")
    wait_until(page, lambda: "Type I" in warning.inner_text(), 10_000, what="the ⚠ by Type I")
    page.evaluate("scrollTo(0, document.body.scrollHeight)")
    assert not warning.evaluate(ABOVE_BARS), "the ⚠ is in view already: nothing to point at"
    no_odds = form(page, "ability_test").locator("[data-headline] [data-no-odds]")
    assert no_odds.evaluate(IN_VIEW)
    no_odds.tap()
    wait_until(
        page, lambda: warning.evaluate(ABOVE_BARS), 5_000, what=f"the ⚠ in view, not at {warning.bounding_box()}"
    )
    assert "Type I Attribute must be from 1 to 5" in warning.inner_text()
    assert page.evaluate("() => document.activeElement.dataset.path") == "type1"
