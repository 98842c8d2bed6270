"""How lucky the table has been (issue 11), in real Chromium with the real table: each roll's log entry keeps
api.luck_entry of that roll, and after ten rolls the log's luck view shows, per character and procedure, the numbers
CPython's api.luck_summary computes from the exported log, a drawn chart, and the same in words."""

from __future__ import annotations

import json

from arbiter import api
from page_helpers import roll, wait_until
from table_helpers import create, fill_from_sheet, log


def pct(p: float) -> str:
    return f"{p * 100:.1f}"


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

    part.locator("[data-luck]").scroll_into_view_if_needed()  # asked of the engine once it is on screen
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
        words = shown.locator("canvas").get_attribute("aria-label")
        assert f"between {pct(g['band'][0])} and {pct(g['band'][1])} 9 times in 10" in words
        assert words.endswith(", ".join(pct(p["percentile"]) for p in g["points"]) + ".")
        drawn = shown.locator("canvas").evaluate("""(c) => { const d = c.getContext('2d')
            .getImageData(0, 0, c.width, c.height).data; let n = 0; for (let i = 3; i < d.length; i += 4) n += d[i] > 0;
            return n; }""")
        assert drawn > 100, "the chart is drawn"
