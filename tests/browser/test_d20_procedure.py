"""A d20 procedure added from outside arbiter is played like the package's own, in real Chromium at 360 × 640 with
touch: the d20 check of tests/procedures/ built with `--procedures` has its tab and form through the generic view,
its two d20s (advantage) are drawn as d20s (the canvas publishes each die's sides and shape), the faces 17 and 20
typed on a 20-face pad are rolled and kept in the log, and the roll shared by link opens with its outcome."""

from __future__ import annotations

import json
from urllib.parse import quote

from page_helpers import changed, form, settle, wait_until
from table_helpers import log
from test_play_as_a_group import PANEL, open_link, shared_link
from test_table_dice import asked, enter, pad_of, rolled, use_table_dice
from test_toy_procedure import server, toy_dist  # noqa: F401 (fixtures: the site built with the toys, served)

D20 = "d20_check"
REQUEST = {"modifier": 2, "dc": 15, "mode": "advantage"}


def canvas_dice(page) -> dict:
    """The d20 check's canvas once its dice have landed: each die's face, sides and the shape it is drawn as."""
    wait_until(
        page,
        f"""() => document.querySelector('form[data-system="{D20}"] canvas[data-dice]').dataset.state === 'landed'""",
        10_000,
    )
    canvas = form(page, D20).locator("canvas[data-dice]")
    return {k: json.loads(canvas.get_attribute(f"data-{k}")) for k in ("faces", "sides", "shapes")}


def test_a_d20_check_is_rolled_drawn_typed_logged_and_shared(phone_app):
    """Roll with advantage: two d20s land on the engine's faces, drawn as d20s. Table dice: the pad has 20 faces,
    17 and 20 typed are the roll's dice and its log entry's (dice, drawn, own). Share it: the link opens its roll."""
    page = phone_app(f"#{D20}={quote(json.dumps(REQUEST))}")
    f = form(page, D20)
    f.wait_for(state="visible")
    assert f.locator("h2").inner_text() == "d20 check"

    before = page.evaluate("() => document.querySelectorAll('.log-entry').length")
    first = changed(page, D20, f.locator("button[data-roll]").tap)
    settle(page, before)
    assert first["request"] == REQUEST and len(first["dice"]) == 2
    assert canvas_dice(page) == {"faces": first["dice"], "sides": [20, 20], "shapes": ["d20", "d20"]}

    use_table_dice(page, D20)
    before = page.evaluate("() => document.querySelectorAll('.log-entry').length")
    f.locator("button[data-roll]").tap()
    pad = pad_of(page, D20)
    asked(page, D20)  # the pad opens at once, and says which die once the engine has answered what it needs
    assert pad.get_attribute("data-sides") == "20"
    assert pad.locator("button[data-face]").count() == 20
    enter(page, D20, [17, 20])
    wait_until(page, lambda: (rolled(page, D20) or {}).get("dice") == [17, 20], what="the roll of 17 and 20")
    settle(page, before)
    typed = rolled(page, D20)
    assert (typed["outcome"], typed["kept"], typed["total"]) == ("success", 20, 22)
    assert canvas_dice(page) == {"faces": [17, 20], "sides": [20, 20], "shapes": ["d20", "d20"]}
    entry = log(page)[-1]
    assert entry["system"] == D20 and entry["source"] == "table"
    assert entry["dice"] == entry["drawn"] == entry["own"] == [17, 20]

    link = shared_link(page, D20)
    open_link(page, link)
    panel = page.locator(PANEL)
    panel.locator("[data-shared-outcome]").wait_for()
    assert typed["summary"] in panel.inner_text()


def test_are_my_dice_fair_offers_the_d20(phone_app):
    """17 and 20 typed on the 20-face pad: the Log's "Are my dice fair?" has a d20 group of those table dice, as the
    engine counts them (a d20 is a die the registered procedures declare)."""
    page = phone_app(f"#{D20}={quote(json.dumps(REQUEST))}")
    form(page, D20).wait_for(state="visible")
    use_table_dice(page, D20)
    before = page.evaluate("() => document.querySelectorAll('.log-entry').length")
    form(page, D20).locator("button[data-roll]").tap()
    pad_of(page, D20).wait_for(state="visible")
    enter(page, D20, [17, 20])
    wait_until(page, lambda: (rolled(page, D20) or {}).get("dice") == [17, 20], what="the roll of 17 and 20")
    settle(page, before)
    page.locator('nav.views a[data-view="log"]').tap()
    page.locator("[data-log-luck] > summary").tap()  # the luck and the fairness, folded above the list
    ready = "() => { const b = document.querySelector('[data-fairness]'); b.scrollIntoView(); return 'fairnessReady' in b.dataset; }"
    wait_until(page, lambda: page.evaluate(ready), what="the fairness view, asked once it is on screen")
    group = page.locator('[data-fairness] [data-fairness-group="-:d20"]')
    assert group.count() == 1
    assert "d20, table dice" in group.locator("figcaption").inner_text()
    assert group.locator("[data-fairness-words]").inner_text().startswith("2 d20 faces")
