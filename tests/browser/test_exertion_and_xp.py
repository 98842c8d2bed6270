"""Exertion and XP, in real Chromium with real IndexedDB: Exertion spent by hand, on Convictions and on Exert
after a failed Test (the page says how much would succeed, what is typed is spent on the first tap, and no more than
the one rolling has left is offered); XP earned per Scene and spent at the text's prices."""

from __future__ import annotations

from arbiter import api
from page_helpers import changed, check_shown, follow_up, form, request_of, roll, set_field, settled, wait_until
from table_helpers import add_row, characters, create, edit, fill_from_sheet, sheet_input, sheet_list


def test_exertion_and_xp_are_spent_through_the_rules(app):
    """Exertion goes to Convictions and follow-ups; XP is earned per Scene and spent at the text's prices."""
    page = app("#ability_test")
    create(page, "ability_test", "Aria")
    edit(page, sheet_input(page, "exertion"), 30, lambda: characters(page)["Aria"]["sheet"]["exertion"] == 30)
    page.locator(".sheet").get_by_label("Exertion to spend").fill("2")
    page.locator('.sheet [data-op="exert"]').click()
    wait_until(page, lambda: characters(page)["Aria"]["sheet"]["exertion"] == 28, what="Exertion 28")
    assert page.locator(".sheet [data-exertion]").inner_text() == "Exertion 28"

    for xp in (1, 2, 3):
        page.locator('.sheet [data-op="xp_earn"]').click()
        wait_until(page, lambda xp=xp: characters(page)["Aria"]["sheet"]["xp"] == xp, what=f"{xp} XP")
    ops = page.locator(".sheet .ops")
    ops.get_by_label("Spend XP on").select_option("new_skill")
    ops.get_by_label("Name of the new Skill or Item").fill("Fencing")
    page.locator('.sheet [data-op="xp_spend"]').click()
    wait_until(page, lambda: characters(page)["Aria"]["sheet"]["xp"] == 1, what="XP 1 after a new Skill")
    skills = characters(page)["Aria"]["sheet"]["skills"]
    assert [(s["name"], s["level"]) for s in skills] == [("Fencing", 1)]
    ops.get_by_label("Spend XP on").select_option(f"skill:{skills[0]['id']}")
    page.locator('.sheet [data-op="xp_spend"]').click()
    wait_until(
        page,
        "() => document.querySelector('[data-sheet-status]').textContent.includes('costs 3 XP, but only 1 XP is held')",
        5_000,
    )
    assert characters(page)["Aria"]["sheet"]["xp"] == 1

    add_row(page, "convictions", "The mission comes first", 2)
    wait_until(
        page,
        lambda: (
            sheet_list(page, "Aria", "convictions") and sheet_list(page, "Aria", "convictions")[0]["significance"] == 2
        ),
        what="a Conviction",
    )
    page.locator(".sheet .use").get_by_label("The mission comes first (Significance 2)").check()
    fill_from_sheet(page, "ability_test")
    assert request_of(page, "ability_test")["convictions"] == [2]
    set_field(page, "ability_test", "difficulty", 4)
    for _ in range(30):  # Ability 6 against 4d6 fails about 98% of the time
        result = roll(page, "ability_test")
        if result["outcome"] == "failure":
            break
    assert result["outcome"] == "failure"
    # one Exertion declares the Conviction for the Scene on the first roll; the later rolls of the Scene cost none
    wait_until(page, lambda: characters(page)["Aria"]["sheet"]["exertion"] == 27, what="1 Exertion for the Scene")
    choice = form(page, "ability_test").locator('[data-choice="exert"]')
    after = follow_up(page, "ability_test", choice.locator("button"))
    assert after["outcome"] == "success"
    wait_until(
        page,
        lambda: characters(page)["Aria"]["sheet"]["exertion"] == 27 - result["exert_needed"],
        what="Exertion spent by the follow-up",
    )


EXERT = "form[data-system=ability_test] [data-choice=exert]"


def test_exert_offers_no_more_than_the_one_rolling_has_left(phone_app):
    """At 360 × 640, a failed Test needing more Exertion than Mira has left: the Exert box is filled with no more than
    she has (its max too, the engine's RulesError.left); with none left, Exert is disabled with her reason in a
    player's words (no path). Nobody rolling: the box offers what the roll needs, as before."""
    page = phone_app("#ability_test")
    create(page, "ability_test", "Mira")
    edit(page, sheet_input(page, "exertion"), 2, lambda: characters(page)["Mira"]["sheet"]["exertion"] == 2)
    fill_from_sheet(page, "ability_test")
    request = {**request_of(page, "ability_test"), "difficulty": 4}
    seed = next(s for s in range(10_000) if api.roll("ability_test", request, s)["exert_needed"] > 2)
    need = page.evaluate(SHOW_ROLL, ["ability_test", request, seed])["exert_needed"]
    box = form(page, "ability_test").locator('[data-choice="exert"] input')
    wait_until(page, f"() => document.querySelector('{EXERT} input').max === '2'", 10_000)
    assert int(box.input_value()) <= 2 and int(box.get_attribute("max")) <= 2
    assert not form(page, "ability_test").locator('[data-choice="exert"] button').is_disabled()

    edit(page, sheet_input(page, "exertion"), 0, lambda: characters(page)["Mira"]["sheet"]["exertion"] == 0)
    wait_until(page, f"() => document.querySelector('{EXERT} button').disabled", 10_000)
    reason = form(page, "ability_test").locator('[data-choice="exert"] [data-refusal]').inner_text()
    assert reason == "Mira has no Exertion left"

    page.locator('[data-k="stop:ability_test"]').click()  # nobody rolls as a character: nothing is capped
    wait_until(page, f"() => !document.querySelector('{EXERT} button').disabled", 10_000)
    assert box.input_value() == str(need) and box.get_attribute("max") == str(need)


SHOW_ROLL = """async ([system, request, seed]) => {
  const roll = await window.arbiter.roll(system, request, seed);
  window.arbiterPage.procs[system].show(roll, false);
  return roll;
}"""


def test_exertion_says_how_much_and_turns_a_failure(app):
    """On a failure the page says how much Exertion would succeed, and spending it does."""
    page = app("#ability_test")
    for path, value in {"type1": 1, "type2": 1, "difficulty": 4}.items():
        set_field(page, "ability_test", path, value)
    rolled = roll(page, "ability_test")
    assert rolled["outcome"] == "failure"  # Ability 2 never beats four dice
    choice = form(page, "ability_test").locator('[data-choice="exert"]')
    assert f"{rolled['exert_needed']} would turn this into a success" in choice.inner_text()
    after = follow_up(page, "ability_test", choice.locator("button"))
    assert after["outcome"] == "success" and after["exertion"] == rolled["exert_needed"]
    check_shown(page, "ability_test", after)


def test_exert_spends_what_is_typed_on_the_first_tap(phone_app):
    """A failed Test: what is typed into the Exertion box is checked as it is typed; out of range, Exert waits and
    says why beside it; in range, the chance under Exert is that amount's, and the first tap on Exert spends it (the
    box losing its focus does not redraw the choices under the thumb)."""
    page = phone_app("#ability_test")
    for path, value in {"type1": 1, "type2": 1, "difficulty": 4}.items():
        set_field(page, "ability_test", path, value)
    roll = changed(page, "ability_test", form(page, "ability_test").locator("button[data-roll]").tap)
    settled(page, "ability_test")
    need = roll["exert_needed"]  # Ability 2 against at least 4 on four dice: 3 or more
    choice = form(page, "ability_test").locator('[data-choice="exert"]')
    box, exert = choice.locator("input"), choice.locator("button")
    box.tap()
    box.fill(str(need + 1))
    assert exert.is_disabled()
    assert choice.locator("[data-refusal]").inner_text() == f"Exertion to spend must be from 1 to {need}"
    box.fill(str(need - 1))
    assert not exert.is_disabled() and choice.locator("[data-refusal]").count() == 0
    wait_until(
        page,
        "(el) => el.dataset.action === JSON.stringify({ exert: Number(el.closest('[data-choice]')"
        ".querySelector('input').value) })",
        10_000,
        exert.locator("[data-odds-after]").element_handle(),
    )
    after = changed(page, "ability_test", exert.tap)
    assert after["exertion"] == need - 1 and after["outcome"] == "failure"
