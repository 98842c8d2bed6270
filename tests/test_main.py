"""`python -m arbiter` prints the API's JSON."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from arbiter import api

ROOT = Path(__file__).resolve().parent.parent


def run(*args):
    env = {"PYTHONPATH": str(ROOT / "py")}
    return subprocess.run([sys.executable, "-m", "arbiter", *args], capture_output=True, text=True, env=env)


def test_roll_prints_the_api_roll():
    """`roll SYSTEM JSON --seed N` prints what api.roll returns."""
    p = run("roll", "ten_again", '{"pool": 6}', "--seed", "5")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout) == api.roll("ten_again", {"pool": 6}, seed=5)


def test_odds_prints_the_api_odds():
    """`odds SYSTEM JSON` prints what api.odds returns."""
    p = run("odds", "luck", '{"dice": 2, "for": 1}')
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout) == api.odds("luck", {"dice": 2, "for": 1})


@pytest.mark.parametrize(
    "args, words",
    [
        (("odds", "luck", '{"dice": 99}'), "'dice'"),
        (("odds", "luck", "{not json"), "'request' must be JSON"),
        (("roll", "d20", "{}"), "'system'"),
    ],
)
def test_errors_go_to_stderr_with_exit_2(args, words):
    """Bad input prints the RulesError message and exits 2."""
    p = run(*args)
    assert p.returncode == 2 and words in p.stderr and p.stdout == ""


def test_roll_takes_the_tables_faces():
    """`roll SYSTEM REQUEST --dice '[faces]'` answers as api.roll(..., dice=...); too few faces are an error that says
    how many more."""
    out = run("roll", "luck", '{"dice": 2}', "--dice", "[2, 6]")
    assert out.returncode == 0 and json.loads(out.stdout) == api.roll("luck", {"dice": 2}, dice=[2, 6])
    out = run("roll", "luck", '{"dice": 2}', "--dice", "[2]")
    assert out.returncode == 2 and "needs 1 more d6: the Luck Roll's pool" in out.stderr
    out = run("roll", "luck", '{"dice": 2}', "--dice", "[2,")
    assert out.returncode == 2 and "'dice' must be JSON" in out.stderr
