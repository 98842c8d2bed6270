"""Chromium's fake camera, for the tests that scan (test_qr_and_scan.py, test_live_join.py): a video of QR codes
written as YUV4MPEG2 (segno draws each code), a Chromium of its own that films it, and a phone context on it that keeps
every camera stream it gets, to see whether its tracks were stopped."""

from __future__ import annotations

from pathlib import Path

import segno

from tools.testenv import CHROMIUM_ARGS, chromium_path

PHONE = {"viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}


def write_y4m(path: Path, text: str | list[str] | None, frames: int = 8) -> None:
    """A 640 × 480 YUV4MPEG2 (C420) video at 5 frames a second of `text`'s QR code, black on white and centred (segno
    draws it), or of each code of a list in turn, `frames` frames each; or of a grey frame with none when `text` is
    None."""
    width, height = 640, 480
    chroma = b"\x80" * (width // 2 * height // 2)
    with open(path, "wb") as f:
        f.write(f"YUV4MPEG2 W{width} H{height} F5:1 Ip A1:1 C420jpeg\n".encode())
        for one in text if isinstance(text, list) else [text]:
            luma = bytes(qr_luma(one, width, height))
            for _ in range(frames):
                f.write(b"FRAME\n" + luma + chroma + chroma)


def qr_luma(text: str | None, width: int, height: int) -> bytearray:
    """The luma plane of one frame: `text`'s code (error correction M) as big as the frame allows, or grey."""
    if text is None:
        return bytearray(b"\x80" * (width * height))
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
    return luma


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
