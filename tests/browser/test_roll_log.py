"""The roll log, in real Chromium with real IndexedDB: filtered by character and procedure, exported as shown (JSON and
CSV), and cleared only once confirmed."""

from __future__ import annotations

import csv
import io
import json

from page_helpers import roll, wait_until
from table_helpers import add_row, create, fill_from_sheet, log


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
