"""Shared by the ability_test tests: requests and scripted rolls (every scripted face must be used, and act must
leave its input unchanged)."""

import copy

from arbiter import ability_test as at
from arbiter import fields
from scripted import ScriptedDice


def parse(request: dict) -> dict:
    return fields.parse(at.FIELDS, request)


def base(ability: int, **more) -> dict:
    """A request whose Ability before any Scheme die is `ability` (from 2 to 20)."""
    type1 = min(5, ability - 1)
    type2 = min(5, ability - type1)
    return {"type1": type1, "type2": type2, "skill": ability - type1 - type2, **more}


def roll(request: dict, *faces: int) -> dict:
    dice = ScriptedDice(*faces)
    result = at.roll(parse(request), dice)
    assert dice.left == []
    return result


def act(result: dict, action: dict, *faces: int) -> dict:
    dice = ScriptedDice(*faces)
    before = copy.deepcopy(result)
    nxt = at.act(result, action, dice)
    assert dice.left == []
    assert result == before
    return nxt
