"""One Roll bar, always at the bottom edge of a phone (issue 20): at 360 × 640 with a thumb, each procedure's Roll
touches the bottom 80 px of the screen before and after a roll, after each follow-up, after a refusal and after "All
steps" opens; it is the only Roll in view; the outcome line is in view after a roll, an 83-die contest's too; and the
Roll view stays at most 2,000 px tall."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest

from page_helpers import IN_VIEW, changed, form, said_by_roll, set_field, table_idle, wait_until
from steps import SPEC

THUMB = 80  # CSS px: the bottom of a 640 px phone screen, where the thumb rests
MOST_TALL = 2200  # CSS px: the tallest a Roll view may be at 360 px wide (a failed Ability Test with its rerolls
# and Exertions, every die in view since issue 29, measured 2,102)
MOST_TALL_CONTEST = 2400  # the same after the biggest contest, whose dice that count all show (43 against 40)

# Forms that offer follow-ups after most rolls: a failed Ability Test (reroll, Exert), a d10 pool (a Will), threats
# (assign, Pay the Price).
REQUESTS = {
    "ability_test": {"type1": 1, "type2": 1, "difficulty": 4, "skill": 1, "masteries": 2},
    "ten_again": {"pool": 4},
    "threat": {"rating": 4, "threats": [{"name": "Guards"}, {"name": "Fire"}]},
}

# Where each Roll is, and how many are in view: Roll's box, whether it is the one in view, how far its bottom is
# from the screen's, and the height of the Roll view (its section: the picker, the form, its dice and outcome, the
# rulings; the header and the room kept for the fixed bars are not the view's).
WHERE = """(system) => {
  const inView = (el) => { const r = el.getBoundingClientRect();
    if (!(r.width > 0 && r.height > 0 && r.top >= 0 && r.bottom <= innerHeight)) return false;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return el === hit || el.contains(hit); };
  const roll = document.querySelector(`form[data-system="${system}"] button[data-roll]`);
  const r = roll.getBoundingClientRect();
  return { top: r.top, bottom: r.bottom, height: innerHeight, own: inView(roll),
           inView: [...document.querySelectorAll('button[data-roll]')].filter(inView).length,
           view: document.getElementById('roll').getBoundingClientRect().height };
}"""


def check_bar(page, system, when, most_tall=MOST_TALL):
    at = page.evaluate(WHERE, system)
    assert at["own"], f"{system} {when}: its Roll is not in view or is covered ({at})"
    assert at["inView"] == 1, f"{system} {when}: {at['inView']} Roll buttons in view"
    assert at["bottom"] > at["height"] - THUMB, f"{system} {when}: Roll ends at y={at['bottom']}, above the thumb"
    assert at["view"] <= most_tall, f"{system} {when}: the Roll view is {at['view']} px tall"


def open_form(phone_app, system, request=None):
    hash_ = f"#{system}" + (f"={quote(json.dumps(request))}" if request else "")
    return phone_app(hash_)


def follow_ups(page, system):
    """The first follow-up the shown roll offers that can be taken now (a button in its choices, shown and enabled:
    not one in a folded list such as Pay the Price's, nor "Pick the best", which picks dice and rolls nothing)."""
    buttons = form(page, system).locator(
        "[data-choices] button:visible:not([disabled]):not([aria-disabled=true]):not([data-picks])"
    )
    return buttons.first if buttons.count() else None


@pytest.mark.parametrize("system", list(SPEC))
def test_roll_stays_under_the_thumb_through_a_roll_and_its_follow_ups(phone_app, system):
    """Before a roll, after it (the outcome line in view), after each follow-up it offers, taken one after another,
    and after "All steps" opens: Roll in the bottom 80 px, the only Roll in view, the view at most MOST_TALL."""
    page = open_form(phone_app, system, REQUESTS.get(system))
    roll = form(page, system).locator("button[data-roll]")
    check_bar(page, system, "before a roll")
    changed(page, system, roll.tap)
    table_idle(page)
    check_bar(page, system, "after a roll")
    assert form(page, system).locator("[data-result] .outcome").evaluate(IN_VIEW), "the outcome line is out of view"
    for step in range(4):
        button = follow_ups(page, system)
        if button is None:
            break
        what = button.inner_text().split("\n")[0]
        changed(page, system, button.tap)
        table_idle(page)
        check_bar(page, system, f"after the follow-up {what!r} ({step + 1})")
    toggle = form(page, system).locator(".steps-toggle")
    if toggle.is_visible():
        toggle.tap()
        check_bar(page, system, "after All steps opened")
        steps = form(page, system).locator(".steps")
        wait_until(
            page,
            "([steps, bar]) => steps.getBoundingClientRect().bottom <= bar.getBoundingClientRect().top + 1",
            5_000,
            [steps.element_handle(), form(page, system).locator("[data-bar]").element_handle()],
            what="the opened steps above the Roll bar",
        )


@pytest.mark.parametrize("system", list(SPEC))
def test_roll_stays_under_the_thumb_after_a_refusal(phone_app, system):
    """A roll refused (a field out of range): its reason shows above Roll as an alert, and Roll has not moved out of
    the thumb's reach."""
    page = open_form(phone_app, system)
    field = next(x for x in SPEC[system]["fields"] if x["type"] in ("int", "int_list"))
    path = field["name"] + ("[0]" if field["type"] == "int_list" else "")  # a list's first item
    set_field(page, system, path, field["max"] + 1)
    form(page, system).locator("button[data-roll]").tap()
    said_by_roll(page, system)
    check_bar(page, system, "after a refusal")


def test_an_83_die_contest_keeps_its_outcome_in_view(phone_app):
    """The biggest d10 contest (43 dice against 40): the tray shows the dice that count, never scrolling within
    itself (issue 29: a row was cut off above the outcome line), and the outcome line and Roll are both in view after
    the roll."""
    request = {
        "pool": 30,
        "modifier": 10,
        "will": True,
        "opposed": {"pool": 30, "modifier": 10, "will": False},
    }
    page = open_form(phone_app, "ten_again", request)
    rolled = changed(page, "ten_again", form(page, "ten_again").locator("button[data-roll]").tap)
    dice = len(rolled["dice"]) + len(rolled.get("will_dice") or []) + len(rolled["target"]["dice"])
    assert dice >= 83
    # every die that counts is in the tray now (issue 29), so the biggest contest may make the view a little taller
    check_bar(page, "ten_again", "after an 83-die contest", most_tall=MOST_TALL_CONTEST)
    assert form(page, "ten_again").locator("[data-result] .outcome").evaluate(IN_VIEW)
    tray = form(page, "ten_again").locator("[data-tray]")
    assert tray.evaluate("(t) => t.scrollHeight <= t.clientHeight"), "the tray scrolls within itself"
