"""Only the dice a follow-up changes move: Exert, Pay the Price, reassigning a threat's die and negating a setback
tumble no die (the canvas never says `rolling`); a Masteries reroll tumbles only the dice picked, and a Will's dice
join while the dice already rolled lie still. What moves is read from the canvas itself: its `data-state` and
`data-moving` as they change (a MutationObserver in the page), and the pixels drawn for each die on every frame."""

from __future__ import annotations

import pytest

from page_helpers import changed, form, roll, set_field, wait_until

# Runs on the page before a follow-up: records every value the canvas's data-state and data-moving take (a value
# set and removed within one task would still be an old value of the next record), and on every animation frame
# while it says `rolling` a hash of the pixels drawn inside each die (its middle, clear of a tumbling neighbour's
# overhang, which a die drawn later covers anyway).
WATCH = """(system) => {
  const tray = window.arbiterPage.procs[system].tray, canvas = tray.canvas, ctx = canvas.getContext('2d');
  const w = window.__watch = { states: [], moving: [], frames: [] };
  w.observer = new MutationObserver((records) => {
    for (const r of records) (r.attributeName === 'data-state' ? w.states : w.moving).push(r.oldValue);
  });
  w.observer.observe(canvas, { attributes: true, attributeOldValue: true, attributeFilter: ['data-state', 'data-moving'] });
  const k = canvas.width / tray.width;
  const hash = (d) => {
    const m = d.s * 0.3, x = Math.round((d.x + m) * k), y = Math.round((d.y + m) * k), n = Math.round((d.s - 2 * m) * k);
    let h = 0;
    for (const v of ctx.getImageData(x, y, n, n).data) h = (Math.imul(h, 31) + v) | 0;
    return h;
  };
  const frame = () => {
    if (canvas.dataset.state === 'rolling') w.frames.push(tray.dice.map(hash));
    if (!w.done) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}"""

# Stops watching once the dice are at rest; what was seen: every data-state value (the old values, then the last),
# each data-moving value the tray set, and the per-die pixel hashes of each frame drawn while rolling.
SEEN = """(system) => {
  const w = window.__watch, canvas = window.arbiterPage.procs[system].tray.canvas;
  w.done = true;
  w.observer.disconnect();
  return { states: [...w.states, canvas.dataset.state], moving: w.moving.filter((m) => m !== null),
           frames: w.frames };
}"""


def watched_follow_up(page, system, action):
    """With motion allowed, take a follow-up watched from before it starts until its dice are at rest; what was seen."""
    page.emulate_media(reduced_motion="no-preference")
    page.evaluate(WATCH, system)
    after = changed(page, system, action)
    wait_until(page, "(s) => window.arbiterPage.procs[s].tray.canvas.dataset.state === 'landed'", 10_000, system)
    return after, page.evaluate(SEEN, system)


def still_after_roll_tumbles(page, system):
    """The watch sees a tumble when there is one: a fresh roll, watched the same way, says `rolling`."""
    page.evaluate(WATCH, system)
    roll(page, system)
    wait_until(page, "(s) => window.arbiterPage.procs[s].tray.canvas.dataset.state === 'landed'", 10_000, system)
    assert "rolling" in page.evaluate(SEEN, system)["states"]


def exert(page):
    for path, value in {"type1": 1, "type2": 1, "difficulty": 4}.items():
        set_field(page, "ability_test", path, value)
    assert roll(page, "ability_test")["outcome"] == "failure"  # Ability 2 never beats four dice
    return form(page, "ability_test").locator('[data-choice="exert"] button').click


def negate(page):
    page.locator('[data-k="scheme:tracked"]').set_checked(False)  # the Scheme is kept elsewhere: negating is allowed
    for path, value in {"type1": 1, "type2": 1, "difficulty": 4}.items():
        set_field(page, "ability_test", path, value)
    for _ in range(60):  # each roll fails; about half show a 6 (a miss 60 times running: 0.48**60)
        if roll(page, "ability_test")["setback"]:
            return form(page, "ability_test").locator('[data-choice="negate_setback"] button').click
    pytest.fail("no setback in 60 failed Tests")


def reassign(page):
    set_field(page, "threat", "rating", 2)
    form(page, "threat").locator('[data-path="threats"] [data-add]').click()
    first = roll(page, "threat")["assignment"][0][0]
    page.evaluate("(i) => window.arbiterPage.procs.threat.tap(i)", first)  # as a tap on that die does
    return form(page, "threat").locator("[data-threats] li").nth(1).locator("button").click


def pay_the_price(page):
    for _ in range(60):  # a roll offers Pay the Price when a threat not Desperate got a 4 or 5
        if any(c["name"] == "pay_the_price" for c in roll(page, "threat")["choices"]):
            break
    else:
        pytest.fail("no roll offered Pay the Price in 60 rolls")
    price = form(page, "threat").locator("details.price")
    price.locator("summary").click()
    price.locator("[data-price-player]").fill("Ann")
    return price.locator(".price-list button").nth(2).click


STILL = {
    "exert": ("ability_test", exert),
    "negate_setback": ("ability_test", negate),
    "reassign": ("threat", reassign),
    "pay_the_price": ("threat", pay_the_price),
}


@pytest.mark.parametrize("choice", list(STILL))
def test_a_follow_up_that_changes_no_die_never_tumbles(app, choice):
    """Exert, negating the setback, reassigning a threat's die and Paying the Price change no die: the canvas never
    says `rolling` and its faces stay the roll's."""
    system, setup = STILL[choice]
    page = app(f"#{system}")
    action = setup(page)
    before = page.evaluate("(s) => window.arbiterPage.procs[s].tray.faces()", system)
    after, seen = watched_follow_up(page, system, action)
    assert after["dice"] and "rolling" not in seen["states"] and seen["moving"] == []
    assert page.evaluate("(s) => window.arbiterPage.procs[s].tray.faces()", system) == before
    still_after_roll_tumbles(page, system)


def test_a_masteries_reroll_tumbles_only_the_picked_dice(app):
    """A reroll of dice 0 and 1 of four tumbles those two; the pixels drawn for dice 2 and 3 never change while they
    tumble (the picked ones do), though one may land on the face it had."""
    page = app("#ability_test")
    for path, value in {"difficulty": 4, "skill": 1, "masteries": 2}.items():
        set_field(page, "ability_test", path, value)
    first = roll(page, "ability_test")
    page.evaluate("() => { const p = window.arbiterPage.procs.ability_test; p.tap(0); p.tap(1); }")
    reroll = form(page, "ability_test").locator('[data-choice="reroll"] button.primary')
    after, seen = watched_follow_up(page, "ability_test", reroll.click)
    assert after["rerolled"] == [0, 1] and after["dice"][2:] == first["dice"][2:]
    assert "rolling" in seen["states"] and seen["moving"] == ["0 1"]
    frames = seen["frames"]
    assert len(frames) >= 5, "too few frames drawn while rolling to judge"
    assert all(f[2:] == frames[0][2:] for f in frames), "an unpicked die was drawn differently during the reroll"
    assert any(f[:2] != frames[0][:2] for f in frames), "the picked dice never moved"


def test_a_wills_dice_join_while_the_first_dice_lie_still(app):
    """Expending a Will after the roll tumbles the Will's dice (and any 10s they roll again) only: the four dice
    rolled first are never among the moving ones, and their pixels never change while the Will's dice tumble."""
    page = app("#ten_again")
    set_field(page, "ten_again", "pool", 4)
    first = roll(page, "ten_again")
    again = len(first["rerolls"])
    button = form(page, "ten_again").locator('[data-choice="spend_will-actor"] button')
    after, seen = watched_follow_up(page, "ten_again", button.click)
    assert after["dice"] == first["dice"] and len(after["will_dice"]) == 3
    assert after["rerolls"][:again] == first["rerolls"]  # the 10s rolled again before keep their faces
    moved = {int(i) for m in seen["moving"] for i in m.split()}
    # indexes on the canvas: the four dice, the Will's three, then every 10's roll again in order
    assert moved == {4, 5, 6} | set(range(7 + again, 7 + len(after["rerolls"])))
    frames = seen["frames"]
    assert len(frames) >= 5, "too few frames drawn while rolling to judge"
    assert all(f[:4] == frames[0][:4] for f in frames), "a die rolled first was drawn differently as the Will joined"
    assert any(f[4:7] != frames[0][4:7] for f in frames), "the Will's dice never moved"
