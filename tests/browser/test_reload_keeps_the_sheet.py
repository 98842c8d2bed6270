"""A reload keeps the truth (issue 29): a form filled from a character's sheet, then a reload from any view (the
form's own, the Table, the Log, another procedure, an address naming other numbers) with "Rolling as" kept: the form holds the sheet's numbers again
(refilled from the sheet by Python, winning over the address and over a form built later with its defaults), and a
roll as that character logs them (the d10 pool and the Ability Test)."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest

from page_helpers import form, roll, show_view, wait_until
from table_helpers import create, fill_from_sheet, log, setup_ability_test, setup_ten_again

SETUP = {"ten_again": setup_ten_again, "ability_test": setup_ability_test}
ELSEWHERE = {"ten_again": "luck", "ability_test": "ten_again"}  # another procedure's tab
OTHER = {"ten_again": {"pool": 1}, "ability_test": {"type1": 1}}  # an address naming other numbers


def reload(page):
    page.reload()
    page.wait_for_selector("#table[data-ready]", state="attached", timeout=60_000)


@pytest.mark.parametrize("system", ["ten_again", "ability_test"])
def test_after_a_reload_from_any_view_a_roll_logs_the_sheets_numbers(phone_app, system):
    page = phone_app(f"#{system}")
    create(page, system, "Hero")
    want = SETUP[system](page)
    fill_from_sheet(page, system)
    filled = page.evaluate("(s) => window.arbiterPage.procs[s].request()", system)
    assert {k: filled[k] for k in want} == want
    for where in ["form", "table", "log", "other", "address"]:
        if where == "address":  # a link to the form with other numbers: the sheet wins over it
            page.evaluate("(h) => history.replaceState(null, '', h)", f"#{system}={quote(json.dumps(OTHER[system]))}")
        elif where in ("table", "log"):
            show_view(page, where)
        else:
            show_view(page, "roll")
            tab = system if where == "form" else ELSEWHERE[system]
            page.locator(f'nav.tabs a[data-tab="{tab}"]').click()
        reload(page)
        show_view(page, "roll")
        page.locator(f'nav.tabs a[data-tab="{system}"]').click()
        who = form(page, system).locator("[data-rolling-as]")
        wait_until(page, lambda: who.count() == 1, what="Rolling as Hero")
        assert who.inner_text().startswith("Rolling as Hero"), where
        rolled = roll(page, system)
        entry = [e for e in log(page) if e["kind"] == "roll"][-1]
        assert entry["character"]["name"] == "Hero", where
        assert entry["request"] == rolled["request"], where
        assert {k: entry["request"][k] for k in want} == want, f"after a reload from {where}: {entry['request']}"
