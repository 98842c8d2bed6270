"""The README's pictures: each procedure after a roll, a follow-up with its odds and the log's luck view, as a phone
shows them (360 × 640 CSS px, touch), light and dark.

Run by `python3 build.py shots` with the test venv's Python (it needs Playwright): the built site is served by
build.py's own server, each procedure's tab is opened, Roll is tapped, and once the dice have landed the screen is
saved as docs/screenshots/<procedure>-<light|dark>.png. What the picture shows is what the player sees without
scrolling: nothing is scrolled or arranged for the camera.

    .venv/bin/python py/tools/screenshots.py DIST OUT
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "py"))  # the package `tools`, of which this script is a part
from arbiter import api  # noqa: E402
from tools.bench_startup import LAUNCH_ARGS  # noqa: E402
from tools.server import Server  # noqa: E402
from tools.testenv import chromium_path  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

PHONE = {"viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True, "device_scale_factor": 1}
LANDED = """(s) => {
  const form = document.querySelector(`form[data-system=${s}]`);
  return form.querySelector('canvas[data-dice]').dataset.state === 'landed'
    && form.querySelector('[data-result]').textContent.trim() !== '';
}"""


def shoot(dist: Path, out: Path) -> list[Path]:
    """Every procedure after one roll, light and dark; the files written."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    server = Server(dist).start()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=LAUNCH_ARGS)
        for scheme in ("light", "dark"):
            for system in (s["id"] for s in api.systems()):
                context = browser.new_context(base_url=server.url, color_scheme=scheme, reduced_motion="reduce",
                                              service_workers="block", **PHONE)
                page = context.new_page()
                page.goto(f"/#{system}")
                page.wait_for_selector("body[data-ready]", state="attached", timeout=60_000)
                page.tap(f"form[data-system={system}] [data-roll]")
                page.wait_for_function(LANDED, arg=system, timeout=30_000)
                page.wait_for_timeout(400)  # a smooth scroll to the dice, if any, comes to rest
                path = out / f"{system}-{scheme}.png"
                page.screenshot(path=str(path))
                written.append(path)
                context.close()
        browser.close()
    server.shutdown()
    server.server_close()
    return written


FOLLOW_UP = "(s) => document.querySelector(`form[data-system=${s}] [data-choices] [data-odds-after][data-p]`)"


def shoot_odds(dist: Path, out: Path, schemes=("light", "dark")) -> list[Path]:
    """README's "Odds at every decision": a Ten-Again roll whose Will button shows its odds (rolled until one is
    offered, without a success yet), scrolled to the choices as a player would."""
    written = []
    server = Server(dist).start()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=LAUNCH_ARGS)
        for scheme in schemes:
            context = browser.new_context(base_url=server.url, color_scheme=scheme, reduced_motion="reduce",
                                          service_workers="block", **PHONE)
            page = context.new_page()
            page.goto('/#ten_again={"pool":3,"required":2}')
            page.wait_for_selector("body[data-ready]", state="attached", timeout=60_000)
            for _ in range(40):
                page.tap("form[data-system=ten_again] [data-roll]")
                page.wait_for_function(LANDED, arg="ten_again", timeout=30_000)
                if page.evaluate("() => window.arbiterPage.procs.ten_again.roll.outcome") != "success" \
                        and page.evaluate(FOLLOW_UP, "ten_again"):
                    break
            page.wait_for_function(FOLLOW_UP, arg="ten_again", timeout=30_000)
            page.locator("form[data-system=ten_again] [data-choices]").scroll_into_view_if_needed()
            page.wait_for_timeout(400)
            path = out / f"odds-follow-up-{scheme}.png"
            page.screenshot(path=str(path))
            written.append(path)
            context.close()
        browser.close()
    server.shutdown()
    server.server_close()
    return written


LOGGED = "(n) => document.querySelectorAll('.log-entry').length >= n && document.querySelector('[data-luck-ready]')"


def shoot_luck(dist: Path, out: Path, schemes=("light", "dark")) -> list[Path]:
    """README's luck chart: a Threat & Luck character, Wren, makes ten Luck Rolls; the log's luck view is shown."""
    written = []
    server = Server(dist).start()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=LAUNCH_ARGS)
        for scheme in schemes:
            context = browser.new_context(base_url=server.url, color_scheme=scheme, reduced_motion="reduce",
                                          service_workers="block", **PHONE)
            page = context.new_page()
            page.goto("/#threat")
            page.wait_for_selector("#table[data-ready]", state="attached", timeout=60_000)
            page.select_option("#new-char-kind", "threat")
            page.fill("#new-char-name", "Wren")
            page.click('[data-create="character"] button[type=submit]')
            page.click('.sheet [data-fill="luck"]')
            for n in range(1, 11):
                page.tap("form[data-system=luck] [data-roll]")
                page.wait_for_function(LOGGED, arg=n, timeout=30_000)
            page.locator("[data-luck-ready]").scroll_into_view_if_needed()
            page.wait_for_timeout(400)
            path = out / f"luck-view-{scheme}.png"
            page.screenshot(path=str(path))
            written.append(path)
            context.close()
        browser.close()
    server.shutdown()
    server.server_close()
    return written


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dist", type=Path)
    parser.add_argument("out", type=Path)
    args = parser.parse_args()
    written = shoot(args.dist, args.out)
    written += shoot_odds(args.dist, args.out) + shoot_luck(args.dist, args.out)
    for path in written:
        print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
