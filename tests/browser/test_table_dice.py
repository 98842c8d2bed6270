"""Table dice (issue 21), in real Chromium at 360 × 640 with touch: the group rolls its own dice and types their faces
on the face pad; the outcome, its words and its follow-ups are the engine's answer to those faces
(`api.roll(..., dice=...)`), the dice on the canvas are the faces entered, a d10 pool asks for its 10s' dice, a Will
after the roll for its three, the log says table dice, and leaving the pad rolls and logs nothing."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest

from arbiter import api
from page_helpers import IN_VIEW, form, wait_until
from table_helpers import log, records
from test_axe import axe_source, violations  # noqa: F401 (axe_source is a fixture)

SYSTEMS = {s["id"]: s for s in api.systems()}
PAD = "[data-face-pad]"


def open_form(phone_app, system, request):
    return phone_app(f"#{system}={quote(json.dumps(request))}")


def use_table_dice(page, system):
    """Tap the toggle by Roll until it says table dice (it is kept on this device)."""
    toggle = form(page, system).locator("button.dice-source")
    if toggle.get_attribute("data-dice-source") != "table":
        toggle.tap()
    wait_until(page, lambda: toggle.get_attribute("data-dice-source") == "table", what="table dice chosen")
    assert toggle.get_attribute("aria-pressed") == "true"


def pad_of(page, system):
    return form(page, system).locator(PAD)


def asked(page, system) -> str:
    """What the pad asks for now (its words), once it is not waiting for the engine."""
    pad = pad_of(page, system)
    wait_until(page, lambda: pad.is_visible() and pad.get_attribute("data-asking") is None, what="the pad to ask")
    assert pad.evaluate(IN_VIEW), "the pad is not whole in view above the Roll bar"
    return pad.locator("[data-face-for]").inner_text()


def enter(page, system, faces):
    """Tap each face on the pad, waiting for the engine between batches."""
    pad = pad_of(page, system)
    for face in faces:
        asked(page, system)
        button = pad.locator(f'button[data-face="{face}"]')
        box = button.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, f"face {face} is {box}"
        button.tap()


def rolled(page, system):
    return page.evaluate("(s) => window.arbiterPage.procs[s].roll", system)


def same_roll(page_roll, engine_roll):
    keys = ("outcome", "summary", "tone", "drawn")
    assert {k: page_roll[k] for k in keys} == {k: engine_roll[k] for k in keys}


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_each_procedure_rolls_the_faces_typed_on_the_pad(phone_app, system):
    """Table dice → Roll → the pad asks for each batch → the outcome is the engine's answer to those faces, the
    canvas shows them, the log entry says table dice and keeps the faces drawn."""
    request = SYSTEMS[system]["example_requests"]["plain"]
    faces = api.roll(system, request, seed=7)["drawn"]
    page = open_form(phone_app, system, request)
    use_table_dice(page, system)
    form(page, system).locator("button[data-roll]").tap()
    enter(page, system, faces)
    wait_until(page, lambda: rolled(page, system) is not None, what="the roll of the typed faces")
    expected = api.roll(system, request, dice=faces)
    same_roll(rolled(page, system), expected)
    assert not pad_of(page, system).is_visible()
    canvas = form(page, system).locator("canvas[data-dice]")
    wait_until(page, lambda: canvas.get_attribute("data-state") == "landed", what="the dice shown")
    shown = json.loads(canvas.get_attribute("data-faces"))
    assert sorted(shown) == sorted(faces), "the canvas shows other faces than those typed"
    wait_until(page, lambda: any(e["kind"] == "roll" for e in log(page)), what="the roll logged")
    entry = [e for e in log(page) if e["kind"] == "roll"][-1]
    assert entry["source"] == "table" and entry["drawn"] == faces
    assert entry["own"] == expected["drawn_own"]
    said = page.locator('[data-part="log"] .log-entry[data-kind="roll"] .log-dice').first
    assert said.text_content().startswith("Table dice: ")  # the log says whose dice


def test_a_ten_asks_for_its_die_and_a_will_for_three(phone_app):
    """A d10 pool of 2 dice: a 10 among them and the pad asks for one more d10 for the 10s; then "Expend a Will"
    after the roll asks for three faces, and the roll is the engine's answer to them."""
    request = {"pool": 2}
    page = open_form(phone_app, "ten_again", request)
    use_table_dice(page, "ten_again")
    form(page, "ten_again").locator("button[data-roll]").tap()
    assert asked(page, "ten_again").startswith("Roll 2 d10")
    enter(page, "ten_again", [10, 3])
    words = asked(page, "ten_again")
    assert words.startswith("Roll 1 d10") and "10s" in words, words
    enter(page, "ten_again", [4])
    wait_until(page, lambda: rolled(page, "ten_again") is not None, what="the roll")
    first = rolled(page, "ten_again")
    same_roll(first, api.roll("ten_again", request, dice=[10, 3, 4]))
    will = form(page, "ten_again").locator('[data-choices] button:has-text("Expend a Will")')
    will.tap()
    assert asked(page, "ten_again").startswith("Roll 3 d10")
    enter(page, "ten_again", [8, 2, 9])
    wait_until(page, lambda: rolled(page, "ten_again")["drawn"] == [8, 2, 9], what="the Will's dice")
    action = next(c for c in first["choices"] if "will" in json.dumps(c).lower())
    after = api.act("ten_again", first, action.get("action", action), dice=[8, 2, 9])
    same_roll(rolled(page, "ten_again"), after)
    wait_until(page, lambda: len(log(page)) == 2, what="the roll and its follow-up logged")
    entries = {k.removeprefix("log:"): r["data"] for k, r in records(page).items() if k.startswith("log:")}
    [roll_id] = [k for k, e in entries.items() if e["kind"] == "roll"]
    [follow] = [e for e in entries.values() if e["kind"] == "follow-up"]
    assert follow["follows"] == roll_id and follow["source"] == "table" and follow["drawn"] == [8, 2, 9]


def test_a_contest_asks_for_each_side_in_turn_and_the_pad_survives_a_view_change(phone_app):
    """A d10 contest asks for the actor's pool, then the target's, each named; half-way, a trip to the Table and
    back, and to another procedure and back, finds the pad as it was left, in view."""
    request = {"pool": 1, "opposed": {"pool": 1}}
    page = open_form(phone_app, "ten_again", request)
    use_table_dice(page, "ten_again")
    form(page, "ten_again").locator("button[data-roll]").tap()
    assert asked(page, "ten_again") == "Roll 1 d10: the actor's pool"
    enter(page, "ten_again", [7])
    assert asked(page, "ten_again") == "Roll 1 d10: the target's pool"
    page.locator('nav.views a[data-view="table"]').tap()
    page.locator('nav.views a[data-view="roll"]').tap()
    assert asked(page, "ten_again") == "Roll 1 d10: the target's pool"
    page.locator('nav.tabs a[data-tab="luck"]').tap()  # another procedure, and back
    page.locator('nav.tabs a[data-tab="ten_again"]').tap()
    assert asked(page, "ten_again") == "Roll 1 d10: the target's pool"
    enter(page, "ten_again", [3])
    wait_until(page, lambda: rolled(page, "ten_again") is not None, what="the contest")
    same_roll(rolled(page, "ten_again"), api.roll("ten_again", request, dice=[7, 3]))


def test_leaving_the_pad_rolls_and_logs_nothing(phone_app):
    """Two faces of three typed, then Leave: no roll, no log entry, the form as it was; Undo takes a face back."""
    request = {"pool": 3}
    page = open_form(phone_app, "ten_again", request)
    use_table_dice(page, "ten_again")
    form(page, "ten_again").locator("button[data-roll]").tap()
    enter(page, "ten_again", [5, 6])
    pad = pad_of(page, "ten_again")
    assert pad.locator("[data-face-count]").inner_text() == "2 of 3 d10"
    pad.locator("[data-face-undo]").tap()
    assert pad.locator("[data-face-count]").inner_text() == "1 of 3 d10"
    pad.locator("[data-face-leave]").tap()
    assert not pad.is_visible()
    assert rolled(page, "ten_again") is None
    assert [e for e in log(page) if e["kind"] != "note"] == []
    assert form(page, "ten_again").locator('[data-path="pool"]').input_value() == "3"


def test_the_pad_takes_digits_and_only_the_dies_faces(phone_app):
    """On a keyboard: digits enter faces (0 for a 10), a digit the die does not have is not taken."""
    page = open_form(phone_app, "luck", {"dice": 2})
    use_table_dice(page, "luck")
    form(page, "luck").locator("button[data-roll]").tap()
    assert asked(page, "luck").startswith("Roll 2 d6")
    page.keyboard.press("7")
    page.keyboard.press("0")
    assert pad_of(page, "luck").locator("[data-face-count]").inner_text() == "0 of 2 d6"
    page.keyboard.press("3")
    page.keyboard.press("5")
    wait_until(page, lambda: rolled(page, "luck") is not None, what="the roll")
    same_roll(rolled(page, "luck"), api.roll("luck", {"dice": 2}, dice=[3, 5]))


def test_axe_finds_no_violation_with_the_pad_open(phone, axe_source):  # noqa: F811
    phone.emulate_media(reduced_motion="reduce")
    phone.goto("/#ten_again")
    phone.wait_for_selector("body[data-ready]", state="attached", timeout=60_000)
    phone.wait_for_selector("#table[data-ready]", state="attached", timeout=10_000)
    use_table_dice(phone, "ten_again")
    form(phone, "ten_again").locator("button[data-roll]").tap()
    asked(phone, "ten_again")
    assert violations(phone, axe_source, "the face pad open") == []


def test_are_my_dice_fair_says_what_the_engine_says_of_the_faces_typed(phone_app):
    """Three Luck Rolls of ten table dice, as Nobody, typed on a keyboard: the Log's "Are my dice fair?" shows the
    engine's words for those 30 d6 faces (api.fairness), a bar per face with the named face marked; the luck view
    keeps these rolls apart as table dice."""
    page = open_form(phone_app, "luck", {"dice": 10})
    use_table_dice(page, "luck")
    typed = ["6666666666", "6666612345", "6612345666"]
    for n, faces in enumerate(typed, 1):
        form(page, "luck").locator("button[data-roll]").tap()
        asked(page, "luck")
        page.keyboard.type(faces)
        wait_until(page, lambda n=n: len([e for e in log(page) if e["kind"] == "roll"]) == n, what=f"roll {n} logged")
    all_faces = [int(c) for c in "".join(typed)]
    expected = api.fairness(all_faces, 6)
    page.locator('nav.views a[data-view="log"]').tap()
    page.locator("[data-log-luck] > summary").tap()  # the luck and the fairness, folded above the list
    box = page.locator("[data-fairness]")
    ready = "() => { const b = document.querySelector('[data-fairness]'); b.scrollIntoView(); return 'fairnessReady' in b.dataset; }"
    wait_until(page, lambda: page.evaluate(ready), what="the fairness view, asked once it is on screen")
    assert box.locator("[data-fairness-words]").inner_text() == expected["words"]
    assert expected["unfair"] and "more 6s" in expected["words"]
    counts = [int(c) for c in box.locator(".fair-bars li").evaluate_all("(all) => all.map((li) => li.dataset.count)")]
    assert counts == expected["counts"]
    assert box.locator('.fair-bars li[data-named][data-face="6"]').count() == 1
    # the legend's mark, a fair die's count, is drawn on every face's bar at that count's share of the longest
    most = max(expected["expected"], *expected["counts"])
    where = "(m) => { const t = m.parentElement.getBoundingClientRect(), r = m.getBoundingClientRect(); return (r.left + r.width / 2 - t.left) / t.width; }"
    marks = box.locator(".fair-bars li .fair-track .fair-expected").evaluate_all(f"(all) => all.map({where})")
    assert marks == [pytest.approx(expected["expected"] / most, abs=0.01)] * 6
    assert box.locator(".fair-legend .fair-expected").count() == 1
    assert "a fair die: 5.0 of each face" in box.locator(".fair-legend").inner_text()
    needed = box.locator("[data-faces-to-find]").inner_text()
    assert needed.startswith(f"About {expected['faces_to_find_a_loaded_die']} faces in all would show, at least 80%")
    luck = page.locator('[data-luck] [data-luck-group="-:luck:table"]')
    # the luck view above is asked once it is on screen (the fairness view scrolled it away): scrolled back to it
    show_luck = "() => { document.querySelector('[data-luck]').scrollIntoView(); return true; }"
    wait_until(page, lambda: page.evaluate(show_luck) and luck.count() == 1, what="the table dice' luck apart")
    assert "table dice" in luck.locator("figcaption").inner_text()


def test_a_d100_is_typed_as_two_taps_tens_then_units(phone_app):
    """A pad asked for d100s (more sides than it has buttons for, as the engine may ask of a procedure from outside)
    shows the tens (00 to 90) and the units (0 to 9): 30 then 7 is a 37, 00 then 0 the die's 100, a tens taken back
    with Undo before its units enters nothing; on a keyboard the first digit is the tens, the second the units."""
    page = open_form(phone_app, "ten_again", {"pool": 1})
    pad = pad_of(page, "ten_again")
    page.evaluate(
        """() => { window.d100Faces = null; window.arbiterPage.procs.ten_again.pad.collect(
        async (faces) => (faces.length < 3 ? { dice: 3, sides: 100, for: 'a test' } : { dice: 0 }))
        .then((faces) => { window.d100Faces = faces; }); }"""
    )
    assert asked(page, "ten_again") == "Roll 3 d100: a test"
    assert pad.locator("button[data-tens]").all_inner_texts() == [f"{t}0" for t in range(10)]
    assert pad.locator("button[data-units]").all_inner_texts() == [str(u) for u in range(10)]
    for button in pad.locator("button[data-tens], button[data-units]").all():
        box = button.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, box
    pad.locator('button[data-tens="30"]').tap()
    assert pad.locator("[data-face-count]").inner_text() == "0 of 3 d100: 30 and…"
    pad.locator('button[data-units="7"]').tap()
    pad.locator('button[data-tens="90"]').tap()
    pad.locator("[data-face-undo]").tap()  # the 90 taken back, the 37 kept
    assert pad.locator("[data-face-count]").inner_text() == "1 of 3 d100"
    pad.locator('button[data-tens="0"]').tap()
    pad.locator('button[data-units="0"]').tap()
    pad.locator('button[data-tens="0"]').focus()
    page.keyboard.press("4")
    page.keyboard.press("2")
    wait_until(page, "() => window.d100Faces !== null", 5_000, what="the pad to give its faces")
    assert page.evaluate("() => window.d100Faces") == [37, 100, 42]
