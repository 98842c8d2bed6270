"""Sound, vibration and the dice's speed (issue 23), in real Chromium: the Web Audio API and navigator.vibrate are
observed by the test (an init script counts every sound started, with its buffer, and every pulse asked for), so what
is counted is what the page asked of the browser. One clatter and one pulse per landing with the Sound button on, none
with it off, none for a follow-up that moves no die or for table dice; the button and the speed kept on the device
across a reload; Quick plans its landing within 400 ms of the engine's answer (a second wave included) and Off lands
at once; the words come only once the dice have landed, at every speed; reduced motion starts at Off."""

from __future__ import annotations

import pytest

from page_helpers import changed, choose_speed, form, roll, set_field, wait_until
from test_axe import axe_source, violations  # noqa: F401 (axe_source is a fixture)

# Before the page's own scripts: every AudioBufferSourceNode started (its buffer's length, rate and how often its
# samples cross zero, a measure of its pitch) and every vibration asked for (its pattern), in the page's window.
OBSERVE = """(() => {
  window.__sounds = [];
  window.__pulses = [];
  const start = AudioBufferSourceNode.prototype.start;
  AudioBufferSourceNode.prototype.start = function (...args) {
    const data = this.buffer.getChannelData(0);
    let crossings = 0, heard = 0;
    for (let i = 1; i < data.length; i++) {
      if (data[i] !== 0) heard++;
      if ((data[i - 1] < 0 && data[i] >= 0) || (data[i - 1] >= 0 && data[i] < 0)) crossings++;
    }
    window.__sounds.push({ length: this.buffer.length, rate: this.buffer.sampleRate,
                           pitch: (crossings / 2) * this.buffer.sampleRate / heard });
    return start.apply(this, args);
  };
  Object.defineProperty(Navigator.prototype, 'vibrate', {
    configurable: true,
    value(pattern) { window.__pulses.push(pattern); return true; },
  });
})();"""

# Records, from now on, the canvas's data-state values and, each time the words come (the result's data-outcome), the
# canvas's state then.
WATCH = """(system) => {
  const canvas = window.arbiterPage.procs[system].tray.canvas;
  const result = document.querySelector(`form[data-system="${system}"] [data-result]`);
  const w = (window.__watch = { states: [], wordsWhen: [] });
  w.observer = new MutationObserver((records) => {
    for (const r of records) {
      if (r.target === canvas) w.states.push(canvas.dataset.state);
      else if (result.dataset.outcome) w.wordsWhen.push(canvas.dataset.state);
    }
  });
  w.observer.observe(canvas, { attributes: true, attributeFilter: ['data-state'] });
  w.observer.observe(result, { attributes: true, attributeFilter: ['data-outcome'] });
}"""
SEEN = "() => { const w = window.__watch; w.observer.takeRecords(); w.observer.disconnect(); return w; }"


def heard(page):
    return page.evaluate("() => ({ sounds: window.__sounds, pulses: window.__pulses })")


def count(page):
    seen = heard(page)
    return len(seen["sounds"]), len(seen["pulses"])


def sound_button(page, system):
    return form(page, system).locator("button[data-sound]")


def turn_sound(page, system, on):
    button = sound_button(page, system)
    if button.get_attribute("aria-pressed") != str(on).lower():
        button.click()
    assert button.get_attribute("aria-pressed") == str(on).lower()


def chosen_speed(page):
    page.locator("[data-settings-open]").click()
    speed = page.evaluate("() => document.querySelector('#settings input[name=\"speed\"]:checked')?.value ?? null")
    page.locator("[data-settings-close]").click()
    return speed


def landed(page, system):
    wait_until(page, "(s) => window.arbiterPage.procs[s].tray.canvas.dataset.state === 'landed'", 10_000, system)


def rolled_and_landed(page, system):
    after = roll(page, system)
    landed(page, system)
    return after


@pytest.fixture
def observed(page, app):
    """`observed(hash_)`: the app (motion reduced, so Off until a speed is chosen) with sound and vibration observed."""
    page.add_init_script(OBSERVE)
    return app


def test_one_sound_and_one_pulse_per_landing_with_the_button_on_none_with_it_off(observed):
    """Off until turned on: a roll makes no sound. On: each roll and each follow-up that moves dice makes one clatter
    and one short pulse; a follow-up that moves no die (Exert) none. Off again: none. The button is a tap target of
    44 px at least, says its state (aria-pressed), and its state survives a reload."""
    page = observed("#ten_again")
    button = sound_button(page, "ten_again")
    box = button.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44, box
    assert button.get_attribute("aria-pressed") == "false" and button.inner_text().strip() == "Sound"
    rolled_and_landed(page, "ten_again")
    assert count(page) == (0, 0)

    turn_sound(page, "ten_again", True)
    rolled_and_landed(page, "ten_again")
    assert count(page) == (1, 1)
    pulse = heard(page)["pulses"][0]
    assert isinstance(pulse, int) and 0 < pulse <= 50, pulse  # a short pulse
    rolled_and_landed(page, "ten_again")
    assert count(page) == (2, 2)
    # a Will's dice join the roll: one landing, one sound
    changed(page, "ten_again", form(page, "ten_again").locator('[data-choice="spend_will-actor"] button').click)
    landed(page, "ten_again")
    assert count(page) == (3, 3)

    # Exert moves no die: no sound, no pulse (an Ability Test that fails: Ability 2 never beats four dice)
    for path, value in {"type1": 1, "type2": 1, "difficulty": 4}.items():
        set_field(page, "ability_test", path, value)
    assert roll(page, "ability_test")["outcome"] == "failure"
    landed(page, "ability_test")
    assert count(page) == (4, 4)
    assert sound_button(page, "ability_test").get_attribute("aria-pressed") == "true"  # one setting for every form
    after = changed(page, "ability_test", form(page, "ability_test").locator('[data-choice="exert"] button').click)
    landed(page, "ability_test")
    assert after["dice"] and count(page) == (4, 4)

    page.reload()  # at #ability_test, the form last used
    page.wait_for_selector("body[data-ready]", state="attached", timeout=60_000)
    assert sound_button(page, "ability_test").get_attribute("aria-pressed") == "true"
    rolled_and_landed(page, "ten_again")
    assert sound_button(page, "ten_again").get_attribute("aria-pressed") == "true"
    assert count(page) == (1, 1)  # counted afresh since the reload
    turn_sound(page, "ten_again", False)
    rolled_and_landed(page, "ten_again")
    assert count(page) == (1, 1)
    page.reload()
    page.wait_for_selector("body[data-ready]", state="attached", timeout=60_000)
    assert sound_button(page, "ten_again").get_attribute("aria-pressed") == "false"


def test_the_clatter_is_shaped_by_the_die_and_their_number(observed):
    """A d10 rings higher than a d6, and ten dice clatter longer than one."""
    page = observed("#ten_again")
    turn_sound(page, "ten_again", True)
    shapes = {}
    for system, field, n in [("ten_again", "pool", 1), ("ten_again", "pool", 10), ("two_dice", None, 2)]:
        if field:
            set_field(page, system, field, n)
        before = count(page)[0]
        rolled_and_landed(page, system)
        assert count(page)[0] == before + 1
        shapes[(system, n)] = heard(page)["sounds"][-1]
    one, ten, d6 = shapes[("ten_again", 1)], shapes[("ten_again", 10)], shapes[("two_dice", 2)]
    assert ten["length"] > 1.3 * one["length"], (one, ten)  # the dice come down one after another
    assert min(one["pitch"], ten["pitch"]) > 1.15 * d6["pitch"], (one, ten, d6)  # about 2.6 kHz against 1.8


def test_table_dice_make_no_sound(observed):
    """The table's own dice make their own sound: a roll typed on the face pad makes none, and no pulse."""
    page = observed("#ten_again")
    turn_sound(page, "ten_again", True)
    set_field(page, "ten_again", "pool", 1)
    toggle = form(page, "ten_again").locator("button.dice-source")
    toggle.click()
    wait_until(page, lambda: toggle.get_attribute("data-dice-source") == "table", what="table dice chosen")
    pad = form(page, "ten_again").locator("[data-face-pad]")
    form(page, "ten_again").locator("button[data-roll]").click()
    wait_until(page, lambda: pad.is_visible() and pad.get_attribute("data-asking") is None, what="the pad to ask")
    changed(page, "ten_again", pad.locator('button[data-face="3"]').click)  # no 10: nothing more to roll
    landed(page, "ten_again")
    assert page.evaluate("() => window.arbiterPage.procs.ten_again.roll.drawn") == [3]
    assert count(page) == (0, 0)


def big_pool_with_a_ten(page):
    """Roll a d10 pool of 20 until a roll has a 10 rolled again (its dice come in a second wave); how many rolls, and
    what WATCH saw of the last."""
    set_field(page, "ten_again", "pool", 20)
    for n in range(1, 21):  # a 10 among twenty d10s: 88% a roll
        page.evaluate(WATCH, "ten_again")
        after = rolled_and_landed(page, "ten_again")
        if after["rerolls"]:
            return n, page.evaluate(SEEN)
    pytest.fail("no 10 in twenty rolls of twenty d10s")


@pytest.mark.parametrize("speed", ["full", "quick", "off"])
def test_each_speed_lands_as_planned_and_the_words_come_after(observed, speed):
    """Full plans the tumble as it was (over 400 ms for two waves), Quick within 400 ms of the engine's answer with its
    second wave, Off lands at once (the canvas never says `rolling`); the words come only once the dice have landed,
    and one sound with them."""
    page = observed("#ten_again")
    page.emulate_media(reduced_motion="no-preference")
    turn_sound(page, "ten_again", True)
    choose_speed(page, speed)
    before = count(page)[0]
    rolls, seen = big_pool_with_a_ten(page)
    planned = int(form(page, "ten_again").locator("canvas[data-dice]").get_attribute("data-tumble-ms"))
    assert seen["wordsWhen"] == ["landed"], seen  # the words came once, with the dice at rest
    if speed == "off":
        assert "rolling" not in seen["states"] and planned == 0, seen
    else:
        assert seen["states"][0] == "rolling" and seen["states"][-1] == "landed", seen
        assert (0 < planned <= 400) if speed == "quick" else planned > 400, planned
    assert count(page)[0] == before + rolls  # one sound a roll, its second wave included


def test_the_speed_survives_a_reload_and_reduced_motion_starts_at_off(observed):
    """Reduced motion (as the app fixture sets it) starts at Off: a roll never says `rolling`; a speed chosen is kept
    across a reload and used; without reduced motion, and no speed chosen, Full."""
    page = observed("#two_dice")
    assert chosen_speed(page) == "off"
    page.evaluate(WATCH, "two_dice")
    rolled_and_landed(page, "two_dice")
    assert "rolling" not in page.evaluate(SEEN)["states"]

    choose_speed(page, "quick")  # the player may still choose: motion reduced, Quick tumbles
    page.reload()
    page.wait_for_selector("body[data-ready]", state="attached", timeout=60_000)
    assert chosen_speed(page) == "quick"
    page.evaluate(WATCH, "two_dice")
    rolled_and_landed(page, "two_dice")
    assert "rolling" in page.evaluate(SEEN)["states"]
    assert 0 < int(form(page, "two_dice").locator("canvas[data-dice]").get_attribute("data-tumble-ms")) <= 400

    page.evaluate("() => localStorage.removeItem('arbiter-settings')")
    page.emulate_media(reduced_motion="no-preference")
    page.reload()
    page.wait_for_selector("body[data-ready]", state="attached", timeout=60_000)
    assert chosen_speed(page) == "full"


def test_axe_finds_no_violation_with_the_sound_on_and_the_settings_open(phone, axe_source):  # noqa: F811
    """The Sound button pressed, after a roll, and the Settings dialog with its speeds open: 0 violations."""
    phone.emulate_media(reduced_motion="reduce")
    phone.goto("/#ten_again")
    phone.wait_for_selector("body[data-ready]", state="attached", timeout=60_000)
    phone.wait_for_selector("#table[data-ready]", state="attached", timeout=10_000)
    turn_sound(phone, "ten_again", True)
    changed(phone, "ten_again", form(phone, "ten_again").locator("button[data-roll]").click)
    found = violations(phone, axe_source, "sound on, after a roll")
    phone.locator("[data-settings-open]").click()
    found += violations(phone, axe_source, "settings open")
    assert found == [], "\n".join(found)
