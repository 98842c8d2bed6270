"""Helpers the Chromium tests share: polling the page under its Content-Security-Policy, a procedure's form and its
fields, and build.py's server for the site under GitHub Pages' sub-path."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

import build

READY_TIMEOUT_MS = 30_000


def wait_until(page, expression, timeout_ms: int = READY_TIMEOUT_MS, arg=None, what: str = ""):
    """Poll until something truthy comes, and return it: `expression`, a JS function source, evaluated in the page
    (with `arg`), or a Python callable (what the test reads of the page, the store...), called here.

    Playwright's wait_for_function evaluates its predicate with eval, which the page's Content-Security-Policy
    (no 'unsafe-eval') rightly refuses; page.evaluate goes through the DevTools protocol and is not affected."""
    deadline = time.monotonic() + timeout_ms / 1000
    while True:
        value = expression() if callable(expression) else page.evaluate(expression, arg)
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout_ms} ms waiting for {what or expression}", pytrace=False)
        page.wait_for_timeout(50)


def form(page, system):
    """The locator of a procedure's form."""
    return page.locator(f'form[data-system="{system}"]')


def set_field(page, system, path, value):
    """Set one field of a procedure's form as a player would: tick, choose or type."""
    el = form(page, system).locator(f'[data-path="{path}"]')
    if isinstance(value, bool):
        el.set_checked(value)
    elif el.evaluate("e => e.tagName") == "SELECT":
        el.select_option(str(value))
    else:
        el.fill(str(value))


def changed(page, system, action):
    """Do `action`, then wait until the page holds another roll object than before; return it."""
    page.evaluate("(s) => { window.__before = window.arbiterPage.procs[s].roll; }", system)
    action()
    wait_until(
        page,
        "(s) => { const r = window.arbiterPage.procs[s].roll; return r && r !== window.__before; }",
        10_000,
        system,
    )
    return page.evaluate("(s) => window.arbiterPage.procs[s].roll", system)


# In the viewport and seen there: what the browser finds at the element's centre is the element (or inside it), not
# a bar or a sheet over it.
IN_VIEW = """(el) => { const r = el.getBoundingClientRect();
  if (!(r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth)) {
    return false;
  }
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return el === hit || el.contains(hit); }"""


def said_by_roll(page, system):
    """The refusal said by the form's Roll: its words, once it is shown and announced; checked to be in the viewport
    and within a line of Roll."""
    f = form(page, system)
    refusal = f.locator("[data-roll-refusal][role=alert]")
    refusal.wait_for(timeout=10_000)
    assert refusal.evaluate(IN_VIEW), "the refusal is out of view"
    gap = page.evaluate(
        """([a, b]) => { const r = a.getBoundingClientRect(), s = b.getBoundingClientRect();
      return Math.max(0, r.top - s.bottom, s.top - r.bottom); }""",
        [refusal.element_handle(), f.locator("button[data-roll]").element_handle()],
    )
    assert gap < 48, f"the refusal is {gap} px from Roll"
    return refusal.inner_text()


SUB_PATH = "/arbiter/"


def serve(root: Path | dict):
    """A started build.Server for `root` (a folder, or {prefix: folder}); call .shutdown() and .server_close()."""
    return build.Server(root).start()


def open_app(page, hash_: str = "", width: int = 1024, height: int = 900):
    """Open the app at `hash_` in a `width` × `height` viewport and wait until the rules and the table are loaded."""
    page.set_viewport_size({"width": width, "height": height})
    page.goto("/" + hash_)
    page.wait_for_selector("body[data-ready]", state="attached", timeout=60_000)
    page.wait_for_selector("#table[data-ready]", state="attached", timeout=10_000)
    return page
