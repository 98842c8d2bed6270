"""A roll's QR code and the Table's "Receive a roll" (static/share/: qr.js, scan.js, camera.js, link.js): the code
the page draws reads back (zbarimg) as the link it was drawn from; the in-app scanner reads a code from Chromium's
fake camera (a .y4m video written here) and opens its roll's address; a camera refused or absent is said in words;
a pasted link opens, anything else is refused; the encoder and the decoder are fetched only when first used, never
with the first visit (nor by the service worker's install), and kept for offline use once they were."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import segno

from arbiter import api
from page_helpers import SUB_PATH, offline_copy_saved, open_app, read_qr, serve, show_view, wait_until
from tools.testenv import CHROMIUM_ARGS, chromium_path

SYSTEMS = {s["id"]: s for s in api.systems()}
NOT_A_ROLL = "That is not an Arbiter roll link."
TOO_LONG = "too long for one code: share the link"
OFFLINE = "the QR code needs the network the first time: share the link"
PHONE = {"viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
LAZY = ("static/vendor/", "static/share/scan-worker.js")


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


def write_y4m(path: Path, text: str | None, frames: int = 8) -> None:
    """A 640 × 480 YUV4MPEG2 (C420) video of `text`'s QR code, black on white and centred (segno draws it), or of a
    grey frame with none when `text` is None."""
    width, height = 640, 480
    luma = bytearray(b"\x80" * (width * height))
    if text is not None:
        luma = bytearray(b"\xff" * (width * height))
        code = segno.make(text, error="m", micro=False)
        rows = [list(row) for row in code.matrix_iter(scale=1, border=4)]
        scale = height // len(rows)
        left, top = (width - scale * len(rows)) // 2, (height - scale * len(rows)) // 2
        for y, row in enumerate(rows):
            for x, dark in enumerate(row):
                if dark:
                    for dy in range(scale):
                        start = (top + y * scale + dy) * width + left + x * scale
                        luma[start : start + scale] = b"\x00" * scale
    chroma = b"\x80" * (width // 2 * height // 2)
    with open(path, "wb") as f:
        f.write(f"YUV4MPEG2 W{width} H{height} F5:1 Ip A1:1 C420jpeg\n".encode())
        for _ in range(frames):
            f.write(b"FRAME\n" + bytes(luma) + chroma + chroma)


def fake_camera_browser(playwright_session, video: Path | None):
    """A Chromium of its own whose camera is Chromium's fake device (playing `video`, else its own moving picture),
    allowed without asking: the flags are browser-wide."""
    args = [*CHROMIUM_ARGS, "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"]
    if video is not None:
        args.append(f"--use-file-for-fake-video-capture={video}")
    return playwright_session.chromium.launch(executable_path=chromium_path(), args=args)


# Every stream the page gets is kept where the test can see whether its tracks were stopped.
KEEP_STREAMS = """
if (globalThis.navigator?.mediaDevices) {  // the page, not its workers
    window.__streams = [];
    const getUserMedia = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
    navigator.mediaDevices.getUserMedia = async (constraints) => {
        const stream = await getUserMedia(constraints);
        window.__streams.push(stream);
        return stream;
    };
}
"""
TRACKS = "() => window.__streams.flatMap((s) => s.getTracks()).map((t) => t.readyState)"


def watched_phone(browser, server):
    """A phone context on the served site, with its console errors, uncaught errors and requests recorded."""
    context = browser.new_context(base_url=server.url, service_workers="block", **PHONE)
    problems, requests = [], []
    context.on("console", lambda m: m.type == "error" and problems.append(f"console error: {m.text}"))
    context.on("weberror", lambda e: problems.append(f"uncaught error: {e.error}"))
    context.on("request", lambda r: requests.append(r.url))
    context.add_init_script(KEEP_STREAMS)
    page = context.new_page()
    page.emulate_media(reduced_motion="reduce")
    return context, page, problems, requests


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


def test_the_encoder_and_decoder_are_fetched_only_when_first_used_and_then_kept(dist, sw_context):
    """A first visit, with the service worker's whole install, fetches neither the encoder nor the decoder (nor the
    worker that runs it: lazy files, which sw.js lists apart); the first QR code fetches the encoder once, checked
    against its hash, and the service worker keeps it: offline, a reload draws a code again."""
    server = serve({SUB_PATH: dist})
    try:
        context = sw_context(server.url)
        page = context.new_page()
        page.goto(SUB_PATH)
        page.wait_for_selector("body[data-ready]", state="attached", timeout=60_000)
        offline_copy_saved(page, 60_000)
        assert lazy_requests([path for _, path, _ in server.requests]) == []
        server.requests.clear()
        assert "error" not in page.evaluate(QR_OF, ["https://example.org/#r=abc", "a code"])
        assert lazy_requests([path for _, path, _ in server.requests]) == [SUB_PATH + "static/vendor/lean-qr.mjs"]
        context.set_offline(True)
        page.reload()
        page.wait_for_selector("body[data-ready]", state="attached", timeout=60_000)
        assert "error" not in page.evaluate(QR_OF, ["https://example.org/#r=abc", "a code"])
    finally:
        server.shutdown()
        server.server_close()


def test_offline_before_the_first_share_the_code_says_so_in_words(dist, sw_context):
    """The network gone before any QR code was drawn (the encoder never fetched): qrCode refuses in words the Share
    sheet can show, and draws once the network is back."""
    server = serve({SUB_PATH: dist})
    try:
        context = sw_context(server.url)
        page = context.new_page()
        page.goto(SUB_PATH)
        page.wait_for_selector("body[data-ready]", state="attached", timeout=60_000)
        offline_copy_saved(page, 60_000)
        context.set_offline(True)
        assert page.evaluate(QR_OF, ["https://example.org/#r=abc", "a code"]) == {"error": OFFLINE}
        context.set_offline(False)
        assert "error" not in page.evaluate(QR_OF, ["https://example.org/#r=abc", "a code"])
        # what the browser logs of the refused fetch, expected here
        context.arbiter_watch.problems = [p for p in context.arbiter_watch.problems if "lean-qr" not in p]
    finally:
        server.shutdown()
        server.server_close()
