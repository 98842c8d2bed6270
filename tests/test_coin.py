"""Coin flip, the toy procedure of tests/procedures/coin/: a procedure from outside arbiter, registered only when
asked (procedures.more, `build.py --procedures DIR`), and answering the same protocol as the package's own."""

from __future__ import annotations

import itertools
import json
import os
import random
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

import test_procedures
from arbiter import RulesError, api, chances, fields, procedures
from scripted import ScriptedDice
from stats import assert_fits

ROOT = Path(__file__).resolve().parent.parent
TOYS = Path(__file__).resolve().parent / "procedures"
[coin] = [m for m in procedures.more([str(TOYS)]) if m.ID == "coin"]
HEADS, TAILS = coin.HEADS, coin.TAILS
# The package's own procedures (the registry also holds the coin when the tests run with --procedures tests/procedures)
OWN = [i for i, m in procedures.PROCEDURES.items() if not m.__name__.startswith(procedures.MORE)]


@pytest.fixture
def registered(monkeypatch):
    """The registry with the coin in it, as `--procedures tests/procedures` makes it (for this test only)."""
    monkeypatch.setitem(procedures.PROCEDURES, coin.ID, procedures.Adapted(coin))
    monkeypatch.setattr(test_procedures, "IDS", test_procedures.IDS | {coin.ID})
    return coin


def parse(call="heads", coins=1):
    return fields.parse(coin.FIELDS, {"call": call, "coins": coins})


def flip(req, *faces):
    dice = ScriptedDice(*faces)
    out = coin.roll(req, dice)
    assert dice.left == []
    return out


@pytest.mark.parametrize(
    "call, faces, outcome",
    [
        ("heads", (HEADS,), "won"),
        ("heads", (TAILS,), "lost"),
        ("tails", (TAILS,), "won"),
        ("heads", (TAILS, TAILS, HEADS), "won"),
        ("tails", (HEADS, HEADS), "lost"),
    ],
)
def test_any_coin_on_the_call_wins(call, faces, outcome):
    """You win when any coin lands on your call; each coin on it is kept, the others dim."""
    r = flip(parse(call, len(faces)), *faces)
    assert r["outcome"] == outcome and r["dice"] == list(faces)
    assert r["tone"] == ("success" if outcome == "won" else "failure")
    assert r["marks"] == [["kept"] if coin.FACE_NAMES[f] == call else ["dim"] for f in faces]
    assert r["coins"] == [coin.FACE_NAMES[f] for f in faces]


def test_a_lost_call_offers_one_flip_again():
    """A lost call offers flipping again; its action flips every coin again and the second flip stands, once."""
    lost = flip(parse("heads", 2), TAILS, TAILS)
    assert [c["action"] for c in lost["choices"]] == [{"flip_again": True}]
    again = coin.act(lost, {"flip_again": True}, ScriptedDice(TAILS, HEADS))
    assert again["dice"] == [TAILS, HEADS] and again["outcome"] == "won" and again["first_dice"] == [TAILS, TAILS]
    assert again["choices"] == [] and again["steps"][1] == "Flipped again: tails, heads"
    still_lost = coin.act(lost, {"flip_again": True}, ScriptedDice(TAILS, TAILS))
    assert still_lost["outcome"] == "lost" and still_lost["choices"] == []
    with pytest.raises(RulesError, match="only once"):
        coin.act(still_lost, {"flip_again": True}, ScriptedDice(HEADS, HEADS))


@pytest.mark.parametrize("action", [{}, {"flip_again": False}, {"reroll": [0]}, None])
def test_other_actions_and_won_calls_are_refused(action):
    """Only {"flip_again": true} is a follow-up, and only of a lost call."""
    with pytest.raises(RulesError, match="flip_again"):
        coin.act(flip(parse(), TAILS), action, ScriptedDice())
    with pytest.raises(RulesError, match="only a lost call"):
        coin.act(flip(parse(), HEADS), {"flip_again": True}, ScriptedDice())


@pytest.mark.parametrize("coins", [1, 2, 3])
def test_odds_are_exact_against_every_flip(coins):
    """odds() is the count over every flip of the coins (brute force), and odds_after a flip again the same."""
    flips = list(itertools.product((HEADS, TAILS), repeat=coins))
    wins = sum(coin.won(f, "tails") for f in flips)
    exact = coin.odds(parse("tails", coins))["outcomes"]
    assert exact == {"won": Fraction(wins, len(flips)), "lost": Fraction(len(flips) - wins, len(flips))}
    lost = flip(parse("tails", coins), *[HEADS] * coins)
    assert coin.odds_after(lost, {"flip_again": True})["outcomes"] == exact


def test_rolls_follow_the_odds():
    """Seeded rolls of three coins fit odds() (chi-square)."""
    req, dice = parse("heads", 3), random.Random(19)
    seen = Counter(coin.roll(req, dice)["outcome"] for _ in range(4000))
    assert_fits(seen, {k: float(p) for k, p in coin.odds(req)["outcomes"].items()}, 4000)


def test_luck_ranks_the_first_flip():
    """Luck reads the flip as first flipped (lost, then won), whatever a flip again did."""
    lost = flip(parse("heads", 2), TAILS, TAILS)
    again = coin.act(lost, {"flip_again": True}, ScriptedDice(HEADS, HEADS))
    luck = chances.luck(coin, again)
    assert (luck["outcome"], luck["p_worse"], luck["p_same"]) == ("lost", 0, Fraction(1, 4))
    assert coin.headline(coin.odds(parse("heads", 2))) == {"Win": Fraction(3, 4)}


# --- through the registry and the door, as the page asks ------------------------------------------------------------


def test_the_coin_comes_from_outside_the_package():
    """The coin is a package of the namespace of procedures from outside, none of the package's own six."""
    assert coin.__name__ == f"{procedures.MORE}.coin" and coin.ID not in OWN and len(OWN) == 6


@pytest.mark.parametrize(
    "check",
    [
        test_procedures.test_every_procedure_implements_the_protocol,
        test_procedures.test_every_procedure_answers_through_the_protocol,
    ],
)
def test_the_coin_answers_the_protocol(registered, check):
    """The shared protocol tests pass for the coin, as for the package's own procedures."""
    check(coin.ID)


@pytest.mark.parametrize("path", test_procedures.shared_modules(), ids=lambda p: p.name)
def test_no_shared_module_names_the_coin(registered, path):
    """No shared module of arbiter knows the coin by name: it came in through the registry alone."""
    assert test_procedures.scan(path) == []


def test_the_door_rolls_acts_and_shows_the_coin(registered):
    """systems() gives the coin its own tab, no text, no sheet; roll and act carry its choice's odds, as JSON."""
    [spec] = [s for s in api.systems() if s["id"] == "coin"]
    assert (spec["tab"], spec["seed"], spec["kind"], spec["sheet"], spec["sheet_choices"]) == (
        "coin",
        None,
        None,
        None,
        [],
    )
    assert spec["waiting_dice"] == {"count": 1, "sides": 2}
    rolled = json.loads(api.call_json("roll", json.dumps(["coin", {"call": "tails", "coins": 1}, 4])))["value"]
    if rolled["outcome"] == "won":
        rolled = json.loads(api.call_json("roll", json.dumps(["coin", {"call": "heads", "coins": 1}, 4])))["value"]
    [choice] = rolled["choices"]
    assert choice["odds"]["exact"]["outcomes"] == {"won": "1/2", "lost": "1/2"}
    assert api.act("coin", rolled, choice["action"], 1)["choices"] == []
    assert api.odds("coin", {"coins": 2})["headline"] == {"Win": 0.75}
    turned = api.turn("coin", {"request": {"coins": 1}, "seed": 2}, None)
    assert turned["roll"]["system"] == "coin" and turned["refused"] is None
    with pytest.raises(RulesError, match="no character sheet"):
        api.check_sheet("coin", {})


def test_the_environment_registers_the_folder():
    """ARBITER_PROCEDURES=tests/procedures (what build.py --procedures sets) puts the coin (and the other toys) in
    systems(), after the package's own; without it there is none."""
    code = "import json; from arbiter import api; print(json.dumps([s['id'] for s in api.systems()]))"
    env = {k: v for k, v in os.environ.items() if k != procedures.MORE_ENV}
    env["PYTHONPATH"] = str(ROOT / "py")

    def ids(**more):
        out = subprocess.run(
            [sys.executable, "-c", code], env={**env, **more}, capture_output=True, text=True, check=True, cwd=ROOT
        )
        return json.loads(out.stdout)

    assert ids(**{procedures.MORE_ENV: str(TOYS)}) == [*OWN, "coin", "d20_check"]  # the toys, by folder name
    assert ids() == OWN


@pytest.mark.parametrize("name", ["plain", "largest"])
def test_the_coins_rolls_are_as_it_declares_them(registered, name):
    """Its roll and act answers (through the door, with their odds) are exactly its declared roll JSON, as every
    procedure's must be (shapes.problems)."""
    from arbiter import shapes

    for seed in range(20):
        rolled = api.roll(coin.ID, coin.EXAMPLE_REQUESTS[name], seed=seed)
        assert shapes.problems(coin.ROLL, rolled) == []
        for choice in rolled["choices"]:
            assert shapes.problems(coin.ROLL, api.act(coin.ID, rolled, choice["action"], seed=seed)) == []
