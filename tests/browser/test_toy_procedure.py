"""A procedure added from outside arbiter reaches the page whole: the toy coin flip of tests/procedures/ built with
`--procedures` into a site of its own has its tab and form (from systems()), its odds, its dice landing on the
engine's faces and marks, its words and its follow-up, all through the generic view (none in PROCEDURE_VIEWS); and the
normal build shows no trace of it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import build
from page_helpers import changed, form, set_field, wait_until

TOYS = Path(__file__).resolve().parents[1] / "procedures"
COIN = "coin"
LABELS = {"won": "Won: a coin on your call", "lost": "Lost"}  # the coin's EXTRAS["outcome_labels"]


@pytest.fixture(scope="module")
def toy_dist(build_once) -> Path:
    """The site built with the toy procedures (build.py --procedures tests/procedures), once for the whole run: the
    modules that import this fixture and every worker share it."""
    return build_once("toy-site", procedures=[TOYS])


@pytest.fixture(scope="module")
def server(toy_dist):
    """The toy site on build.py's own server (the `page` fixture opens it)."""
    srv = build.Server(toy_dist).start()
    yield srv
    srv.shutdown()
    srv.server_close()


def tray(page):
    """The coin's canvas once its dice have landed: the faces it shows and each die's marks."""
    wait_until(
        page,
        """() => ['landed', 'empty'].includes(
        document.querySelector('form[data-system="coin"] canvas[data-dice]').dataset.state)""",
        10_000,
    )
    canvas = form(page, COIN).locator("canvas[data-dice]")
    marks = page.evaluate("() => window.arbiterPage.procs.coin.tray.dice.map((d) => [...d.marks])")
    return json.loads(canvas.get_attribute("data-faces")), marks


def check_shown(page, roll):
    """The dice landed on the engine's faces with its marks, and the words are the roll's."""
    assert tray(page) == (roll["dice"], roll["marks"])
    result = form(page, COIN).locator("[data-result]")
    assert result.get_attribute("data-outcome") == roll["outcome"]
    assert result.get_attribute("data-tone") == roll["tone"]
    text = result.inner_text()
    assert roll["summary"] in text and " → ".join(roll["steps"]) in text.replace("\n", " ")


def test_the_coin_has_its_tab_form_odds_dice_words_and_follow_up(page):
    """Open the coin's tab: its form is the one systems() declares, its odds bars are exact, a roll's dice land on the
    engine's faces with its words, and a lost call's "Flip again" (with its chance) flips the coins again."""
    page.goto("/")
    page.wait_for_selector("body[data-ready]", state="attached", timeout=60_000)
    tab = page.locator('nav.tabs a[data-tab="coin"]')
    assert tab.inner_text().split() == ["Coin", "a", "d2:", "heads", "or", "tails"]
    tab.click()
    f = form(page, COIN)
    f.wait_for(state="visible")
    assert f.locator("h2").inner_text() == "Coin flip"
    call = f.locator('select[data-path="call"]')
    assert call.locator("option").all_inner_texts() == ["Heads", "Tails"] and call.input_value() == "heads"
    coins = f.locator('input[data-path="coins"]')
    assert (coins.get_attribute("min"), coins.get_attribute("max"), coins.input_value()) == ("1", "3", "1")

    set_field(page, COIN, "coins", 2)
    wait_until(
        page,
        """() => { const o = document.querySelector('form[data-system="coin"] [data-odds]');
        return o.dataset.stale === undefined && JSON.parse(o.dataset.request || '{}').coins === 2; }""",
        10_000,
    )
    odds = f.locator("[data-odds]")
    for key, p, exact in (("won", "0.75", "3/4"), ("lost", "0.25", "1/4")):
        row = odds.locator(f'.odds-row[data-key="{key}"]')
        assert (row.get_attribute("data-p"), row.get_attribute("data-exact")) == (p, exact)
        assert row.locator(".label").inner_text() == LABELS[key]
    assert f.locator("[data-headline]").inner_text() == "Win 75.0%"

    set_field(page, COIN, "coins", 1)
    for _ in range(40):  # a lost call, to take its follow-up (each flip loses one time in two)
        roll = changed(page, COIN, f.locator("button[data-roll]").click)
        check_shown(page, roll)
        if roll["outcome"] == "lost":
            break
    assert roll["outcome"] == "lost" and roll["request"] == {"call": "heads", "coins": 1}
    again = f.locator('[data-choice="flip_again"] button')
    chance = again.locator("[data-odds-after]")
    assert (chance.get_attribute("data-key"), chance.get_attribute("data-p")) == ("won", "0.5")
    assert again.inner_text().startswith("Flip again") and "Won 0% → 50.0%" in again.inner_text()
    flipped = changed(page, COIN, again.click)
    assert flipped["flipped_again"] is True and flipped["first_dice"] == roll["dice"]
    check_shown(page, flipped)
    assert f.locator("[data-choice]").count() == 0  # once only


def test_the_normal_build_shows_no_coin(dist, toy_dist):
    """Without --procedures the build is as if the toy were not there: the same files, and where the two builds
    differ (the page, the snapshot, and the files that hold their sizes and hashes) the normal one names no coin."""
    files = lambda root: sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())  # noqa: E731
    assert files(dist) == files(toy_dist)
    differ = [name for name in files(dist) if (dist / name).read_bytes() != (toy_dist / name).read_bytes()]
    assert set(differ) <= {"index.html", "pyodide/snapshot.bin", "static/engine/worker.js", "sw.js"}
    assert "index.html" in differ and "pyodide/snapshot.bin" in differ
    page = (dist / "index.html").read_text(encoding="utf-8")
    assert 'data-system="coin"' in (toy_dist / "index.html").read_text(encoding="utf-8")
    assert (
        'data-system="coin"' not in page
        and '"coin"' not in page
        and b"arbiter_procedures" not in (dist / "pyodide" / "snapshot.bin").read_bytes()
    )
