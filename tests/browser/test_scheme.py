"""The Scheme, in real Chromium with real IndexedDB: dice earned by one character's successes and spent by another's
Scheme die or negation; a Scheme die from an empty Scheme said by Roll before the tap; a negation the Scheme cannot
pay for offered disabled with the reason; with the Scheme kept elsewhere, the form is the player's own."""

from __future__ import annotations

from page_helpers import (
    IN_VIEW,
    check_shown,
    follow_up,
    form,
    request_of,
    roll,
    said_by_roll,
    set_field,
    table_idle,
    wait_until,
)
from table_helpers import create, fill_from_sheet, keep_the_scheme_elsewhere, log, scheme, strong, track_scheme

NEVER_SET = "The Scheme has no die left: it was never set on this phone"  # a fresh phone's Scheme (issue 30)


def test_scheme_dice_are_earned_and_spent_across_two_characters(app):
    """One character's successes with a 1 fill the Scheme; another uses a die from it and negates a setback with two."""
    page = app("#ability_test")
    strong(page, "Ann")
    fill_from_sheet(page, "ability_test")
    set_field(page, "ability_test", "difficulty", 1)
    set_field(page, "ability_test", "skill", 10)  # Ability 20 always beats one die: every 1 earns a die
    earned = 0
    for _ in range(120):
        result = roll(page, "ability_test")
        earned += result["scheme_gain"]
        if earned == 3:
            break
    assert earned == 3
    wait_until(page, lambda: scheme(page) == 3, what="3 dice in the Scheme")
    assert page.locator("[data-scheme]").inner_text() == "The Scheme: 3 dice"
    adds = [e for e in log(page) if "added to the Scheme" in e["note"]]  # in the note of the roll that earned it
    assert len(adds) == 3 and all(e["character"]["name"] == "Ann" and e["kind"] == "roll" for e in adds)

    create(page, "ability_test", "Bea")
    fill_from_sheet(page, "ability_test")
    page.locator('[data-k="scheme:use"]').click()
    assert request_of(page, "ability_test")["scheme_die"] is True
    result = roll(page, "ability_test")
    assert result["scheme_roll"] is not None and not result["scheme_gain"]
    wait_until(page, lambda: scheme(page) == 2, what="a die taken by Bea")
    spent = [e for e in log(page) if "Removed 1 die from the Scheme" in e["note"]]
    assert spent[-1]["character"]["name"] == "Bea" and spent[-1]["summary"] == result["summary"]

    set_field(page, "ability_test", "scheme_die", False)
    set_field(page, "ability_test", "difficulty", 4)  # Bea's Ability 4 against 4d6: a failure, often with a 6
    for _ in range(80):
        result = roll(page, "ability_test")
        if result["setback"]:
            break
    assert result["setback"]
    negate = form(page, "ability_test").locator('[data-choice="negate_setback"] button')
    wait_until(
        page,
        """() => document.querySelector(
        'form[data-system=ability_test] [data-choices]:not([data-checking]) [data-choice=negate_setback]')""",
        10_000,
    )
    negated = follow_up(page, "ability_test", negate)
    wait_until(page, lambda: scheme(page) == 0, what="two dice spent on the setback")
    assert page.locator("[data-scheme]").inner_text() == "The Scheme: 0 dice"
    entry = log(page)[-1]  # one entry: the follow-up in the form's words, with what the table took for it
    assert (entry["kind"], entry["summary"], entry["character"]["name"]) == ("follow-up", negated["summary"], "Bea")
    assert "Subtracted 2 dice from the Scheme" in entry["note"]


def test_a_negation_the_scheme_cannot_pay_for_is_offered_disabled_with_the_reason(app):
    """ability_test-11 at the table: with one die in the Scheme, "Spend two Scheme dice to negate the setback" is
    shown disabled with the Scheme's reason, whoever rolls, and nothing is negated or logged; with the Scheme kept
    elsewhere (not tracked on this device) it is offered again, and taking it gives one log entry in the form's
    words while the Scheme here stays as it was."""
    page = app("#ability_test")
    strong(page, "Ann")
    fill_from_sheet(page, "ability_test")
    set_field(page, "ability_test", "difficulty", 1)
    set_field(page, "ability_test", "skill", 10)  # Ability 20 always beats one die: a 1 earns a die
    for _ in range(120):
        if roll(page, "ability_test")["scheme_gain"]:
            break
    wait_until(page, lambda: scheme(page) == 1, what="1 die in the Scheme")

    page.locator('[data-k="stop:ability_test"]').click()  # nobody rolls as a character: the Scheme is still the table's
    for path, value in {"type1": 1, "type2": 1, "skill": 0, "difficulty": 4}.items():
        set_field(page, "ability_test", path, value)  # Ability 2 against 4d6: a failure, often with a 6
    for _ in range(60):
        result = roll(page, "ability_test")
        if result["setback"]:
            break
    assert result["setback"] and not result["setback_negated"]
    choice = form(page, "ability_test").locator('[data-choice="negate_setback"]')
    wait_until(
        page,
        """() => document.querySelector(
        'form[data-system=ability_test] [data-choice=negate_setback] button').disabled""",
        10_000,
    )
    reason = choice.locator("[data-refusal]").inner_text()
    assert reason == "The Scheme has 1 die left: negating a setback takes 2"  # a player's words: no path
    table_idle(page)  # whatever the rolls set going is done: nothing negated it
    assert "negated" not in form(page, "ability_test").locator("[data-result]").inner_text()
    assert not any("negated" in e["summary"] or "Subtracted" in e["note"] for e in log(page)) and scheme(page) == 1

    track_scheme(page, False)  # the table keeps its Scheme on paper
    wait_until(
        page,
        """() => !document.querySelector(
        'form[data-system=ability_test] [data-choice=negate_setback] button').disabled""",
        10_000,
    )
    assert choice.locator("[data-refusal]").count() == 0
    entries = len(log(page))
    negated = follow_up(page, "ability_test", choice.locator("button"))
    assert negated["setback_negated"] and "negated with two Scheme dice" in negated["summary"]
    assert len(log(page)) == entries + 1
    entry = log(page)[-1]
    assert (entry["kind"], entry["summary"], entry["note"]) == ("follow-up", negated["summary"], "")
    assert negated["summary"] in form(page, "ability_test").locator("[data-result]").inner_text()
    assert scheme(page) == 1 and page.locator("[data-scheme]").inner_text() == "The Scheme: kept elsewhere"


def test_a_scheme_die_from_an_empty_scheme_is_said_by_roll_before_the_tap(phone_app):
    """At 360 × 640, ticking "Use a Scheme die" while the table's Scheme (kept on this device) is empty says so by
    Roll at once, quietly, before any tap (it said so only once Roll was tapped); a tap says it aloud and rolls
    nothing; once the table keeps its Scheme elsewhere the line goes, and Roll rolls."""
    page = phone_app("#ability_test")
    assert scheme(page) == 0
    refusal = form(page, "ability_test").locator("[data-roll-refusal]")
    set_field(page, "ability_test", "scheme_die", True)
    wait_until(
        page, f"(el) => !el.hidden && el.textContent.startsWith('{NEVER_SET}')", 10_000, refusal.element_handle()
    )
    assert refusal.get_attribute("role") is None and refusal.evaluate(IN_VIEW)
    form(page, "ability_test").locator("button[data-roll]").tap()
    said = said_by_roll(page, "ability_test")
    assert said.startswith(NEVER_SET) and "the Host's table" in said and "set the Scheme here" in said
    assert page.evaluate("() => window.arbiterPage.procs.ability_test.roll") is None
    set_field(page, "ability_test", "difficulty", 2)  # the form changed: said quietly again, with its odds
    wait_until(
        page,
        f"(el) => !el.hidden && !el.hasAttribute('role') && el.textContent.startsWith('{NEVER_SET}')",
        10_000,
        refusal.element_handle(),
    )
    track_scheme(page, False)  # the table keeps its Scheme elsewhere: the form is the player's own, nothing to refuse
    wait_until(page, "(el) => el.hidden", 10_000, refusal.element_handle())
    assert roll(page, "ability_test")["scheme_roll"] is not None


def test_negate_a_setback_with_two_scheme_dice(app):
    """A failure with a 6 offers negating the setback; taking it records the setback as negated (the table keeps its
    Scheme elsewhere: this device does not hold it to an empty count)."""
    page = app("#ability_test")
    keep_the_scheme_elsewhere(page)
    for path, value in {"type1": 1, "type2": 1, "difficulty": 4}.items():
        set_field(page, "ability_test", path, value)
    for _ in range(60):  # each roll fails; about half show a 6 (a miss 60 times running: 0.48**60)
        rolled = roll(page, "ability_test")
        if rolled["setback"]:
            break
    assert rolled["setback"]
    button = form(page, "ability_test").locator('[data-choice="negate_setback"] button')
    after = follow_up(page, "ability_test", button)
    assert after["setback_negated"] is True
    check_shown(page, "ability_test", after)


def test_the_scheme_is_set_by_hand_within_its_limits(app):
    """The Host sets the Scheme by hand (− and + and its number), within the record's declared limits: at 0 the −
    and "Use a Scheme die" say why they are disabled; a number out of range is refused in the record's words and
    nothing is kept; each change is logged; a Scheme die can then be used."""
    page = app("#ability_test")
    assert scheme(page) == 0
    part = page.locator('[data-part="shared"]')
    assert part.locator('[data-k="scheme:minus"]').is_disabled()
    assert part.locator('[data-why="minus"]').inner_text() == "No die to take: the Scheme is empty"
    assert part.locator('[data-k="scheme:use"]').is_disabled() and part.locator("[data-scheme-why]").count() == 1
    part.locator('[data-k="scheme:plus"]').click()
    wait_until(page, lambda: scheme(page) == 1, what="one die in the Scheme")
    box = part.locator('[data-k="scheme:count"]')
    box.fill("4")
    box.press("Tab")
    wait_until(page, lambda: scheme(page) == 4, what="four dice in the Scheme")
    wait_until(page, lambda: part.locator('[data-k="scheme:count"]').input_value() == "4", what="the box says 4")
    assert not part.locator('[data-k="scheme:minus"]').is_disabled() and part.locator("[data-why]").count() == 0
    part.locator('[data-k="scheme:count"]').fill("100")
    part.locator('[data-k="scheme:count"]').press("Tab")
    wait_until(page, lambda: "from 0 to 99" in page.locator("[data-table-status]").inner_text(), what="the refusal")
    assert scheme(page) == 4
    notes = [e["note"] for e in log(page) if e["kind"] == "note"]
    assert notes[-2:] == ["The Scheme set by hand: 1 die", "The Scheme set by hand: 4 dice"]
    set_field(page, "ability_test", "scheme_die", True)
    rolled = roll(page, "ability_test")
    assert rolled["scheme_roll"] is not None
    wait_until(page, lambda: scheme(page) in (3, 4), what="a die taken (one back if the Test earned it)")
