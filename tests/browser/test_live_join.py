"""A live table joined by two codes, with no server (issue 32, the join: static/live/): in Chromium contexts of one
browser, each its own phone, the Host's Table → Start a live table shows a join code (QR and link, the whole link at
most 300 characters); a player opens it (or it is read off the QR code with zbarimg) and shows its answer; the Host
pastes that, and both show one peer; each phone's Arbiter scans the other's code with its camera (Chromium's fake
one) and they join; a text crosses the data channel; three phones (a fresh code each) show two
players on the Host; a player's reload is told how to join again, the Host shows it gone and offers a fresh code, and
the player joins again; a code that is bad, or on the wrong phone, is refused in words. No request leaves the page's
origin (the `watch` of every context: no ICE server is named)."""

from __future__ import annotations

import shutil
import statistics
import time

import pytest

import live_helpers
from camera_helpers import TRACKS, fake_camera_browser, watched_phone, write_y4m
from live_helpers import REJOIN, join, live_link, paste, start, wait_count
from page_helpers import open_app, read_qr, wait_until

LINK_CHARS = 300
NOT_HOSTING = "This phone hosts no live table: an answer code is for the Host’s phone, which showed the join code."
HOSTING = "This phone hosts the live table: a join code is for a player’s phone."
HOST_RELOADED = (
    "This page reloaded, and a reload ends the live table: start it again and give each player a fresh code."
)
HOST_LEFT = "The Host’s phone left the live table: ask the Host for a fresh code to join again."
TAKEN = "This answer code was taken already."
OTHER_CODE = "This answer is for another join code: the player must scan the code this phone shows now, and answer it."

phones = live_helpers.phones  # the fixture: a fresh phone a call (live_helpers.py, shared with test_live_sync.py)


def count(page) -> int:
    return int(page.get_attribute("[data-live-peers]", "data-count"))


def says(page, words: str, css: str = "[data-live-said]") -> None:
    """Wait until `page` says `words` (what it says of the live table, or under `css`), or fail saying what it says."""
    try:
        wait_until(
            page,
            "([css, words]) => document.querySelector(css)?.textContent.startsWith(words)",
            15_000,
            [css, words],
            what=f"{words!r} under {css}",
        )
    except pytest.fail.Exception as failed:
        said = page.evaluate(
            "() => ['[data-live-said]', '[data-scan-alert]', '[data-paste-link]'].map((c) => {"
            " const e = document.querySelector(c); return `${c}: ${e ? e.textContent || e.value : '(none)'}`; })"
        )
        pytest.fail(f"{failed}; it says {said} at {page.evaluate('location.hash')}", pytrace=False)


def test_host_and_player_join_by_link_and_a_text_crosses(phones):
    """The Host's join code and the player's answer are links of at most 300 characters; once the Host pastes the
    answer, both show one peer (connected; before Start, the Host's phone said where a live table works), the address forgets the code, and a text sent on the channel arrives on
    the other phone, each way."""
    host, player = open_app(phones(), "#table"), phones()
    where = host.inner_text("[data-live-where]")  # the Start screen says where a live table works, and what else
    assert "same Wi-Fi or on the Host’s hotspot" in where and "mobile data" in where and "link or QR code" in where
    offer = start(host)
    assert len(offer) <= LINK_CHARS and "#j=" in offer, offer
    host.wait_for_selector("[data-live-offer] svg[data-qr]")
    # the section holds its parts, no stray text between them (a part not there once drew as "null")
    loose = "() => [...document.querySelector('[data-part=live]').childNodes].filter((n) => n.nodeType === 3).length"
    assert host.evaluate(loose) == 0
    open_app(player, "#" + offer.split("#", 1)[1])
    answer = live_link(player, "answer")
    assert len(answer) <= LINK_CHARS and "#a=" in answer, answer
    player.wait_for_selector("[data-live-answer] svg[data-qr]")  # shown until the connection opens
    paste(host, answer)
    wait_count(host, 1)
    wait_count(player, 1)
    assert host.get_attribute("[data-live-peers] li", "data-state") == "open"
    assert player.evaluate("() => location.hash") == "#table"  # a reload would not take the code again
    assert host.evaluate("() => location.hash") == "#table"
    for sender, hearer, text in ((host, player, "from the Host"), (player, host, "from a player")):
        sender.evaluate(
            "(text) => self.__liveChannels.find((c) => c.label === 'arbiter' && c.readyState === 'open').send(text)",
            text,
        )
        wait_until(hearer, "(text) => self.__liveHeard.some(([l, t]) => l === 'arbiter' && t === text)", 5_000, text)


@pytest.mark.skipif(not shutil.which("zbarimg"), reason="zbarimg is not installed (Debian: apt-get install zbar-tools)")
def test_the_codes_read_off_their_qr_codes_join(phones, tmp_path):
    """Each code's QR code, screenshot and read by zbarimg, is its link; the links so read join the two phones. On a
    360 px phone each code is drawn as big as the Share sheet's (at least 260 CSS px, inside the screen), in the room
    kept for it before it came."""
    host, player = open_app(phones(), "#table", 360, 640), open_app(phones(), "#table", 360, 640)
    offer = start(host)
    host.wait_for_selector("[data-live-offer] svg[data-qr]")
    box = host.locator("[data-live-offer] [data-qr]").bounding_box()
    assert 260 <= box["width"] == box["height"] <= 360 and box["x"] >= 0 and box["x"] + box["width"] <= 360, box
    kept = host.evaluate("() => getComputedStyle(document.querySelector('[data-live-offer] .share-qr')).minHeight")
    assert kept == f"{box['height']:g}px", (kept, box)
    host.locator("[data-live-offer] [data-qr]").screenshot(path=str(tmp_path / "offer.png"))
    read = read_qr(tmp_path / "offer.png")
    assert read == offer
    player.evaluate("(link) => { location.hash = new URL(link).hash; }", read)
    answer = live_link(player, "answer")
    player.wait_for_selector("[data-live-answer] svg[data-qr]")
    player.locator("[data-live-answer] [data-qr]").screenshot(path=str(tmp_path / "answer.png"))
    read = read_qr(tmp_path / "answer.png")
    assert read == answer
    paste(host, read)
    wait_count(host, 1)
    wait_count(player, 1)


def test_three_phones_a_fresh_code_each(phones):
    """Each join gets a fresh code on the Host; with two players joined the Host shows 2, each player 1."""
    host = open_app(phones(), "#table")
    first = start(host)
    a, b = phones(), phones()
    join(host, a, first)
    wait_count(host, 1)
    second = live_link(host, "offer")
    assert second != first
    join(host, b, second)
    wait_count(host, 2)
    wait_count(a, 1)
    wait_count(b, 1)
    assert live_link(host, "offer") not in (first, second)
    assert host.locator("[data-live-peers] li[data-state=open]").count() == 2


def test_six_players_join_and_then_the_table_is_full(phones):
    """Up to six players, each by a fresh code: with six joined the Host shows 6, offers no seventh code and says
    the table is full; one leaving frees a place, and the Host offers a fresh code again."""
    host = open_app(phones(), "#table")
    offer, players = start(host), []
    for n in range(1, 7):
        player = phones()
        join(host, player, offer)
        wait_count(host, n)
        wait_count(player, 1)
        players.append(player)
        if n < 6:
            offer = live_link(host, "offer")
    says(host, "6 players have joined: the table is full.")
    assert host.locator("[data-live-offer]").count() == 0
    players[0].context.close()  # a player leaves (the phone's page gone)
    wait_count(host, 5)
    assert live_link(host, "offer") != offer


def test_a_reload_is_told_how_to_rejoin_and_does(phones):
    """A player whose page reloads is told how to join again; the Host shows that player gone (its count back to 0)
    and offers a fresh code, which the player joins by."""
    host = open_app(phones(), "#table")
    player = phones()
    join(host, player, start(host))
    wait_count(host, 1)
    wait_count(player, 1)
    player.reload()
    player.wait_for_selector("#table[data-ready]", state="attached", timeout=60_000)
    says(player, REJOIN)
    assert count(player) == 0
    wait_count(host, 0)
    assert host.get_attribute("[data-live-peers] li", "data-state") == "closed"
    join(host, player, live_link(host, "offer"), loaded=True)
    wait_count(host, 1)
    wait_count(player, 1)
    assert player.locator("[data-live-said][role=alert]").count() == 0


def test_the_hosts_reload_ends_the_table_and_says_so(phones):
    """The Host's page reloading ends the live table: the player's phone says the Host left and how to join again,
    the Host's says to start again, and offers Start."""
    host = open_app(phones(), "#table")
    player = phones()
    join(host, player, start(host))
    wait_count(player, 1)
    host.reload()
    host.wait_for_selector("#table[data-ready]", state="attached", timeout=60_000)
    says(host, HOST_RELOADED)
    assert host.locator("button[data-live-host]").count() == 1
    says(player, HOST_LEFT)
    wait_count(player, 0)


def test_ending_a_table_with_players_asks_once_more_and_a_double_tap_keeps_it(phones):
    """A stray tap on End drops every player, who then each need a fresh code: with players connected, End asks once
    more, its "Keep the live table" over where End was, so a double tap keeps the table; "End it for everyone" ends it, and the
    player's phone says the Host left. A player's Leave asks the same."""
    host = open_app(phones(), "#table")
    player = phones()
    join(host, player, start(host))
    wait_count(host, 1)
    wait_count(player, 1)
    host.wait_for_selector("[data-live-offer] a[data-live-link]")  # the next player's code drawn: nothing moves
    host.locator("[data-live-leave]").dblclick()  # the second tap lands on "Keep the live table"
    assert host.locator("[data-live-ask]").count() == 0 and host.locator("[data-live-leave]").count() == 1
    assert count(host) == 1 and count(player) == 1
    player.locator("[data-live-leave]").click()
    says(player, "Leave the live table? You are connected", "[data-live-ask]")
    player.locator("[data-live-keep]").click()
    host.locator("[data-live-leave]").click()
    says(host, "End the live table? 1 player is connected: each needs a fresh code", "[data-live-ask]")
    assert host.evaluate("document.activeElement.hasAttribute('data-live-keep')")  # the safe answer has the focus
    host.locator("[data-live-end]").click()
    says(player, HOST_LEFT)
    wait_count(player, 0)
    assert host.locator("button[data-live-host]").count() == 1
    host.locator("button[data-live-host]").click()  # no player connected: nothing to ask before ending
    host.wait_for_selector("[data-live-offer] a[data-live-link]")
    host.locator("[data-live-leave]").click()
    host.wait_for_selector("button[data-live-host]")


def test_a_code_on_the_wrong_phone_or_altered_is_refused_in_words(phones):
    """An answer pasted on a phone that hosts nothing, a join code opened on the Host, an answer to an older code and
    an altered answer are each refused in words; the table goes on."""
    host, player, other = open_app(phones(), "#table"), phones(), open_app(phones(), "#table")
    offer = start(host)
    open_app(player, "#" + offer.split("#", 1)[1])
    answer = live_link(player, "answer")
    paste(other, answer)
    says(other, NOT_HOSTING)
    host.evaluate("(link) => { location.hash = new URL(link).hash; }", offer)
    says(host, HOSTING)
    paste(host, answer[:-9])
    says(host, "This answer code cannot be used: it is cut", "[data-scan-alert]")
    paste(host, answer)
    wait_count(host, 1)
    paste(host, answer)  # again: that join code was answered already
    says(host, TAKEN)
    wait_count(player, 1)
    # an answer to a join code this Host never showed (another Host's): refused
    late = phones()
    open_app(late, "#" + start(other).split("#", 1)[1])
    paste(host, live_link(late, "answer"))
    says(host, OTHER_CODE)
    wait_count(host, 1)


@pytest.mark.benchmark(group="live-join")
def test_bench_join_by_link(phones, benchmark):
    """How long a join takes, by link in Arbiter already open (Scan's way): the Host's Start tapped, until both show
    one peer; the median of several joins is the figure docs/features.md gives."""
    host, player = open_app(phones(), "#table"), open_app(phones(), "#table")
    times = []

    def one_join():
        started = time.monotonic()
        offer = start(host)
        join(host, player, offer, loaded=True)
        wait_count(host, 1)
        wait_count(player, 1)
        times.append(time.monotonic() - started)
        host.click("[data-live-leave]")
        host.click("[data-live-end]")  # asked once more: players are connected
        wait_count(player, 0)

    benchmark.pedantic(one_join, rounds=5, iterations=1)
    print(f"live join by link: median {statistics.median(times):.2f} s of {len(times)}")


def test_each_phone_scans_the_others_code_in_arbiter(playwright_session, server, tmp_path):
    """As at the table: the player's Arbiter scans the Host's join code with its camera (Table → Scan a roll), shows
    its answer, and the Host's Arbiter scans that: both show one peer. Chromium's fake camera films each code (a video
    written once the code is shown, read when the camera starts); both phones are contexts of that one browser."""
    video = tmp_path / "code.y4m"
    browser = fake_camera_browser(playwright_session, video)
    try:
        (host_context, host, host_problems, _), (player_context, player, player_problems, _) = (
            watched_phone(browser, server),
            watched_phone(browser, server),
        )
        open_app(host, "#table", 360, 640)
        open_app(player, "#table", 360, 640)
        offer = start(host)
        write_y4m(video, offer)
        player.tap("button[data-scan]")
        answer = live_link(player, "answer")
        assert player.evaluate(TRACKS) == ["ended"]  # the camera stopped once the code was read
        write_y4m(video, answer)
        host.tap("button[data-scan]")
        wait_count(host, 1)
        wait_count(player, 1)
        assert host.evaluate(TRACKS) == ["ended"]
        host_context.close()
        player_context.close()
        assert host_problems == [] and player_problems == []
    finally:
        browser.close()
