"""Chromium fixtures (the site, its server and Chromium itself are in tests/conftest.py): a page that fails its
test on any console error, uncaught error, page error or request that leaves the page's origin."""

from __future__ import annotations

import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Error as PlaywrightError

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from engine_drivers import PAGE_ERRORS  # noqa: E402
from page_helpers import READY_TIMEOUT_MS, SUB_PATH, open_app, serve, wait_until  # noqa: E402


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


class Watch:
    """What went wrong on a page: console errors, uncaught errors, requests to other origins."""

    def __init__(self, origin: str):
        self.origin = origin
        self.problems: list[str] = []

    def console(self, message) -> None:
        if message.type == "error":
            self.problems.append(f"console error: {message.text} at {message.location.get('url')}")

    def page_error(self, error) -> None:
        self.problems.append(f"uncaught error: {error}")

    def route(self, route) -> None:
        url = route.request.url
        if urlsplit(url).scheme in ("data", "blob") or _origin(url) == self.origin:
            route.fallback()
        else:
            self.problems.append(f"request to another origin: {url}")
            route.abort()


@pytest.fixture
def watch(server) -> Watch:
    return Watch(_origin(server.url))


@pytest.fixture
def page(browser, server, watch):
    """A fresh page on the served site; the test fails if anything in `watch` went wrong."""
    yield from _watched_page(browser.new_context(base_url=server.url, service_workers="block"), watch)


PHONE = {"viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}


@pytest.fixture
def phone(browser, server, watch):
    """Like `page`, on a phone: 360 × 640 CSS px, a mobile viewport, touch, two device pixels to one."""
    yield from _watched_page(browser.new_context(base_url=server.url, service_workers="block", **PHONE), watch)


@pytest.fixture
def page_at(browser):
    """`page_at(base_url)`: a fresh page like `page`, on another server's site (a copy of the build made by the test),
    watched against that origin; the test fails if anything in its Watch went wrong."""
    opened = []

    def open_(base_url: str):
        pages = _watched_page(browser.new_context(base_url=base_url, service_workers="block"), Watch(_origin(base_url)))
        opened.append(pages)
        return next(pages)

    yield open_
    for pages in opened:
        next(pages, None)


def _watched_page(context, watch):
    """A page of `context`, watched; the test fails if anything in `watch` went wrong."""
    context.route("**/*", watch.route)
    context.on("console", watch.console)
    page = context.new_page()
    page.on("pageerror", watch.page_error)
    yield page
    for open_page in context.pages:  # what the page recorded itself (static/boot.js): ResizeObserver loops too
        try:
            watch.problems += [f"page error: {e}" for e in open_page.evaluate(PAGE_ERRORS) or []]
        except PlaywrightError:
            pass  # closed or navigated away mid-call
    context.close()
    if watch.problems:
        pytest.fail("the page reported problems:\n" + "\n".join(watch.problems), pytrace=False)


def _await_ready(page, timeout_ms: int = READY_TIMEOUT_MS) -> dict:
    """Await `window.arbiter.ready` on `page`; fail with the load error or on timeout."""
    wait_until(page, "() => window.arbiter !== undefined", timeout_ms)
    try:
        result = page.evaluate(
            """(ms) => Promise.race([
                window.arbiter.ready,
                new Promise((_, reject) => setTimeout(() => reject(new Error(`not ready after ${ms} ms`)), ms)),
            ])""",
            timeout_ms,
        )
    except PlaywrightError as exc:
        pytest.fail(f"window.arbiter.ready failed: {exc.message}", pytrace=False)
    return result


@pytest.fixture
def await_ready():
    """`await_ready(page)` waits for `window.arbiter.ready` (about 30 s at most) and returns what it resolved to."""
    return _await_ready


@pytest.fixture(scope="module")
def _module_page(browser, server):
    """One page on the served site, its rules loaded, for a whole module (see `booted_page`), and its Watch."""
    watch = Watch(_origin(server.url))
    context = browser.new_context(base_url=server.url, service_workers="block")
    context.route("**/*", watch.route)
    context.on("console", watch.console)
    page = context.new_page()
    page.on("pageerror", watch.page_error)
    page.goto("/")
    _await_ready(page)
    yield page, watch
    context.close()


@pytest.fixture
def booted_page(_module_page):
    """The module's one page, navigated to / and its rules loaded once for all the module's tests that take it:
    for a test that only asks the engine or reads what the boot left, and leaves nothing behind (no store, log,
    history or view changed), so that it needs no boot of its own (a boot is about 2 CPU seconds: docs/performance.md,
    "Test suite"). The test fails if anything in the page's Watch went wrong while it ran, as with `page`."""
    page, watch = _module_page
    watch.problems.clear()
    page.evaluate(PAGE_ERRORS)  # what an earlier test left is that test's (it failed then)
    yield page
    problems = watch.problems + [f"page error: {e}" for e in page.evaluate(PAGE_ERRORS) or []]
    if problems:
        pytest.fail("the page reported problems:\n" + "\n".join(problems), pytrace=False)


# --- the site as GitHub Pages serves it: under a sub-path, with a service worker (tests/browser/test_offline.py) ---


@pytest.fixture(scope="session")
def sub_path_server(dist):
    """The built site at /arbiter/ on its own server (nothing is served at /)."""
    srv = serve({SUB_PATH: dist})
    yield srv
    srv.shutdown()
    srv.server_close()


@pytest.fixture
def sw_context(browser):
    """`sw_context(base_url)` opens a context that allows service workers (the `page` fixture blocks them), fresh like
    a new profile; every context it opened is closed at the end, and the test fails on any console error or
    uncaught error in one of its pages or workers."""
    opened: list[tuple] = []

    def open_(base_url: str):
        watch = Watch(_origin(base_url))
        context = browser.new_context(base_url=base_url, service_workers="allow")
        context.on("console", watch.console)
        context.on("weberror", lambda error: watch.page_error(error.error))
        opened.append((context, watch))
        context.arbiter_watch = watch  # for a test that expects a problem and removes it
        return context

    yield open_
    problems = []
    for context, watch in opened:
        context.close()
        problems += watch.problems
    if problems:
        pytest.fail("the page reported problems:\n" + "\n".join(problems), pytrace=False)


# --- the app, as every browser test opens it: one pair of fixtures ---------------------------------------------------


@pytest.fixture
def app(page):
    """`app(hash_="", width=1024, height=900)`: the app with motion reduced (dice land at once), the rules and the
    table loaded."""
    page.emulate_media(reduced_motion="reduce")
    return lambda hash_="", width=1024, height=900: open_app(page, hash_, width, height)


@pytest.fixture
def phone_app(phone):
    """`phone_app(hash_="")`: the app on a phone (360 × 640, touch), motion reduced, the rules and the table loaded."""
    phone.emulate_media(reduced_motion="reduce")
    return lambda hash_="": open_app(phone, hash_, 360, 640)
