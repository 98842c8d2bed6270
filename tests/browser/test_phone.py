"""The page on a phone at the table (360 × 640, touch): every tap target is at least 44 × 44 CSS px, the dice's too,
and the keyboard keeps its place: Enter on Roll rolls, the focus stays there, and Enter rolls again."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest

from page_helpers import (
    IN_VIEW,
    changed,
    check_shown,
    form,
    said_by_roll,
    set_field,
    settled,
    show_form,
    show_view,
    wait_until,
)
from steps import SPEC, TAB

TAP = 44  # CSS px each way: the smallest tap target (WCAG 2.5.5; Apple's and Android's guidelines)

# Every target too small in the parts `scopes` names (CSS selectors), as "what it is: width × height". A checkbox's
# or radio's target is its label (the box itself is small); what is hidden (a closed <details>, a hidden tab) is not
# counted.
TOO_SMALL = """([scopes, tap]) => {
  const shown = (el) => el.checkVisibility() && el.getBoundingClientRect().width > 0;
  const what = (el) => `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') || el.textContent || el.name || '')
    .trim().slice(0, 40)}"`;
  const out = [];
  for (const scope of document.querySelectorAll(scopes)) {
    for (const el of scope.querySelectorAll(
      'button, a[href], summary, select, input[type=checkbox], input[type=radio], input[type=file]')) {
      if (!shown(el)) continue;
      const labels = el.matches('input[type=checkbox], input[type=radio]') ? [...el.labels].filter(shown) : [];
      const area = (e) => e.getBoundingClientRect().width * e.getBoundingClientRect().height;
      const target = labels.sort((a, b) => area(b) - area(a))[0] ?? el;
      const r = target.getBoundingClientRect();
      if (r.width < tap || r.height < tap) out.push(`${what(target)}: ${r.width.toFixed(1)} × ${r.height.toFixed(1)}`);
    }
  }
  return out;
}"""

TABS = list(dict.fromkeys(TAB.values()))


def focused(page) -> str:
    """What has the focus: its form's procedure and what it is (the Roll button, a choice's button, the dice)."""
    return page.evaluate("""() => {
      const el = document.activeElement;
      const where = el.closest('form[data-system]')?.dataset.system ?? 'outside the forms';
      const what = el.matches('[data-roll]') ? 'Roll' : el.matches('canvas') ? 'the dice'
        : el === document.body ? 'the page' : `${el.tagName.toLowerCase()} "${el.textContent.trim().slice(0, 40)}"`;
      return `${where}: ${what}`;
    }""")


@pytest.mark.parametrize("tab", TABS)
def test_every_tap_target_in_a_tab_is_44_px(phone_app, tab):
    """After a roll of each form in the tab, every button, tab, summary, select and checkbox label shown (in the tab,
    the Table and the rulings) is at least 44 × 44 CSS px at 360 px wide."""
    page = phone_app(f"#{tab}")
    systems = [s for s in SPEC if TAB[s] == tab]
    if "ability_test" in systems:  # Masteries (they need a Skill: ability_test-5) offer the reroll's buttons
        set_field(page, "ability_test", "skill", 1)
        set_field(page, "ability_test", "masteries", 2)
    for system in systems:
        changed(page, system, form(page, system).locator("button[data-roll]").click)
        settled(page, system)
    if "threat" in systems:  # a die picked: each threat becomes a button to give it to
        page.evaluate("() => window.arbiterPage.procs.threat.tap(0)")
    page.evaluate(f"() => document.querySelectorAll('#panel-{tab} details').forEach((d) => {{ d.open = true; }})")
    too_small = page.evaluate(TOO_SMALL, [f"nav.tabs, #panel-{tab}, #table, #rulings", TAP])
    assert too_small == [], f"smaller than {TAP} × {TAP} px in the {tab} tab:\n" + "\n".join(too_small)


def test_every_tap_target_of_the_table_is_44_px(phone_app):
    """The Table with a sheet of each kind shown, one filling its form (the "stop" link), a struggle and a logged roll:
    every control is at least 44 × 44 CSS px at 360 px wide."""
    page = phone_app("#table")
    part = page.locator('[data-part="struggles"]')
    part.get_by_label("Effort").fill("Climb the tower")
    part.locator('[data-create="struggle"] button[type=submit]').click()
    page.wait_for_selector('.struggle h4:has-text("Climb the tower")')
    page.locator(".struggle details").evaluate_all("(all) => all.forEach((d) => { d.open = true; })")
    problems = []
    for kind in SPEC:
        if kind == "luck":  # rolled from a threat sheet
            continue
        show_view(page, "table")
        page.select_option("#new-char-kind", kind)
        page.fill("#new-char-name", f"A {kind} hero")
        page.click('[data-create="character"] button[type=submit]')
        page.wait_for_selector(f'.sheet[data-kind="{kind}"]')
        page.locator(f'.sheet [data-fill="{kind}"]').click()
        wait_until(page, "() => document.querySelector('#table').dataset.filling === undefined", 10_000)
        show_form(page, kind)
        changed(page, kind, form(page, kind).locator("button[data-roll]").click)
        page.wait_for_selector(".log-entry", state="attached", timeout=10_000)
        for view in ("table", "log"):
            show_view(page, view)
            problems += [f"{kind} sheet, {view}: {p}" for p in page.evaluate(TOO_SMALL, [f"#{view}", TAP])]
    assert problems == [], f"smaller than {TAP} × {TAP} px in the Table and the Log:\n" + "\n".join(problems)


# The largest pools the forms take (request, at least this many dice, whether a follow-up can pick them): 30 and more
# d10s in rows of 310 px (none to pick: drawn smaller, issue 29), then d6s with captions under them (a threat's T1…).
MANY_DICE = {
    "ten_again": ({"pool": 30, "modifier": 10, "will": True}, 30, False),
    "threat": ({"rating": 10, "threats": [{"name": "A"}, {"name": "B"}], "extra_dice": 10}, 20, True),
}


@pytest.mark.parametrize("system", list(MANY_DICE))
def test_each_die_a_follow_up_can_pick_has_a_44_px_tap_box_however_many_dice(phone_app, system):
    """With the most dice the form takes, a tap anywhere within 22 px of the centre of a die a follow-up can pick
    (the tray's `pick`), each way, lands on that die; a tap on any other die shown, within its own box, lands on it
    (the tray's own hit test, from the page's pointer coordinates)."""
    request, least, picked = MANY_DICE[system]
    page = phone_app(f"#{system}={quote(json.dumps(request))}")
    changed(page, system, form(page, system).locator("button[data-roll]").click)
    misses = page.evaluate(
        """([s, tap]) => {
      const tray = window.arbiterPage.procs[s].tray;
      const r = tray.canvas.getBoundingClientRect();
      const at = (x, y) => tray._hit({ clientX: r.left + x, clientY: r.top + y });
      const out = [];
      tray.dice.forEach((d, i) => {
        if (d.hidden) return;
        const cx = d.x + d.s / 2, cy = d.y + d.s / 2, h = d.pick ? tap / 2 - 0.1 : d.s / 2 - 0.1;
        for (const [dx, dy] of [[-h, -h], [0, -h], [h, -h], [-h, 0], [h, 0], [-h, h], [0, h], [h, h]]) {
          const hit = at(cx + dx, cy + dy);
          if (hit !== i) out.push(`die ${i} (${d.s} px): (${dx}, ${dy}) from its centre hits ${hit}`);
        }
      });
      return [tray.dice.length, tray.dice.filter((d) => d.pick).length, out];
    }""",
        [system, TAP],
    )
    count, picks, missed = misses
    assert count >= least and picks == (count if picked else 0)
    assert missed == [], "\n".join(missed)


@pytest.mark.parametrize("system", list(SPEC))
def test_enter_on_roll_rolls_and_keeps_the_focus_for_the_next_enter(phone_app, system):
    """Enter on a focused Roll rolls; the focus is still on Roll, so Enter again, once Roll takes a new roll (the
    outcome held on screen a moment: a burst of taps is one roll), rolls a second time."""
    page = phone_app(f"#{TAB[system]}")
    roll = form(page, system).locator("button[data-roll]")
    roll.focus()
    first = changed(page, system, lambda: page.keyboard.press("Enter"))
    assert focused(page) == f"{system}: Roll"
    wait_until(page, "(b) => !b.hasAttribute('aria-disabled')", 10_000, roll.element_handle())
    second = changed(page, system, lambda: page.keyboard.press("Enter"))
    assert focused(page) == f"{system}: Roll"
    assert first["steps"] and second["steps"]  # two rolls the engine made (changed() saw two new roll objects)


def test_a_follow_up_keeps_the_focus_on_the_control_used(phone_app):
    """Enter on "Pick the best" picks and keeps the focus there; Enter on Reroll rerolls, and the focus goes to the
    dice it rerolled (Reroll itself is disabled then, nothing being picked), never dropped to the page. ("Pick the
    best" is offered when it suggests dice: a Test of Ability 11 against four dice is rolled until it does.)"""
    page = phone_app("#ability_test")
    for path, value in {"type1": 5, "type2": 5, "difficulty": 4, "skill": 1, "masteries": 2}.items():
        set_field(page, "ability_test", path, value)
    for _ in range(40):
        rolled = changed(page, "ability_test", form(page, "ability_test").locator("button[data-roll]").click)
        if any(c["name"] == "reroll" and c["suggested"] for c in rolled["choices"]):
            break
    else:
        raise AssertionError("no roll suggesting dice to reroll in 40 tries")
    settled(page, "ability_test")
    choice = form(page, "ability_test").locator('[data-choice="reroll"]')
    choice.locator("button:not(.primary)").focus()
    page.keyboard.press("Enter")  # the choices are drawn again, with the best dice picked
    assert focused(page).startswith('ability_test: button "Pick the best')
    choice.locator("button.primary").focus()
    after = changed(page, "ability_test", lambda: page.keyboard.press("Enter"))
    settled(page, "ability_test")
    assert after["rerolled"] and focused(page) == "ability_test: the dice"  # Reroll is disabled now: nothing picked


# The contrast ratio (WCAG 2) of an element's text colour against its button's background, both opaque rgb().
CONTRAST = """(el) => {
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = (c) => { const [r, g, b] = rgb(c).map((v) => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const [a, b] = [lum(getComputedStyle(el).color), lum(getComputedStyle(el.closest('button')).backgroundColor)];
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_reroll_hint_is_readable_on_its_button(phone_app, scheme):
    """Before any die is picked, Reroll says "tap dice to see the chance": in the button's own text colour, at least
    4.5:1 against it in light and dark (it was grey on the accent colour: 1.4:1 light, 1.2:1 dark)."""
    page = phone_app("#ability_test")
    page.emulate_media(color_scheme=scheme)
    for path, value in {"difficulty": 4, "skill": 1, "masteries": 2}.items():
        set_field(page, "ability_test", path, value)
    changed(page, "ability_test", form(page, "ability_test").locator("button[data-roll]").click)
    settled(page, "ability_test")
    hint = form(page, "ability_test").locator('[data-choice="reroll"] button.primary .choice-odds')
    assert hint.inner_text() == "tap dice to see the chance"
    assert hint.evaluate(CONTRAST) >= 4.5


@pytest.mark.parametrize(
    "system, path, value, words",
    [
        ("ability_test", "type1", "9", "Type I Attribute must be from 1 to 5"),
        ("arbitration", "skills[0]", "-2", "Relevant skill values 1 must be from 0 to 30"),
        ("threat", "threats[0].name", "x" * 81, "Threat 1 must be text of at most 80 characters"),
        (
            "ability_test",
            "masteries",
            "2",
            "Masteries need a relevant Skill (Skill levels 1 or more), got 2 with Skill levels 0",
        ),
    ],
)
def test_a_refused_roll_says_why_by_roll_in_the_players_words(phone_app, system, path, value, words):
    """A value out of range refuses the roll with a message by Roll, in view on the phone, naming the field by its
    label and the allowed range, never by its path; the field is marked invalid and keeps what was typed, and the
    bar shows no chance (the last one was the valid form's)."""
    page = phone_app(f"#{TAB[system]}")
    field = form(page, system).locator(f'[data-path="{path}"]')
    field.evaluate("(el, v) => { el.value = v; el.dispatchEvent(new Event('input', { bubbles: true })); }", value)
    form(page, system).locator("button[data-roll]").click()
    assert said_by_roll(page, system) == words
    assert field.get_attribute("aria-invalid") == "true" and field.input_value() == value
    assert f"'{path}'" not in form(page, system).text_content()
    assert page.evaluate("(s) => window.arbiterPage.procs[s].roll", system) is None
    headline = form(page, system).locator("[data-headline]")
    wait_until(
        page,
        "(el) => el.querySelector('[data-no-odds]') && !el.querySelector('[data-p]')",
        10_000,
        headline.element_handle(),
    )
    assert headline.inner_text() == "No odds: show the ⚠"


# --- one view per roll, words after the dice (issue 8) ------------------------------------------------------------

# Records, on every animation frame and every change of the form, what a player sees: the canvas's state, the text of
# [data-result], and whether the dice and the result lie in the viewport above the Roll bar. `window.__seen`.
RECORD = """(s) => {
  const form = document.querySelector(`form[data-system="${s}"]`);
  const canvas = form.querySelector('canvas[data-dice]'), result = form.querySelector('[data-result]');
  const bar = form.querySelector('[data-roll]').parentElement;
  const shown = (el) => { const r = el.getBoundingClientRect(), limit = Math.min(innerHeight, bar.getBoundingClientRect().top);
    return r.height > 0 && r.top >= -0.5 && r.bottom <= limit + 0.5 && r.left >= 0 && r.right <= innerWidth + 0.5; };
  const seen = window.__seen = [];
  const sample = (why) => seen.push({ why, state: canvas.dataset.state, text: result.textContent.trim(),
    dice: shown(canvas), result: shown(result), scrollY });
  window.__observer?.disconnect();
  window.__observer = new MutationObserver(() => sample('change'));
  window.__observer.observe(form, { subtree: true, childList: true, characterData: true, attributes: true });
  const frame = () => { sample('frame'); if (seen.length < 20000) requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
}"""


def ready_phone(phone, hash_=""):
    """The page on a phone with motion (the dice tumble), the rules and the table loaded."""
    phone.goto("/" + hash_)
    phone.wait_for_selector("body[data-ready]", state="attached", timeout=60_000)
    phone.wait_for_selector("#table[data-ready]", state="attached", timeout=10_000)
    return phone


def check_words_waited(page, system, roll):
    """While the canvas said `rolling`, [data-result] held nothing; once landed, the words are the roll's and its
    outcome line is in view."""
    seen = page.evaluate("() => window.__seen")
    rolling = [x for x in seen if x["state"] == "rolling"]
    assert rolling, "the dice never tumbled"
    early = [x for x in rolling if x["text"]]
    assert early == [], f"words over tumbling dice: {early[:3]}"
    check_shown(page, system, roll)
    assert form(page, system).locator("[data-result] .outcome").evaluate(IN_VIEW)


@pytest.mark.parametrize("system", list(SPEC))
def test_one_view_per_roll_dice_then_words(phone, system):
    """At 360 × 640, with the tab chosen, Roll is in view; after a tap the dice and the outcome's line come into view
    while the dice tumble, with no scrolling by the test; the result holds nothing while they tumble, and the
    engine's words, matching the faces, once they land."""
    page = ready_phone(phone)
    page.locator(f'nav.tabs a[data-tab="{TAB[system]}"]').tap()
    roll = form(page, system).locator("button[data-roll]")
    assert roll.evaluate(IN_VIEW), f"Roll is at {roll.bounding_box()}, outside the 360 × 640 view or covered"
    page.evaluate(RECORD, system)
    rolled = changed(page, system, roll.tap)
    form(page, system).locator(
        'canvas[data-dice][data-state="landed"], canvas[data-dice][data-state="empty"]'
    ).wait_for()
    in_view = [x for x in page.evaluate("() => window.__seen") if x["state"] == "rolling" and x["dice"] and x["result"]]
    assert in_view, "the dice and the outcome's line were never both in view while the dice tumbled"
    check_words_waited(page, system, rolled)


def test_a_follow_ups_new_dice_land_before_its_words(phone):
    """Expending a Will: its three dice tumble, and the words of the roll with them come once they land."""
    page = ready_phone(phone, "#ten_again")
    button = form(page, "ten_again").locator("button[data-roll]")
    changed(page, "ten_again", button.tap)
    choice = form(page, "ten_again").locator('[data-choice="spend_will-actor"] button')
    choice.wait_for()
    page.evaluate(RECORD, "ten_again")
    after = changed(page, "ten_again", choice.tap)
    form(page, "ten_again").locator('canvas[data-dice][data-state="landed"]').wait_for()
    check_words_waited(page, "ten_again", after)


def test_roll_tapped_before_the_engine_is_ready_tumbles_then_lands_on_its_roll(phone):
    """A tap on Roll right after navigation, the engine held back (its snapshot not yet sent): the dice tumble at once
    and keep tumbling, no words, until the engine is ready; then they land on the engine's roll, its words with them."""
    held = []
    phone.route("**/snapshot.bin", lambda route: held.append(route))  # answered only when the test says so
    phone.goto("/", wait_until="commit")
    roll = form(phone, "arbitration").locator("button[data-roll]")
    roll.tap()  # as soon as it is shown: Roll is enabled from the first paint
    assert phone.evaluate("() => document.body.dataset.ready") is None, "the engine was ready: nothing was held back"
    canvas = form(phone, "arbitration").locator("canvas[data-dice]")
    wait_until(
        phone,
        "() => document.querySelector('form[data-system=arbitration] canvas').dataset.state === 'rolling'",
        10_000,
    )
    phone.evaluate(RECORD, "arbitration")
    wait_until(phone, "() => window.__seen.length > 10", 10_000)  # frames of tumbling while the engine is away
    assert canvas.get_attribute("data-state") == "rolling" and canvas.get_attribute("data-faces") is None
    assert phone.evaluate("() => window.arbiterPage.procs.arbitration.roll") is None  # nothing rolled in JavaScript
    assert len(held) == 1
    held[0].continue_()
    phone.wait_for_selector("body[data-ready]", state="attached", timeout=60_000)
    rolled = wait_until(phone, "() => window.arbiterPage.procs.arbitration.roll", 10_000)
    check_words_waited(phone, "arbitration", rolled)
    assert {x["state"] for x in phone.evaluate("() => window.__seen")} <= {"rolling", "landed"}


def test_a_tap_after_filling_a_field_lands_where_the_thumb_is(phone_app):
    """A field's help, cut to two lines on a phone, opens whole as its field is filled and stays open: when the thumb
    then taps "Expend a Will", nothing above it folds back mid-tap, so the box it aimed at is the box it ticks."""
    page = phone_app("#ten_again")
    set_field(page, "ten_again", "modifier", -1)  # the focus is in "Dice the storyteller removes or adds"
    help_ = form(page, "ten_again").locator("#ten_again-modifier-help")
    assert help_.get_attribute("data-open") is not None, "the help of the field being filled is not whole"
    will = form(page, "ten_again").locator('[data-path="will"]')
    will.scroll_into_view_if_needed()
    aimed = will.bounding_box()
    will.tap()
    assert will.is_checked(), "the tap missed the box it aimed at"
    assert will.bounding_box()["y"] == aimed["y"], "the box moved under the thumb"
    assert help_.get_attribute("data-open") is not None, "the help folded back as the focus left its field"
