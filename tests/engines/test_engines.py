"""The same player's steps in every engine (Chromium, WebKitGTK, Firefox ESR): the page becomes ready, the engine
answers as CPython does, every procedure rolls through its form with the faces its words name, one follow-up per
procedure that has any, every tab switched through with no page error, offline after one visit, and the table keeps
a character across a reload. Run one engine with `python3 build.py test tests/engines -k webkit`."""

from __future__ import annotations

import itertools

import pytest

import build
import steps
from arbiter import api

SEEDED = 20261125


def test_the_engine_answers_as_cpython(engine, server):
    """odds and a seeded roll of every procedure, through the page's Pyodide client, equal CPython's."""
    steps.open_app(engine, server.url)
    for system, spec in steps.SPEC.items():
        request = spec["defaults"]
        assert steps.call(engine, "odds", system, request) == api.odds(system, request), system
        assert steps.call(engine, "roll", system, request, SEEDED) == api.roll(system, request, SEEDED), system


def test_every_procedure_rolls_through_its_form(engine, server):
    """Each procedure's Roll lands on the engine's faces, and the words name its outcome and steps."""
    steps.open_app(engine, server.url)
    for system in steps.SPEC:
        steps.show(engine, system)
        roll = steps.roll_via_form(engine, system)
        steps.check_shown(engine, system, roll)


@pytest.mark.parametrize("system", list(steps.FOLLOW_UPS))
def test_a_follow_up(engine, server, system):
    """One follow-up choice of each procedure that has any, shown as the engine answered it."""
    steps.open_app(engine, server.url)
    _, after = steps.FOLLOW_UPS[system](engine)
    steps.check_shown(engine, system, after)


def test_the_procedures_without_follow_ups_offer_none(engine, server):
    """Arbitration, two dice and Luck have no follow-up choices: the page shows none after a roll."""
    steps.open_app(engine, server.url)
    for system in ("arbitration", "two_dice", "luck"):
        steps.show(engine, system)
        roll = steps.roll_via_form(engine, system)
        assert roll["choices"] == []
        assert (
            engine.run("(css) => document.querySelectorAll(css + ' [data-choice]').length", steps.form_css(system)) == 0
        )


def test_switching_every_tab_and_rolling_raises_no_page_error(engine, server):
    """Every tab, twice round, each with a roll: no ResizeObserver loop or any other page error (checked by `engine`)."""
    steps.open_app(engine, server.url)
    for system in itertools.chain(steps.SPEC, reversed(steps.SPEC)):
        steps.show(engine, system)
        steps.landed_faces(engine, system) if steps.current_roll(engine, system) else steps.roll_via_form(
            engine, system
        )
    engine.run("() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))")


def test_a_reload_is_served_offline_and_rolls(engine, dist):
    """After one visit the service worker holds the build: with the server stopped, a reload still rolls."""
    server = build.Server(dist).start()  # an origin of its own, so no other test's service worker is in the way
    try:
        steps.open_app(engine, server.url)
        steps.wait_until(
            engine,
            "() => ['saved', 'failed', 'unsupported'].includes(document.documentElement.dataset.offline)",
            timeout_s=60,
            what="the offline copy to be saved",
        )
        assert engine.run("() => document.documentElement.dataset.offline") == "saved"
        url = server.url + "#ten_again"
    finally:
        server.shutdown()
        server.server_close()
    steps.open_app(engine, url)
    assert engine.run("() => navigator.serviceWorker.controller !== null")
    steps.show(engine, "ten_again")
    roll = steps.roll_via_form(engine, "ten_again")
    steps.check_shown(engine, "ten_again", roll)


def test_the_table_keeps_a_character_across_a_reload(engine, server):
    """A character created in the Table is there again after a reload, read back from IndexedDB."""
    name = f"Wren of {engine.name}"
    steps.open_app(engine, server.url + "#ten_again", table=True)
    steps.create_character(engine, "ten_again", name)
    steps.open_app(engine, server.url + "#ten_again", table=True)
    steps.wait_until(
        engine,
        "(name) => [...document.querySelectorAll('.char-list button')].some((b) => b.textContent.includes(name))",
        name,
        what=f"{name} in the list after a reload",
    )


def test_a_shared_roll_opens_and_is_added_once(engine, server):
    """A roll's link made in CPython opens in this engine's Shared roll panel with the outcome CPython gives it, and
    Add puts it in the log once (an iPhone's WebKit included)."""
    request = {"type1": 2, "type2": 2, "difficulty": 2}
    rolled = api.roll("ability_test", request, dice=[3, 4])
    link = api.share_link("ability_test", request, [{"drawn": rolled["drawn"]}], f"Ann of {engine.name}", 1_790_000_000)
    steps.open_app(engine, f"{server.url}#r={link['fragment']}", table=True)
    outcome = steps.wait_until(
        engine,
        "() => document.querySelector('[data-shared-roll] [data-shared-outcome]')?.dataset.sharedOutcome",
        what="the Shared roll panel",
    )
    assert outcome == rolled["outcome"]
    engine.click("[data-add-shared]")
    steps.wait_until(engine, "() => document.querySelector('[data-shared-in-log]')", what="added to the log")
    assert engine.run("() => document.querySelectorAll('#log .log-entry .log-shared').length") == 1
