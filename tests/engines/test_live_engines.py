"""A live table joined across engines (issue 32): the Host in one browser engine, the player in another, join by
their two codes (the player opens the join code's link, the Host pastes the answer) and both show one peer. Two
different browsers cannot resolve each other's mDNS names (the local-address hiding each uses by default; two phones
on one Wi-Fi can), so here Chromium runs with `--disable-features=WebRtcHideLocalIpsWithMdns` and Firefox with
`media.peerconnection.ice.obfuscate_host_addresses` false. WebKitGTK joins where its build has WebRTC
(`RTCPeerConnection`); Debian's MiniBrowser says whether it does, and the test is skipped, saying so, when not."""

from __future__ import annotations

import pytest

import engine_drivers
import steps
from tools.testenv import CHROMIUM_ARGS, chromium_path

NO_MDNS_CHROMIUM = "--disable-features=WebRtcHideLocalIpsWithMdns"
WEBKIT_WEBRTC = "--enable-webrtc=true"  # WebKitGTK's setting, off by default
NO_MDNS_FIREFOX = {"media.peerconnection.ice.obfuscate_host_addresses": False}


@pytest.fixture(scope="module")
def chromium(playwright_session):
    """A Chromium of its own, its host addresses not hidden behind mDNS names."""
    browser = playwright_session.chromium.launch(
        executable_path=chromium_path(), args=[*CHROMIUM_ARGS, NO_MDNS_CHROMIUM]
    )
    yield lambda: engine_drivers.PlaywrightDriver(browser.new_context().new_page())
    browser.close()


@pytest.fixture(scope="module")
def firefox(tmp_path_factory):
    why = engine_drivers.missing("firefox")
    if why:
        pytest.skip(why)
    driver = engine_drivers.start_firefox(tmp_path_factory.mktemp("firefox-live"), prefs=NO_MDNS_FIREFOX)
    yield lambda: driver
    driver.close()


@pytest.fixture(scope="module")
def webkit():
    why = engine_drivers.missing("webkit")
    if why:
        pytest.skip(why)
    driver = engine_drivers.start_webkit(settings=(WEBKIT_WEBRTC,))
    yield lambda: driver
    driver.close()


def code_link(d, kind: str) -> str:
    css = f"[data-live-{kind}] a[data-live-link]"
    return steps.wait_until(
        d, "(css) => document.querySelector(css)?.href", css, timeout_s=30, what=f"the {kind} code's link"
    )


def peers_shown(d) -> int:
    return int(d.run("() => document.querySelector('[data-live-peers]')?.dataset.count ?? -1"))


def live_join(host, player, server) -> None:
    """The Host starts a live table; the player opens its join code's link; the Host pastes the answer; both show
    one peer."""
    steps.open_app(host, server.url + "#table", table=True)
    host.click("button[data-live-host]")
    offer = code_link(host, "offer")
    steps.open_app(player, offer, table=True)
    answer = code_link(player, "answer")
    assert len(offer) <= 300 and len(answer) <= 300, (offer, answer)
    host.fill("[data-paste-link]", answer)
    host.click("[data-paste-open]")
    for d in (host, player):
        steps.wait_until(
            d,
            "() => document.querySelector('[data-live-peers]')?.dataset.count === '1'",
            timeout_s=30,
            what=f"{d.name} to show one peer",
        )


@pytest.mark.parametrize("host_engine, player_engine", [("chromium", "firefox"), ("firefox", "chromium")])
def test_chromium_and_firefox_join(request, server, host_engine, player_engine):
    """A Chromium Host and a Firefox player, and the other way round, join by their two codes."""
    host = request.getfixturevalue(host_engine)()
    player = request.getfixturevalue(player_engine)()
    try:
        live_join(host, player, server)
    finally:
        for d in (host, player):
            errors = d.collect_errors()
            if d.name == "chromium":
                d.close()
            else:
                d.goto("about:blank")  # its connections closed
            assert not errors, errors


@pytest.mark.parametrize("host_engine, player_engine", [("chromium", "webkit"), ("webkit", "chromium")])
def test_webkit_joins_where_it_has_webrtc(request, server, host_engine, player_engine):
    """WebKitGTK and Chromium join by their two codes, where WebKitGTK's build has WebRTC."""
    webkit = request.getfixturevalue("webkit")()
    steps.open_app(webkit, server.url + "#table", table=True)
    if not webkit.run("() => typeof RTCPeerConnection === 'function'"):
        pytest.skip(
            "this WebKitGTK has no WebRTC (RTCPeerConnection is not defined, even with MiniBrowser's --enable-webrtc=true): its live table cannot join"
        )
    chromium = request.getfixturevalue("chromium")()
    host, player = (chromium, webkit) if host_engine == "chromium" else (webkit, chromium)
    try:
        live_join(host, player, server)
    finally:
        chromium.close()
        webkit.goto("about:blank")
