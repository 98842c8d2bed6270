"""The pictures of the README and docs/features.md: each procedure after a roll, a follow-up with its odds, the log's luck view and the three
views (Roll, Table, Log), as a phone shows them (360 × 640 CSS px, touch), light and dark.

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


class Phone:
    """The built site served once and one Chromium, for every picture: `page(scheme, url)` opens `url` on a fresh
    phone (reduced motion, so dice land at once; no service worker); `save(page, path)` keeps the screen."""

    def __init__(self, dist: Path):
        self.server = Server(dist).start()
        self.playwright = sync_playwright().start()
        self.browser = self.playwright.chromium.launch(executable_path=chromium_path(), args=LAUNCH_ARGS)
        self.written: list[Path] = []

    def page(self, scheme: str, url: str, ready: str = "body[data-ready]"):
        context = self.browser.new_context(
            base_url=self.server.url, color_scheme=scheme, reduced_motion="reduce", service_workers="block", **PHONE
        )
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector(ready, state="attached", timeout=60_000)
        return page

    def save(self, page, path: Path, close: bool = True) -> None:
        page.wait_for_timeout(400)  # a smooth scroll, if any, comes to rest
        page.screenshot(path=str(path))
        self.written.append(path)
        if close:
            page.context.close()

    def close(self) -> None:
        self.browser.close()
        self.playwright.stop()
        self.server.shutdown()
        self.server.server_close()


def shoot(phone: Phone, out: Path, schemes=("light", "dark")) -> None:
    """Every procedure after one roll, light and dark."""
    for scheme in schemes:
        for system in (s["id"] for s in api.systems()):
            page = phone.page(scheme, f"/#{system}")
            page.tap(f"form[data-system={system}] [data-roll]")
            page.wait_for_function(LANDED, arg=system, timeout=30_000)
            phone.save(page, out / f"{system}-{scheme}.png")


FOLLOW_UP = "(s) => document.querySelector(`form[data-system=${s}] [data-choices] [data-odds-after][data-p]`)"


def shoot_odds(phone: Phone, out: Path, schemes=("light", "dark")) -> None:
    """features.md's "Odds at every decision": a Ten-Again roll whose Will button shows its odds (rolled until one is
    offered, without a success yet), scrolled to the choices as a player would."""
    for scheme in schemes:
        page = phone.page(scheme, '/#ten_again={"pool":3,"required":2}')
        for _ in range(40):
            page.tap("form[data-system=ten_again] [data-roll]")
            page.wait_for_function(LANDED, arg="ten_again", timeout=30_000)
            if page.evaluate("() => window.arbiterPage.procs.ten_again.roll.outcome") != "success" and page.evaluate(
                FOLLOW_UP, "ten_again"
            ):
                break
        page.wait_for_function(FOLLOW_UP, arg="ten_again", timeout=30_000)
        page.locator("form[data-system=ten_again] [data-choices]").scroll_into_view_if_needed()
        phone.save(page, out / f"odds-follow-up-{scheme}.png")


LOGGED = "(n) => document.querySelectorAll('.log-entry').length >= n"


def shoot_luck(phone: Phone, out: Path, schemes=("light", "dark")) -> None:
    """features.md's luck chart: a Threat & Luck character, Wren, makes ten Luck Rolls; the Log view's luck chart is shown."""
    for scheme in schemes:
        page = phone.page(scheme, "/#table", ready="#table[data-ready]")
        page.select_option("#new-char-kind", "threat")
        page.fill("#new-char-name", "Wren")
        page.click('[data-create="character"] button[type=submit]')
        page.click('.sheet [data-fill="luck"]')
        for n in range(1, 11):
            page.tap("form[data-system=luck] [data-roll]")
            page.wait_for_function(LOGGED, arg=n, timeout=30_000)
        page.tap('nav.views a[data-view="log"]')
        page.tap("[data-log-luck] > summary")  # folded above the list: the chart is drawn once unfolded
        page.locator("[data-luck-ready]").scroll_into_view_if_needed()
        phone.save(page, out / f"luck-view-{scheme}.png")


def shoot_views(phone: Phone, out: Path, schemes=("light", "dark")) -> None:
    """README's three views: Rook, a d10-pool character, rolls three times; then the Roll view, the Table (his sheet)
    and the Log (his rolls), each as the bottom navigation shows it."""
    for scheme in schemes:
        page = phone.page(scheme, "/#table", ready="#table[data-ready]")
        page.select_option("#new-char-kind", "ten_again")
        page.fill("#new-char-name", "Rook")
        page.click('[data-create="character"] button[type=submit]')
        for kind, name, dots in (("attributes", "Wits", 3), ("skills", "Investigation", 3)):
            page.click(f'.sheet [data-add="{kind}"]')
            row = page.locator(f'.sheet [data-list="{kind}"] li.row').last
            row.locator("input[type=text]:not(.int)").first.fill(name)
            row.locator("input[type=text]:not(.int)").first.press("Tab")
            row.locator("input.int").first.fill(str(dots))
            row.locator("input.int").first.press("Tab")
            page.locator(".sheet .use").get_by_label(f"{name} {dots}").check()
        page.click('.sheet [data-fill="ten_again"]')
        page.wait_for_selector("form[data-system=ten_again]:visible")
        for n in range(1, 4):
            page.tap("form[data-system=ten_again] [data-roll]")
            page.wait_for_function(LOGGED, arg=n)
        phone.save(page, out / f"view-roll-{scheme}.png", close=False)
        page.tap('nav.views a[data-view="table"]')
        phone.save(page, out / f"view-table-{scheme}.png", close=False)
        page.tap('nav.views a[data-view="log"]')
        phone.save(page, out / f"view-log-{scheme}.png")


def shoot_table_dice(phone: Phone, out: Path, schemes=("light", "dark")) -> None:
    """README's table dice: the face pad half-way through a d10 pool (a 10 typed, its die asked for next), then the
    Log's "Are my dice fair?" after three Luck Rolls of ten table dice that favour the 6."""
    for scheme in schemes:
        page = phone.page(scheme, "/#ten_again", ready="#table[data-ready]")
        form = page.locator("form[data-system=ten_again]")
        form.locator("button.dice-source").tap()
        form.locator("button[data-roll]").tap()
        page.wait_for_selector("[data-face-pad]:not([hidden]):not([data-asking])")
        page.keyboard.type("7")
        page.keyboard.type("0")
        page.wait_for_selector("[data-face-pad]:not([data-asking])")
        phone.save(page, out / f"face-pad-{scheme}.png")
        page = phone.page(scheme, '/#luck={"dice":10}', ready="#table[data-ready]")
        form = page.locator("form[data-system=luck]")
        form.locator("button.dice-source").tap()
        for n, faces in enumerate(("6666612345", "6612345666", "6126456663"), 1):
            form.locator("button[data-roll]").tap()
            page.wait_for_selector("form[data-system=luck] [data-face-pad]:not([hidden]):not([data-asking])")
            page.keyboard.type(faces)
            page.wait_for_function(LOGGED, arg=n)
        page.tap('nav.views a[data-view="log"]')
        if not page.evaluate("() => document.querySelector('[data-log-luck]').open"):  # unfolded once, left open
            page.tap("[data-log-luck] > summary")
        page.wait_for_function(
            "() => { const b = document.querySelector('[data-fairness]'); b.scrollIntoView(); "
            "return 'fairnessReady' in b.dataset; }"
        )
        page.evaluate("() => document.querySelector('[data-fairness]').scrollIntoView()")
        phone.save(page, out / f"fairness-{scheme}.png")


def shoot_group(phone: Phone, out: Path, schemes=("light", "dark")) -> None:
    """README's "Play as a group": the Share sheet of a Threat roll (its QR code drawn), then that link opened on
    another phone: the Shared roll panel with Add."""
    for scheme in schemes:
        page = phone.page(scheme, "/#threat", ready="#table[data-ready]")
        page.tap("form[data-system=threat] [data-roll]")
        page.wait_for_function(LANDED, arg="threat", timeout=30_000)
        page.tap("form[data-system=threat] [data-result] button[data-share]")
        page.wait_for_selector("dialog[data-share-sheet][open] [data-qr]", timeout=30_000)
        link = page.get_attribute("dialog[data-share-sheet] a[data-share-link]", "href")
        phone.save(page, out / f"share-sheet-{scheme}.png")
        page = phone.page(
            scheme, link.removeprefix(phone.server.url.rstrip("/")), ready="[data-shared-roll][data-read]"
        )
        phone.save(page, out / f"shared-roll-{scheme}.png")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dist", type=Path)
    parser.add_argument("out", type=Path)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    phone = Phone(args.dist)
    try:
        for pictures in (shoot, shoot_odds, shoot_luck, shoot_views, shoot_table_dice, shoot_group):
            pictures(phone, args.out)
    finally:
        phone.close()
    for path in phone.written:
        print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
