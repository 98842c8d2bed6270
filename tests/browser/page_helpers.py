"""Helpers the Chromium tests share: polling the page under its Content-Security-Policy, a procedure's form and its
fields, a roll and a follow-up as a player makes them (the table's log and queue of effects awaited), what the form
then shows, and build.py's server for the site under GitHub Pages' sub-path. The table's own (its store, characters,
sheets): table_helpers.py."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest

import build
from steps import TAB, expected_faces

READY_TIMEOUT_MS = 30_000


# A slow phone: each answer of the worker reaches the page 150 ms late (the engine and the page unchanged), so a
# roll's answer comes while the player is still typing (test_typing_wins, the monkey).
SLOW_WORKER = """(() => {
  const Native = window.Worker;
  window.Worker = class extends Native {
    set onmessage(listener) {
      super.onmessage = (event) => setTimeout(() => listener(event), 150);
    }
  };
})()"""


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


def show_form(page, system):
    """Put the procedure's form on screen as a player does, unless it is: the Roll view, then its tab."""
    if form(page, system).is_visible():
        return
    show_view(page, "roll")
    if not form(page, system).is_visible():
        page.click(f'nav.tabs a[data-tab="{TAB[system]}"]')
        form(page, system).wait_for()


def set_field(page, system, path, value):
    """Set one field of a procedure's form as a player would (its form put on screen first): tick, choose or type."""
    show_form(page, system)
    el = form(page, system).locator(f'[data-path="{path}"]')
    if isinstance(value, bool):
        el.set_checked(value)
    elif el.evaluate("e => e.tagName") == "SELECT":
        el.select_option(str(value))
    else:
        el.fill(str(value))


# What a form shows now, for a failure's message: its phase, Roll's lock, what Roll or a field says, the tray's state.
FORM_NOW = """(s) => { const f = document.querySelector(`form[data-system="${s}"]`);
  return { phase: f.dataset.phase, roll: f.querySelector('[data-roll]').getAttribute('aria-disabled'),
    refusal: f.querySelector('[data-roll-refusal]')?.textContent, errors: [...f.querySelectorAll('.field-error')]
      .map((e) => e.textContent).filter(Boolean), tray: window.arbiterPage.procs[s].tray.canvas.dataset.state }; }"""


def changed(page, system, action):
    """Do `action`, then wait until the page holds another roll object than before; return it. (A bound, not a timing:
    a tap that rolled nothing fails it; 30 s leaves room for a shared 2-core machine running four browsers.)"""
    page.evaluate("(s) => { window.__before = window.arbiterPage.procs[s].roll; }", system)
    action()
    try:
        wait_until(
            page,
            "(s) => { const r = window.arbiterPage.procs[s].roll; return r && r !== window.__before; }",
            30_000,
            system,
            what=f"a new roll of {system}",
        )
    except pytest.fail.Exception as failed:
        form_now = page.evaluate(FORM_NOW, system)
        pytest.fail(f"{failed}; the form: {form_now}", pytrace=False)
    return page.evaluate("(s) => window.arbiterPage.procs[s].roll", system)


# --- a roll and a follow-up, as a player makes them, and what the form then shows ----------------------------------


def request_of(page, system):
    return page.evaluate("(s) => window.arbiterPage.procs[s].request()", system)


def current_roll(page, system):
    return page.evaluate("(s) => window.arbiterPage.procs[s].roll", system)


def show_view(page, view):
    """Put `view` (roll, table, log) on screen as a player does: on a phone, a tap on its link in the bottom navigation
    unless it is on screen already; a wide screen shows every view (the navigation is hidden)."""
    link = page.locator(f'nav.views a[data-view="{view}"]')
    if link.is_visible() and link.get_attribute("aria-current") != "page":
        link.click()
        page.wait_for_selector(f'main > .view[data-view="{view}"][data-current]', state="attached")


def choose_speed(page, speed):
    """Open Settings, choose the dice's speed (full, quick, off), close it."""
    page.locator("[data-settings-open]").click()
    page.locator(f'#settings input[name="speed"][value="{speed}"]').check()
    page.locator("[data-settings-close]").click()
    after_done(page, "Settings")


# static/back.js' DOUBLE_TAP_MS: a tap on Done's spot this soon after Done closed its sheet is Done's double tap's second
DOUBLE_TAP_MS = 300


def after_done(page, sheet: str) -> None:
    """Wait, as a thumb does, after Done closed `sheet`: until its history entry is taken back (static/back.js,
    history.back(): asynchronous; a reload or a goto made before is aborted), and past the double tap's window, so the
    next tap, wherever it lands, is a tap of its own."""
    wait_until(page, "() => !history.state?.arbiterOver", 5_000, what=f"{sheet}'s history entry taken back")
    page.wait_for_timeout(DOUBLE_TAP_MS)


def roll(page, system, logged=True):
    """Press Roll on the procedure's form (its tab shown), wait for the roll and, unless `logged` is False (a roll
    the table is not to log), for the table to have logged it and done what it asked; return the roll JSON."""
    before = page.evaluate("() => document.querySelectorAll('.log-entry').length")
    show_view(page, "roll")
    page.click(f'nav.tabs a[data-tab="{TAB[system]}"]')
    # as a player waits for Roll to be free: it takes no tap while the last outcome is held on screen (issue 29's
    # HOLD_MS, counted from when the words showed), so a tap then is, rightly, no roll
    button = form(page, system).locator("button[data-roll]:not([aria-disabled='true'])")
    button.wait_for(timeout=10_000)
    result = changed(page, system, button.click)
    if logged:
        settle(page, before)
    return result


def follow_up(page, system, button, logged=True):
    """Take the follow-up choice `button` (a locator), wait for the next roll value and, unless `logged` is False,
    for the table to have logged it and done what it asked; return the roll JSON."""
    before = page.evaluate("() => document.querySelectorAll('.log-entry').length")
    result = changed(page, system, button.click)
    if logged:
        settle(page, before)
    return result


# The table handles the forms' landed rolls one after another in one queue (static/table/index.js: pay what the roll
# costs, log it, refresh the sheet), handed through the forms' port (static/port.js); its idle() resolves once every
# one handed so far is done. Its redraw is a setTimeout(0) scheduled before ours, so it has run too when this resolves.
TABLE_IDLE = """() => new Promise((resolve, reject) => {
    setTimeout(() => reject(new Error('the table never went idle')), 10000);
    window.arbiterPage.built()[0].table.idle().then(() => setTimeout(() => resolve(true), 0));
})"""


def table_idle(page):
    """Wait until the table has done everything every roll event so far asked of it."""
    page.evaluate(TABLE_IDLE)


def settle(page, log_entries_before):
    """Wait until the log shows a new entry and the table's queue of roll effects is done."""
    wait_until(
        page,
        "(n) => document.querySelectorAll('.log-entry').length > n || document.querySelector('[data-log-count]')?.dataset.logCount > n",
        10_000,
        log_entries_before,
    )
    table_idle(page)  # the effects (Will, Exertion, the Scheme) and the sheet's refresh are in the same queue
    wait_until(page, "() => document.querySelector('#table').dataset.ready !== undefined", 5_000)


def landed_faces(page, system):
    """The canvas's faces once the dice have landed ([] for a roll of no dice: the tray is then empty)."""
    canvas = form(page, system).locator("canvas[data-dice]")
    wait_until(
        page,
        """(s) => ['landed', 'empty'].includes(
        document.querySelector(`form[data-system="${s}"] canvas[data-dice]`).dataset.state)""",
        10_000,
        system,
    )
    return json.loads(canvas.get_attribute("data-faces"))


def check_shown(page, system, roll):
    """The words and the canvas agree with the roll JSON."""
    assert landed_faces(page, system) == expected_faces(roll)
    result = form(page, system).locator("[data-result]")
    assert result.get_attribute("aria-live") == "polite"
    text = result.inner_text()
    assert roll["summary"] in text
    assert " → ".join(roll["steps"]) in text.replace("\n", " ")
    assert result.get_attribute("data-outcome") == roll["outcome"]


def settled(page, system):
    """Wait until the roll's choices are checked against the table (they are drawn again then)."""
    wait_until(
        page,
        "(s) => !document.querySelector(`form[data-system=${s}] [data-choices]`).hasAttribute('data-checking')",
        10_000,
        system,
    )


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


def read_qr(png: Path) -> str:
    """The text of the QR code in the picture `png`, read by a test-only decoder (zbarimg, Debian's zbar-tools)."""
    read = subprocess.run(
        ["zbarimg", "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", str(png)],
        capture_output=True,
        text=True,
        check=True,
    )
    return read.stdout.strip()


# The service worker holds the whole build and controls the page, and has saved the QR code's encoder and decoder
# after ready (static/offline/offline.js): the app, sharing and scanning work offline from now on.
OFFLINE_COPY = """async () => {
    const r = await navigator.serviceWorker.getRegistration();
    return !!r && !!r.active && r.active.state === 'activated' && !r.installing && !r.waiting
        && !!navigator.serviceWorker.controller && document.documentElement.dataset.offlineQr === 'saved';
}"""


def offline_copy_saved(page, timeout_ms: int = READY_TIMEOUT_MS) -> None:
    """Wait until the page's service worker holds the whole build, controls the page and has saved the QR code's
    files."""
    wait_until(page, OFFLINE_COPY, timeout_ms, what="the offline copy saved")
