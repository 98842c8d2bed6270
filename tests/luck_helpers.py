"""Shared by the luck tests: requests parsed and scripted rolls."""

from arbiter import fields, luck
from scripted import ScriptedDice


def parse(dice=1, for_=0, against=0):
    return fields.parse(luck.FIELDS, {"dice": dice, "for": for_, "against": against})


def scripted_roll(req, *faces):
    dice = ScriptedDice(*faces)
    r = luck.roll(req, dice)
    assert dice.left == []
    return r
