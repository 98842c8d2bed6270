"""The faces to draw (issue 31, "Any die"): every roll and follow-up the engine answers carries "faces", the dice it
shows as it stands, each {"sides", "face", "group", "marks"} in rolled order, built by the procedure's `faces` (the
adapter's default: its "dice" with their "marks", of its SIDES, in one group), so the page draws and logs any
procedure's dice from one list (static/log/log.js `facesOf`, static/procedures/generic-view.js) and reads none of its keys."""

from __future__ import annotations

import pytest

from arbiter import api, engine, procedures, shapes
from arbiter.procedures import PROCEDURES

CASES = [(m.ID, name) for m in PROCEDURES.values() for name in m.EXAMPLE_REQUESTS]


def _steps(system: str, request: dict, seed: int):
    """The roll of `request`, then each follow-up its choices name with an action, one step deep."""
    roll = api.roll(system, request, seed)
    yield roll
    for c in roll["choices"]:
        if c.get("action"):
            yield api.act(system, roll, c["action"], seed)


@pytest.mark.parametrize("system, name", CASES)
def test_a_first_roll_shows_every_die_it_drew(system, name):
    """A roll's faces are the very dice it drew (no die left out, none made up), each of the procedure's sides and
    within them, with one list of marks each."""
    m = PROCEDURES[system]
    for seed in range(6):
        roll = api.roll(system, m.EXAMPLE_REQUESTS[name], seed)
        assert sorted(f["face"] for f in roll["faces"]) == sorted(roll["drawn"]), seed
        assert all(f["sides"] == m.SIDES and 1 <= f["face"] <= m.SIDES for f in roll["faces"])
        assert shapes.problems(m.ROLL, roll) == []


@pytest.mark.parametrize("system, name", CASES)
def test_a_follow_up_shows_the_roll_as_it_stands(system, name):
    """After a follow-up the faces are the procedure's own reading of the new roll (its `faces`), which still holds
    every face the follow-up drew."""
    m = PROCEDURES[system]
    for seed in range(4):
        for step in _steps(system, m.EXAMPLE_REQUESTS[name], seed):
            assert step["faces"] == m.faces(step)
            shown = [f["face"] for f in step["faces"]]
            assert all(shown.count(face) >= step["drawn"].count(face) for face in step["drawn"])


def test_a_contest_names_each_side():
    """Where a roll has sides (a contest, a Scheme die beside the difficulty dice), each die says which it is among,
    as the tray labels them; a roll of one group says none."""
    groups = {
        system: [f["group"] for f in api.roll(system, PROCEDURES[system].EXAMPLE_REQUESTS[name], 3)["faces"]]
        for system, name in [("arbitration", "contest"), ("two_dice", "contest"), ("threat", "plain")]
    }
    assert groups["arbitration"][0] == "Aggressor" and groups["arbitration"][-1] == "Defender"
    assert groups["two_dice"] == ["Actor", "Actor", "Target", "Target"]
    assert set(groups["threat"]) == {""}
    with_scheme = api.roll("ability_test", PROCEDURES["ability_test"].EXAMPLE_REQUESTS["scheme_die"], 1)
    assert [f["group"] for f in with_scheme["faces"]] == ["Scheme die (+Ability)"] + ["Difficulty dice"] * 4
    assert with_scheme["faces"][0]["face"] == with_scheme["scheme_roll"]


def test_the_default_reads_the_dice_and_their_marks():
    """A procedure that writes no `faces` of its own gets the adapter's: its dice with their marks, of its sides."""
    luck = PROCEDURES["luck"]
    assert "faces" not in vars(luck.module)
    roll = engine.roll("luck", luck.EXAMPLE_REQUESTS["plain"], 5)
    assert roll["faces"] == [
        {"sides": 6, "face": face, "group": "", "marks": marks} for face, marks in zip(roll["dice"], roll["marks"])
    ]


def test_the_adapter_gives_every_procedure_faces():
    """`faces` is a member of the protocol: one of the package's own, or the default."""
    assert "faces" in procedures.OPTIONAL
    own = {i for i, m in PROCEDURES.items() if "faces" in vars(m.module)}
    assert own == {"arbitration", "two_dice", "ten_again", "ability_test"}
