"""Every die in view (issue 29): at 360 × 640 the tray shows every die of a roll at once up to 20 dice, with no
scrolling, within its form above the Roll bar; past 20 it shows every die that counts by the engine's marks and says
how many more there are; it never scrolls within itself, and the outcome line under it never covers a die. Read from
what the canvas publishes: each die's box (data-boxes, CSS px from its corner; null: not shown) and data-more."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest

from page_helpers import changed, form, landed_faces
from test_table_dice import asked, use_table_dice

# What a player sees of the tray once the dice have landed, in the viewport's CSS px: each die's box (null: not
# shown), the box of the outcome line and of the Roll bar, and whether anything clips the canvas (an ancestor that
# scrolls or hides what overflows it, cutting into the canvas's box).
SEEN = """(s) => {
  const f = document.querySelector(`form[data-system="${s}"]`), canvas = f.querySelector('canvas[data-dice]');
  const c = canvas.getBoundingClientRect(), box = (el) => { const r = el.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, left: r.left, right: r.right }; };
  const dice = JSON.parse(canvas.dataset.boxes).map((b) => b &&
    { top: c.top + b[1], bottom: c.top + b[1] + b[2], left: c.left + b[0], right: c.left + b[0] + b[2], s: b[2] });
  let clipped = null;
  for (let el = canvas.parentElement; el && el !== document.body; el = el.parentElement) {
    const css = getComputedStyle(el), r = el.getBoundingClientRect();
    if (css.overflowY !== 'visible' && (r.top > c.top + 0.5 || r.bottom < c.bottom - 0.5)) clipped = el.className;
  }
  return { dice, more: Number(canvas.dataset.more ?? 0), clipped, height: innerHeight,
           outcome: box(f.querySelector('[data-result] .outcome')), bar: box(f.querySelector('[data-bar]')) };
}"""


def rolled(page, system, request):
    """Roll `request` on `system`'s form as a player does (Roll tapped, no scrolling by the test); the roll JSON."""
    roll = changed(page, system, form(page, system).locator("button[data-roll]").tap)
    landed_faces(page, system)
    form(page, system).locator("[data-result] .outcome").wait_for()
    page.wait_for_timeout(100)  # the reveal's scroll (instant: motion reduced) is done in the landing's frame
    return roll


def counting(side) -> list[bool]:
    """Which of a ten_again side's dice (its dice, Will's, then the 10s' re-rolls, as ten_again/view.js lists them) the
    engine marks as counting: a success kept, a die cancelled, a 10 exploded, a botch's 1."""
    counts = {"kept", "cancelled", "exploded", "botch"}
    return [bool(counts & set(m)) for m in side["marks"] + side["reroll_marks"]]


def overlaps(a, b) -> bool:
    return a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]


def test_a_7_vs_5_contest_shows_all_its_dice_without_scrolling(phone_app):
    """A ten_again contest of 7 dice against 5 (10s rolled again): after Roll, every die of both sides is drawn, each
    whole in the viewport above the Roll bar, none clipped by a tray that scrolls, none under the outcome line."""
    request = {"pool": 7, "opposed": {"pool": 5}}
    page = phone_app(f"#ten_again={quote(json.dumps(request))}")
    for _ in range(3):  # three rolls: the 10s' re-rolls vary
        roll = rolled(page, "ten_again", request)
        seen = page.evaluate(SEEN, "ten_again")
        assert len(seen["dice"]) == len(landed_faces(page, "ten_again")) >= 12
        assert seen["clipped"] is None, f"the dice are clipped by .{seen['clipped']}: they scroll within it"
        assert seen["more"] == 0 and None not in seen["dice"], "a die of twenty or fewer is not shown"
        for i, d in enumerate(seen["dice"]):
            assert d["top"] >= 0 and d["bottom"] <= seen["bar"]["top"], (
                f"die {i} at {d}, not in view above {seen['bar']}"
            )
            assert not overlaps(d, seen["outcome"]), f"die {i} at {d} under the outcome line {seen['outcome']}"
        assert roll["target"], "a contest: the target's dice are on the tray"


@pytest.mark.parametrize(
    "request_", [{"pool": 30, "opposed": {"pool": 30}}, {"pool": 30, "modifier": 10, "will": True}]
)
def test_past_twenty_dice_every_die_that_counts_is_shown_and_none_is_covered(phone_app, request_):
    """30 vs 30 (and 43 dice of one side): every die the engine marks as counting is drawn, at least 28 px; the tray
    says how many more there are (data-more, the dice left out: none counts); nothing clips the canvas and the outcome
    line covers no die, whatever the roll."""
    page = phone_app(f"#ten_again={quote(json.dumps(request_))}")
    for _ in range(3):
        roll = rolled(page, "ten_again", request_)
        seen = page.evaluate(SEEN, "ten_again")
        counts = counting(roll) + (counting(roll["target"]) if roll.get("target") else [])
        assert len(seen["dice"]) == len(counts) > 20
        left_out = [i for i, d in enumerate(seen["dice"]) if d is None]
        assert [i for i in left_out if counts[i]] == [], "a die that counts is not shown"
        assert seen["more"] == len(left_out) == counts.count(False)
        assert seen["clipped"] is None, f"the dice are clipped by .{seen['clipped']}: they scroll within it"
        for i, d in enumerate(seen["dice"]):
            if d is None:
                continue
            assert d["s"] >= 28, f"die {i} drawn at {d['s']} px"
            assert not overlaps(d, seen["outcome"]), f"die {i} at {d} under the outcome line {seen['outcome']}"
            assert d["bottom"] <= seen["outcome"]["top"], f"die {i} at {d} below the outcome line's top"


def test_dice_a_follow_up_can_pick_keep_their_tap_box_and_all_show(phone_app):
    """A threat roll of 20 dice whose dice can be reassigned, on a screen too short for them at full size (360 × 300: a
    phone held sideways): each is still drawn at least 36 px with a 44 px tap box (its neighbours 44 px apart at
    least), and all twenty show."""
    request = {"rating": 10, "threats": [{"name": f"T{i}"} for i in range(8)], "extra_dice": 10}  # reassignable
    page = phone_app(f"#threat={quote(json.dumps(request))}")
    page.set_viewport_size({"width": 360, "height": 300})
    rolled(page, "threat", request)
    seen = page.evaluate(SEEN, "threat")
    assert len(seen["dice"]) >= 20 and None not in seen["dice"] and seen["more"] == 0
    assert min(d["s"] for d in seen["dice"]) >= 36
    rows = {}
    for d in seen["dice"]:
        rows.setdefault(round(d["top"]), []).append(d["left"])
    steps = [b - a for lefts in rows.values() for a, b in zip(sorted(lefts), sorted(lefts)[1:], strict=False)]
    assert steps and min(steps) >= 44 - 0.5, steps


def test_a_typed_7_vs_5_contest_shows_all_its_dice_without_scrolling(phone_app):
    """The evening's case: a contest of 7 against 5 typed on the face pad (table dice), the target's 10 rolled again:
    once the last face is typed, every die of both sides (the target's 8 and its re-rolled die among them) is whole
    in view above the Roll bar, with no scrolling by the test, and none under the outcome line."""
    request = {"pool": 7, "opposed": {"pool": 5}}
    page = phone_app(f"#ten_again={quote(json.dumps(request))}")
    use_table_dice(page, "ten_again")
    form(page, "ten_again").locator("button[data-roll]").tap()
    for faces in ("2345679", "80234", "5"):  # the actor's pool, the target's (a 10 typed as 0), the 10's die
        asked(page, "ten_again")
        page.keyboard.type(faces)
    form(page, "ten_again").locator("[data-result] .outcome").wait_for()
    page.wait_for_timeout(100)
    assert landed_faces(page, "ten_again") == [2, 3, 4, 5, 6, 7, 9, 8, 10, 2, 3, 4, 5]
    seen = page.evaluate(SEEN, "ten_again")
    assert seen["clipped"] is None and seen["more"] == 0 and None not in seen["dice"]
    for i, d in enumerate(seen["dice"]):
        assert d["top"] >= 0 and d["bottom"] <= seen["bar"]["top"], f"die {i} at {d}, not in view above {seen['bar']}"
        assert not overlaps(d, seen["outcome"]), f"die {i} at {d} under the outcome line {seen['outcome']}"
