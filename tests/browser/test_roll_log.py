"""The roll log, in real Chromium with real IndexedDB: newest first, the next page loaded as its end scrolls near (none
while the log is hidden; "Show more" as the keyboard's way), filtered by character and procedure, exported as shown
(JSON and CSV), and cleared only once confirmed."""

from __future__ import annotations

import csv
import io
import json
from datetime import datetime, timedelta

from page_helpers import roll, wait_until
from table_helpers import PUT, add_row, create, fill_from_sheet, log, records


def test_log_filters_exports_and_clears_with_confirmation(app):
    """The log filters by character and procedure, exports what it shows as JSON and CSV, and clears only when confirmed."""
    page = app("#arbitration")
    create(page, "arbitration", "Cid")
    add_row(page, "skills", "Lore", 4)
    page.locator(".sheet .use").get_by_label("Lore 4").check()
    fill_from_sheet(page, "arbitration")
    roll(page, "arbitration")
    roll(page, "arbitration")
    page.locator('[data-k="stop:arbitration"]').click()
    roll(page, "arbitration")
    roll(page, "luck")
    part = page.locator('[data-part="log"]')
    assert part.locator(".log-entry").count() == 4
    part.get_by_label("Character").select_option(label="Cid")
    wait_until(page, lambda: part.locator(".log-entry").count() == 2, what="Cid's rolls")
    part.get_by_label("Character").select_option(label="Everyone")
    page.evaluate("() => window.scrollTo(0, 0)")
    part.get_by_label("Procedure").select_option("luck")
    wait_until(page, lambda: part.locator(".log-entry").count() == 1, what="the Luck roll")
    part.get_by_label("Procedure").select_option("")
    wait_until(page, lambda: part.locator(".log-entry").count() == 4, what="every roll")

    with page.expect_download() as info:
        part.get_by_role("button", name="Export CSV").click()
    rows = list(csv.reader(io.StringIO(open(info.value.path(), encoding="utf-8").read())))
    assert rows[0][:3] == ["time", "character", "procedure"] and len(rows) == 5
    assert [r[1] for r in rows[1:]] == ["Cid", "Cid", "", ""]
    with page.expect_download() as info:
        part.get_by_role("button", name="Export JSON").click()
    exported = json.loads(open(info.value.path(), encoding="utf-8").read())
    assert [e["summary"] for e in exported["entries"]] == [e["summary"] for e in log(page)]

    part.get_by_role("button", name="Clear the log…").click()
    wait_until(page, "() => document.activeElement.textContent === 'Cancel'", 5_000)
    page.keyboard.press("Enter")  # Cancel: nothing goes
    assert part.locator(".log-entry").count() == 4
    part.get_by_role("button", name="Clear the log…").click()
    part.locator("[data-confirm]").click()
    wait_until(page, lambda: not log(page), what="an empty log")
    assert part.locator(".log-entry").count() == 0


def _base36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while n:
        n, d = divmod(n, 36)
        out = digits[d] + out
    return out.rjust(9, "0")


def test_the_log_loads_the_next_entries_as_its_end_scrolls_near(app):
    """With 120 entries the log shows the newest 50 first; scrolling to the end of the list loads the next 50, then
    the last 20, with no click; while the log is hidden nothing loads, and "Show more" still does."""
    page = app("#luck")
    roll(page, "luck")
    [kept] = [r for k, r in records(page).items() if k.startswith("log:")]
    rolled = datetime.fromisoformat(kept["data"]["time"].replace("Z", "+00:00"))
    times = [rolled - timedelta(seconds=200 - i) for i in range(119)]  # older than the roll, a second apart
    copies = [
        {
            **kept,
            "id": f"log:{_base36(int(t.timestamp() * 1000))}-{i:08x}",
            "data": {
                **kept["data"],
                "time": t.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
                "summary": f"Entry {i}",
            },
        }
        for i, t in enumerate(times)
    ]
    page.evaluate(PUT, copies)
    page.reload()
    page.wait_for_selector("#table[data-ready]", state="attached", timeout=60_000)
    part = page.locator('[data-part="log"]')
    entries = part.locator('.log-entry[data-kind="roll"]')
    wait_until(page, lambda: entries.count() == 50, what="the first 50 entries")
    assert part.locator("[data-log-count]").get_attribute("data-log-count") == "120"
    newest = max(log(page), key=lambda e: e["time"])
    assert entries.first.locator(".log-summary").inner_text() == newest["summary"]  # the latest roll first
    assert [entries.nth(i).locator(".log-summary").inner_text() for i in (1, 2)] == ["Entry 118", "Entry 117"]

    entries.last.scroll_into_view_if_needed()  # no click: the end of the list scrolls near
    wait_until(page, lambda: entries.count() == 100, what="the next 50 entries")
    assert entries.nth(50).locator(".log-summary").inner_text() == "Entry 69"  # still newest first
    entries.last.scroll_into_view_if_needed()
    wait_until(page, lambda: entries.count() == 120, what="the last 20 entries")
    assert part.locator('[data-k="log:more"]').count() == 0 and part.locator("[data-log-end]").count() == 0

    # a filter starts again at 50; hidden (the log a view of its own, not shown), its end loads nothing
    page.evaluate("() => window.scrollTo(0, 0)")
    part.get_by_label("Procedure").select_option("luck")
    wait_until(page, lambda: entries.count() == 50, what="the first 50 again")
    part.evaluate("(p) => { p.hidden = true; }")
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_timeout(300)
    assert entries.count() == 50
    part.locator('[data-k="log:more"]').evaluate("(b) => b.click()")  # the button works while the log is hidden
    wait_until(page, lambda: entries.count() == 100, what="50 more by the button")
    page.wait_for_timeout(300)
    assert entries.count() == 100
