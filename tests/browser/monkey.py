"""A seeded monkey at the table (issue 29): human-speed actions on a phone over every procedure, each rolled as a
character, with what must always hold checked after each action. Used by test_monkey.py; read its docstring for how
to run, replay and plant bugs.

The monkey drives the page only as a player does (taps, bursts of taps, typing, the face pad, view switches, the
sheets' buttons, reloads) and reads only stable DOM (form fields by their `data-path`, `[data-roll]`, `[data-result]`,
`[data-choices]`, `data-stale`, the face pad) and the table's store (IndexedDB, the truth the page keeps), never the
page's own objects. What the form showed at each tap is recorded by a listener the test puts in the page (INIT_SCRIPT),
in the capture phase of the tap itself, before the page sees it.

Each action's parameters come from `random.Random(seed)` alone, drawn the same way whatever the page shows, so a seed
replays the same actions; the dice are the app's own (not seeded), so the follow-ups offered may differ between runs.
"""

from __future__ import annotations

import random
import re
import time
from dataclasses import dataclass, field

import pytest

from page_helpers import choose_speed, form, show_form, show_view, wait_until
from table_helpers import add_row, characters, create, edit, fill_from_sheet, pick_character, records, sheet_input

# What the form showed at a tap, recorded by the page's first listener of the tap (capture phase, on the document),
# before the page's own: a Roll tap, a follow-up's control, whether the face pad was open then.
INIT_SCRIPT = """(() => {
  const taps = [];
  Object.defineProperty(window, '__monkeyTaps', { value: taps });
  const shown = (f) => {
    const out = {};
    for (const t of f.querySelectorAll('[data-toggle]')) out[`?${t.dataset.toggle}`] = t.checked;
    for (const el of f.querySelectorAll('input[data-path], select[data-path], textarea[data-path]')) {
      if (el.disabled) continue;
      out[el.dataset.path] = el.type === 'checkbox' ? el.checked : el.value;
    }
    return out;
  };
  document.addEventListener('click', (event) => {
    const f = event.target.closest?.('form[data-system]');
    if (!f) return;
    const kind = event.target.closest('[data-roll]') ? 'roll' : event.target.closest('[data-choices]') ? 'choice' : null;
    if (!kind) return;
    const pad = f.querySelector('[data-face-pad]');
    // the odds beside Roll as the player saw them: the request they are for, or null while they are marked stale
    const odds = f.querySelector('[data-odds]');
    const seen = odds && !('stale' in odds.dataset) && odds.dataset.request ? JSON.parse(odds.dataset.request) : null;
    taps.push({ kind, system: f.dataset.system, form: shown(f), pad: Boolean(pad && !pad.hidden), odds: seen });
  }, true);
})();"""

TAPS = "() => window.__monkeyTaps.splice(0)"

# A burst's taps after the first, each at its gap after the one before, as clicks of Roll made in the page (a tap on
# it makes the same click); resolves once the last is made.
BURST = """([system, gaps]) => new Promise((resolve) => {
  const roll = document.querySelector(`form[data-system="${system}"] button[data-roll]`);
  let at = 0;
  gaps.forEach((gap, i) => {
    at += gap;
    setTimeout(() => { roll.click(); if (i === gaps.length - 1) resolve(true); }, at);
  });
})"""  # the taps recorded since the last call

# How many entries the log holds in the store (the truth the page keeps), and whether the page is at work: the rules
# or the table not ready, a sheet filling a form, dice tumbling, the face pad asking the engine.
QUIET = """() => new Promise((resolve, reject) => {
  const busy = !('ready' in document.body.dataset) || !document.querySelector('#table[data-ready]')
    || 'filling' in document.querySelector('#table').dataset
    || [...document.querySelectorAll('canvas[data-dice]')].some((c) => c.dataset.state === 'rolling')
    || [...document.querySelectorAll('[data-face-pad]')].some((p) => !p.hidden && 'asking' in p.dataset);
  const open = indexedDB.open('arbiter-table');
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const db = open.result;
    const count = db.transaction('records').objectStore('records').count(IDBKeyRange.bound('log:', 'log:\uffff'));
    count.onsuccess = () => { resolve(busy ? -1 : count.result); db.close(); };
    count.onerror = () => reject(count.error);
  };
})"""

# Each character the monkey rolls as: its procedure, its name, and how its sheet is set up to fill its form.
NAMES = {"ten_again": "Rook", "ability_test": "Mira", "threat": "Vex", "two_dice": "Ash", "arbitration": "Lark"}

# What the log says was paid or gained, phrase by phrase (the engine's notes, py/arbiter/*/table.py and scene.py):
# (pattern, the count it changes, the change from the match). Parts of a note saying "Not done" changed nothing.
CHANGES = [
    (r"Spent (\d+) Will\b", "will", lambda m: -int(m[1])),
    (r"Rested [^:;]*: Will (\d+) → (\d+)", "will", lambda m: int(m[2]) - int(m[1])),
    (r"Spent (\d+) Exertion\b", "exertion", lambda m: -int(m[1])),
    (r"Spent (\d+) XP\b", "xp", lambda m: -int(m[1])),
    (r"[Ee]arned (\d+) XP\b", "xp", lambda m: int(m[1])),
    (r"Lost one Insight\b", "counters.insight", lambda m: -1),
    (r"Spent a point of Gear\b", "counters.gear", lambda m: -1),
    (r"Took 1 Harm\b", "counters.harm", lambda m: 1),
    (r"one die added to the Scheme", "scheme", lambda m: 1),
    (r"Removed 1 die from the Scheme", "scheme", lambda m: -1),
    (r"Subtracted (\d+) dice from the Scheme", "scheme", lambda m: -int(m[1])),
    (r"leaves the Scheme again", "scheme", lambda m: -1),
]
COUNTS = {  # each kind's counts the table pays from or adds to
    "ten_again": ("will",),
    "ability_test": ("exertion", "xp"),
    "threat": ("counters.insight", "counters.gear", "counters.harm"),
    "two_dice": (),
    "arbitration": (),
}
LOCK_MS = 700  # issue 29: Roll takes no new roll until the outcome has been on screen 0.6 s; the monkey waits longer


class Broken(AssertionError):
    """An invariant broken: its name, what was seen, and the trace to replay it."""


# Issue 29's bugs, each the break of an invariant, raised as its own kind (a test may expect one: xfail(raises=...)).
class TwoRolls(Broken):
    """One log entry per roll, broken: a burst of taps on Roll logged more than one roll."""


class PadLeavesTheOldRoll(Broken):
    """With the face pad open, the previous outcome was not stale, or one of its follow-ups was logged."""


class ReloadDetached(Broken):
    """After a reload, a form said "Rolling as" someone but did not hold what their sheet fills."""


class TypingUndone(Broken):
    """What the player typed did not stay."""


BROKEN = {  # an invariant's name (its start) -> the kind raised when it breaks
    "one log entry per roll": TwoRolls,
    "an open pad": PadLeavesTheOldRoll,
    "after a reload": ReloadDetached,
    "what the player typed": TypingUndone,
}


def changes_in(note: str) -> list[tuple[str, int]]:
    """[(count, change)] a log note says, in its order; parts saying "Not done" change nothing."""
    out = []
    for part in re.split(r"; (?=Not done)|(?<=\)); ", note or ""):
        if part.startswith("Not done"):
            continue
        for pattern, count, change in CHANGES:
            out += [(count, change(m)) for m in re.finditer(pattern, part)]
    return out


def at_path(value, path: str):
    """The part of `value` (a request) a form field's data-path names: "opposed.skills[0]", "threats[1].name"."""
    for name, index in re.findall(r"([^.[\]]+)|\[(\d+)\]", path):
        if value is None:
            return None
        value = value[int(index)] if index else value.get(name)
    return value


def differences(request: dict, shown: dict) -> list[str]:
    """Where a logged request differs from the form as shown at its tap (field path -> value shown)."""
    out = []
    for path, v in shown.items():
        if path.startswith("?"):  # an optional group's switch: on, or the request holds none
            got = at_path(request, path[1:])
            if (got is not None) != v:
                out.append(f"{path[1:]}: shown {'on' if v else 'off'}, logged {got!r}")
            continue
        try:
            got = at_path(request, path)
        except (IndexError, KeyError, TypeError, AttributeError):
            got = "(absent)"
        same = got is v if isinstance(v, bool) else str(got) == str(v).strip()
        if not same:
            out.append(f"{path}: shown {v!r}, logged {got!r}")
    return out


def count_of(sheet: dict, count: str):
    return at_path(sheet, count)


@dataclass
class Monkey:
    """One seeded run on `page` (a phone page of the served site, the INIT_SCRIPT added to its context)."""

    page: object
    seed: int
    systems: tuple = tuple(NAMES)
    speed: str = "off"
    only: tuple = ()  # the kinds of action to play (ACTIONS' names); all when empty
    watch: object = None  # the page's watch (conftest.py): what went wrong on it, checked after each action
    command: str = ""  # the command that replays this run, after the environment that steers it
    trace: list = field(default_factory=list)
    seen: set = field(default_factory=set)  # log ids already checked
    start: dict = field(default_factory=dict)  # name -> {count: value}; "" -> the Scheme
    source: dict = field(default_factory=dict)  # system -> 'table' while its form rolls the table's dice

    def __post_init__(self):
        self.rng = random.Random(self.seed)

    # --- what the monkey reads -------------------------------------------------------------------------------------

    def log(self) -> list[tuple[str, dict]]:
        """[(id, entry)] of the store's log, oldest first."""
        entries = [(k, r["data"]) for k, r in records(self.page).items() if k.startswith("log:")]
        return sorted(entries, key=lambda e: (e[1]["time"], e[0]))

    def counts(self) -> dict:
        """What the table holds now: each character's counts, and the Scheme."""
        recs = records(self.page)
        chars = {r["data"]["name"]: r["data"] for k, r in recs.items() if k.startswith("char:")}
        out = {name: {c: count_of(chars[name]["sheet"], c) for c in COUNTS[s]} for s, name in self.chars()}
        out[""] = {"scheme": recs.get("shared:scheme", {}).get("data", {}).get("scheme", 0)}
        return out

    def chars(self):
        return [(s, NAMES[s]) for s in self.systems]

    def fail(self, invariant: str, said: str):
        kind = next((k for start, k in BROKEN.items() if invariant.startswith(start)), Broken)
        raise kind(
            f"monkey seed {self.seed}, action {len(self.trace)} of the trace, broke: {invariant}\n{said}\n"
            f"trace (replay: ARBITER_MONKEY_SEEDS={self.seed} ARBITER_MONKEY_ACTIONS={len(self.trace)}"
            f"{' ARBITER_MONKEY_ONLY=' + ','.join(self.only) if self.only else ''} ARBITER_MONKEY_SPEED={self.speed}"
            f" {self.command}):\n  " + "\n  ".join(f"{i + 1}. {t}" for i, t in enumerate(self.trace))
        )

    def taps(self) -> list[dict]:
        return self.page.evaluate(TAPS)

    # --- waiting as a player waits: until the page is quiet ------------------------------------------------------------

    def settle(self, quiet_ms: int = 300, timeout_ms: int = 15_000):
        """Until the rules and the table are ready, no die tumbles, nothing is asked of the engine for a sheet, and the
        log has not changed for `quiet_ms`."""
        page = self.page
        deadline = time.monotonic() + timeout_ms / 1000
        last, since = None, time.monotonic()
        while True:
            n = page.evaluate(QUIET)
            busy = n < 0
            if n != last or busy:
                last, since = n, time.monotonic()
            elif (time.monotonic() - since) * 1000 >= quiet_ms:
                return
            if time.monotonic() > deadline:
                self.fail("the page settles", f"still busy after {timeout_ms} ms")
            page.wait_for_timeout(50)

    # --- setting up: a character of each procedure, its sheet filling its form ------------------------------------------

    def set_up(self):
        page = self.page
        choose_speed(page, self.speed)
        for system, name in self.chars():
            create(page, system, name)
            SETUPS[system](page, name)
            fill_from_sheet(page, system)
            wait_until(
                page,
                lambda s=system, n=name: form(page, s).locator(f'[data-rolling-as="{n}"]').count() == 1,
                10_000,
                what=f"{name} rolling {system}",
            )
        self.settle()
        self.start = self.counts()
        self.seen = {k for k, _ in self.log()}
        self.seen_at_start = set(self.seen)
        self.taps()

    # --- the actions -------------------------------------------------------------------------------------------------

    def roll_button(self, system):
        return form(self.page, system).locator("button[data-roll]")

    def use_source(self, system, source):
        """The dice source by Roll: the app's, or the table's own (the face pad)."""
        toggle = form(self.page, system).locator("button.dice-source")
        if (toggle.get_attribute("data-dice-source") or "app") != source:
            toggle.tap()
            wait_until(self.page, lambda: toggle.get_attribute("data-dice-source") == source, 5_000)
        self.source[system] = source

    def act_roll(self, system, gaps):
        """Tap Roll once (`gaps` empty) or in a burst: a tap after each gap (ms), all within 0.6 s of the first."""
        page = self.page
        show_form(page, system)
        self.use_source(system, "app")
        button = self.roll_button(system)
        button.scroll_into_view_if_needed()
        box = button.bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.touchscreen.tap(x, y)
        if gaps:
            # the burst's other taps scheduled in the page, so their gaps are the player's, not this loaded machine's
            # (a round trip to the browser here may take longer than a gap)
            page.evaluate(BURST, [system, gaps])
        self.answered(system)
        self.settle()
        self.check_rolls(system, burst=bool(gaps))
        page.wait_for_timeout(LOCK_MS)

    def answered(self, system, timeout_ms: int = 10_000):
        """Until a tap on Roll has an answer: a new log entry, or words by Roll or a field saying why not."""
        before = len(self.seen)
        said = form(self.page, system).locator("[data-roll-refusal]:not([hidden]), output.field-error:not([hidden])")
        deadline = time.monotonic() + timeout_ms / 1000
        while self.page.evaluate(QUIET) in (-1, before) and not said.count() and time.monotonic() < deadline:
            self.page.wait_for_timeout(50)

    def act_type(self, system, edits, after_roll, then_roll=False):
        """Type into fields one after another, `edits`: [(draw, gap before it in ms)]; the field and its value are
        picked by the draw from what the form shows. With `after_roll`, Roll is tapped first, the typing starting
        its first gap after the tap (a late answer must not undo it); with `then_roll`, Roll is tapped 0-300 ms after
        the last keystroke, by an impatient thumb (the odds beside it then are the form's, or marked stale)."""
        page = self.page
        show_form(page, system)
        self.use_source(system, "app")
        f = form(page, system)
        if after_roll:
            self.roll_button(system).tap()
        typed = {}
        for draw, gap in edits:
            page.wait_for_timeout(gap)
            fields = f.locator(
                "input[data-path]:not([disabled]):not([type=checkbox]):not([type=text]), "
                "input[type=checkbox][data-path]:not([disabled])"
            )
            n = fields.count()
            if not n:
                continue
            el = fields.nth(int(draw[0] * n))
            path = el.get_attribute("data-path")
            if el.get_attribute("type") == "checkbox":
                el.tap()
                typed[path] = None  # a tick: whatever it is now, it must stay
                continue
            low, high = int(el.get_attribute("min") or 0), int(el.get_attribute("max") or 9)
            value = str(low + int(draw[1] * (min(high, low + 5) - low + 1)))
            el.tap()
            el.fill("")  # the old value cleared (a select-all on a phone's number field is not to be trusted)
            el.press_sequentially(value, delay=int(draw[2] * 60))
            typed[path] = value
        if then_roll:
            # a moment after the last keystroke (0-300 ms, from its draw): an odds answer may be on its way then
            page.wait_for_timeout(int(edits[-1][0][2] * 300))
            self.roll_button(system).tap()
            self.settle(quiet_ms=600)
            # the roll's answer may rightly write its reset and the sheet's numbers: the tap's checks are the roll's
            self.check_rolls(system, burst=False, quiet=True)
            page.wait_for_timeout(LOCK_MS)
            return
        f.locator("h2").first.tap()  # leave the last field, as a thumb does
        for path in [p for p, v in typed.items() if v is None]:
            typed[path] = f.locator(f'[data-path="{path}"]').is_checked()
        self.settle(quiet_ms=600)
        if after_roll:
            self.check_rolls(system, burst=False, quiet=True)
        now = {p: self.field_value(f, p) for p in typed}
        lost = {p: (v, now[p]) for p, v in typed.items() if now[p] != v}
        if lost:
            self.fail(
                "what the player typed stays",
                "\n".join(f"{p}: typed {v!r}, the form now shows {n!r}" for p, (v, n) in lost.items()),
            )
        self.check_counts()
        if after_roll:
            page.wait_for_timeout(LOCK_MS)

    @staticmethod
    def field_value(f, path):
        el = f.locator(f'[data-path="{path}"]')
        return el.is_checked() if el.get_attribute("type") == "checkbox" else el.input_value()

    def act_follow_up(self, system, draw):
        """Tap one of the shown outcome's follow-ups (picked by `draw` among those enabled), if it has any."""
        page = self.page
        show_form(page, system)
        buttons = form(page, system).locator("[data-choices] button:not([disabled]):not([aria-disabled=true])")
        shown = visible(buttons)
        if not shown:
            return
        buttons.nth(shown[int(draw * len(shown))]).tap()
        self.settle(quiet_ms=800)  # a follow-up that rolls is logged by then; one that only picks dice, never
        self.check_follow_ups(system)

    def act_pad(self, system, draws, leave, old_choice):
        """Roll with the table's dice: Table dice, Roll, the face pad open; with `old_choice`, a tap on the previous
        outcome's follow-ups first (the pad owns the form: nothing may come of it); then faces tapped (picked by
        `draws`) until the pad closes, or Leave."""
        page = self.page
        show_form(page, system)
        f = form(page, system)
        self.use_source(system, "table")
        had = f.locator("[data-result][data-outcome]").count() > 0
        self.roll_button(system).tap()
        pad = f.locator("[data-face-pad]")
        wait_until(page, lambda: pad.is_visible() and pad.get_attribute("data-asking") is None, 10_000, what="the pad")
        if had:
            if f.locator("[data-result][data-stale]").count() == 0:
                self.fail("an open pad marks the previous outcome stale", "[data-result] has no data-stale")
            old = f.locator("[data-choices] button")
            shown = visible(old)
            if old_choice is not None and shown:
                before = {k for k, _ in self.log()}
                old.nth(shown[int(old_choice * len(shown))]).tap(force=True, timeout=2_000)
                self.settle()
                new = [(k, e) for k, e in self.log() if k not in before]
                if new:
                    self.fail(
                        "an open pad leaves no follow-up of the previous outcome usable",
                        f"a tap on a follow-up with the pad open logged: {[e.get('did') or e['summary'] for _, e in new]}",
                    )
        if leave:
            pad.locator("[data-face-leave]").tap()
        else:
            for draw in draws:
                wait_until(page, lambda: not pad.is_visible() or pad.get_attribute("data-asking") is None, 10_000)
                if not pad.is_visible():
                    break
                faces = pad.locator("button[data-face]")
                faces.nth(int(draw * faces.count())).tap()
            if not pad.is_visible():
                self.answered(system)
        self.settle()
        if pad.is_visible():  # more faces asked than drawn: leave
            pad.locator("[data-face-leave]").tap()
            self.settle()
            leave = True
        self.check_rolls(system, burst=False, left=leave)
        self.use_source(system, "app")
        page.wait_for_timeout(LOCK_MS)

    def act_view(self, view):
        show_view(self.page, view)
        self.settle()

    def pick(self, name):
        """Show `name`'s sheet on the Table view (a tap on the name shows it, or hides it when shown)."""
        show_view(self.page, "table")
        button = self.page.locator(".char-list button", has_text=name).first
        if button.get_attribute("aria-pressed") != "true":
            pick_character(self.page, name)

    def act_sheet_op(self, system, op):
        """A sheet's own button: a night of rest, a Will expended, Exertion spent, a Scene's XP."""
        page = self.page
        self.pick(NAMES[system])
        page.locator(f'.sheet [data-op="{op}"]').first.tap()
        self.settle()
        self.check_notes()

    def act_new_scene(self):
        show_view(self.page, "table")
        button = self.page.locator('[data-k="scene:new"]')
        if button.is_enabled():
            button.tap()
        self.settle()
        self.check_notes()

    def act_reload(self, system):
        """Reload, then open `system`'s form: if it says "Rolling as" someone, it holds their sheet as their sheet
        fills it now (checked by pressing their sheet's Fill, as a player would, and comparing)."""
        page = self.page
        page.reload()
        page.wait_for_selector("body[data-ready]", state="attached", timeout=60_000)
        page.wait_for_selector("#table[data-ready]", state="attached", timeout=10_000)
        self.source = {}
        show_form(page, system)
        self.settle(quiet_ms=600)
        f = form(page, system)
        who = f.locator("[data-rolling-as]")
        if who.count():
            name = who.get_attribute("data-rolling-as")
            shown = self.form_shown(f)
            self.pick(name)
            fill_from_sheet(page, system)
            show_form(page, system)
            self.settle()
            filled = self.form_shown(f)
            if shown != filled:
                self.fail(
                    "after a reload, a form rolling as someone holds their sheet",
                    f'the {system} form said "Rolling as {name}" and showed '
                    + ", ".join(f"{p} {shown.get(p)!r}" for p in filled if shown.get(p) != filled[p])
                    + "; their sheet fills "
                    + ", ".join(f"{p} {filled[p]!r}" for p in filled if shown.get(p) != filled[p]),
                )
        self.check_counts()

    @staticmethod
    def form_shown(f) -> dict:
        return f.evaluate(
            """(f) => Object.fromEntries([...f.querySelectorAll('input[data-path], select[data-path]')]
            .filter((el) => !el.disabled).map((el) => [el.dataset.path, el.type === 'checkbox' ? el.checked : el.value]))"""
        )

    # --- the checks --------------------------------------------------------------------------------------------------

    def new_entries(self):
        new = [(k, e) for k, e in self.log() if k not in self.seen]
        self.seen |= {k for k, _ in new}
        return new

    def check_rolls(self, system, burst, left=False, quiet=False):
        """After Roll tapped (once, or a burst): one roll logged (none when the pad was left or the roll refused, and
        then the page said why), its request what the form showed at the first tap; no follow-up from it."""
        taps = [t for t in self.taps() if t["kind"] == "roll" and t["system"] == system]
        new = self.new_entries()
        rolls = [(k, e) for k, e in new if e["kind"] == "roll"]
        others = [(k, e) for k, e in new if e["kind"] == "follow-up"]
        if others:
            self.fail("a tap on Roll logs no follow-up", f"logged: {[e['did'] for _, e in others]}")
        if len(rolls) > 1:
            self.fail(
                "one log entry per roll" + (" (a burst of taps is one roll)" if burst else ""),
                f"{len(taps)} taps on Roll logged {len(rolls)} rolls: "
                + "; ".join(f"{e['summary']} (request {e['request']})" for _, e in rolls),
            )
        if not rolls:
            said = form(self.page, system).locator(
                "[data-roll-refusal]:not([hidden]), output.field-error:not([hidden])"
            )
            if not left and not quiet and said.count() == 0:
                self.fail("a tap on Roll rolls, or says why not", f"{len(taps)} taps, nothing logged, nothing said")
        elif not taps:
            self.fail("a roll comes from a tap", "a roll was logged with no tap on Roll recorded")
        else:
            _, entry = rolls[0]
            if entry["system"] != system:
                self.fail("a roll is logged for its procedure", f"tapped {system}, logged {entry['system']}")
            diff = differences(entry["request"], taps[0]["form"])
            if diff:
                self.fail("a log entry's request is what the form showed at its tap", "\n".join(diff))
        for tap in taps:
            diff = differences(tap["odds"], tap["form"]) if tap["odds"] is not None else []
            if diff:
                self.fail(
                    "the odds beside Roll at a tap are those of the form shown (or marked stale)", "\n".join(diff)
                )
        self.check_counts()

    def check_notes(self):
        """After a sheet's button or New Scene: at most one entry, a note of what the table did (no roll)."""
        new = self.new_entries()
        if len(new) > 1 or any(e["kind"] != "note" for _, e in new):
            self.fail("a table op logs one note", f"logged: {[(e['kind'], e['summary']) for _, e in new]}")
        self.check_counts()

    def check_follow_ups(self, system):
        """After a follow-up's tap: at most one entry, a follow-up of this procedure's roll, with its roll's request."""
        self.taps()
        new = self.new_entries()
        if len(new) > 1 or any(e["kind"] != "follow-up" for _, e in new):
            self.fail("one tap on a follow-up logs at most one follow-up", f"logged: {[e['kind'] for _, e in new]}")
        log = dict(self.log())
        for _, e in new:
            root = log.get(f"log:{e.get('follows')}")
            if root and root["request"] != e["request"]:
                self.fail("a follow-up's request is its roll's", f"{e['request']} after {root['request']}")
        self.check_counts()

    def check_counts(self):
        """Each character's counts (and the Scheme) are what they were at the start, less what the log says was paid,
        plus what it says was gained."""
        expected = {who: dict(counts) for who, counts in self.start.items()}
        names = {name for _, name in self.chars()}
        for k, e in self.log():
            if k in self.seen_at_start:
                continue
            who = (e.get("character") or {}).get("name") or ""
            parts = [(who, e.get("note") or "")]
            if not e.get("character") and e["kind"] == "note":  # New Scene: "Name: what it did · Name: …"
                parts = [
                    tuple(p.split(": ", 1)) if p.split(": ", 1)[0] in names else ("", p) for p in e["note"].split(" · ")
                ]
            for whose, note in parts:
                for count, change in changes_in(note):
                    holder = "" if count == "scheme" else whose
                    if holder in expected and count in expected[holder]:
                        expected[holder][count] += change
        now = self.counts()
        if now != expected:
            wrong = [
                f"{who or 'the Scheme'} {c}: holds {now[who][c]}, the log says {expected[who][c]}"
                for who in expected
                for c in expected[who]
                if now[who][c] != expected[who][c]
            ]
            self.fail("counts = start - paid + gained, as the log says", "\n".join(wrong))

    # --- the run -----------------------------------------------------------------------------------------------------

    def play(self, actions: int):
        """Set up, then play `actions` actions, each checked; raises Broken at the first invariant broken."""
        self.set_up()
        for system, _ in self.chars():  # each character's first roll, from the sheet's numbers
            self.do(("roll", system, []))
        while len(self.trace) < actions:
            self.do(self.draw())

    def do(self, action):
        self.trace.append(describe(action))
        kind, *args = action
        try:
            getattr(self, f"act_{kind}")(*args)
        except Broken:
            raise
        except (Exception, pytest.fail.Exception) as error:  # a wait timed out, a control never came: with the trace
            self.fail("the page answers each action", f"{type(error).__name__}: {error}")
        if self.watch is not None and self.watch.problems:
            self.fail("no page error", "\n".join(self.watch.problems))

    def draw(self):
        """The next action, drawn from the seed alone (each kind draws the same numbers whatever the page shows)."""
        rng = self.rng
        kinds = [k for k in ACTIONS if not self.only or k in self.only]
        kind = rng.choices(kinds, [ACTIONS[k] for k in kinds])[0]
        system = rng.choice(self.systems)
        if kind == "roll":
            return ("roll", system, [])
        if kind == "burst":
            n, gap = rng.choice([(3, 150), (4, 120), (3, 270), (2, 80), (4, 180)])
            return ("roll", system, [gap] * (n - 1))
        if kind == "type":
            edits = [
                ((rng.random(), rng.random(), rng.random()), rng.choice([0, 0, 50, 100, 200, 300]))
                for _ in range(rng.randint(1, 4))
            ]
            when = rng.random()  # Roll tapped before the typing, right after it, or not at all
            return ("type", system, edits, when < 0.4, 0.4 <= when < 0.7)
        if kind == "follow_up":
            return ("follow_up", system, rng.random())
        if kind == "pad":
            return (
                "pad",
                system,
                [rng.random() for _ in range(30)],
                rng.random() < 0.2,
                rng.random() if rng.random() < 0.6 else None,
            )
        if kind == "view":
            return ("view", rng.choice(["roll", "table", "log"]))
        if kind == "sheet_op":
            ops = [(s, op) for s in self.systems for op in SHEET_OPS.get(s, ())]
            if not ops:
                return ("view", "table")
            return ("sheet_op", *rng.choice(ops))
        if kind == "new_scene":
            return ("new_scene",)
        return ("reload", system)


def visible(locator) -> list[int]:
    """The indices of the elements `locator` matches that are shown."""
    return locator.evaluate_all("(els) => els.flatMap((el, i) => (el.checkVisibility() ? [i] : []))")


def describe(action) -> str:
    kind, *args = action
    if kind == "roll":
        system, gaps = args
        return f"roll {system}" + (f": a burst of {len(gaps) + 1} taps, {gaps} ms apart" if gaps else ": one tap")
    if kind == "type":
        system, edits, after, then = args
        said = " right after a tap on Roll" if after else " then Roll at once" if then else ""
        return f"type into {system}{said}: " + ", ".join(
            f"field draw {d[0]:.3f} value draw {d[1]:.3f} after {g} ms" for d, g in edits
        )
    if kind == "pad":
        system, draws, leave, old = args
        return (
            f"table dice on {system}"
            + (", a tap on the old follow-up" if old is not None else "")
            + (", then Leave" if leave else ", faces tapped")
        )
    return " ".join(str(a) for a in action)


ACTIONS = {  # each kind of action and how often it is drawn
    "roll": 5,
    "burst": 4,
    "type": 5,
    "follow_up": 5,
    "pad": 2,
    "view": 3,
    "sheet_op": 2,
    "new_scene": 1,
    "reload": 1,
}
SHEET_OPS = {"ten_again": ("rest", "spend_will"), "ability_test": ("exert", "xp_earn")}


# --- each character's sheet, set up to fill its form ------------------------------------------------------------------


def _ten_again(page, name):
    add_row(page, "attributes", "Strength", 4)
    page.locator(".sheet .use").get_by_label("Strength 4").check()


def _ability_test(page, name):
    edit(page, sheet_input(page, "exertion"), 3, lambda: characters(page)[name]["sheet"]["exertion"] == 3)


def _threat(page, name):
    for counter in ("insight", "gear"):
        edit(
            page,
            sheet_input(page, f"counters.{counter}"),
            2,
            lambda c=counter: characters(page)[name]["sheet"]["counters"][c] == 2,
        )


def _two_dice(page, name):
    add_row(page, "traits", "Brave", 3)
    page.locator(".sheet .use select").first.select_option(label="Brave 3")


def _arbitration(page, name):
    add_row(page, "skills", "Swords", 4)
    page.locator(".sheet .use").get_by_label("Swords 4").check()


SETUPS = {
    "ten_again": _ten_again,
    "ability_test": _ability_test,
    "threat": _threat,
    "two_dice": _two_dice,
    "arbitration": _arbitration,
}
