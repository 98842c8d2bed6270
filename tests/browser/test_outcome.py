"""The outcome at a glance: the outcome line shows the class the engine gives the roll (`tone`) by a colour and by a
badge whose glyph and shape differ per class (readable without colour), legible in light and dark (4.5:1); the
worked steps fold after two lines on a phone, with a toggle; the dice that make a botch or a fumble are marked on the
canvas and named in its label."""

from __future__ import annotations

import pytest

from arbiter import api
from page_helpers import changed, form
from steps import TAB

# One request per procedure and class of outcome it can give, the roll found by its seed (the engine's own dice).
WANTED = [
    ("arbitration", {}, "success"),
    ("arbitration", {"skills": [1]}, "failure"),
    ("arbitration", {"skills": [1]}, "botch"),
    ("two_dice", {"trait": 4}, "success"),
    ("two_dice", {}, "failure"),
    ("two_dice", {}, "botch"),
    ("threat", {}, "success"),
    ("threat", {}, "mixed"),
    ("threat", {}, "failure"),
    ("luck", {}, "success"),
    ("luck", {}, "mixed"),
    ("luck", {}, "failure"),
    ("ten_again", {}, "success"),
    ("ten_again", {}, "failure"),
    ("ten_again", {"pool": 1}, "botch"),
    ("ten_again", {"opposed": {"pool": 1}, "pool": 1}, "mixed"),
    ("ability_test", {}, "success"),
    ("ability_test", {}, "failure"),
]


def seed_for(system, request, tone):
    return next(s for s in range(10_000) if api.roll(system, request, s)["tone"] == tone)


SHOW = """async ([system, request, seed]) => {
  const roll = await window.arbiter.roll(system, request, seed);
  const proc = window.arbiterPage.procs[system];
  window.arbiterPage.showTab(system);
  proc.show(roll, false);
  return roll;
}"""

# What the outcome line shows: its class, the badge's glyph, label and shape, its colours, and the contrast of its
# text against the first opaque background behind it.
LOOK = """(system) => {
  const result = document.querySelector(`form[data-system="${system}"] [data-result]`);
  const line = result.querySelector('.outcome'), mark = line.querySelector('.tone-mark');
  const rgb = (css) => css.match(/[\\d.]+/g).map(Number);
  let bg = line;
  while (bg && rgb(getComputedStyle(bg).backgroundColor)[3] === 0) bg = bg.parentElement;
  const lum = ([r, g, b]) => {
    const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const back = rgb(getComputedStyle(bg ?? document.body).backgroundColor);
  const s = getComputedStyle(mark);
  return { tone: result.dataset.tone, lineTone: line.dataset.tone, glyph: mark.textContent,
           label: mark.getAttribute('aria-label'),
           visible: mark.checkVisibility() && mark.getBoundingClientRect().width > 0,
           color: getComputedStyle(line).color, shape: s.borderRadius,
           text: ratio(rgb(getComputedStyle(line).color), back), badge: ratio(rgb(s.color), rgb(s.backgroundColor)) };
}"""


@pytest.fixture
def phone_page(app):
    """The app in a 360 × 640 viewport, motion reduced, the rules and the table loaded."""
    return app("", 360, 640)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_each_class_of_outcome_shows_its_own_mark_and_colour_legibly(phone_page, scheme):
    """For every procedure and class of outcome it can give, the outcome line carries the engine's tone, a visible
    badge with that class's glyph and words, and text and badge at 4.5:1 at least; the four classes differ by glyph
    and shape as well as by colour."""
    phone_page.emulate_media(color_scheme=scheme, reduced_motion="reduce")
    seen = {}
    for system, request, tone in WANTED:
        roll = phone_page.evaluate(SHOW, [system, request, seed_for(system, request, tone)])
        assert roll["tone"] == tone
        look = phone_page.evaluate(LOOK, system)
        assert (look["tone"], look["lineTone"], look["visible"]) == (tone, tone, True), (system, look)
        assert look["text"] >= 4.5 and look["badge"] >= 4.5, (system, tone, look)
        seen.setdefault(tone, set()).add((look["glyph"], look["label"], look["color"], look["shape"]))
    assert all(len(v) == 1 for v in seen.values()), seen  # a class looks the same in every procedure
    looks = [next(iter(v)) for v in seen.values()]
    assert (
        len(seen) == 4 and len({(g, shape) for g, _, _, shape in looks}) == 4 and len({c for _, _, c, _ in looks}) == 4
    )


@pytest.mark.parametrize("system", list(TAB))
def test_a_roll_through_the_form_shows_the_engines_tone(phone_page, system):
    """Roll through the form: [data-result] and its outcome line say the tone of the roll the engine made."""
    phone_page.evaluate("(s) => window.arbiterPage.showTab(s)", system)
    roll = changed(phone_page, system, form(phone_page, system).locator("button[data-roll]").click)
    look = phone_page.evaluate(LOOK, system)
    assert (look["tone"], look["lineTone"], look["visible"]) == (roll["tone"], roll["tone"], True)


def test_the_steps_fold_after_two_lines_on_a_phone_and_unfold(phone_page):
    """At 360 px long steps show two lines and a toggle; the toggle unfolds them all and says so (aria-expanded)."""
    phone_page.evaluate("(s) => window.arbiterPage.showTab(s)", "ten_again")
    roll = phone_page.evaluate(SHOW, ["ten_again", {"pool": 12, "risky": True}, 1])
    box = form(phone_page, "ten_again").locator(".steps-box")
    steps, toggle = box.locator(".steps"), box.locator(".steps-toggle")
    line = float(steps.evaluate("(e) => parseFloat(getComputedStyle(e).lineHeight)"))
    assert steps.evaluate("(e) => e.scrollHeight > e.clientHeight")  # more than two lines of steps, folded
    assert steps.bounding_box()["height"] <= 2 * line + 1
    assert toggle.is_visible() and toggle.get_attribute("aria-expanded") == "false"
    assert toggle.get_attribute("aria-controls") == steps.get_attribute("id")
    toggle.click()
    assert toggle.get_attribute("aria-expanded") == "true"
    assert steps.bounding_box()["height"] > 2 * line + 1
    assert " → ".join(roll["steps"]) == steps.inner_text()


# procedure, request, which side lists the dice (and under which name), the mark the canvas gives them
BOTCHES = [
    ("arbitration", {"skills": [1]}, lambda r: r["fumble_dice"], "fumble"),
    ("two_dice", {}, lambda r: r["fumble_dice"], "fumble"),
    ("ten_again", {"pool": 2}, lambda r: r["botch_dice"], "botch"),
]

# Per die: its marks, and a hash of the pixels drawn in its box (with room for a ring round it).
DRAWN = """(system) => {
  const tray = window.arbiterPage.procs[system].tray, ctx = tray.canvas.getContext('2d');
  const k = tray.canvas.width / tray.width;
  return tray.dice.map((d) => {
    const m = 3, data = ctx.getImageData(Math.round((d.x - m) * k), Math.round((d.y - m) * k),
      Math.round((d.s + 2 * m) * k), Math.round((d.s + 2 * m) * k)).data;
    let h = 0;
    for (const v of data) h = (Math.imul(h, 31) + v) | 0;
    return { marks: [...d.marks], hash: h };
  });
}"""


@pytest.mark.parametrize("system, request_, listed, mark", BOTCHES, ids=[b[0] for b in BOTCHES])
def test_the_dice_that_make_a_botch_or_fumble_are_marked_and_named(phone_page, system, request_, listed, mark):
    """The dice the engine lists as making the botch or fumble carry its mark, drawn on the canvas (the die looks
    different without it) and named in the canvas's label; no other die does."""
    seed = next(s for s in range(10_000) if listed(api.roll(system, request_, s)))
    roll = phone_page.evaluate(SHOW, [system, request_, seed])
    dice = listed(roll)
    assert roll["tone"] == "botch" and dice
    drawn = phone_page.evaluate(DRAWN, system)
    assert [i for i, d in enumerate(drawn) if mark in d["marks"]] == dice
    label = form(phone_page, system).locator("canvas[data-dice]").get_attribute("aria-label")
    assert label.count(mark) == len(dice), label
    # the same dice drawn without the mark look different: the mark is drawn, not only named
    phone_page.evaluate(
        """([system, mark]) => { const tray = window.arbiterPage.procs[system].tray;
      tray.update(tray.dice.map((d) => ({ ...d, marks: [...d.marks].filter((m) => m !== mark) }))); }""",
        [system, mark],
    )
    plain = phone_page.evaluate(DRAWN, system)
    assert all((plain[i]["hash"] != drawn[i]["hash"]) == (i in dice) for i in range(len(drawn)))


def engine_marks(roll: dict) -> list[list[str]]:
    """The engine's marks of every die the page draws, in its order: the Scheme die, the dice (Will's with them), the
    10s' re-rolls, then the other side's (a defender or a target) the same way."""
    out = [roll["scheme_marks"]] if roll.get("scheme_marks") else []
    for side in (roll, roll.get("defender") or roll.get("target")):
        out += (side["marks"] + side.get("reroll_marks", [])) if side else []
    return out


MARKED = [
    ("luck", {"dice": 4}),
    ("threat", {"rating": 3, "threats": [{"name": "A"}, {"name": "B", "desperate": True}]}),
    ("arbitration", {"skills": [4], "opposed": {"skills": [3]}}),
    ("two_dice", {"opposed": {}}),
    ("ten_again", {"pool": 8, "risky": True, "will": True, "opposed": {"pool": 5}}),
    ("ability_test", {"scheme_die": True, "difficulty": 4}),
]


@pytest.mark.parametrize("system, request_", MARKED, ids=[m[0] for m in MARKED])
def test_the_canvas_draws_the_marks_the_engine_gives_each_die(phone_page, system, request_):
    """Each die on the canvas carries the marks the engine's roll gives it (the page compares no face), for a few
    rolls of each procedure."""
    for seed in (1, 2, 3):
        roll = phone_page.evaluate(SHOW, [system, request_, seed])
        assert [d["marks"] for d in phone_page.evaluate(DRAWN, system)] == engine_marks(roll), seed
