"""How lucky the table has been (issue 11), in real Chromium with the real table: each roll's log entry keeps
api.luck_entry of that roll, and after ten rolls the log's luck view shows, per character and procedure, the numbers
CPython's api.luck_summary computes from the exported log, a drawn chart, and the same in words."""

from __future__ import annotations

import json

import pytest

from arbiter import api
from page_helpers import open_app, roll, show_view, wait_until
from table_helpers import create, fill_from_sheet, log


def pct(p: float) -> str:
    return f"{p * 100:.1f}"


STANDING = {"below": "below that band", "within": "inside that band", "above": "above that band"}
# the luck axis: a line down the chart 32 CSS px from its left (percentiles.js AXIS_Y), drawn over most of its height
AXIS_DRAWN = """(c) => { const r = c.width / 320, x = Math.round(32 * r), d = c.getContext('2d')
    .getImageData(x - 1, 0, 3, c.height).data; let rows = 0;
    for (let row = 0; row < c.height; row++) rows += [0, 1, 2].some((k) => d[(row * 3 + k) * 4 + 3] > 0);
    return rows > c.height / 2; }"""
LEGEND = [
    "a roll's luck",
    "the mean so far",
    "where chance alone keeps the mean 9 times in 10",
    "average luck, 50",
]


def test_after_ten_rolls_the_luck_view_agrees_with_python(app):
    page = app("#threat")
    create(page, "threat", "Wren")
    fill_from_sheet(page, "luck")
    rolls = [roll(page, "luck") for _ in range(6)]
    page.locator('[data-k="stop:luck"]').click()
    rolls += [roll(page, "luck") for _ in range(4)]
    kept = [e for e in log(page) if e["kind"] == "roll"]
    assert [e["luck"] for e in kept] == [api.luck_entry("luck", r) for r in rolls]  # taken at roll time
    assert [bool(e["character"]) for e in kept] == [True] * 6 + [False] * 4

    part = page.locator('[data-part="log"]')
    with page.expect_download() as info:
        part.get_by_role("button", name="Export JSON").click()
    exported = json.loads(open(info.value.path(), encoding="utf-8").read())["entries"]
    want = api.luck_summary(exported)["groups"]
    assert [g["rolls"] for g in want] == [6, 4]

    part.locator("[data-log-luck] > summary").click()  # folded under one line above the list: the Log opens on it
    # asked of the engine once it is on screen; unfolding may draw the section again, so it is found and scrolled to in
    # one step in the page
    wait_until(
        page,
        """() => { const el = document.querySelector('[data-part="log"] [data-luck]');
          if (!el) return false; el.scrollIntoView({ block: 'nearest' }); return true; }""",
        10_000,
        what="the luck view scrolled into view",
    )
    wait_until(page, "() => document.querySelectorAll('[data-luck-ready] [data-luck-group]').length === 2", 10_000)
    groups = part.locator("[data-luck-group]")
    for i, g in enumerate(want):
        shown = groups.nth(i)
        assert shown.get_attribute("data-luck-group") == f"{g['character']['id'] if g['character'] else '-'}:luck"
        assert int(shown.get_attribute("data-rolls")) == g["rolls"]
        assert float(shown.get_attribute("data-mean")) == g["mean_percentile"]
        assert float(shown.get_attribute("data-expected")) == g["expected_successes"]
        assert int(shown.get_attribute("data-successes")) == g["successes"]
        assert json.loads(shown.get_attribute("data-band")) == g["band"]
        numbers = shown.locator(".luck-numbers").inner_text()
        assert f"{g['rolls']} rolls · mean luck {pct(g['mean_percentile'])} (50 is average)" in numbers
        assert f", {g['expected_successes']:.1f} expected" in numbers
        assert int(shown.get_attribute("data-luckier")) == g["luckier"]
        assert int(shown.get_attribute("data-unluckier")) == g["unluckier"]
        assert shown.get_attribute("data-standing") == g["standing"]
        words = shown.locator("[data-luck-words]").inner_text()
        assert words.startswith(
            f"{g['character']['name'] if g['character'] else 'Nobody'} · Luck: {g['rolls']} rolls, "
        )
        assert f"{g['luckier']} luckier than average and {g['unluckier']} less lucky" in words
        assert f"Mean luck {pct(g['mean_percentile'])} of 100, where 50 is average" in words
        assert f"between {pct(g['band'][0])} and {pct(g['band'][1])} 9 times in 10" in words
        assert STANDING[g["standing"]] in words
        successes = f"{g['successes']} {'success' if g['successes'] == 1 else 'successes'}"
        assert f"{successes} against {g['expected_successes']:.1f} expected." in words
        label = shown.locator("canvas").get_attribute("aria-label")
        assert label.endswith(", ".join(pct(p["percentile"]) for p in g["points"]) + ".")
        assert shown.locator(".luck-axis-y").inner_text() == "Luck of each roll, 0 to 100"
        assert shown.locator(".luck-axis-x").inner_text().startswith("Rolls, oldest to newest")
        assert shown.locator(".luck-legend li").all_inner_texts() == LEGEND
        drawn = shown.locator("canvas").evaluate("""(c) => { const d = c.getContext('2d')
            .getImageData(0, 0, c.width, c.height).data; let n = 0; for (let i = 3; i < d.length; i += 4) n += d[i] > 0;
            return n; }""")
        assert drawn > 100, "the chart is drawn"
        canvas = shown.locator("canvas")
        middle = (g["rolls"] - 1) // 2 + 1
        assert canvas.get_attribute("data-axis-luck") == "0 50 100"
        assert canvas.get_attribute("data-axis-rolls") == f"1 {middle} {g['rolls']}"
        assert canvas.evaluate(AXIS_DRAWN), "the luck axis' line is drawn left of the chart"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_luck_chart_fits_a_phone_light_and_dark(phone, scheme, tmp_path):
    """At 360 × 640, light and dark: the chart, its axes' titles, its legend and its words fit the screen's width
    (nothing scrolls sideways), the legend's marks take the chart's colours; a screenshot is kept in tmp_path."""
    phone.emulate_media(color_scheme=scheme, reduced_motion="reduce")
    page = open_app(phone, "#threat", 360, 640)
    for _ in range(5):
        roll(page, "luck")
    show_view(page, "log")
    page.locator('[data-part="log"] [data-log-luck] > summary').tap()  # folded above the list
    box = page.locator('[data-part="log"] [data-luck]')
    # scrolled to until its answer is drawn (the log is drawn again meanwhile: a locator's element can go mid-scroll)
    ready = """() => { const b = document.querySelector('[data-part="log"] [data-luck]'); b.scrollIntoView();
        return 'luckReady' in b.dataset && !!b.querySelector('[data-luck-group]'); }"""
    wait_until(page, ready, 10_000)
    figure = box.locator("[data-luck-group]")
    figure.scroll_into_view_if_needed()
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    for part in (".luck-chart", ".luck-axis-y", ".luck-axis-x", ".luck-legend", "[data-luck-words]"):
        shown = figure.locator(part).bounding_box()
        assert shown and shown["x"] >= 0 and shown["x"] + shown["width"] <= 360, part
    colours = page.evaluate("""() => {
        const css = getComputedStyle(document.documentElement), of = (s) => getComputedStyle(document.querySelector(s));
        const rgb = (name) => { const el = document.createElement('i'); el.style.color = css.getPropertyValue(name);
            document.body.append(el); const c = getComputedStyle(el).color; el.remove(); return c; };
        return { roll: [of('.luck-key.roll').backgroundColor, rgb('--bar')],
                 band: [of('.luck-key.band').backgroundColor, rgb('--line')],
                 mean: [of('.luck-key.mean').borderTopColor, rgb('--fg')] }; }""")
    assert all(key == drawn for key, drawn in colours.values()), colours
    figure.screenshot(path=str(tmp_path / f"luck-{scheme}.png"))
    page.screenshot(path=str(tmp_path / f"luck-page-{scheme}.png"))
