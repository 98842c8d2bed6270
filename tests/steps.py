"""What a player does on the page and what the page must then show, written once against tests/engine_drivers.py's
Driver and run in every engine (tests/engines/), and the facts the Chromium tests (tests/browser/) share with them."""

from __future__ import annotations

import json
import time

from arbiter import api
from engine_drivers import Navigated

SPEC = {s["id"]: s for s in api.systems()}
TAB = {id_: s["tab"] for id_, s in SPEC.items()}  # each procedure's tab in the picker: its own
READY_TIMEOUT_S = 60


def expected_faces(roll: dict) -> list[int]:
    """The faces the canvas must show, in order, for a roll as the engine returned it."""
    s = roll["system"]
    if s == "arbitration":
        return roll["dice"] + (roll["defender"]["dice"] if roll["defender"] else [])
    if s == "two_dice":
        return roll["dice"] + (roll["target"]["dice"] if roll["target"] else [])
    if s == "ten_again":

        def side(r):
            return r["dice"] + r["will_dice"] + r["rerolls"]

        return side(roll) + (side(roll["target"]) if roll.get("target") else [])
    if s == "ability_test":
        return ([roll["scheme_roll"]] if roll["scheme_roll"] is not None else []) + roll["dice"]
    return roll["dice"]


def form_css(system: str) -> str:
    return f'form[data-system="{system}"]'


class Timeout(AssertionError):
    pass


def wait_until(d, fn: str, arg=None, timeout_s: float = 30, what: str = ""):
    """Poll the JS function `fn` on the page until it returns something truthy; that value."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            value = d.run(fn, arg)
        except Navigated:
            value = None  # still loading: ask the new page
        if value:
            return value
        if time.monotonic() > deadline:
            raise Timeout(f"{d.name}: timed out after {timeout_s} s waiting for {what or fn}")
        time.sleep(0.05)


def open_app(d, url: str, table: bool = False) -> dict:
    """Load the page at `url` and wait until the rules are ready (and the table, if asked); what `ready` gave."""
    d.goto(url)
    wait_until(d, "() => window.arbiter !== undefined", timeout_s=READY_TIMEOUT_S, what="the Pyodide client")
    version = d.run(f"""() => Promise.race([window.arbiter.ready, new Promise((_, no) =>
        setTimeout(() => no(new Error('not ready after {READY_TIMEOUT_S} s')), {READY_TIMEOUT_S * 1000}))])""")
    wait_until(d, "() => document.body.dataset.ready !== undefined", what="body[data-ready]")
    if table:
        wait_until(d, "() => document.querySelector('#table').dataset.ready !== undefined", what="#table[data-ready]")
    return version


def call(d, method: str, *args):
    """One call through the page's Pyodide client (window.arbiter), as the page makes it."""
    return d.run("([method, args]) => window.arbiter[method](...args)", [method, list(args)])


def show(d, system: str) -> None:
    """Choose the procedure's tab; its form is then shown."""
    d.click(f'nav.tabs a[data-tab="{TAB[system]}"]')
    wait_until(
        d,
        "(css) => { const f = document.querySelector(css); return f && f.offsetParent !== null; }",
        form_css(system),
        what=f"the {system} form to show",
    )


def current_roll(d, system: str):
    return d.run("(s) => window.arbiterPage.procs[s].roll", system)


def changed(d, system: str, action) -> dict:
    """Do `action()`, then wait until the page holds a different roll than before; that roll."""
    d.run("(s) => { window.__before = window.arbiterPage.procs[s].roll; }", system)
    action()
    try:
        wait_until(
            d,
            "(s) => { const r = window.arbiterPage.procs[s].roll; return r && r !== window.__before; }",
            system,
            what=f"a new {system} roll",
        )
    except Timeout as timeout:
        raise Timeout(f"{timeout}; the page then: {d.run(PAGE_STATE, form_css(system))}") from None
    return current_roll(d, system)


# What the page showed when an awaited roll did not come: enough to tell a lost tap from a slow engine.
PAGE_STATE = """(css) => {
  const form = document.querySelector(css), roll = form.querySelector('[data-roll]'), r = roll.getBoundingClientRect();
  const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
  return { rollBox: [r.x, r.y, r.width, r.height].map(Math.round), viewport: [innerWidth, innerHeight, scrollY],
    atRollsCentre: hit && (hit.outerHTML || '').slice(0, 120), canvas: form.querySelector('canvas[data-dice]').dataset,
    result: form.querySelector('[data-result]').textContent.slice(0, 80), ready: document.body.dataset.ready,
    ariaDisabled: roll.getAttribute('aria-disabled'), errors: self.arbiterErrors };
}"""


def roll_via_form(d, system: str) -> dict:
    """Press the form's Roll; the roll JSON the page got from the engine."""
    return changed(d, system, lambda: d.click(f"{form_css(system)} button[data-roll]"))


def landed_faces(d, system: str) -> list[int]:
    """The faces on the canvas once the dice have landed."""
    faces = wait_until(
        d,
        """(css) => { const c = document.querySelector(css + ' canvas[data-dice]');
        return ['landed', 'empty'].includes(c.dataset.state) && c.dataset.faces; }""",
        form_css(system),
        what=f"{system} dice to land",
    )
    return json.loads(faces)


def check_shown(d, system: str, roll: dict) -> None:
    """The canvas shows exactly the roll's faces, and the words its outcome and every step."""
    assert landed_faces(d, system) == expected_faces(roll), d.name
    shown = d.run(
        """(css) => { const r = document.querySelector(css + ' [data-result]');
        return { text: r.innerText, live: r.getAttribute('aria-live'), outcome: r.dataset.outcome }; }""",
        form_css(system),
    )
    text = " ".join(shown["text"].split())
    assert shown["live"] == "polite"
    assert " ".join(roll["summary"].split()) in text, (d.name, roll["summary"], text)
    assert " ".join(" → ".join(roll["steps"]).split()) in text, (d.name, roll["steps"], text)
    assert shown["outcome"] == roll["outcome"]


# --- one follow-up per procedure that has any ------------------------------------------------------------------


def spend_will(d) -> tuple[dict, dict]:
    """ten_again: after the roll, expend a Will; three dice join the same roll."""
    show(d, "ten_again")
    first = roll_via_form(d, "ten_again")
    landed_faces(d, "ten_again")
    after = changed(d, "ten_again", lambda: d.click(f'{form_css("ten_again")} [data-choice="spend_will-actor"] button'))
    return first, after


def reassign_a_threat_die(d) -> tuple[dict, dict]:
    """threat: with two threats, tap a die of the first (by keyboard), then the second threat: the die moves."""
    show(d, "threat")
    d.click(f'{form_css("threat")} [data-path="threats"] [data-add]')
    first = roll_via_form(d, "threat")
    landed_faces(d, "threat")
    die = first["assignment"][0][0]
    d.press(f"{form_css('threat')} canvas[data-dice]", "Home", *["ArrowRight"] * die, "Enter")
    after = changed(d, "threat", lambda: d.click(f"{form_css('threat')} [data-threats] li:nth-child(2) button"))
    assert die in after["assignment"][1] and die not in after["assignment"][0], d.name
    return first, after


def exert(d) -> tuple[dict, dict]:
    """ability_test: a Test that cannot succeed says how much Exertion would turn it, and spending it does."""
    show(d, "ability_test")
    for path, value in {"type1": 1, "type2": 1, "difficulty": 4}.items():
        d.fill(f'{form_css("ability_test")} [data-path="{path}"]', value)
    wait_for_request(d, "ability_test", {"type1": 1, "type2": 1, "difficulty": 4})
    first = roll_via_form(d, "ability_test")
    assert first["outcome"] == "failure"  # Ability 2 never beats four dice
    landed_faces(d, "ability_test")
    after = changed(d, "ability_test", lambda: d.click(f'{form_css("ability_test")} [data-choice="exert"] button'))
    assert after["outcome"] == "success" and after["exertion"] == first["exert_needed"], d.name
    return first, after


FOLLOW_UPS = {"ten_again": spend_will, "threat": reassign_a_threat_die, "ability_test": exert}


def wait_for_request(d, system: str, fields: dict) -> dict:
    """Wait until the form's request holds `fields` (typing lands through input events)."""
    return wait_until(
        d,
        """([s, want]) => { const r = window.arbiterPage.procs[s].request();
        return Object.entries(want).every(([k, v]) => r[k] === v) && r; }""",
        [system, fields],
        what=f"the {system} form to read {fields}",
    )


# --- the table --------------------------------------------------------------------------------------------------

STORED_CHARACTERS = """() => new Promise((resolve, reject) => {
  const open = indexedDB.open('arbiter-table');
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const db = open.result;
    const all = db.transaction('records').objectStore('records').getAll();
    all.onsuccess = () => { db.close(); resolve(all.result.filter((r) => r.id.startsWith('char:')).map((r) => r.data.name)); };
    all.onerror = () => reject(all.error);
  };
})"""


def create_character(d, kind: str, name: str) -> None:
    """Create a character of `kind` in the Table, and wait until the store holds it."""
    d.select("#new-char-kind", kind)
    d.fill("#new-char-name", name)
    d.click('[data-create="character"] button[type=submit]')
    wait_until(
        d,
        "(name) => [...document.querySelectorAll('.sheet h4')].some((h) => h.textContent.includes(name))",
        name,
        what=f"{name}'s sheet",
    )
    wait_until(
        d,
        f"() => ({STORED_CHARACTERS})().then((names) => names.includes({json.dumps(name)}))",
        what=f"{name} to be stored",
    )


def listed_characters(d) -> list[str]:
    return d.run("() => [...document.querySelectorAll('.char-list button')].map((b) => b.textContent)")
