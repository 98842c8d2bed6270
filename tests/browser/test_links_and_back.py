"""Two phones, one evening (issue 30), in Chromium at 360 × 640 with touch: a link pasted with anything around it
opens its roll, two different links in one text are refused in words; a roll rolled with the table's own dice keeps
saying so on the Host's phone, and a link made by the version 1 packer still opens; Back closes the Share sheet,
Settings and the Shared roll panel and stays on the view; "Your name" in Settings goes with a roll shared as nobody."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest

from arbiter import api, share
from page_helpers import form, open_app, roll, show_view, wait_until
from test_play_as_a_group import PANEL, add, open_link, phones, shared_entries, shared_link  # noqa: F401 (a fixture)
from test_share import V1_LUCK
from test_table_dice import enter, use_table_dice

WHEN = 1_790_000_000
ALERT = "[data-scan-alert][role=alert]"
TWO_LINKS = "This text holds two different Arbiter links: paste one at a time."
NOT_A_LINK = "That is not an Arbiter roll link."
SHEET = "dialog[data-share-sheet]"


def luck_link(base: str, faces: list[int], who: str = "Jun") -> tuple[str, str]:
    """A shared roll of Luck (two d6) with `faces`, made by the engine in CPython: (its whole link, its fragment)."""
    fragment = api.share_link("luck", {"dice": 2}, [{"drawn": faces}], who, WHEN)["fragment"]
    return f"{base}#r={fragment}", fragment


def paste(page, text: str) -> None:
    page.fill("[data-paste-link]", text)
    page.click("[data-paste-open]")


def pasted_opens(page, text: str, fragment: str) -> None:
    """Paste `text` on the Table: the address becomes the roll's, the Shared roll panel reads it, no alert."""
    page.goto("/#table")
    page.wait_for_selector("[data-paste-link]")
    paste(page, text)
    wait_until(page, "(f) => location.hash === f", 10_000, "#r=" + fragment, what=repr(text))
    page.wait_for_selector(f"{PANEL}[data-read] [data-shared-outcome]", timeout=30_000)
    assert page.locator(ALERT).inner_text() == ""


def test_a_link_with_anything_around_it_opens_the_shared_roll(phones):  # noqa: F811 (the fixture)
    """The four texts of the evening — a chat line, a trailing full stop, angle brackets, a link wrapped onto two
    lines — each open the roll (the engine says which piece is the link: "<link> lol" is the link, not a longer
    one); so does a text with the same link twice, and a link made by the version 1 packer."""
    b = phones()
    open_app(b, "#table", 360, 640)
    base = b.url.split("#")[0]
    link, fragment = luck_link(base, [6, 2])
    half = len(link) - len(fragment) // 2
    texts = [
        f"Jun: here's my roll {link} lol 🎲",
        f"{link}.",
        f"<{link}>",
        f"{link[:half]}\n{link[half:]}",
        f'"{link}" (again: {link})',
    ]
    for text in texts:
        pasted_opens(b, text, fragment)
        assert b.text_content(f"{PANEL} .who") == "Jun"
    pasted_opens(b, f"Old one: {base}#r={V1_LUCK}!", V1_LUCK)
    assert (
        b.locator(f"{PANEL} [data-shared-outcome]").get_attribute("data-shared-outcome")
        == (api.roll("luck", {"dice": 2}, dice=[6, 2])["outcome"])
    )


def test_two_different_links_in_one_text_are_refused_in_words(phones):  # noqa: F811 (the fixture)
    """A text with two different rolls' links opens neither and says why; garbage still says it is no link."""
    b = phones()
    open_app(b, "#table", 360, 640)
    base = b.url.split("#")[0]
    one, _ = luck_link(base, [6, 2])
    two, _ = luck_link(base, [1, 3])
    for text, words in [(f"{one} and {two}", TWO_LINKS), ("hello", NOT_A_LINK), (f"{one}x", NOT_A_LINK)]:
        paste(b, text)
        wait_until(b, "(w) => document.querySelector('[data-scan-alert]').textContent === w", 10_000, words)
        assert b.evaluate("() => location.hash") == "#table"


def test_a_link_from_a_newer_version_says_to_update(phones):  # noqa: F811 (the fixture)
    """A whole link of a later version than this page reads opens, and its panel says to update the page."""
    b = phones()
    open_app(b, "#table", 360, 640)
    payload = share.unpack(luck_link("", [6, 2])[1])
    newer = {**payload, "v": share.ROLL_VERSION + 1}
    newer["id"] = share._id(newer)
    fragment = share._deflate(newer)
    refused = f"{PANEL}[data-read] [data-shared-refused]"
    paste(b, f"see {b.url.split('#')[0]}#r={fragment}.")
    b.wait_for_selector(refused, timeout=30_000)
    assert "newer version of Arbiter: update this page" in b.text_content(refused)


def test_table_dice_stay_table_dice_on_the_hosts_log(phones):  # noqa: F811 (the fixture)
    """A rolls Luck with the group's own dice (typed on the face pad) and shares it; the Host adds it: the Host's log
    says "Table dice", as A's does."""
    a = phones()
    open_app(a, "#luck=" + quote(json.dumps({"dice": 2})), 360, 640)
    use_table_dice(a, "luck")
    form(a, "luck").locator("button[data-roll]").tap()
    enter(a, "luck", [6, 6])
    wait_until(a, "() => window.arbiterPage.procs.luck.roll !== null", what="the typed roll")
    link = shared_link(a, "luck")
    host = phones()
    open_app(host, "#table", 360, 640)
    open_link(host, link)
    assert host.locator(f"{PANEL} p.muted", has_text="dice:").inner_text() == "Table dice: 6 6"
    add(host)
    (entry,) = shared_entries(host)
    assert entry["source"] == "table" and entry["drawn"] == [6, 6]
    show_view(host, "log")
    dice = host.locator(".log-entry .log-dice").first
    assert dice.inner_text() == "Table dice: 6 6" and dice.get_attribute("data-source") == "table"


def test_back_closes_the_share_sheet_settings_and_the_shared_roll_and_stays(phones):  # noqa: F811 (the fixture)
    """Back from the open Share sheet closes it and stays on the Roll view (the app is not left); so for Settings;
    Back from the Shared roll panel closes it and stays on the Table; a sheet closed with Done leaves no entry
    behind for Back to spend."""
    a = phones()
    a.goto("about:blank")
    open_app(a, "#luck", 360, 640)
    roll(a, "luck")
    at = a.evaluate("() => location.href")
    button = form(a, "luck").locator("[data-result] button[data-share]")
    button.tap()
    a.wait_for_selector(f"{SHEET}[open] a[data-share-link]")
    a.go_back()
    wait_until(a, f"() => !document.querySelector('{SHEET}').open", 5_000, what="the sheet to close")
    assert a.evaluate("() => location.href") == at
    assert a.evaluate("() => document.body.dataset.view") == "roll"
    button.tap()
    a.wait_for_selector(f"{SHEET}[open] a[data-share-link]")
    a.locator(f"{SHEET} [data-share-close]").tap()
    wait_until(a, "() => !history.state?.arbiterOver", 5_000, what="the sheet's entry taken back")
    a.tap("[data-settings-open]")
    a.wait_for_selector("dialog#settings[open]")
    a.go_back()
    wait_until(a, "() => !document.querySelector('dialog#settings').open", 5_000, what="Settings to close")
    assert a.evaluate("() => [location.href, document.body.dataset.view]") == [at, "roll"]
    # the Shared roll panel, opened by a pasted link: Back closes it and stays on the Table
    show_view(a, "table")
    _, fragment = luck_link("", [3, 4])
    paste(a, f"#r={fragment}")
    a.wait_for_selector(f"{PANEL}[data-read]", timeout=30_000)
    a.go_back()
    wait_until(a, f"() => !document.querySelector('{PANEL}')", 5_000, what="the panel to close")
    assert a.evaluate("() => [location.hash, document.body.dataset.view]") == ["#table", "table"]


def test_a_page_opened_with_a_link_closes_its_panel_on_back_without_leaving(phones):  # noqa: F811 (the fixture)
    """A phone that opened a roll's link from outside: Back closes the Shared roll panel and stays on the Table."""
    b = phones()
    b.goto("about:blank")
    _, fragment = luck_link("", [5, 5])
    open_link(b, f"/#r={fragment}")
    b.go_back()
    wait_until(b, f"() => !document.querySelector('{PANEL}')", 5_000, what="the panel to close")
    assert b.evaluate("() => [location.hash, document.body.dataset.view]") == ["#table", "table"]


@pytest.mark.parametrize("name", ["Jun", "  Sam  "])
def test_your_name_goes_with_a_roll_shared_as_nobody(phones, name):  # noqa: F811 (the fixture)
    """A sets "Your name" in Settings (kept on the device: still there after a reload), rolls as nobody and shares;
    the Host's Shared roll panel shows the name, not "Someone"."""
    a = phones()
    open_app(a, "#luck", 360, 640)
    a.tap("[data-settings-open]")
    a.get_by_role("textbox", name="Your name").fill(name)
    a.locator("[data-settings-close]").tap()
    wait_until(a, "() => !history.state?.arbiterOver", 5_000, what="Settings' entry taken back")
    a.reload()
    a.wait_for_selector("body[data-ready]", state="attached", timeout=60_000)
    a.tap("[data-settings-open]")
    assert a.get_by_role("textbox", name="Your name").input_value() == name
    a.locator("[data-settings-close]").tap()
    roll(a, "luck")
    link = shared_link(a, "luck")
    host = phones()
    open_app(host, "#table", 360, 640)
    open_link(host, link)
    assert host.text_content(f"{PANEL} .who") == name.strip()
