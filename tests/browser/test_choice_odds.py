"""Odds between the choices on the page (issue 11): each follow-up shows the chance of the headline outcome as the
roll stands and after the choice, equal to arbiter.api.odds_after in CPython for the roll the page holds; picking
dice to reroll updates it to odds_after of the dice picked; the odds panel lists odds()' what-ifs."""

from __future__ import annotations

import json

from arbiter import api
from page_helpers import changed, form, set_field, wait_until


def percent(p: float) -> str:
    """procedures/index.js' percent(), for the words the page shows."""
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    if p < 0.001:
        return "<0.1%"
    if p > 0.999:
        return ">99.9%"
    return f"{p * 100:.1f}%"


def headline(odds: dict) -> tuple[str, float, str]:
    key, p = next(iter(odds["outcomes"].items()))
    return key, p, odds["exact"]["outcomes"][key]


def roll_until(page, system, want):
    """Roll through the form until the page's roll satisfies `want`; return it."""
    for _ in range(40):
        roll = changed(page, system, form(page, system).locator("button[data-roll]").click)
        if want(roll):
            return roll
    raise AssertionError("no such roll in 40 tries")


def test_expend_a_will_shows_its_odds_from_the_engine(app):
    """The Will button says the chance of success now and after the Will, as odds_after computes it in CPython."""
    page = app("#ten_again")
    set_field(page, "ten_again", "pool", 2)
    set_field(page, "ten_again", "required", 2)
    roll = roll_until(
        page, "ten_again", lambda r: any(c["name"] == "spend_will" for c in r["choices"]) and r["outcome"] != "success"
    )
    want = api.odds_after("ten_again", roll, {"spend_will": True})
    span = form(page, "ten_again").locator('[data-choice="spend_will-actor"] button [data-odds-after]')
    key, p, exact = headline(want)
    assert key == "success" and span.get_attribute("data-exact") == exact
    now = headline(roll["standing"])[1]
    assert span.inner_text().strip() == f"success {percent(now)} → {percent(p)}"
    assert 0 < p < 1  # a chance, not a certainty: the test tells right from wrong


def tap_die(page, system, i):
    canvas = form(page, system).locator("canvas[data-dice]")
    canvas.scroll_into_view_if_needed()
    box = canvas.bounding_box()
    die = page.evaluate(
        "([s, i]) => { const d = window.arbiterPage.procs[s].tray.dice[i]; return [d.x, d.y, d.s]; }", [system, i]
    )
    page.mouse.click(box["x"] + die[0] + die[2] / 2, box["y"] + die[1] + die[2] / 2)


def test_picking_dice_to_reroll_updates_the_chance(app):
    """Each die tapped for a Masteries reroll asks the engine again: the Reroll button shows odds_after of the dice
    picked so far, as CPython computes it."""
    page = app("#ability_test")
    set_field(page, "ability_test", "difficulty", 4)
    set_field(page, "ability_test", "skill", 1)
    set_field(page, "ability_test", "masteries", 2)

    def telling(r):  # a failure whose best two dice, rerolled one then both, give two different chances
        c = next((c for c in r["choices"] if c["name"] == "reroll"), None)
        if r["outcome"] != "failure" or not c or len(c["suggested"]) < 2:
            return False
        first, both = c["suggested"][:1], sorted(c["suggested"][:2])
        return len({headline(api.odds_after("ability_test", r, {"reroll": d}))[2] for d in (first, both)}) == 2

    roll = roll_until(page, "ability_test", telling)
    best = next(c for c in roll["choices"] if c["name"] == "reroll")["suggested"]
    span = form(page, "ability_test").locator('[data-choice="reroll"] button.primary [data-odds-after]')
    seen = set()
    for tapped, picked in ((best[0], [best[0]]), (best[1], sorted(best[:2]))):
        tap_die(page, "ability_test", tapped)
        action = {"reroll": picked}
        wait_until(
            page,
            """(a) => document.querySelector(
            'form[data-system="ability_test"] [data-choice="reroll"] button.primary [data-odds-after]')
            ?.dataset.action === a""",
            10_000,
            json.dumps(action, separators=(",", ":")),
        )
        want = api.odds_after("ability_test", roll, action)
        key, p, exact = headline(want)
        assert span.get_attribute("data-exact") == exact
        assert span.inner_text().strip() == f"Success 0% → {percent(p)}"
        seen.add(exact)
    assert len(seen) == 2, "two picks, two chances: the shown chance follows the pick"


def test_what_if_lines_equal_odds_of_the_changed_request(app):
    """The odds panel lists odds()' what-ifs, each line the headline chance of the request it changes, as CPython's
    odds() of that changed request gives it, and its difference from the odds without it."""
    page = app("#ability_test")
    set_field(page, "ability_test", "difficulty", 3)
    set_field(page, "ability_test", "skill", 1)
    set_field(page, "ability_test", "masteries", 1)
    lines = form(page, "ability_test").locator("[data-odds] [data-what-if]")
    wait_until(
        page,
        """() => { const box = document.querySelector('form[data-system="ability_test"] [data-odds]');
        return !('stale' in box.dataset) && JSON.parse(box.dataset.request).masteries === 1
          && box.querySelector('[data-what-if]'); }""",
    )
    request = json.loads(form(page, "ability_test").locator("[data-odds]").get_attribute("data-request"))
    now = headline(api.odds("ability_test", request))[1]
    shown = lines.all()
    assert len(shown) == len(api.odds("ability_test", request)["what_if"]) >= 3
    for line in shown:
        change = json.loads(line.get_attribute("data-what-if"))
        key, p, exact = headline(api.odds("ability_test", {**request, **change}))
        assert line.get_attribute("data-exact") == exact
        points = (p - now) * 100
        assert line.inner_text().endswith(f": {percent(p)} ({'+' if points >= 0 else '−'}{abs(points):.1f})")
