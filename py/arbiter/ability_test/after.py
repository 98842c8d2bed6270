"""Ability Test (seed 004), odds between the choices: the Test as it stands, what a Masteries reroll of any dice
does to it (exact over the rerolled dice), the certain result of Exertion or of negating the setback, what a Scheme
die, one more Conviction or one more Mastery would do before the roll (the what-ifs), and how lucky the Test was as
first rolled (ability_test-27, ability_test-28); and the headline, the one chance beside Roll. Together:
procedures.py's protocol.

In every odds-shaped answer here, "setback" is a setback that stands: one negated with two Scheme dice is not.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..chances import muted, warn
from ..dice import sum_ways
from ..headline import chance_of
from .exact import odds, reroll_ways
from .rolling import AbilityTest, Outcome, act, reroll_indexes, roll_from_json
from .sheet import MAX_CONVICTIONS, MAX_MASTERIES, SIDES, SIGNIFICANCE


class _NoDice:
    """The dice source for a follow-up that rolls nothing: any die asked for is a bug."""

    def randint(self, a: int, b: int) -> int:
        raise AssertionError("a follow-up without dice asked for a die")


def _certain(test: AbilityTest) -> dict:
    return {
        "outcomes": {
            "success": Fraction(int(test.outcome.value == "success")),
            "failure": Fraction(int(test.outcome.value == "failure")),
        },
        "scheme_gain": Fraction(int(test.scheme_gain)),
        "setback": Fraction(int(test.setback and not test.setback_negated)),
    }


def standing(roll: dict) -> dict:
    """The Test as it stands, in the odds' shape: probability 1 for its outcome (and for a Scheme die earned or a
    setback that stands)."""
    test, _ = roll_from_json(roll)
    return _certain(test)


def reroll_odds(test: AbilityTest, indexes: tuple[int, ...]) -> dict:
    """Exact chances after rerolling the dice at `indexes` (counting every die rolled during the Test)."""
    k = len(indexes)
    kept = test.total - sum(test.dice[i] for i in indexes)
    every = test.every_die
    success, setback, gain = reroll_ways(kept, 1 in every, SIDES in every, test.ability, k, test.request.scheme_die)
    p = Fraction(success, SIDES**k)
    return {
        "outcomes": {"success": p, "failure": 1 - p},
        "scheme_gain": Fraction(gain, SIDES**k),
        "setback": Fraction(setback, SIDES**k),
    }


def odds_after(roll: dict, action: Any) -> dict:
    """The exact outcomes if `action` is taken now: {"reroll": [die indexes]} over the rerolled dice; {"exert": n}
    and {"negate_setback": true} are certain. Later choices (Exertion after a reroll) are not counted."""
    test, _ = roll_from_json(roll)
    if isinstance(action, dict) and len(action) == 1 and "reroll" in action:
        return reroll_odds(test, reroll_indexes(test, action["reroll"]))
    after, _ = roll_from_json(act(roll, action, _NoDice()))
    return _certain(after)


def choice_odds(roll: dict, choice: dict) -> dict | None:
    """The odds of the action a choice suggests, with that action: the reroll of `suggested` (null, and the Test as it
    stands, when no reroll does better), the Exertion that turns the failure, negating the setback."""
    if choice["name"] == "reroll":
        action = {"reroll": choice["suggested"]} if choice["suggested"] else None
    elif choice["name"] == "exert":
        action = {"exert": choice["exert_needed"]}
    else:
        action = choice.get("action")
    return {"action": action, **(odds_after(roll, action) if action else standing(roll))}


def note(roll: dict, action: Any, after: dict) -> dict | None:
    """What `after`, the odds of `action` (None: of the reroll choice when no reroll does better), says beside its
    numbers (ability_test-29): a warning when it lowers the chance of success, or cannot raise it and may bring a
    setback; muted when nothing gets better (success, setback, Scheme die); none when something may."""
    test, _ = roll_from_json(roll)
    now = _certain(test)
    before, chance = now["outcomes"]["success"], after["outcomes"]["success"]
    if chance < before:
        return warn("risky: the rerolled dice may fail the Test")
    if chance > before or after["setback"] < now["setback"] or after["scheme_gain"] > now["scheme_gain"]:
        return None
    if after["setback"] > now["setback"]:
        return warn("risky: this reroll cannot make it a success, and a 6 would bring a setback")
    if before == 1:
        return muted("no gain: already a success")
    if action is None:
        return muted("no gain: no reroll can make this a success")
    if "exert" in action:
        return muted(f"no gain yet: {test.exert_needed} Exertion in all would make it a success")
    return muted("no gain: this reroll cannot make it a success")


def what_if(req: dict) -> list[dict]:
    """What the player could still add to this request before the roll, each with its odds: a Scheme die, one more
    activated Conviction of each Significance, one more Mastery while fewer than the dice (with a Skill)."""
    out = []

    def entry(label: str, change: dict, **more) -> None:
        o = odds({**req, **change})
        out.append(
            {
                "label": label,
                "change": change,
                **more,
                "outcomes": o["outcomes"],
                "scheme_gain": o["scheme_gain"],
                "setback": o["setback"],
            }
        )

    if not req["scheme_die"]:
        entry("With a Scheme die", {"scheme_die": True})
    if len(req["convictions"]) < MAX_CONVICTIONS:
        for value, label, _ in SIGNIFICANCE:
            entry(
                f"With a {label} Conviction (+{value}, one Exertion)",
                {"convictions": [*req["convictions"], value]},
                significance=value,
            )
    if req["skill"] and req["masteries"] < min(req["difficulty"], MAX_MASTERIES):
        entry("With one more Mastery", {"masteries": req["masteries"] + 1})
    return out


# --- luck: how the Test as first rolled stands among all it could have been ---------------------------------------

ORDER = ("failure", "success")


def luck(roll: dict) -> dict:
    """The Test as first rolled (the Scheme die and the difficulty dice before any reroll), ranked by Ability minus the
    total: the higher, the luckier; above 0 is a success (ability_test-28)."""
    test, _ = roll_from_json(roll)
    request = test.request
    ways = sum_ways(request.difficulty, SIDES)  # index: the total
    faces = range(1, SIDES + 1) if request.scheme_die else (0,)
    margin_ways: dict[int, int] = {}
    for face in faces:
        for total, w in enumerate(ways):
            if w:
                m = request.base_ability + face - total
                margin_ways[m] = margin_ways.get(m, 0) + w
    whole = SIDES ** (request.difficulty + (1 if request.scheme_die else 0))
    margin = request.base_ability + (test.scheme_roll or 0) - sum(test.rolled)
    worse = Fraction(sum(w for m, w in margin_ways.items() if m < margin), whole)
    same = Fraction(margin_ways[margin], whole)
    p_success = Fraction(sum(w for m, w in margin_ways.items() if m > 0), whole)
    success = margin > 0
    return {
        "order": list(ORDER),
        "outcome": ORDER[success],
        "rank": f"Ability − total: {margin:+d}",
        "p_worse": worse,
        "p_same": same,
        "p_outcome": p_success if success else 1 - p_success,
        "p_success": p_success,
        "success": success,
    }


# --- the headline: the one chance beside Roll ---------------------------------------------------------------------


def headline(exact: dict) -> dict:
    """Beside Roll: the chance that the Ability beats the total, a success."""
    return chance_of("Success", exact["outcomes"], (Outcome.SUCCESS.value,))
