"""Ongoing struggles, in real Chromium with real IndexedDB: turns accumulate to the target with the engine's odds
shown, a roll counts once, a botch aborts and the struggle starts again, and in a contest the resistance eats what was
accumulated."""

from __future__ import annotations

from arbiter import api
from page_helpers import form, request_of, roll, set_field, wait_until
from table_helpers import records, start_struggle


def stored_struggle(page, name):
    return next(r["data"] for k, r in records(page).items() if k.startswith("struggle:") and r["data"]["name"] == name)


def add_turn(page, card):
    before = card.get_attribute("data-accumulated"), card.locator("p.big").inner_text()
    card.locator("[data-turn-add]").click()
    wait_until(
        page,
        lambda: (card.get_attribute("data-accumulated"), card.locator("p.big").inner_text()) != before,
        what="the turn to count",
    )


def test_a_struggle_runs_to_completion_with_its_odds_shown(app):
    """Turns of a big pool accumulate to the target; the odds shown are the engine's; a roll counts once."""
    page = app("#ten_again")
    card = start_struggle(page, "Climb the tower", 12)
    set_field(page, "ten_again", "pool", 12)
    state = {
        k: stored_struggle(page, "Climb the tower")[k] for k in ("target", "accumulated", "turns", "status", "contest")
    }
    want = api.table("ten_again", "struggle_odds", state, {"request": request_of(page, "ten_again"), "turns": 5})
    shown = card.locator("[data-finish]")
    # the card first shows the odds of the form as it was (pool 3), then the pool of 12's once the engine answers
    wait_until(
        page,
        "(p) => Number(document.querySelector('.struggle [data-finish]')?.dataset.finish) === p",
        15_000,
        arg=want["finish_within"]["5"],
        what="the struggle's odds for a pool of 12",
    )
    assert float(shown.get_attribute("data-finish")) == want["finish_within"]["5"]
    assert shown.get_attribute("data-exact") == want["exact"]["finish_within"]["5"]
    assert "Finish within 5 turns" in shown.inner_text()

    turns = 0
    for _ in range(15):  # 12 dice average about 4 successes a turn
        result = roll(page, "ten_again")
        before = stored_struggle(page, "Climb the tower")
        add_turn(page, card)
        turns += 1
        after = stored_struggle(page, "Climb the tower")
        if result["botch"]:
            assert after["status"] == "aborted"
            card.get_by_role("button", name="Start again").click()
            wait_until(page, lambda: stored_struggle(page, "Climb the tower")["status"] == "ongoing", what="a restart")
            continue
        assert after["accumulated"] == min(before["accumulated"] + result["successes"], 10_000)
        if after["status"] == "done":
            break
    assert card.get_attribute("data-status") == "done"
    assert "done" in card.locator("p.big").inner_text()
    assert card.locator("[data-turn-add]").is_disabled()
    assert ": done" in stored_struggle(page, "Climb the tower")["notes"][-1]


def test_a_botch_aborts_a_struggle_and_it_starts_again(app):
    """A one-die pool botches sooner or later: the struggle is aborted to 0 and starts again from scratch."""
    page = app("#ten_again")
    card = start_struggle(page, "Pick the lock", 50)
    set_field(page, "ten_again", "pool", 1)
    for _ in range(200):  # a 1 on the single die (no success) is a botch: 1 in 10 a turn
        result = roll(page, "ten_again")
        add_turn(page, card)
        if result["botch"]:
            break
    assert result["botch"]
    s = stored_struggle(page, "Pick the lock")
    assert s["status"] == "aborted" and s["accumulated"] == 0 and "botch" in s["notes"][-1]
    assert card.get_attribute("data-status") == "aborted" and card.locator("[data-turn-add]").is_disabled()
    card.get_by_role("button", name="Start again").click()
    wait_until(page, lambda: stored_struggle(page, "Pick the lock")["status"] == "ongoing", what="a fresh start")
    s = stored_struggle(page, "Pick the lock")
    assert (s["accumulated"], s["turns"]) == (0, 0)
    set_field(page, "ten_again", "pool", 0)  # no dice: a failure that never botches
    roll(page, "ten_again")
    add_turn(page, card)
    card.locator("[data-turn-add]").click()  # the same roll again
    wait_until(
        page, "() => document.querySelector('.struggle .sheet-status')?.textContent.includes('already added')", 5_000
    )
    assert stored_struggle(page, "Pick the lock")["turns"] == 1


def test_in_a_contest_the_resistance_eats_accumulated_successes(app):
    """In an ongoing contest the resistance's excess successes eat what the actor accumulated."""
    page = app("#ten_again")
    card = start_struggle(page, "Arm wrestling", 50, contest=True)
    set_field(page, "ten_again", "pool", 20)
    form(page, "ten_again").locator('[data-toggle="opposed"]').set_checked(True)
    set_field(page, "ten_again", "opposed.pool", 0)
    for _ in range(10):  # 20 dice botch once in ~1300 rolls (the engine's odds); a botch aborts: the test above
        result = roll(page, "ten_again")
        if not result["botch"]:
            break
    assert not result["botch"]
    add_turn(page, card)
    s = stored_struggle(page, "Arm wrestling")
    assert (s["status"], s["accumulated"], s["turns"]) == ("ongoing", max(0, result["net"]), 1)
    set_field(page, "ten_again", "pool", 0)
    set_field(page, "ten_again", "opposed.pool", 20)
    for _ in range(10):
        result = roll(page, "ten_again")
        if not result["botch"]:
            break
    before = stored_struggle(page, "Arm wrestling")["accumulated"]
    add_turn(page, card)
    after = stored_struggle(page, "Arm wrestling")
    assert after["accumulated"] == max(0, before + result["net"])
    assert "resistance" in after["notes"][-1]
