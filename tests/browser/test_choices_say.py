"""Choices say what they do (issue 20): a choice that ends others says so before the tap; one that cannot raise the
chance is muted with why, one that can only lower it warns, each still enabled; an empty suggestion is not shown,
and the reroll stays open on a success. The words are the engine's (ability_test-29, ten_again-23), each roll made
by its seed in the page's engine and shown as a roll would be."""

from __future__ import annotations

from arbiter import api
from arbiter.ability_test import after as ability_after
from page_helpers import form, wait_until

SHOW = """async ([system, request, seed]) => {
  const roll = await window.arbiter.roll(system, request, seed);
  window.arbiterPage.showTab(system);
  window.arbiterPage.procs[system].show(roll, false);
  return roll;
}"""


def shown(page, system, request, want):
    """The first seeded roll of `request` that satisfies `want`, as CPython's engine makes it, shown in the page."""
    seed = next(s for s in range(10_000) if want(api.roll(system, request, seed=s)))
    roll = page.evaluate(SHOW, [system, request, seed])
    assert want(roll)
    return roll


def test_negating_the_setback_says_it_ends_the_test(app):
    """ability_test-29: before the tap, negating the setback says it ends the Test, naming the reroll and Exertion
    it ends, in the engine's words; the reroll and Exertion are offered beside it."""
    page = app("#ability_test")
    request = {"type1": 1, "type2": 1, "skill": 1, "difficulty": 2, "masteries": 1}
    roll = shown(page, "ability_test", request, lambda r: r["setback"])
    (negate,) = [c for c in roll["choices"] if c["name"] == "negate_setback"]
    choice = form(page, "ability_test").locator('[data-choice="negate_setback"]')
    ends = choice.locator("[data-ends]")
    assert ends.inner_text() == negate["ends"] == "ends the Test: the failure is declared, no reroll or Exertion after"
    assert choice.locator("button").inner_text().startswith("Spend two Scheme dice to negate the setback")
    for other in ("reroll", "exert"):
        assert form(page, "ability_test").locator(f'[data-choice="{other}"]').count() == 1
        assert form(page, "ability_test").locator(f'[data-choice="{other}"] [data-ends]').count() == 0


def will(page):
    return form(page, "ten_again").locator('[data-choice="spend_will-actor"]')


def test_a_will_after_a_success_is_muted_with_no_gain(app):
    """ten_again-23: after a success where no 1 eats, Expend a Will is muted and says "no gain: already a success"
    beside its "success 100% → 100%"; it stays enabled."""
    page = app("#ten_again")
    shown(page, "ten_again", {"pool": 3}, lambda r: r["outcome"] == "success")
    choice = will(page)
    assert choice.get_attribute("data-note") == "muted"
    assert choice.locator(".choice-note").inner_text() == "no gain: already a success"
    assert choice.locator(".choice-note").get_attribute("data-note") == "muted"
    assert choice.locator("[data-odds-after]").inner_text() == "success 100% → 100%"
    assert choice.locator("button").is_enabled()


def test_a_risky_will_warns(app):
    """ten_again-23: after a success on a risky roll, Expend a Will warns that its 1s may eat successes, beside the
    lower chance it brings; it stays enabled and plain (not muted)."""
    page = app("#ten_again")
    request = {"pool": 3, "risky": True}
    roll = shown(page, "ten_again", request, lambda r: r["outcome"] == "success")
    (offered,) = roll["choices"]
    assert offered["odds"]["note"] == {"words": "risky: more dice, more 1s to eat successes", "tone": "warn"}
    choice = will(page)
    assert choice.get_attribute("data-note") == "warn"
    note = choice.locator(".choice-note")
    assert note.inner_text() == "risky: more dice, more 1s to eat successes"
    assert note.get_attribute("data-note") == "warn"
    assert note.evaluate("(e) => getComputedStyle(e, '::before').content") == '"⚠ "'
    chance = choice.locator("[data-odds-after]").inner_text()
    assert chance.startswith("success 100% → ") and chance != "success 100% → 100%"
    assert choice.locator("button").is_enabled()


def test_a_success_shows_no_empty_suggestion_and_the_reroll_stays_open(app):
    """ability_test-29, ability_test-10: a success with a 1 rolled suggests no dice to reroll: no "Pick the best
    (none)", no "Reroll 0 dice", the choice muted with "no gain: already a success"; tapping a die still offers its
    reroll, with the note of that pick as odds_after words it (a risky one warns)."""
    page = app("#ability_test")
    request = {"type1": 5, "type2": 3, "skill": 2, "difficulty": 2, "masteries": 1}

    def pick_warns(r, i):
        said = ability_after.note(r, {"reroll": [i]}, ability_after.odds_after(r, {"reroll": [i]}))
        return said is not None and said["tone"] == "warn"

    def risky_success(r):
        return r["outcome"] == "success" and 1 in r["dice"] and any(pick_warns(r, i) for i in (0, 1))

    roll = shown(page, "ability_test", request, risky_success)
    (reroll,) = roll["choices"]
    assert reroll["suggested"] == []
    choice = form(page, "ability_test").locator('[data-choice="reroll"]')
    text = choice.inner_text()
    assert "(none)" not in text and "Reroll 0" not in text and "Pick the best" not in text
    assert choice.get_attribute("data-note") == "muted"
    assert choice.locator(".choice-note").inner_text() == "no gain: already a success"

    i = next(i for i in (0, 1) if pick_warns(roll, i))
    page.evaluate("(i) => window.arbiterPage.procs.ability_test.tap(i)", i)
    button = choice.locator("button.primary")
    assert button.inner_text().split("\n")[0] == "Reroll 1 die" and button.is_enabled()
    wait_until(
        page,
        """() => document.querySelector(
        'form[data-system="ability_test"] [data-choice="reroll"] .choice-says [data-note]')""",
        10_000,
    )
    want = api.odds_after("ability_test", roll, {"reroll": [i]})["note"]
    note = choice.locator(".choice-says .choice-note")
    assert note.inner_text() == want["words"] == "risky: the rerolled dice may fail the Test"
    assert note.get_attribute("data-note") == "warn"
    assert choice.get_attribute("data-note") is None  # the pick's own note speaks now
