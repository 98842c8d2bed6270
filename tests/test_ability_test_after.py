"""ability_test.after: odds after a Masteries reroll of any dice (against the real act() over every face), the certain
follow-ups, the suggested reroll's odds, the what-ifs, and luck."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest

from ability_test_helpers import base, parse
from arbiter import ability_test as at
from arbiter import api
from arbiter.ability_test import after
from arbiter.errors import RulesError
from scripted import ScriptedDice
from stats import assert_fits


def rolled(faces, request: dict) -> dict:
    dice = ScriptedDice(*faces)
    out = at.roll(parse(request), dice)
    assert dice.left == []
    return out


def brute_force(result: dict, indexes: list[int]) -> dict:
    """The real act() for every face of every rerolled die: the chances of success, of a Scheme die and of a setback
    that stands."""
    n = len(indexes)
    counts = Counter()
    for faces in itertools.product(range(1, 7), repeat=n):
        out = at.act(result, {"reroll": list(indexes)}, ScriptedDice(*faces))
        counts["success"] += out["outcome"] == "success"
        counts["scheme_gain"] += out["scheme_gain"]
        counts["setback"] += out["setback"] and not out["setback_negated"]
    whole = 6**n
    p = Fraction(counts["success"], whole)
    return {
        "outcomes": {"success": p, "failure": 1 - p},
        "scheme_gain": Fraction(counts["scheme_gain"], whole),
        "setback": Fraction(counts["setback"], whole),
    }


def _tests(difficulty: int, masteries: int, n: int = 10) -> list[dict]:
    """Seeded first rolls of this many dice, over Abilities from 3 to 18, with and without a Scheme die."""
    rng = random.Random(difficulty * 10 + masteries)
    out = []
    for _ in range(n):
        scheme = rng.random() < 0.3
        request = base(rng.randint(3, 18), difficulty=difficulty, masteries=masteries, scheme_die=scheme)
        faces = [rng.randint(1, 6) for _ in range(difficulty + scheme)]
        out.append(rolled(faces, request))
    return out


@pytest.mark.parametrize("difficulty,masteries", [(d, m) for d in (1, 2, 3) for m in (1, 2)])
def test_odds_after_every_reroll_agree_with_every_face(difficulty, masteries):
    """ability_test-27: odds_after({"reroll": subset}) equals the real act() over every face of the rerolled dice, for every subset of
    1 to min(masteries, difficulty) dice, difficulty 1-3 and Masteries 1-2."""
    for result in _tests(difficulty, masteries):
        for k in range(1, min(difficulty, masteries) + 1):
            for subset in itertools.combinations(range(difficulty), k):
                assert after.odds_after(result, {"reroll": list(subset)}) == brute_force(result, list(subset)), (
                    result["dice"],
                    result["ability"],
                    subset,
                )


def test_the_suggested_reroll_is_the_best_and_carries_its_odds():
    """The reroll choice's odds are odds_after of its suggested subset, and no subset has a higher chance of success
    (ability_test-12 decides among equals); with nothing better to do, the odds are the Test as it stands."""
    seen_none = seen_some = False
    for result in _tests(3, 2, 40):
        choice = next(c for c in result["choices"] if c["name"] == "reroll")
        odds = after.choice_odds(result, choice)
        best = max(
            after.odds_after(result, {"reroll": list(s)})["outcomes"]["success"]
            for k in (1, 2)
            for s in itertools.combinations(range(3), k)
        )
        if choice["suggested"]:
            seen_some = True
            assert odds["action"] == {"reroll": choice["suggested"]}
            assert odds["outcomes"]["success"] == best
        else:
            seen_none = True
            assert odds == {"action": None, **after.standing(result)}
            assert best <= (result["outcome"] == "success")
    assert seen_some and seen_none


def _seed_for(result: dict) -> int:
    """A seed whose roll of the same request gives the same dice (the api's rolls carry the choices' odds)."""
    return next(
        s for s in range(100_000) if api.roll("ability_test", result["request"], seed=s)["dice"] == result["dice"]
    )


def test_exertion_and_negating_are_certain():
    """The Exertion choice's odds are those of exactly the Exertion that turns the Test (certain success, no setback);
    negating the setback leaves the failure certain and no setback standing."""
    result = rolled([6, 5], base(6, difficulty=2))
    out = api.roll("ability_test", result["request"], seed=_seed_for(result))
    exert = next(c for c in out["choices"] if c["name"] == "exert")
    assert exert["odds"]["action"] == {"exert": 6}
    assert exert["odds"]["exact"] == {
        "outcomes": {"success": "1/1", "failure": "0/1"},
        "scheme_gain": "0/1",
        "setback": "0/1",
    }
    negate = next(c for c in out["choices"] if c["name"] == "negate_setback")
    assert negate["odds"]["exact"]["outcomes"]["failure"] == "1/1" and negate["odds"]["exact"]["setback"] == "0/1"
    assert out["standing"]["exact"]["setback"] == "1/1"


def test_ability_test_27_a_negated_setback_does_not_stand():
    """ability_test-27: in odds' shape a setback is one that stands: after negate_setback, standing() says 0."""
    result = rolled([6, 5], base(6, difficulty=2))
    negated = at.act(result, {"negate_setback": True}, ScriptedDice())
    assert negated["setback"] is True and after.standing(negated)["setback"] == 0
    assert after.odds_after(result, {"negate_setback": True})["setback"] == 0


def test_twenty_thousand_rerolls_fit_odds_after():
    """20 000 seeded act() rerolls of two of three dice fit odds_after's success and failure (chi-square)."""
    result = rolled([3, 5, 6], base(12, difficulty=3, masteries=2))
    action = {"reroll": [1, 2]}
    probs = after.odds_after(result, action)["outcomes"]
    dice = random.Random(11)
    n = 20_000
    seen = Counter(at.act(result, action, dice)["outcome"] for _ in range(n))
    assert_fits(seen, {k: float(v) for k, v in probs.items()}, n)


def test_odds_after_refuses_what_act_refuses():
    """A reroll of too many dice, a second reroll, Exertion on a success: the same refusals as act()."""
    result = rolled([3, 5, 6], base(12, difficulty=3, masteries=2))
    again = at.act(result, {"reroll": [0]}, ScriptedDice(2))
    success = rolled([1, 1, 1], base(12, difficulty=3, masteries=2))
    for roll_, action in (
        (result, {"reroll": [0, 1, 2]}),
        (again, {"reroll": [1]}),
        (success, {"exert": 1}),
        (result, {"reroll": []}),
        (result, {"pray": True}),
    ):
        with pytest.raises(RulesError) as act_error:
            at.act(roll_, action, ScriptedDice(1, 1, 1))
        with pytest.raises(RulesError) as after_error:
            after.odds_after(roll_, action)
        assert str(after_error.value) == str(act_error.value)


@pytest.mark.parametrize(
    "request_",
    [
        base(8, difficulty=2),
        base(9, difficulty=3, masteries=1, convictions=[2]),
        base(10, difficulty=4, masteries=4, scheme_die=True),
        base(25, difficulty=1, convictions=[3] * 6),
    ],
)
def test_what_if_equals_the_odds_of_the_changed_request(request_):
    """Each what-if is odds() of the request with its change, exactly; a Scheme die when not taken, a Conviction of
    each Significance while fewer than six, one more Mastery while fewer than the dice."""
    req = parse(request_)
    entries = after.what_if(req)
    for e in entries:
        changed = at.odds(parse({**request_, **e["change"]}))
        assert {k: e[k] for k in ("outcomes", "scheme_gain", "setback")} == changed
    changes = [set(e["change"]) for e in entries]
    assert ({"scheme_die"} in changes) == (not req["scheme_die"])
    assert changes.count({"convictions"}) == (3 if len(req["convictions"]) < 6 else 0)
    assert ({"masteries"} in changes) == (req["skill"] > 0 and req["masteries"] < req["difficulty"])


# --- luck ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "request_", [base(7, difficulty=2, scheme_die=True), base(11, difficulty=3), base(4, difficulty=1)]
)
def test_ability_test_28_luck_percentiles_average_exactly_one_half(request_):
    """ability_test-28: over every first roll (the Scheme die and the dice), equally likely, the mean percentile
    (P(lower Ability − total) + ½ P(the same)) is exactly ½, and the chance of success is the odds' without reroll."""
    n = request_["difficulty"] + bool(request_.get("scheme_die"))
    total = Fraction(0)
    successes = 0
    for faces in itertools.product(range(1, 7), repeat=n):
        luck = after.luck(rolled(faces, request_))
        total += luck["p_worse"] + luck["p_same"] / 2
        successes += luck["success"]
    assert total / 6**n == Fraction(1, 2)
    assert luck["p_success"] == Fraction(successes, 6**n) == at.odds(parse(request_))["outcomes"]["success"]


def test_ability_test_28_luck_is_of_the_test_as_first_rolled():
    """ability_test-28: a reroll and Exertion change nothing in the luck: it ranks the first faces."""
    result = rolled([6, 6], base(8, difficulty=2, masteries=2))
    later = at.act(result, {"reroll": [0, 1]}, ScriptedDice(1, 1))
    assert later["outcome"] == "success"
    assert after.luck(later) == after.luck(result)
    assert after.luck(result)["success"] is False and after.luck(result)["rank"] == "Ability − total: -4"


# --- what a follow-up says beside its odds (ability_test-29) -------------------------------------------------------


def test_ability_test_29_negating_says_before_the_tap_that_it_ends_the_test():
    """ability_test-29: negating the setback carries `ends`, naming the follow-ups it ends (the reroll while it is
    open, Exertion); no other choice ends anything."""
    open_reroll = rolled([6, 5], base(6, difficulty=2, masteries=1))
    ends = {c["name"]: c.get("ends") for c in open_reroll["choices"]}
    assert ends == {
        "reroll": None,
        "exert": None,
        "negate_setback": "ends the Test: the failure is declared, no reroll or Exertion after",
    }
    rerolled = at.act(open_reroll, {"reroll": [1]}, ScriptedDice(4))
    assert rerolled["setback"] and rerolled["outcome"] == "failure"
    (negate,) = [c for c in rerolled["choices"] if c["name"] == "negate_setback"]
    assert negate["ends"] == "ends the Test: the failure is declared, no Exertion after"
    (negate,) = [c for c in rolled([6, 5], base(6, difficulty=2))["choices"] if c["name"] == "negate_setback"]
    assert negate["ends"] == "ends the Test: the failure is declared, no Exertion after"


RISKY, NO_GAIN = "warn", "muted"


@pytest.mark.parametrize(
    "faces, request_, action, note",
    [
        # a success: rerolling both 4s may fail it (6+6 = 12 ≥ 11), one 4 can only hunt for a 1
        (
            [4, 4],
            base(11, difficulty=2, masteries=2),
            {"reroll": [0, 1]},
            (RISKY, "risky: the rerolled dice may fail the Test"),
        ),
        ([4, 4], base(11, difficulty=2, masteries=2), {"reroll": [1]}, None),
        # a success with a 1 rolled: the Scheme die is earned already, nothing to gain
        ([1, 4], base(11, difficulty=2, masteries=1), {"reroll": [0]}, (NO_GAIN, "no gain: already a success")),
        ([1, 4], base(11, difficulty=2, masteries=1), None, (NO_GAIN, "no gain: already a success")),
        # a failure no reroll turns: with its 6 rolled already, nothing changes; without one, a 6 may come
        (
            [6, 6],
            base(3, difficulty=2, masteries=1),
            {"reroll": [0]},
            (NO_GAIN, "no gain: this reroll cannot make it a success"),
        ),
        ([6, 6], base(3, difficulty=2, masteries=1), None, (NO_GAIN, "no gain: no reroll can make this a success")),
        (
            [5, 5],
            base(3, difficulty=2, masteries=1),
            {"reroll": [0]},
            (RISKY, "risky: this reroll cannot make it a success, and a 6 would bring a setback"),
        ),
        # Exertion short of what turns it, the Exertion that does, negating the setback
        (
            [6, 5],
            base(6, difficulty=2),
            {"exert": 2},
            (NO_GAIN, "no gain yet: 6 Exertion in all would make it a success"),
        ),
        ([6, 5], base(6, difficulty=2), {"exert": 6}, None),
        ([6, 5], base(6, difficulty=2), {"negate_setback": True}, None),
    ],
)
def test_ability_test_29_a_follow_up_that_cannot_help_says_so(faces, request_, action, note):
    """ability_test-29: against the Test as it stands, a follow-up that lowers the chance of success (or cannot raise
    it and may bring a setback) is risky, one that betters nothing is no gain, one that may gain has no note; api's
    odds_after carries the same note; and the follow-up is still allowed."""
    result = rolled(faces, request_)
    exact = after.odds_after(result, action) if action else after.standing(result)
    said = after.note(result, action, exact)
    assert (said and (said["tone"], said["words"])) == (note or None)
    if action:
        assert api.odds_after("ability_test", result, action).get("note") == said
        dice = ScriptedDice(*[6] * len(action.get("reroll", ())))
        assert at.act(result, action, dice)["system"] == "ability_test"  # nothing refused for its note


def test_ability_test_29_the_choices_carry_their_notes():
    """ability_test-29: a roll's choices carry the note of the action they suggest, or of none (the reroll of a
    success with a 1 rolled: no gain)."""
    request_ = {"type1": 5, "type2": 3, "skill": 2, "difficulty": 2, "masteries": 1}
    seed = next(
        s
        for s in range(10_000)
        if (r := api.roll("ability_test", request_, seed=s))["outcome"] == "success" and 1 in r["dice"]
    )
    (reroll,) = api.roll("ability_test", request_, seed=seed)["choices"]
    assert reroll["suggested"] == [] and reroll["odds"]["action"] is None
    assert reroll["odds"]["note"] == {"words": "no gain: already a success", "tone": "muted"}
