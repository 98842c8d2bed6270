"""Two tabs of one browser profile, in real Chromium with real IndexedDB: edits to the same sheet in both last,
simultaneous spends both count, and each tab shows the other's changes (a new character, the log)."""

from __future__ import annotations

from page_helpers import roll, wait_until
from table_helpers import characters, create, pick_character, second_tab, sheet_input, will_shown


def test_two_tabs_stay_in_step_and_keep_both_changes(app, watch):
    """Edits in two tabs to the same sheet both last; simultaneous spends both count; each tab shows the other's."""
    a = app("#ten_again")
    create(a, "ten_again", "Hal")
    b = second_tab(a, watch, "#ten_again")
    b.wait_for_selector('.char-list button:has-text("Hal")')
    pick_character(b, "Hal")
    # b edits Composure while a edits Resolve: neither overwrites the other
    sheet_input(a, "resolve").fill("5")
    sheet_input(b, "composure").fill("6")
    sheet_input(a, "resolve").press("Tab")
    sheet_input(b, "composure").press("Tab")
    wait_until(
        a,
        lambda: (characters(a)["Hal"]["sheet"]["resolve"], characters(a)["Hal"]["sheet"]["composure"]) == (5, 6),
        what="both edits",
    )
    for tab in (a, b):
        wait_until(
            tab,
            lambda t=tab: (
                sheet_input(t, "resolve").input_value() == "5" and sheet_input(t, "composure").input_value() == "6"
            ),
            what="both edits shown in each tab",
        )
    # both tabs spend a Will at the same moment: two are spent
    a.evaluate("document.querySelector('.sheet [data-op=spend_will]').click()")
    b.evaluate("document.querySelector('.sheet [data-op=spend_will]').click()")
    wait_until(a, lambda: characters(a)["Hal"]["sheet"]["will"] == 2, what="two Will spent")
    wait_until(b, lambda: will_shown(b).startswith("Will 2/11"), what="the other tab to show it")
    # a new character and the log appear in the other tab
    create(b, "arbitration", "Ida")
    a.wait_for_selector('.char-list button:has-text("Ida")')
    roll(a, "ten_again")
    b.wait_for_selector(".log-entry.roll")
    b.close()
