"""The d20 check, the second toy procedure of tests/procedures/ (a d20 + modifier against a DC, with advantage and
disadvantage): its rules, its odds exact against every roll of the dice, the shared protocol, and the faces above 10
a table's log keeps only because a procedure declares a d20."""

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
[d20] = [m for m in procedures.more([str(TOYS)]) if m.ID == "d20_check"]
MODES = ("normal", "advantage", "disadvantage")


@pytest.fixture
def registered(monkeypatch):
    """The registry with the d20 check in it, as `--procedures tests/procedures` makes it (for this test only)."""
    monkeypatch.setitem(procedures.PROCEDURES, d20.ID, procedures.Adapted(d20))
    monkeypatch.setattr(test_procedures, "IDS", test_procedures.IDS | {d20.ID})
    return d20


def parse(modifier=0, dc=15, mode="normal"):
    return fields.parse(d20.FIELDS, {"modifier": modifier, "dc": dc, "mode": mode})


def check(req, *faces):
    dice = ScriptedDice(*faces)
    out = d20.roll(req, dice)
    assert dice.left == [] and dice.batches == [(len(faces), 20, dice.batches[0][2])]
    return out


@pytest.mark.parametrize(
    "modifier, dc, mode, faces, outcome, kept, marks",
    [
        (0, 15, "normal", (15,), "success", 15, [["kept"]]),
        (0, 15, "normal", (14,), "failure", 14, [["kept"]]),
        (3, 20, "advantage", (17, 9), "success", 17, [["kept"], ["dim"]]),
        (3, 20, "disadvantage", (17, 9), "failure", 9, [["dim"], ["kept"]]),
        (-2, 18, "advantage", (5, 20), "success", 20, [["dim"], ["kept"]]),
        (0, 10, "disadvantage", (10, 10), "success", 10, [["kept"], ["dim"]]),
    ],
)
def test_the_kept_d20_plus_the_modifier_meets_the_dc(modifier, dc, mode, faces, outcome, kept, marks):
    """Advantage keeps the higher of two d20, disadvantage the lower; kept + modifier ≥ DC succeeds."""
    r = check(parse(modifier, dc, mode), *faces)
    assert (r["outcome"], r["kept"], r["total"], r["marks"]) == (outcome, kept, kept + modifier, marks)
    assert r["dice"] == list(faces) and r["tone"] == outcome


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("modifier, dc", [(0, 1), (0, 11), (5, 15), (-3, 20), (0, 21), (20, 40), (-10, 2)])
def test_odds_are_exact_against_every_roll(mode, modifier, dc):
    """odds() is the count over every roll of the d20s (brute force: 20 or 400 of them)."""
    req = parse(modifier, dc, mode)
    rolls = list(itertools.product(range(1, 21), repeat=d20.count(mode)))
    wins = sum(max(r) + modifier >= dc if mode == "advantage" else min(r) + modifier >= dc for r in rolls)
    assert d20.odds(req)["outcomes"] == {
        "success": Fraction(wins, len(rolls)),
        "failure": Fraction(len(rolls) - wins, len(rolls)),
    }


def test_rolls_follow_the_odds():
    """Seeded rolls with disadvantage fit odds() (chi-square)."""
    req, dice = parse(4, 12, "disadvantage"), random.Random(20)
    seen = Counter(d20.roll(req, dice)["outcome"] for _ in range(4000))
    assert_fits(seen, {k: float(p) for k, p in d20.odds(req)["outcomes"].items()}, 4000)


def test_no_follow_up_and_luck_ranks_the_roll():
    """A check has no follow-up; luck ranks it failure, then success."""
    r = check(parse(0, 11, "advantage"), 3, 12)
    with pytest.raises(RulesError, match="no follow-up"):
        d20.act(r, {}, ScriptedDice())
    luck = chances.luck(d20, r)
    assert (luck["outcome"], luck["p_worse"], luck["p_same"]) == ("success", Fraction(1, 4), Fraction(3, 4))
    assert d20.headline(d20.odds(parse(0, 11, "advantage"))) == {"Success": Fraction(3, 4)}


@pytest.mark.parametrize(
    "check_",
    [
        test_procedures.test_every_procedure_implements_the_protocol,
        test_procedures.test_every_procedure_answers_through_the_protocol,
    ],
)
def test_the_d20_answers_the_protocol(registered, check_):
    """The shared protocol tests pass for the d20 check, as for the package's own procedures."""
    check_(d20.ID)


@pytest.mark.parametrize("path", test_procedures.shared_modules(), ids=lambda p: p.name)
def test_no_shared_module_names_the_d20(registered, path):
    """No shared module of arbiter knows the d20 check by name: it came in through the registry alone."""
    assert test_procedures.scan(path) == []


def test_the_door_declares_a_d20(registered):
    """systems() gives it a tab whose waiting dice are d20s; a roll through the door is as ROLL declares it."""
    from arbiter import shapes

    [spec] = [s for s in api.systems() if s["id"] == d20.ID]
    assert spec["waiting_dice"]["sides"] == 20
    for name, req in d20.EXAMPLE_REQUESTS.items():
        for seed in range(10):
            assert shapes.problems(d20.ROLL, api.roll(d20.ID, req, seed=seed)) == [], name


LOG = {
    "time": "2024-05-01T12:00:00.000Z",
    "character": None,
    "system": "d20_check",
    "kind": "roll",
    "request": {"modifier": 2, "dc": 15, "mode": "advantage"},
    "action": None,
    "dice": [17, 20],
    "outcome": "success",
    "summary": "Success: 22 against DC 15",
    "note": "",
    "source": "table",
    "drawn": [17, 20],
    "own": [17, 20],
}
PROBE = """import json, sys
from arbiter import api, RulesError
entry = json.loads(sys.argv[1])
try:
    print(json.dumps({"ok": api.check_record("log", entry)}))
except RulesError as e:
    print(json.dumps({"refused": str(e)}))
"""


def check_log(entry, **env):
    """api.check_record("log", entry) in a fresh CPython whose registry is the package's own plus `env`'s."""
    base = {k: v for k, v in os.environ.items() if k != procedures.MORE_ENV}
    out = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(entry)],
        env={**base, "PYTHONPATH": str(ROOT / "py"), **env},
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    return json.loads(out.stdout)


def test_a_log_entry_of_the_d20_with_17_and_20_is_accepted():
    """With the d20 check registered (ARBITER_PROCEDURES, what build.py --procedures sets) a log entry's faces go up to
    20, the most sides a procedure declares: 17 and 20 are kept, 21 refused by its range; without it, faces stop at
    10 and the procedure is unknown."""
    toys = {procedures.MORE_ENV: str(TOYS)}
    assert check_log(LOG, **toys) == {"ok": LOG}
    for key in ("dice", "drawn", "own"):
        assert check_log({**LOG, key: [17, 21]}, **toys) == {"refused": f"'log.{key}[1]' must be from 1 to 20, got 21"}
    assert check_log({**LOG, "system": "ten_again", "dice": [13]}) == {
        "refused": "'log.dice[0]' must be from 1 to 10, got 13"
    }


def test_the_engine_publishes_its_d20s_and_the_log_keeps_them(registered):
    """The d20s a table rolled, 17 and 20 with advantage, come back as the roll's faces to draw (d20s, the 20 kept)
    and are what a log entry keeps as its dice (log.js facesOf reads only these): the entry is accepted."""
    roll = api.roll(d20.ID, LOG["request"], dice=[17, 20])
    assert roll["faces"] == [
        {"sides": 20, "face": 17, "group": "", "marks": ["dim"]},
        {"sides": 20, "face": 20, "group": "", "marks": ["kept"]},
    ]
    entry = {**LOG, "dice": [f["face"] for f in roll["faces"]], "drawn": roll["drawn"], "own": roll["drawn_own"]}
    assert check_log(entry, **{procedures.MORE_ENV: str(TOYS)}) == {"ok": LOG}


def test_are_my_dice_fair_takes_the_d20_and_a_d100(registered, monkeypatch):
    """ "Are my dice fair?" tests the dice the registered procedures declare: the d20 from outside, and a d100 as one
    die of faces 1 to 100 (a procedure of SIDES 100, the d20 check's rules re-declared for the test); a d20 isn't
    one while no procedure rolls it."""
    d100 = procedures.Adapted(d20)
    d100.ID, d100.SIDES = "d100_check", 100
    monkeypatch.setitem(procedures.PROCEDURES, d100.ID, d100)
    out = api.fairness([1 + i % 20 for i in range(100)], 20)
    assert (out["sides"], out["n"], out["counts"]) == (20, 100, [5] * 20)
    out = api.fairness([1 + i % 100 for i in range(500)], 100)
    assert (out["sides"], out["n"], len(out["counts"]), out["words"][:16]) == (100, 500, 100, "500 d100 faces: ")
    with pytest.raises(RulesError, match=r"'faces\[0\]' must be from 1 to 100, got 101"):
        api.fairness([101], 100)
    entries = [{**LOG, "own": [17, 20]}, {**LOG, "system": d100.ID, "own": [99, 100]}]
    groups = api.fairness_summary(entries)["groups"]
    assert [(g["sides"], g["fairness"]["n"]) for g in groups] == [(20, 2), (100, 2)]
    monkeypatch.delitem(procedures.PROCEDURES, d20.ID)
    monkeypatch.delitem(procedures.PROCEDURES, d100.ID)
    with pytest.raises(RulesError, match=r"'sides' must be one of [0-9, ]+, got 20"):
        api.fairness([17], 20)
