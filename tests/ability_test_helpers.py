"""Shared by the ability_test tests: requests and scripted rolls (every scripted face must be used, and act must
leave its input unchanged)."""

import copy

from arbiter import ability_test as at
from arbiter import fields
from scripted import ScriptedDice


def parse(request: dict) -> dict:
    return fields.parse(at.FIELDS, request)


def base(ability: int, **more) -> dict:
    """A request whose Ability before any Scheme die is `ability` (from 2 to 25; from 3 with Masteries, which need
    a Skill level)."""
    skill_min = 1 if more.get("masteries") else 0
    type1 = max(1, min(5, ability - 1 - skill_min))
    type2 = max(1, min(5, ability - type1 - skill_min))
    skill = min(10, ability - type1 - type2)
    assert skill >= skill_min, f"Ability {ability} leaves no Skill level for Masteries"
    item = ability - type1 - type2 - skill
    return {"type1": type1, "type2": type2, "skill": skill, **({"item": item} if item else {}), **more}


def valid(request: dict) -> dict:
    """A generated request made one the rules accept: Masteries need a Skill level (ability_test-5); no more
    Convictions declared earlier this Scene than are activated (ability_test-25)."""
    if request.get("masteries") and not request.get("skill"):
        request = {**request, "skill": 1}
    if request.get("convictions_declared", 0) > len(request.get("convictions", ())):
        request = {**request, "convictions_declared": len(request.get("convictions", ()))}
    return request


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
