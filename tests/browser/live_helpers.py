"""A live table's helpers the browser tests share (issue 32): phones (Chromium contexts of one browser, each its own
storage and connections, watched like `page`, their data channels kept for the test), and the join through the UI by
link: the Host's Table → Start a live table, the player opening the join code's link, the Host pasting the answer."""

from __future__ import annotations

import pytest

from page_helpers import open_app, wait_until

# Test-only: each data channel the page makes is kept where the test can reach it, and every text heard on one, so a
# text can be sent across the real channel and seen to arrive (the page itself never puts its peers on `window`).
CHANNELS = """(() => {
  const make = RTCPeerConnection.prototype.createDataChannel;
  self.__liveChannels = [];
  self.__liveHeard = [];
  RTCPeerConnection.prototype.createDataChannel = function (...args) {
    const channel = make.apply(this, args);
    self.__liveChannels.push(channel);
    channel.addEventListener('message', (event) => self.__liveHeard.push([channel.label, event.data]));
    return channel;
  };
})();"""

# what a player's phone says after a reload (static/live/peers.js): the reload left the table
REJOIN = "This page reloaded, and a reload leaves the live table: ask the Host for a fresh code and scan it here."

# the page's own channel (the other carries who is there): a text sent on it, as the page's peers.send does
SEND = """(text) => self.__liveChannels.filter((c) => c.label === 'arbiter' && c.readyState === 'open').at(-1).send(text)"""


@pytest.fixture
def phones(browser, server, watch):
    """`phones()`: a fresh phone (a context of its own: its storage, its connections), watched like `page` (any
    console error, page error or request to another origin fails the test), with its data channels kept for the
    test; all closed at the end."""
    contexts = []

    def new_phone():
        context = browser.new_context(base_url=server.url, service_workers="block")
        context.route("**/*", watch.route)
        context.on("console", watch.console)
        context.add_init_script(CHANNELS)
        page = context.new_page()
        page.on("pageerror", watch.page_error)
        page.emulate_media(reduced_motion="reduce")
        contexts.append(context)
        return page

    yield new_phone
    for context in contexts:
        context.close()
    if watch.problems:
        pytest.fail("the page reported problems:\n" + "\n".join(watch.problems), pytrace=False)


def live_link(page, kind: str) -> str:
    """The link of the code `page` shows (`offer`: the Host's join code, `answer`: a player's), once shown."""
    css = f"[data-live-{kind}] a[data-live-link]"
    page.wait_for_selector(css, timeout=15_000)
    return page.get_attribute(css, "href")


def wait_count(page, n: int) -> None:
    """Wait until `page` shows `n` peers connected."""
    wait_until(page, "(n) => document.querySelector('[data-live-peers]')?.dataset.count === String(n)", 15_000, n)


def paste(page, text: str) -> None:
    page.fill("[data-paste-link]", text)
    page.click("[data-paste-open]")


def start(host) -> str:
    """The Host starts a live table; its first join code's link."""
    host.click("button[data-live-host]")
    return live_link(host, "offer")


def join(host, player, offer: str, *, loaded: bool = False) -> str:
    """`player` opens the Host's join code `offer` (as its link opened by the camera; or, `loaded`, in Arbiter already
    open, as Scan does) and the Host pastes the answer; the answer's link."""
    if loaded:
        player.evaluate("(link) => { location.hash = new URL(link).hash; }", offer)
    else:
        open_app(player, "#" + offer.split("#", 1)[1])
    answer = live_link(player, "answer")
    paste(host, answer)
    return answer
