"""A tap is one roll (issue 20's "nothing charged twice"): at 360 × 640 with the dice tumbling, two taps on Roll
100 ms apart roll, log and spend once; a Will ticked is spent for that roll only and unticked after it; a refused roll
leaves the last result dimmed as stale, says why by Roll in view, and shows no chance beside Roll."""

from __future__ import annotations

from page_helpers import IN_VIEW, form, open_app, request_of, roll, said_by_roll, set_field, table_idle, wait_until
from table_helpers import add_row, characters, create, edit, fill_from_sheet, log, sheet_input


def rook(page) -> None:
    """Rook, a d10 pool character with Wits 2 and 4 Will, rolls the d10 form filled from the sheet, a Will ticked."""
    create(page, "ten_again", "Rook")
    add_row(page, "attributes", "Wits", 2)
    page.locator(".sheet .use").get_by_label("Wits 2").check()
    fill_from_sheet(page, "ten_again")
    set_field(page, "ten_again", "will", True)


def test_two_taps_100_ms_apart_roll_log_and_spend_once(phone):
    """With the dice tumbling (motion allowed), a second tap 100 ms after the first lands the dice instead of rolling
    again: one roll, one log entry, one Will; then "Expend a Will" is unticked, so the next roll spends none."""
    page = open_app(phone, "#ten_again", 360, 640)
    rook(page)
    entries = len(log(page))
    box = form(page, "ten_again").locator("button[data-roll]").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2  # the Roll bar stays where the thumb is
    page.touchscreen.tap(x, y)
    page.wait_for_timeout(100)  # the scenario itself: a thumb's second tap, 100 ms after the first
    page.touchscreen.tap(x, y)
    wait_until(page, "() => window.arbiterPage.procs.ten_again.tray.canvas.dataset.state === 'landed'", 10_000)
    wait_until(page, lambda: len(log(page)) > entries, what="the roll logged")
    table_idle(page)
    assert [e["kind"] for e in log(page)[entries:]] == ["roll"]
    assert characters(page)["Rook"]["sheet"]["will"] == 3
    wait_until(page, lambda: request_of(page, "ten_again")["will"] is False, what="Expend a Will unticked")
    assert not form(page, "ten_again").locator('[data-path="will"]').is_checked()
    again = roll(page, "ten_again")
    assert again["will_spent"] is False and characters(page)["Rook"]["sheet"]["will"] == 3


def test_a_refused_roll_is_seen(phone_app):
    """A roll the table refuses (no Will left) after an earlier roll: the earlier result is marked stale (dimmed),
    the reason is an alert in view by Roll, and no chance stands beside Roll."""
    page = phone_app("#ten_again")
    rook(page)
    first = roll(page, "ten_again")
    assert first["will_spent"]
    edit(page, sheet_input(page, "will"), 0, lambda: characters(page)["Rook"]["sheet"]["will"] == 0)
    set_field(page, "ten_again", "will", True)
    result = form(page, "ten_again").locator("[data-result]")
    assert result.get_attribute("data-stale") is None
    form(page, "ten_again").locator("button[data-roll]").tap()
    assert said_by_roll(page, "ten_again") == "Rook has no Will left"  # role=alert, in view, by Roll
    wait_until(page, "(el) => el.hasAttribute('data-stale')", 10_000, result.element_handle())
    assert float(result.evaluate("(el) => getComputedStyle(el).opacity")) < 1
    headline = form(page, "ten_again").locator("[data-headline]")
    assert headline.locator("[data-p]").count() == 0 and headline.locator("[data-no-odds]").count() == 1
    assert form(page, "ten_again").locator("[data-roll-refusal][role=alert]").evaluate(IN_VIEW)
    assert page.evaluate("() => window.arbiterPage.procs.ten_again.roll.dice") == first["dice"]  # nothing rolled
