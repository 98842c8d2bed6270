"""The roll declarations say what the answers hold: each true-or-false key's words say when it is true, and each key
that may be null says when it is, as "(null: …)". CLAIMS reads every such sentence as a check, and every answer to
every example request api.systems() publishes (several seeds, a table's lowest and highest faces, and the follow-ups
each answer offers) must agree with it: a new sentence needs its reading here, and a wrong one fails."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest

from arbiter import RulesError, api
from arbiter.procedures import PROCEDURES
from arbiter.shapes import BOOL, ByName, Items, Key, Nullable, Shape, Table
from arbiter.threat.price import PAY_THE_PRICE
from test_shapes import follow_ups

SYSTEMS = {s["id"]: s for s in api.systems()}
EXAMPLE_THREATS = {name.casefold() for name in SYSTEMS["threat"]["extras"]["examples"]}


@dataclass(frozen=True)
class At:
    """Where a claim is read: the whole answer, the objects around the key (outermost first, the key's own last),
    the list positions on the way, and the follow-ups taken to reach the answer."""

    answer: dict
    around: tuple[dict, ...]
    positions: tuple[int, ...]
    actions: tuple[dict, ...]

    @property
    def holder(self) -> dict:
        """The object that holds the key (a side, a threat, a Price)."""
        return self.around[-1]

    @property
    def side(self) -> str:
        """Whose side holds the key: the actor's (the answer itself) or the other's (a target, a defender)."""
        return "actor" if self.holder is self.answer else "target"

    def side_request(self) -> dict:
        request = self.answer["request"]
        return request if self.side == "actor" else request["opposed"]


def _every_die(answer: dict) -> list[int]:
    """An Ability Test's difficulty dice rolled during the Test: the first faces and those the reroll brought."""
    return answer["rolled"] + [answer["dice"][i] for i in answer["rerolled"]]


def _price_action(at: At) -> dict:
    """The Pay the Price action behind a Price paid: the latest for pay_the_price (the one with the marks), the n-th
    for prices_paid[n]."""
    paid = [a for a in at.actions if "pay_the_price" in a]
    return paid[-1] if "marked" in at.holder else paid[at.positions[-1]]


def _marked_all(action: dict) -> bool:
    picked = {m["option"] if isinstance(m, dict) else m for m in action.get("marked", [])}
    return picked | {action["pay_the_price"]} == set(range(len(PAY_THE_PRICE)))


# A true-or-false key's words -> when it is true; a nullable key's "null: …" -> when it is null.
CLAIMS: dict[str, Callable[[At], bool]] = {
    # arbitration (arbitration-2, -5)
    "the dicepool is zero or less: an automatic failure, no dice rolled": lambda at: at.holder["pool"] <= 0,
    "null: no dice rolled": lambda at: not at.holder["dice"],
    "null: an automatic failure": lambda at: at.answer["pool"] <= 0,
    "null: not rolled, as the aggressor failed automatically": (lambda at: at.answer["pool"] <= 0 < at.holder["pool"]),
    "null: unopposed": lambda at: at.answer["request"]["opposed"] is None,
    # two_dice
    "null: in a contest, which has no difficulty, or an impossible action": lambda at: (
        at.answer["request"]["opposed"] is not None or at.answer["request"]["difficulty"] == "impossible"
    ),
    "null: neither": lambda at: sorted(at.holder["dice"]) not in ([1, 1], [6, 6]),
    # threat
    "null: no die, it comes to pass": lambda at: not at.holder["dice"] and at.holder["outcome"] == "happens",
    "null: not named after an example, or avoided": lambda at: (
        at.holder["name"].strip().casefold() not in EXAMPLE_THREATS or at.holder["outcome"] == "avoided"
    ),
    "null: not named": lambda at: not (_price_action(at).get("by") or "").strip(),
    "every option was marked, so the marks were cleared": lambda at: _marked_all(_price_action(at)),
    # ten_again (ten_again-3, ten_again-6)
    "a Will was expended for this roll": lambda at: (
        at.side_request()["will"] or any(a.get("spend_will") and a.get("side", "actor") == at.side for a in at.actions)
    ),
    "no success and a 1 left": lambda at: at.holder["successes"] == 0 and at.holder["ones_left"] > 0,
    # ability_test (ability_test-7, -11)
    "null: no Scheme die used": lambda at: not at.answer["request"]["scheme_die"],
    "a success with a 1 rolled during the Test, no Scheme die used": lambda at: (
        at.answer["outcome"] == "success" and 1 in _every_die(at.answer) and not at.answer["request"]["scheme_die"]
    ),
    "a failure with a 6 rolled during the Test, negated or not": lambda at: (
        at.answer["outcome"] == "failure" and 6 in _every_die(at.answer)
    ),
    "the Players negated the setback": lambda at: any("negate_setback" in a for a in at.actions),
    # every procedure's choice odds (shapes.choice)
    "null: no action does better than the roll as it stands": lambda at: (
        not (at.around[-2].get("action") or at.around[-2].get("suggested"))
    ),
}


def claim(key: Key) -> str | None:
    """The claim a key's words make: a true-or-false key's whole words, a nullable key's "null: …"; None for a key
    without words (a request's echo) or of another kind."""
    if not key.help:
        return None
    if key.of == BOOL:
        return key.help
    if isinstance(key.of, Nullable):
        said = re.search(r"\((null: [^()]*)\)", key.help)
        return said[1] if said else f"(no '(null: …)' in {key.help!r})"
    return None


def declared(decl, path: str = "roll") -> Iterator[tuple[str, str]]:
    """(path, claim) for each claim a declaration makes, at any depth."""
    if isinstance(decl, Shape):
        for key in decl.keys:
            said = claim(key)
            if said is not None:
                yield f"{path}.{key.name}", said
            yield from declared(key.of, f"{path}.{key.name}")
    elif isinstance(decl, ByName):
        for name, shape in decl.shapes:
            yield from declared(shape, f"{path}[{name}]")
    elif isinstance(decl, (Items, Table, Nullable)):
        yield from declared(decl.of, path)


def read(decl, value, at: At, path: str = "roll") -> Iterator[tuple[str, str, bool, bool]]:
    """(path, claim, what the claim expects, what the answer holds) for each claim on the way through `value`."""
    if isinstance(decl, ByName):
        decl, path = dict(decl.shapes)[value["name"]], f"{path}[{value['name']}]"
    if isinstance(decl, Shape):
        here = At(at.answer, (*at.around, value), at.positions, at.actions)
        for key in decl.keys:
            if key.name not in value:
                continue
            said = claim(key)
            if said is not None:
                holds = value[key.name] if key.of == BOOL else value[key.name] is None
                yield f"{path}.{key.name}", said, CLAIMS[said](here), holds
            yield from read(key.of, value[key.name], here, f"{path}.{key.name}")
    elif isinstance(decl, Nullable) and value is not None:
        yield from read(decl.of, value, at, path)
    elif isinstance(decl, Items):
        for i, v in enumerate(value):
            yield from read(decl.of, v, At(at.answer, at.around, (*at.positions, i), at.actions), f"{path}[{i}]")
    elif isinstance(decl, Table):
        for k, v in value.items():
            yield from read(decl.of, v, at, f"{path}.{k}")


def the_table_rolls(system: str, request: dict, face: int) -> dict | None:
    """The roll of `request` when the table's every die shows `face` (None: it would roll on and on, 10s again)."""
    faces: list[int] = []
    while (need := api.dice_needed(system, request, faces))["dice"]:
        if len(faces) > 200:
            return None
        faces += [min(face, need["sides"])] * need["dice"]
    return api.roll(system, request, dice=faces)


def more_actions(answer: dict) -> list[dict]:
    """Follow-ups beyond those the choices name: a Price named by a player, and one that marks the last option left."""
    out = []
    for c in answer["choices"]:
        if c["name"] == "pay_the_price":
            out.append({"pay_the_price": 1, "by": "Ann"})
            out.append({"pay_the_price": 0, "by": "Ann", "marked": [{"option": o, "by": "Bo"} for o in range(1, 8)]})
    return out


def answers(system: str, request: dict) -> Iterator[tuple[dict, tuple[dict, ...]]]:
    """Each answer to `request` (rolled from seeds 0-24 and from a table's lowest and highest faces) and to two steps
    of its follow-ups, with the follow-ups taken."""
    rolls = [api.roll(system, request, seed=seed) for seed in range(25)]
    sides = PROCEDURES[system].SIDES
    rolls += [r for face in (1, 2, sides - 1, sides) if (r := the_table_rolls(system, request, face)) is not None]
    todo = [(r, ()) for r in rolls]
    for depth in range(3):
        later = []
        for answer, actions in todo:
            yield answer, actions
            if depth == 2:
                continue
            for action in follow_ups(answer) + more_actions(answer):
                try:
                    later.append((api.act(system, answer, action, seed=len(later)), (*actions, action)))
                except RulesError:
                    continue
        todo = later


def test_every_claim_has_its_reading():
    """Every true-or-false key and every nullable key with words, in every procedure's declaration, makes a claim
    CLAIMS can check ("(null: …)" for a nullable one), and CLAIMS reads no claim that no declaration makes."""
    made = {said for m in PROCEDURES.values() for _, said in declared(m.ROLL)}
    assert sorted(made - set(CLAIMS)) == []
    assert sorted(set(CLAIMS) - made) == []


def _unlisted(path: str) -> str:
    """A claim's path without its list positions: roll.threats[2].die -> roll.threats.die."""
    return re.sub(r"\[\d+\]", "", path)


@functools.cache
def findings(system: str) -> list[tuple]:
    """(path, claim, what it expects, what the answer holds, the request, the follow-ups) for every claim read in
    every answer to `system`'s example requests."""
    decl = PROCEDURES[system].ROLL
    return [
        (path, said, expected, holds, request, actions)
        for request in SYSTEMS[system]["example_requests"].values()
        for answer, actions in answers(system, request)
        for path, said, expected, holds in read(decl, answer, At(answer, (), (), actions))
    ]


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_every_claim_holds_in_every_example_answer(system):
    """Each claim a procedure's declaration makes agrees with every answer to its example requests and their
    follow-ups."""
    wrong = [f for f in findings(system) if f[2] != f[3]]
    claims = sorted({f"{_unlisted(path)}: {said!r}" for path, said, *_ in wrong})
    assert claims == [], f"{len(wrong)} answers disagree with these words; the first: {wrong[0]}"


def test_every_claim_is_seen_both_ways():
    """Each claim is seen true and false (null and not) in the example answers, so each reading is put to the test."""
    seen: dict[str, set[bool]] = {said: set() for said in CLAIMS}
    for system in SYSTEMS:
        for _, said, _, holds, _, _ in findings(system):
            seen[said].add(holds)
    assert {said: ways for said, ways in seen.items() if ways != {True, False}} == {}
