"""Shared by the threat tests: the seed's text, requests parsed, scripted rolls and their threats' outcomes, rolls
with a threat narrowly avoided, two players' names and any request (Hypothesis)."""

from pathlib import Path


import strategies
from arbiter import fields, threat
from scripted import ScriptedDice


SEED_TEXT = (Path(__file__).resolve().parent.parent / "docs" / "seeds" / threat.SEED).read_text(encoding="utf-8")


SEED_LINES = SEED_TEXT.splitlines()


def parse(rating=1, threats=("Fail",), extra_dice=0, desperate=()):
    """A parsed request: `threats` are names, `desperate` the indexes of the Desperate ones."""
    return fields.parse(
        threat.FIELDS,
        {
            "rating": rating,
            "extra_dice": extra_dice,
            "threats": [{"name": n, "desperate": i in desperate} for i, n in enumerate(threats)],
        },
    )


def scripted_roll(req, *faces):
    dice = ScriptedDice(*faces)
    r = threat.roll(req, dice)
    assert dice.left == []
    return r


def outcomes(r):
    return [t["outcome"] for t in r["threats"]]


ANN, BO = "Ann", "Bo"


requests = strategies.request(threat.FIELDS)


def dodge(face: int, desperate: bool = False) -> dict:
    req = fields.parse(threat.FIELDS, {"rating": 1, "threats": [{"name": "Dodge", "desperate": desperate}]})
    return threat.roll(req, ScriptedDice(face))
