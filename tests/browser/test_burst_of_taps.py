"""A burst of taps is one roll (issue 29): at 360 × 640, at each speed of the dice (Full, Quick, Off), the bursts a
player measured making two rolls (3 taps 150 ms apart, 4 taps 120 ms apart, 3 taps 270 ms apart) make one roll and
one log entry each; taps while the dice tumble land them, and Roll takes no new roll until the outcome has been on
screen for a while (docs/features.md)."""

from __future__ import annotations

import json

import pytest

from page_helpers import open_app, table_idle, wait_until
from table_helpers import log

BURSTS = [(3, 150), (4, 120), (3, 270)]

# The taps, each at its time after the first, scheduled in the page so the gaps are the player's, not the test's:
# each a click of Roll (its form's submit, as a tap or Enter makes it). Resolves once the last is made.
TAPS = """([system, taps, gap]) => new Promise((resolve) => {
  const roll = document.querySelector(`form[data-system="${system}"] button[data-roll]`);
  for (let i = 0; i < taps; i++) setTimeout(() => { roll.click(); if (i === taps - 1) resolve(true); }, i * gap);
})"""


def rolls_of(page, system) -> int:
    return sum(1 for e in log(page) if e["kind"] == "roll" and e["system"] == system)


@pytest.mark.parametrize("speed", ["full", "quick", "off"])
def test_each_burst_of_taps_is_one_roll(page, speed):
    """Each burst, at this speed, as nobody: one roll logged, whose outcome is shown (its dice landed)."""
    page.add_init_script(f"localStorage.setItem('arbiter-settings', {json.dumps(json.dumps({'speed': speed}))})")
    page = open_app(page, "#ten_again", 360, 640)
    system = "ten_again"
    for taps, gap in BURSTS:
        before = rolls_of(page, system)
        page.evaluate(TAPS, [system, taps, gap])
        wait_until(
            page,
            "(s) => document.querySelector(`form[data-system=\"${s}\"]`).dataset.phase === 'landed'",
            10_000,
            system,
            what="the outcome shown",
        )
        page.wait_for_timeout(1_000)  # what a late tap of the burst would have started, logged by now
        table_idle(page)
        assert rolls_of(page, system) - before == 1, f"{taps} taps {gap} ms apart at {speed}"
