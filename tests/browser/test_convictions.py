"""Convictions, in real Chromium with real IndexedDB: the first Test that activates one spends an Exertion and declares
it for the Scene; later Tests of the Scene activate it free; "New Scene" gives every Ability Test character 1 XP and
ends the declarations."""

from __future__ import annotations

from page_helpers import request_of, roll, wait_until
from table_helpers import add_row, characters, create, edit, fill_from_sheet, log, sheet_input, sheet_list


def declared(page, name) -> list:
    return characters(page)[name]["sheet"].get("scene_convictions", [])


def test_a_conviction_declared_for_the_scene_is_free_until_a_new_scene(app):
    """ability_test-25, -26: the first Test that activates a Conviction spends one Exertion and declares it for the
    Scene (the sheet and the form say so); the next Test of the Scene activates it without Exertion; "New Scene"
    gives every Ability Test character 1 XP in one log entry and ends the declarations, so it costs one again."""
    page = app("#ability_test")
    create(page, "ability_test", "Cleo")  # another Ability Test character: the Scene is the table's
    create(page, "ability_test", "Aria")
    edit(page, sheet_input(page, "exertion"), 5, lambda: characters(page)["Aria"]["sheet"]["exertion"] == 5)
    add_row(page, "convictions", "The mission comes first", 2)
    (mission,) = sheet_list(page, "Aria", "convictions")
    page.locator(".sheet .use").get_by_label("The mission comes first (Significance 2)").check()
    fill_from_sheet(page, "ability_test")
    assert (
        request_of(page, "ability_test")["convictions"],
        request_of(page, "ability_test")["convictions_declared"],
    ) == ([2], 0)
    shown = page.locator(".sheet [data-scene-convictions]")
    assert shown.inner_text().endswith(": none yet.")

    first = roll(page, "ability_test")
    assert first["request"]["convictions_declared"] == 0
    wait_until(
        page,
        lambda: characters(page)["Aria"]["sheet"]["exertion"] == 4 and declared(page, "Aria") == [mission["id"]],
        what="one Exertion spent, the Conviction declared",
    )
    assert "Spent 1 Exertion to declare “The mission comes first” relevant to this Scene" in log(page)[-1]["note"]
    wait_until(page, lambda: "“The mission comes first”" in shown.inner_text(), what="the sheet naming it")
    assert "declared this Scene" in page.locator(".sheet .use").inner_text()
    wait_until(page, lambda: request_of(page, "ability_test")["convictions_declared"] == 1, what="the form saying so")

    second = roll(page, "ability_test")  # the same Scene: its Significance adds, no Exertion
    assert second["request"]["convictions_declared"] == 1 and second["ability"] == first["ability"]
    assert "declared relevant to this Scene already: no Exertion" in second["steps"][0]
    assert "no Exertion is charged" in log(page)[-1]["note"]
    assert characters(page)["Aria"]["sheet"]["exertion"] == 4

    xp = {name: characters(page)[name]["sheet"]["xp"] for name in ("Aria", "Cleo")}
    entries = len(log(page))
    page.locator('[data-k="scene:new"]').click()
    wait_until(page, lambda: all(characters(page)[n]["sheet"]["xp"] == xp[n] + 1 for n in xp), what="1 XP each")
    wait_until(page, lambda: len(log(page)) == entries + 1, what="one log entry")
    entry = log(page)[-1]
    assert entry["kind"] == "note" and "Aria: New Scene: earned 1 XP" in entry["note"] and "Cleo: " in entry["note"]
    assert declared(page, "Aria") == [] and shown.inner_text().endswith(": none yet.")
    wait_until(page, lambda: request_of(page, "ability_test")["convictions_declared"] == 0, what="the form again")

    third = roll(page, "ability_test")  # a new Scene: declaring it costs one Exertion again
    assert third["request"]["convictions_declared"] == 0
    wait_until(page, lambda: characters(page)["Aria"]["sheet"]["exertion"] == 3, what="one Exertion again")
    assert declared(page, "Aria") == [mission["id"]] and len(log(page)) == entries + 2
