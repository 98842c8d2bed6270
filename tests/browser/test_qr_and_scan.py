"""A roll's QR code and the Table's "Receive a roll" (static/share/: qr.js, scan.js, camera.js, link.js): the code
the page draws reads back (zbarimg) as the link it was drawn from; the in-app scanner reads a code from Chromium's
fake camera (a .y4m video written here) and opens its roll's address; a camera refused or absent is said in words;
a pasted link opens, anything else is refused; the encoder and the decoder are saved for offline use once the page is
ready, never before, so that scanning and sharing work offline from the first visit; a table too big for one code
goes as numbered codes, read in any order (issue 30)."""

from __future__ import annotations

import base64
import random
import re
import shutil
import uuid
from pathlib import Path

import pytest

from arbiter import api
from camera_helpers import PHONE, TRACKS, fake_camera_browser, watched_phone, write_y4m
from page_helpers import (
    SUB_PATH,
    form,
    offline_copy_saved,
    open_app,
    read_qr,
    roll,
    serve,
    show_view,
    wait_until,
)
from table_helpers import PUT, create, records

SYSTEMS = {s["id"]: s for s in api.systems()}
NOT_A_ROLL = "That is not an Arbiter roll link."
TOO_LONG = "too long for one code: share the link"
OFFLINE = "the QR code needs the network the first time: share the link"
LAZY = ("static/vendor/", "static/share/scan-worker.js")
# What the service worker saves once the page is ready, where the browser has no BarcodeDetector (py/tools/sw.py)
SAVED_AFTER_READY = ("static/vendor/lean-qr.mjs", "static/vendor/jsQR.js", "static/share/scan-worker.js")


def share_fragment(seed: int = 1, who: str = "Ann") -> str:
    """A real shared roll's fragment, made by the engine in CPython: an Ability Test's example request, rolled."""
    request = next(iter(SYSTEMS["ability_test"]["example_requests"].values()))
    rolled = api.roll("ability_test", request, seed=seed)
    return api.share_link("ability_test", request, [{"drawn": rolled["drawn"]}], who, 1_790_000_000)["fragment"]


QR_OF = """async ([text, label]) => {
    const { qrCode } = await import(new URL('static/share/qr.js', document.baseURI).href);
    try {
        const svg = await qrCode(text, label);
        const holder = document.createElement('div');
        holder.id = 'qr-under-test';
        Object.assign(holder.style, { position: 'fixed', inset: '0', zIndex: 1000, background: '#fff', padding: '16px' });
        holder.append(svg);
        document.body.append(holder);
        const box = svg.getBoundingClientRect();
        return { width: box.width, height: box.height, modules: Number(svg.dataset.modules), tag: svg.tagName,
                 role: svg.getAttribute('role'), name: svg.getAttribute('aria-label'), qr: svg.hasAttribute('data-qr') };
    } catch (error) {
        return { error: error.message };
    }
}"""


def lazy_requests(requests: list[str]) -> list[str]:
    return [url for url in requests if any(f"/{folder}" in url for folder in LAZY)]


# --- the code the page draws --------------------------------------------------------------------------------------


@pytest.mark.skipif(not shutil.which("zbarimg"), reason="zbarimg is not installed (Debian: apt-get install zbar-tools)")
def test_the_qr_code_reads_back_as_the_link(phone_app, phone, tmp_path):
    """On a 360 × 640 phone, qr.js draws a shared roll's link as a code at least 260 CSS px wide that fits the screen,
    named for a screen reader; a screenshot of it, read by zbarimg, gives the same link back."""
    page = phone_app()
    link = page.evaluate("() => location.href.split('#')[0]") + "#r=" + share_fragment()
    drawn = page.evaluate(QR_OF, [link, "QR code of Ann’s roll"])
    assert "error" not in drawn, drawn
    assert drawn["qr"] and drawn["tag"] == "svg" and drawn["role"] == "img" and drawn["name"] == "QR code of Ann’s roll"
    assert 260 <= drawn["width"] == drawn["height"] <= 360 - 2 * 16
    shot = tmp_path / "qr.png"
    page.locator("#qr-under-test").screenshot(path=str(shot))
    assert read_qr(shot) == link


def test_a_text_too_long_for_one_code_is_refused_in_words(app):
    """Past 500 bytes qr.js draws nothing and says why, in words the Share sheet can show; 500 bytes still draw."""
    page = app()
    assert page.evaluate(QR_OF, ["x" * 501, "too long"]) == {"error": TOO_LONG}
    assert page.evaluate(QR_OF, ["x" * 500, "long"])["modules"] <= 85


# --- paste a link -------------------------------------------------------------------------------------------------


def paste(page, text: str) -> None:
    page.fill("[data-paste-link]", text)
    page.click("[data-paste-open]")


def test_paste_opens_a_roll_link_and_refuses_anything_else(phone_app):
    """A whole link, or the fragment alone, becomes the page's address; a text that holds no roll's link is refused
    in words (role="alert") and the address does not change."""
    page = phone_app("#table")
    show_view(page, "table")
    fragment = share_fragment()
    for garbage in ("hello", "https://example.org/#x=abc", "#r=not base64!", "#r="):
        paste(page, garbage)
        assert page.locator("[data-scan-alert][role=alert]").inner_text() == NOT_A_ROLL
        assert page.evaluate("() => location.hash") == "#table"
    paste(page, "  https://someone.github.io/arbiter/#r=" + fragment + "\n")
    wait_until(page, "(f) => location.hash === f", 5_000, "#r=" + fragment)
    assert page.locator("[data-scan-alert]").inner_text() == ""
    page.goto("/#table")
    page.wait_for_selector("[data-paste-link]")
    paste(page, "r=" + share_fragment(seed=2))
    wait_until(page, "(f) => location.hash === f", 5_000, "#r=" + share_fragment(seed=2))


# --- the camera refused or absent ---------------------------------------------------------------------------------

REFUSE_CAMERA = """
navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('refused by the test', '%s'));
"""


@pytest.mark.parametrize(
    "name, words",
    [("NotAllowedError", "The camera is not allowed here"), ("NotFoundError", "No camera was found")],
)
def test_a_camera_refused_or_absent_is_said_and_points_to_paste(phone_app, phone, name, words):
    """getUserMedia refused (the player said no) or finding no camera: the alert says so in words and points to the
    link, the button can be tapped again, and no frame is left open."""
    phone.add_init_script(REFUSE_CAMERA % name)
    page = phone_app("#table")
    page.click("button[data-scan]")
    alert = page.locator("[data-scan-alert][role=alert]")
    alert.wait_for()
    wait_until(page, "() => document.querySelector('[data-scan-alert]').textContent !== ''", 5_000)
    said = alert.inner_text()
    assert said.startswith(words) and "link" in said
    assert page.locator("button[data-scan]").is_enabled()
    assert not page.locator("[data-scan-frame]").is_visible()


# --- the fake camera ----------------------------------------------------------------------------------------------


def test_the_scanner_reads_a_roll_from_the_camera(playwright_session, server, tmp_path):
    """Chromium's fake camera films a shared roll's QR code: "Scan a roll" opens the camera, reads the code with jsQR
    in a worker (Linux Chromium has no BarcodeDetector), puts the roll's fragment in the address, stops the camera
    and hides its frame."""
    fragment = share_fragment(seed=3, who="Mira")
    video = tmp_path / "roll.y4m"
    write_y4m(video, f"{server.url}/#r={fragment}")
    browser = fake_camera_browser(playwright_session, video)
    try:
        context, page, problems, requests = watched_phone(browser, server)
        open_app(page, "#table", 360, 640)
        assert not page.evaluate("() => 'BarcodeDetector' in window")
        page.tap("button[data-scan]")
        wait_until(page, "(f) => location.hash === f", 30_000, "#r=" + fragment)
        assert page.evaluate(TRACKS) == ["ended"]
        assert not page.locator("[data-scan-frame]").is_visible()
        assert page.locator("[data-scan-alert]").inner_text() == ""
        assert any(url.endswith("/static/vendor/jsQR.js") for url in requests)
        # and the roll it read is shown, worked out again by this phone's engine (the Shared roll panel)
        page.wait_for_selector("[data-shared-roll][data-read] [data-shared-outcome]", timeout=30_000)
        assert page.text_content("[data-shared-roll] .who") == "Mira"
        context.close()
        assert problems == []
    finally:
        browser.close()


def test_the_camera_stops_on_cancel_and_when_the_table_is_left(playwright_session, server):
    """A camera that films no code keeps its frame open with Cancel; Cancel stops every track and hides the frame,
    and so does leaving the Table view for another."""
    browser = fake_camera_browser(playwright_session, None)
    try:
        context, page, problems, _ = watched_phone(browser, server)
        open_app(page, "#table", 360, 640)
        show_view(page, "table")
        page.tap("button[data-scan]")
        page.wait_for_selector("[data-scan-frame]:not([hidden]) video")
        wait_until(page, f"() => ({TRACKS})().join() === 'live'", 10_000)
        page.tap("button[data-scan-cancel]")
        assert page.evaluate(TRACKS) == ["ended"]
        assert not page.locator("[data-scan-frame]").is_visible()
        page.tap("button[data-scan]")
        wait_until(page, f"() => ({TRACKS})().join() === 'ended,live'", 10_000)
        show_view(page, "log")
        wait_until(page, f"() => ({TRACKS})().join() === 'ended,ended'", 5_000)
        assert page.evaluate("() => location.hash") == "#log"
        context.close()
        assert problems == []
    finally:
        browser.close()


# --- what a first visit fetches, and what is kept for offline use ------------------------------------------------


def test_the_encoder_and_decoder_are_saved_after_ready_never_before(dist, sw_context):
    """A first visit fetches neither the encoder nor the decoder (nor the worker that runs it: lazy files, which sw.js
    lists apart) before ready: the service worker, registered once the page is ready, saves each once, checked
    against its hash, in the background; offline, a reload draws a code, and a code drawn asks for nothing."""
    server = serve({SUB_PATH: dist})
    try:
        context = sw_context(server.url)
        page = context.new_page()
        page.goto(SUB_PATH)
        page.wait_for_selector("body[data-ready]", state="attached", timeout=60_000)
        offline_copy_saved(page, 60_000)
        paths = [path for _, path, _ in server.requests]
        registered = paths.index(SUB_PATH + "sw.js")  # static/offline/offline.js registers it once the page is ready
        saved = lazy_requests(paths)
        assert sorted(saved) == sorted(SUB_PATH + f for f in SAVED_AFTER_READY)
        assert all(paths.index(path) > registered for path in saved)
        assert page.get_attribute("html", "data-offline-qr") == "saved"
        server.requests.clear()
        assert "error" not in page.evaluate(QR_OF, ["https://example.org/#r=abc", "a code"])
        assert lazy_requests([path for _, path, _ in server.requests]) == []
        context.set_offline(True)
        page.reload()
        page.wait_for_selector("body[data-ready]", state="attached", timeout=60_000)
        assert "error" not in page.evaluate(QR_OF, ["https://example.org/#r=abc", "a code"])
    finally:
        server.shutdown()
        server.server_close()


FORGET_ENCODER = """async () => {
    for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) if (request.url.endsWith('/lean-qr.mjs')) await cache.delete(request);
    }
}"""


def test_offline_without_the_encoder_the_code_says_so_in_words(dist, sw_context):
    """The network gone and the encoder not saved (its copy lost): qrCode refuses in words the Share sheet can show,
    and draws once the network is back."""
    server = serve({SUB_PATH: dist})
    try:
        context = sw_context(server.url)
        page = context.new_page()
        page.goto(SUB_PATH)
        page.wait_for_selector("body[data-ready]", state="attached", timeout=60_000)
        offline_copy_saved(page, 60_000)
        page.evaluate(FORGET_ENCODER)
        context.set_offline(True)
        assert page.evaluate(QR_OF, ["https://example.org/#r=abc", "a code"]) == {"error": OFFLINE}
        context.set_offline(False)
        assert "error" not in page.evaluate(QR_OF, ["https://example.org/#r=abc", "a code"])
        # what the browser logs of the refused fetch, expected here
        context.arbiter_watch.problems = [p for p in context.arbiter_watch.problems if "lean-qr" not in p]
    finally:
        server.shutdown()
        server.server_close()


NO_BARCODE_DETECTOR = "delete globalThis.BarcodeDetector;"


def test_offline_from_the_first_visit_scan_and_share_work(playwright_session, dist, tmp_path):
    """With no BarcodeDetector, one online visit and then no network: "Scan a roll" starts the camera and reads a
    roll's code (jsQR, saved after ready), never "needs the network", and Share this table shows a QR code."""
    fragment = share_fragment(seed=4, who="Jun")
    server = serve({SUB_PATH: dist})
    video = tmp_path / "roll.y4m"
    write_y4m(video, f"{server.url}{SUB_PATH}#r={fragment}")
    browser = fake_camera_browser(playwright_session, video)
    try:
        context = browser.new_context(base_url=server.url, service_workers="allow", **PHONE)
        problems = []
        context.on("console", lambda m: m.type == "error" and problems.append(f"console error: {m.text}"))
        context.on("weberror", lambda e: problems.append(f"uncaught error: {e.error}"))
        context.add_init_script(NO_BARCODE_DETECTOR)
        page = context.new_page()
        page.emulate_media(reduced_motion="reduce")
        page.goto(SUB_PATH)
        page.wait_for_selector("body[data-ready]", state="attached", timeout=60_000)
        offline_copy_saved(page, 60_000)
        context.set_offline(True)
        page.goto(SUB_PATH + "#table")
        page.wait_for_selector("#table[data-ready]", state="attached", timeout=60_000)
        assert not page.evaluate("() => 'BarcodeDetector' in window || navigator.onLine")
        page.tap("button[data-scan]")
        wait_until(page, "(f) => location.hash === f", 30_000, "#r=" + fragment)
        assert "network" not in page.locator("[data-scan-alert]").inner_text()
        page.wait_for_selector("[data-shared-roll][data-read] [data-shared-outcome]", timeout=30_000)
        assert page.text_content("[data-shared-roll] .who") == "Jun"
        show_view(page, "table")
        page.locator("[data-share-table]").tap()
        page.wait_for_selector("dialog[data-share-sheet][open] [data-qr]", timeout=20_000)
        assert page.locator("dialog[data-share-sheet] [data-qr-none]").count() == 0
        context.close()
        assert problems == []
    finally:
        browser.close()
        server.shutdown()
        server.server_close()


# --- a table by QR codes (issue 30) --------------------------------------------------------------------------------

ATTRIBUTES = ("Intelligence", "Wits", "Resolve", "Strength", "Dexterity", "Stamina", "Presence", "Manipulation")
SKILLS = ("Academics", "Brawl", "Drive", "Empathy", "Firearms", "Larceny", "Occult", "Stealth", "Subterfuge")
CODE = r"ARBT1/[0-9A-F]{12}/{k}/{n}/[0-9A-Z $%*+\-./:]+"


def filled_character(seed: int, name: str, stats: int) -> dict:
    """A d10 pool character (ten_again) whose sheet is filled: `stats` Attributes and as many Skills, each with its
    own id as the page makes them (a UUID), as a table keeps it ({"id", "data"})."""
    r = random.Random(seed)
    new_id = lambda: str(uuid.UUID(int=r.getrandbits(128), version=4))  # noqa: E731
    return {
        "id": new_id(),
        "data": {
            "kind": "ten_again",
            "name": name,
            "created": f"2026-11-2{seed % 10}T19:0{seed % 10}:00.000Z",
            "sheet": {
                "attributes": [{"id": new_id(), "name": a, "dots": r.randint(1, 5)} for a in ATTRIBUTES[:stats]],
                "skills": [
                    {"id": new_id(), "name": s, "dots": r.randint(0, 5), "trained": r.random() < 0.7}
                    for s in SKILLS[:stats]
                ],
                "resolve": 3,
                "composure": 2,
                "will": 4,
            },
        },
    }


def put_characters(page, characters: list[dict]) -> None:
    """Keep `characters` on this phone's table (as its store keeps records), then reload it."""
    create(page, "ten_again", "Template")
    (template,) = [r for k, r in records(page).items() if k.startswith("char:")]
    page.evaluate(PUT, [{**template, "id": f"char:{c['id']}", "data": c["data"]} for c in characters])
    page.evaluate(
        """(id) => new Promise((resolve) => {
        const open = indexedDB.open('arbiter-table');
        open.onsuccess = () => { const tx = open.result.transaction('records', 'readwrite');
          tx.objectStore('records').delete(id); tx.oncomplete = () => { open.result.close(); resolve(); }; };
    })""",
        template["id"],
    )
    page.reload()
    page.wait_for_selector("#table[data-ready]", state="attached", timeout=60_000)


def shown_codes(page, tmp_path: Path) -> list[str]:
    """Every code of the Share sheet's sequence, each read by zbarimg from a screenshot, stepping through them with
    Pause and Next as a player holding up one code at a time."""
    cycle = page.locator("dialog[data-share-sheet][open] [data-qr-cycle]")
    cycle.wait_for(timeout=20_000)
    wait_until(page, "() => document.querySelector('[data-qr-cycle]').dataset.at !== '1'", 10_000, what="cycling")
    page.locator("[data-qr-play]").tap()  # Pause: the codes stay put while each is filmed
    assert page.text_content("[data-qr-play]") == "Play"
    n = int(page.text_content("[data-qr-count]").split(" of ")[1])
    texts = []
    for k in range(n):
        at = int(cycle.get_attribute("data-at"))
        shot = tmp_path / f"code-{at}.png"
        cycle.locator("[data-qr]").screenshot(path=str(shot))
        texts.append((at, read_qr(shot)))
        page.locator("[data-qr-next]").tap()
    assert sorted(at for at, _ in texts) == list(range(1, n + 1))
    before = int(cycle.get_attribute("data-at"))
    page.locator("[data-qr-prev]").tap()
    assert int(cycle.get_attribute("data-at")) == (before - 2) % n + 1
    assert page.text_content("[data-qr-count]") == f"{(before - 2) % n + 1} of {n}"
    return [text for _, text in sorted(texts)]


BASE45 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"


def base45(data: bytes) -> str:
    """RFC 9285, written again here: the test's own, not the page's."""
    out = []
    for i in range(0, len(data), 2):
        n, count = (data[i] * 256 + data[i + 1], 3) if i + 1 < len(data) else (data[i], 2)
        for _ in range(count):
            n, digit = divmod(n, 45)
            out.append(BASE45[digit])
    return "".join(out)


def table_codes(table_id: str, fragment: str, part: int = 384) -> list[str]:
    """The codes of a table's fragment as static/share/codes.js frames them, each part `part` bytes."""
    data = base64.urlsafe_b64decode(fragment + "=" * (-len(fragment) % 4))
    parts = [data[i : i + part] for i in range(0, len(data), part)]
    return [f"ARBT1/{table_id.upper()}/{k}/{len(parts)}/{base45(p)}" for k, p in enumerate(parts, 1)]


SHARE_CASES = {
    "three characters": [filled_character(i, name, 3) for i, name in enumerate(("Mira", "Rook", "Sam"))],
    "six filled characters": [
        filled_character(10 + i, name, 6) for i, name in enumerate(("Mira", "Rook", "Sam", "Ann", "Jun", "Bo"))
    ],
}


@pytest.mark.skipif(not shutil.which("zbarimg"), reason="zbarimg is not installed (Debian: apt-get install zbar-tools)")
@pytest.mark.parametrize("case", list(SHARE_CASES))
def test_a_table_goes_by_numbered_codes_scanned_in_any_order(
    phone_app, phone, playwright_session, server, tmp_path, case
):
    """A table with characters, too big for one code, is offered on the Share sheet as numbered codes (each version 15
    at most, "k of n" framed with the share's id, at most 8) that zbarimg reads from screenshots; another phone's
    camera films them in another order ("2 of n read"), and opens the table's Shared panel as its link would: the same
    fragment, and once Replace is said yes to, the same records."""
    characters = SHARE_CASES[case]
    page = phone_app("#table")
    put_characters(page, characters)
    page.locator("[data-k='share:characters']").check()
    page.locator("[data-share-table]").tap()
    page.wait_for_selector("dialog[data-share-sheet][open] a[data-share-link]")
    link = page.get_attribute("dialog[data-share-sheet] a[data-share-link]", "href")
    fragment = link.split("#t=", 1)[1]
    texts = shown_codes(page, tmp_path)
    n = len(texts)
    table_id = api.shared_table(fragment)["id"].upper()
    assert 2 <= n <= 8
    for k, text in enumerate(texts, 1):
        assert re.fullmatch(CODE.replace("{k}", str(k)).replace("{n}", str(n)), text), text[:40]
        assert text.startswith(f"ARBT1/{table_id}/") and len(text) <= 600
    assert int(page.locator("[data-qr-cycle] [data-qr]").get_attribute("data-modules")) <= 77  # version 15
    # the link stays, and wraps inside the sheet at 360 px
    assert page.evaluate(
        """() => { const a = document.querySelector('[data-share-link]').getBoundingClientRect();
        const d = document.querySelector('dialog[data-share-sheet]').getBoundingClientRect();
        return a.right <= d.right && a.left >= d.left && document.documentElement.scrollWidth <= innerWidth; }"""
    )
    order = list(range(n))
    random.Random(n).shuffle(order)
    order = order[1:] + order[:1] if order == sorted(order) else order
    video = tmp_path / "codes.y4m"
    write_y4m(video, [texts[k] for k in order], frames=4)
    browser = fake_camera_browser(playwright_session, video)
    try:
        context, other, problems, _ = watched_phone(browser, server)
        open_app(other, "#table", 360, 640)
        other.evaluate(
            "() => { window.__said = []; new MutationObserver(() => window.__said.push("
            "document.querySelector('[data-scan-progress]').textContent)).observe("
            "document.querySelector('[data-scan-progress]'), { childList: true, characterData: true, "
            "subtree: true }); }"
        )
        other.tap("button[data-scan]")
        wait_until(other, "(f) => location.hash === f", 90_000, "#t=" + fragment)
        said = other.evaluate("window.__said")
        assert said[-1] == f"{n} of {n} read" and f"2 of {n} read" in said, said
        assert other.evaluate(TRACKS) == ["ended"]
        other.wait_for_selector("[data-shared-roll] [data-k='shared:replace']", timeout=30_000)
        other.locator("[data-k='shared:replace']").tap()
        other.locator("[data-k='shared:replace:yes']").tap()
        other.wait_for_selector("[data-shared-roll] [data-shared-replaced]", timeout=20_000)
        mine, theirs = records(page), records(other)
        for key in ("shared:scheme", "shared:price", *(f"char:{c['id']}" for c in characters)):
            if key == "shared:scheme":  # the Host's Scheme, received, is set on this phone (never set on the sender's)
                assert theirs[key]["data"]["set"] is True
                assert {**theirs[key]["data"], "set": None} == {**mine[key]["data"], "set": None}, key
                continue
            assert theirs[key]["data"] == mine[key]["data"], key
        context.close()
        assert problems == []
    finally:
        browser.close()


def test_each_code_of_a_table_pasted_in_any_order_opens_it(phone_app):
    """Without a camera, each code's text pasted in turn is collected as scanning would ("1 of n read"), and the
    last opens the table's link; a code of another table meanwhile starts again."""
    characters = SHARE_CASES["six filled characters"]
    link = api.share_table({"scheme": 2, "tracked": True}, api_price(), characters)
    page = phone_app("#table")
    texts = table_codes(link["id"], link["fragment"])
    assert len(texts) >= 2
    for i, text in enumerate(reversed(texts), 1):
        paste(page, text)
        if i < len(texts):
            assert page.text_content("[data-scan-progress]") == f"{i} of {len(texts)} read"
            assert page.evaluate("() => location.hash") == "#table"
    wait_until(page, "(f) => location.hash === f", 5_000, "#t=" + link["fragment"])
    page.wait_for_selector("[data-shared-roll] [data-k='shared:replace']", timeout=30_000)


def test_a_table_past_eight_codes_keeps_its_link_and_says_why(phone_app):
    """A table too big for 8 codes (eight characters, their sheets full) draws none: the sheet says so in words and
    keeps the link for Copy and Share."""
    page = phone_app("#table")
    put_characters(page, [filled_character(20 + i, f"Player {i}", 8) for i in range(8)])
    page.locator("[data-k='share:characters']").check()
    page.locator("[data-share-table]").tap()
    none = page.locator("dialog[data-share-sheet][open] [data-qr-none]")
    none.wait_for(timeout=20_000)
    assert none.inner_text() == "Too big for 8 codes: share the link."
    assert "#t=" in page.get_attribute("dialog[data-share-sheet] a[data-share-link]", "href")
    assert page.locator("dialog[data-share-sheet] [data-qr]").count() == 0


def api_price() -> dict:
    return {
        "current": "s1",
        "situations": [{"id": "s1", "name": "Docks", "marked": [{"option": 2, "by": "Bo"}], "player": ""}],
    }


# --- the sheet stays put under the thumb ----------------------------------------------------------------------------

WATCH_DONE = """() => { window.__tops = [];
    const top = (what) =>
        Math.round(document.querySelector(`dialog[data-share-sheet] ${what}`).getBoundingClientRect().top);
    new MutationObserver(() => {
        if (document.querySelector('dialog[data-share-sheet][open]'))
            window.__tops.push([top('[data-share-close]'), top('[data-share-copy]'), top('[data-share-link]')]);
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
}"""


@pytest.mark.parametrize("case", ["a roll", "a table too big for one code"])
def test_done_stays_under_the_thumb_while_the_sheet_fills(phone_app, case):
    """From the moment the Share sheet opens, while its QR code (or a table's codes, in turn) is drawn and after Copy
    says how it went, Done, Copy and the link do not move, and Done is on the 360 × 640 screen without scrolling: a
    thumb on its way to Done lands on Done, never on the link (which would open it) or on the code that just came."""
    if case == "a roll":
        page = phone_app("#luck")
        roll(page, "luck")
        page.evaluate(WATCH_DONE)
        form(page, "luck").locator("[data-result] button[data-share]").tap()
    else:
        page = phone_app("#table")
        put_characters(page, SHARE_CASES["three characters"])
        page.locator("[data-k='share:characters']").check()
        page.evaluate(WATCH_DONE)
        page.locator("[data-share-table]").tap()
    page.wait_for_selector("dialog[data-share-sheet][open] [data-qr]", timeout=20_000)
    page.locator("dialog[data-share-sheet] [data-share-copy]").tap()
    wait_until(page, "() => document.querySelector('[data-share-copied]').textContent !== ''", 5_000, what="Copy")
    if case != "a roll":
        page.locator("[data-qr-next]").tap()
    tops = page.evaluate("() => window.__tops")
    assert len(tops) > 2 and len({tuple(t) for t in tops}) == 1, tops
    done = page.locator("dialog[data-share-sheet] [data-share-close]").bounding_box()
    assert done["y"] >= 0 and done["y"] + done["height"] <= 640, done


@pytest.mark.parametrize("sheet", ["share", "settings"])
def test_a_double_tap_on_done_rolls_nothing_and_stays(phone_app, sheet):
    """An impatient thumb's double tap on Done (the Share sheet's, or Settings'): the first closes the sheet, the second,
    100 ms later at the same spot, lands on what was under it and neither rolls, spends, logs nor leaves the view."""
    page = phone_app("#luck")
    roll(page, "luck")
    if sheet == "share":
        form(page, "luck").locator("[data-result] button[data-share]").tap()
        page.wait_for_selector("dialog[data-share-sheet][open] [data-qr]", timeout=20_000)
        done = page.locator("[data-share-close]")
    else:
        page.tap("[data-settings-open]")
        page.wait_for_selector("dialog#settings[open]")
        done = page.locator("[data-settings-close]")
    box = done.bounding_box()
    before = page.evaluate("() => [window.arbiterPage.procs.luck.roll, document.querySelectorAll('.log-entry').length]")
    for k in range(2):
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        if k == 0:
            page.wait_for_timeout(100)
    page.wait_for_timeout(1_000)  # whatever the second tap started has had time to show
    assert not page.evaluate("() => [...document.querySelectorAll('dialog')].some((d) => d.open)")
    after = page.evaluate("() => [window.arbiterPage.procs.luck.roll, document.querySelectorAll('.log-entry').length]")
    assert after == before
    assert page.evaluate("() => [document.body.dataset.view, location.hash]") == ["roll", "#luck"]
