"""shapes.py: each procedure's roll JSON is declared (ROLL), and every answer of roll() and act() is exactly what its
declaration says: no key undeclared, none missing but an optional one, each value of its declared kind."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import strategies
from arbiter import api, shapes
from arbiter.errors import RulesError
from arbiter.procedures import PROCEDURES
from arbiter.shapes import BOOL, INT, NUMBER, TEXT, ByName, Either, Items, Key, Nullable, Table, shape

POINT = shape(Key("x", INT), Key("label", Nullable(TEXT)), Key("tags", Items(TEXT), optional=True))


@pytest.mark.parametrize(
    "value, found",
    [
        ({"x": 1, "label": None}, []),
        ({"x": 1, "label": "a", "tags": ["b"]}, []),
        ({"x": 1, "label": "a", "y": 2}, ["roll.y: not declared"]),
        ({"label": "a"}, ["roll.x: missing"]),
        ({"x": True, "label": "a"}, ["roll.x: int expected, got True"]),
        ({"x": 1, "label": "a", "tags": [3]}, ["roll.tags[0]: text expected, got 3"]),
        ([1], ["roll: an object expected, got [1]"]),
    ],
)
def test_a_shape_finds_each_key_undeclared_missing_or_of_another_kind(value, found):
    """A Shape names an undeclared key, a missing one (an optional one may be absent) and a value of another kind."""
    assert shapes.problems(POINT, value) == found


def test_the_other_declarations_check_what_they_declare():
    """A Table's values, an Either's options, a ByName's shape picked by the name, a number that may be whole."""
    assert shapes.problems(Table(NUMBER), {"success": 0.5, "failure": 1}) == []
    assert shapes.problems(Table(NUMBER), {"success": "½"}) == ["roll.success: number expected, got '½'"]
    assert shapes.problems(Either((INT, TEXT)), "impossible") == []
    assert shapes.problems(Either((INT, TEXT)), None)
    named = ByName((("a", shape(Key("name", TEXT), Key("n", INT))), ("b", shape(Key("name", TEXT)))))
    assert shapes.problems(named, {"name": "b"}) == []
    assert shapes.problems(named, {"name": "b", "n": 1}) == ["roll.n: not declared"]
    assert shapes.problems(named, {"name": "c"})
    assert shapes.problems(BOOL, 0) == ["roll: bool expected, got 0"]


def test_names_are_every_key_at_any_depth():
    """names() lists the keys a reader may ask for, nested ones and a choice's too."""
    assert shapes.names(POINT) == {"x", "label", "tags"}
    assert {"defender", "subtracted", "skills", "opposed"} <= shapes.names(PROCEDURES["arbitration"].ROLL)
    assert {"side", "odds", "action", "exact", "net"} <= shapes.names(PROCEDURES["ten_again"].ROLL)


@pytest.mark.parametrize("system", list(PROCEDURES))
def test_systems_publish_the_roll_declaration_and_example_requests(system):
    """systems() publishes each procedure's ROLL ("roll", JSON-safe) and its example requests, each of which rolls."""
    spec = next(s for s in api.systems() if s["id"] == system)
    m = PROCEDURES[system]
    assert spec["roll"] == m.ROLL.schema() and json.loads(json.dumps(spec["roll"])) == spec["roll"]
    assert spec["roll"]["type"] == "object" and all(k["type"] for k in spec["roll"]["keys"])
    assert spec["example_requests"] == m.EXAMPLE_REQUESTS and {"plain", "largest"} <= set(m.EXAMPLE_REQUESTS)
    for request in m.EXAMPLE_REQUESTS.values():
        api.roll(system, request, seed=1)


# --- every answer as declared -------------------------------------------------------------------------------------


def assignments(choice: dict) -> list[dict]:
    """A reassignment for a roll that offers one (its choice says how many dice and threats): the first die moved to
    the last threat, the others to the first."""
    if choice["name"] != "assign" or not choice["dice"]:
        return []
    rest = list(range(1, choice["dice"]))
    return [{"assign": [rest, *([] for _ in range(choice["threats"] - 2)), [0]]}]


def follow_ups(roll: dict) -> list[dict]:
    """Every action a roll's choices name: each one's action, its list of actions, the action its odds are of, and a
    reassignment where one is offered."""
    out = []
    for c in roll["choices"]:
        out += [c["action"]] if c.get("action") else []
        out += c.get("actions", [])
        out += [c["odds"]["action"]] if (c.get("odds") or {}).get("action") else []
        out += assignments(c)
    return out


def answers(system: str, request: dict, seed: int, depth: int = 3):
    """The roll of `request` and, `depth` steps deep, the act() answer of every follow-up each answer offers."""
    try:
        rolled = api.roll(system, request, seed)
    except RulesError:
        return
    yield rolled
    todo = [rolled]
    for _ in range(depth):
        later = []
        for r in todo:
            for action in follow_ups(r):
                try:
                    later.append(api.act(system, r, action, seed))
                except RulesError:  # a Price marked by another, an action the roll no longer allows
                    continue
        yield from later
        todo = later[:4]


def _check(system: str, request: dict, seed: int) -> int:
    count = 0
    for answer in answers(system, request, seed):
        found = shapes.problems(PROCEDURES[system].ROLL, answer)
        assert not found, (request, seed, found)
        count += 1
    return count


def requests(m):
    """Whole valid requests of `m`, large and small (a d10 pool's without a Will that adds no dice)."""
    if m.ID == "ten_again":
        return st.one_of(strategies.ten_again_request(), strategies.ten_again_request(small=True))
    return st.one_of(strategies.request(m.FIELDS), strategies.request(m.FIELDS, small=True))


@pytest.mark.parametrize("system", list(PROCEDURES))
def test_every_answer_is_as_declared(system):
    """Every roll and act() answer of seeded requests of every kind (all fields drawn within their limits) holds
    exactly the keys its procedure's ROLL declares, each of its declared kind."""
    m = PROCEDURES[system]

    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(requests(m), st.integers(0, 2**32))
    def check(request, seed):
        _check(system, request, seed)

    check()


@pytest.mark.parametrize("system", list(PROCEDURES))
def test_every_declared_key_is_answered(system):
    """Each key the declaration holds appears in some answer to the example requests (none declared in vain), and
    every such answer is as declared."""
    m = PROCEDURES[system]
    seen: set[str] = set()
    for request in m.EXAMPLE_REQUESTS.values():
        for seed in range(30):
            for answer in answers(system, request, seed):
                assert not shapes.problems(m.ROLL, answer), (request, seed)
                seen |= _keys(answer)
    assert shapes.names(m.ROLL) - seen == set()


def _keys(value) -> set[str]:
    """Every key of a JSON value, at any depth."""
    if isinstance(value, list):
        return set().union(*map(_keys, value)) if value else set()
    return set(value).union(*map(_keys, value.values())) if isinstance(value, dict) else set()
