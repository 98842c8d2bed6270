"""Tests for arbiter.ten_again.table: Will's maximum, expending it, nights of rest and Will rolls; ongoing
struggles turn by turn, and their exact odds over turns."""

from __future__ import annotations

import copy
import random
from collections import Counter, defaultdict
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import strategies
from arbiter import RulesError, fields, ten_again
from stats import assert_fits
from ten_again_helpers import TAIL, brute_law, parse, roll

small_requests = strategies.ten_again_request(small=True)


# --- table state: Will ------------------------------------------------------------------------------------

WILL = {"will": 3, "resolve": 2, "composure": 3}


@pytest.mark.parametrize("resolve, composure, maximum", [(1, 1, 2), (2, 3, 5), (4, 1, 5), (10, 10, 20)])
def test_will_max_is_resolve_plus_composure_ten_again_12(resolve, composure, maximum):
    """ten_again-12: the character's maximum Will is resolve + composure."""
    assert ten_again.will_max({"resolve": resolve, "composure": composure}) == {"max": maximum}


@pytest.mark.parametrize(
    "state, words",
    [
        ({"will": 3, "resolve": 0, "composure": 3}, "'state.resolve' must be from 1 to 10"),
        ({"will": 3, "resolve": 11, "composure": 3}, "'state.resolve' must be from 1 to 10"),
        ({"will": 3, "resolve": 2, "composure": True}, "'state.composure' must be a whole number from 1 to 10"),
        ({"will": 6, "resolve": 2, "composure": 3}, r"'state.will' must be from 0 to 5 \(resolve 2 \+ composure 3\)"),
        ({"will": -1, "resolve": 2, "composure": 3}, "'state.will' must be from 0 to 20"),
        ({"will": "3", "resolve": 2, "composure": 3}, "'state.will' must be a whole number"),
        ({"will": 3, "composure": 3}, "'state.resolve' is missing"),
        ({"resolve": 2, "composure": 3}, "'state.will' is missing"),
        ([3, 2, 3], "'state' must be an object"),
        (None, "'state' must be an object"),
    ],
)
def test_will_state_is_checked_ten_again_12(state, words):
    """ten_again-12: Resolve and Composure are 1..10 dots and Will 0..their sum; bad sheets name the field and range."""
    for op in (ten_again.expend_will, ten_again.rest, ten_again.will_roll):
        with pytest.raises(RulesError, match=words):
            op(state)


def test_spend_will_lowers_will_by_one_ten_again_13():
    """ten_again-13: expending a single will point lowers Will by 1 and says what is left."""
    out = ten_again.expend_will(WILL)
    assert out == {**WILL, "will": 2, "note": "Spent 1 Will (2/5 left)"}


def test_spend_will_refused_without_any_remaining_ten_again_13():
    """ten_again-13: a Will can only be expended if you have any remaining."""
    with pytest.raises(RulesError, match="'state.will' is 0: no Will remaining") as err:
        ten_again.expend_will({**WILL, "will": 0})
    assert (err.value.path, err.value.says, err.value.holder) == ("state.will", "has no Will left", True)


@pytest.mark.parametrize("will, nights, after", [(0, 1, 1), (3, 1, 4), (3, 2, 5), (3, 30, 5), (5, 1, 5), (0, 5, 5)])
def test_rest_restores_one_per_night_up_to_the_maximum_ten_again_14(will, nights, after):
    """ten_again-14: Will replenishes at 1 per night of good rest, up to resolve + composure."""
    out = ten_again.rest({**WILL, "will": will}, {"nights": nights})
    assert out["will"] == after
    assert ("already at its maximum" in out["note"]) == (will == after)


def test_rest_defaults_to_one_night_ten_again_14():
    """ten_again-14: without args a rest is one night."""
    assert ten_again.rest(WILL)["will"] == ten_again.rest(WILL, {"nights": 1})["will"] == 4


@pytest.mark.parametrize(
    "args, words",
    [
        ({"nights": 0}, "'args.nights' must be from 1 to 30"),
        ({"nights": 31}, "'args.nights' must be from 1 to 30"),
        ({"nights": True}, "'args.nights' must be a whole number"),
        ({"days": 2}, "unknown field 'args.days'"),
        ([2], "'args' must be an object"),
    ],
)
def test_rest_refuses_bad_nights_ten_again_14(args, words):
    """ten_again-14: nights are 1 to 30; anything else is refused naming the field."""
    with pytest.raises(RulesError, match=words):
        ten_again.rest(WILL, args)


def test_will_roll_pool_is_the_will_left_ten_again_15():
    """ten_again-15: a Will roll uses as many dice as the Will left, so spending Will lowers it."""
    req = ten_again.will_roll(WILL)
    assert req == {**fields.defaults(ten_again.FIELDS), "pool": 3}
    assert ten_again.will_roll(ten_again.expend_will(WILL))["pool"] == 2
    r = roll([8, 2, 1], **req)
    assert len(r["dice"]) == 3 and r["request"]["will"] is False


def test_will_roll_takes_modifier_and_required_ten_again_15():
    """ten_again-15: the storyteller's modifier and required successes go into the Will roll; the pool may not."""
    assert ten_again.will_roll(WILL, {"modifier": -1, "required": 2})["modifier"] == -1
    with pytest.raises(RulesError, match="unknown field 'args.pool'"):
        ten_again.will_roll(WILL, {"pool": 9})
    with pytest.raises(RulesError, match="'args.required' must be from 1 to 20"):
        ten_again.will_roll(WILL, {"required": 0})


def test_a_will_roll_with_no_will_left_fails_ten_again_15():
    """ten_again-15: with no Will left the Will roll has no dice and fails (ten_again-2)."""
    r = roll([], **ten_again.will_roll({**WILL, "will": 0}))
    assert r["outcome"] == "failure" and r["dice"] == []


def test_keys_an_op_does_not_read_are_kept():
    """A whole sheet may be passed: keys the op does not read come back unchanged."""
    sheet = {**WILL, "name": "Mara", "stats": [{"name": "Wits", "dots": 3}], "trained": ["Occult"]}
    out = ten_again.expend_will(sheet)
    assert {k: v for k, v in out.items() if k not in ("will", "note")} == {
        k: v for k, v in sheet.items() if k != "will"
    }


@pytest.mark.parametrize("op", ["will_max", "spend_will", "struggle_reset"])
def test_ops_without_args_refuse_args(op):
    """An op that takes no arguments refuses any, saying so."""
    state = {"target": 3} if op.startswith("struggle") else WILL
    assert ten_again.TABLE[op](state, {}) == ten_again.TABLE[op](state, None)
    with pytest.raises(RulesError, match=f"'args' must be empty or null: {op} takes no arguments"):
        ten_again.TABLE[op](state, {"nights": 1})


will_states = st.integers(1, 10).flatmap(
    lambda r: st.integers(1, 10).flatmap(
        lambda c: st.fixed_dictionaries({"resolve": st.just(r), "composure": st.just(c), "will": st.integers(0, r + c)})
    )
)


@settings(max_examples=200, deadline=None)
@given(will_states, st.integers(1, 30))
def test_rest_never_exceeds_the_maximum_nor_lowers_will_ten_again_14(state, nights):
    """ten_again-14: after any rest Will is at most resolve + composure, never lower than before, +1 a night."""
    before = copy.deepcopy(state)
    after = ten_again.rest(state, {"nights": nights})["will"]
    assert state == before
    assert state["will"] <= after <= state["resolve"] + state["composure"]
    assert after == min(state["will"] + nights, state["resolve"] + state["composure"])


@settings(max_examples=200, deadline=None)
@given(will_states)
def test_spend_then_a_night_of_rest_gives_the_will_back_ten_again_13(state):
    """ten_again-13: expending one Will and resting one night leaves Will where it was (refused at 0)."""
    if state["will"] == 0:
        with pytest.raises(RulesError):
            ten_again.expend_will(state)
    else:
        spent = ten_again.expend_will(state)
        assert spent["will"] == state["will"] - 1
        assert ten_again.rest(spent)["will"] == state["will"]


# --- table state: ongoing struggles -----------------------------------------------------------------------


def turn(state, faces, **request):
    return ten_again.struggle_turn(state, {"roll": roll(faces, **request)})


def test_a_turn_adds_the_rolls_successes_ten_again_16():
    """ten_again-16: each turn's successes accumulate toward the target."""
    out = turn({"target": 5}, [8, 9, 2], pool=3)
    assert out == {
        "target": 5,
        "accumulated": 2,
        "turns": 1,
        "status": "ongoing",
        "contest": False,
        "note": "Turn 1: 2 successes: 2/5",
    }
    out = turn(out, [10, 8, 3], pool=2)
    assert (out["accumulated"], out["turns"], out["status"]) == (4, 2, "ongoing")


def test_reaching_the_target_is_done_and_keeps_the_count_ten_again_16():
    """ten_again-16: reaching the target ends the struggle; the whole count is kept."""
    out = turn({"target": 5, "accumulated": 4, "turns": 3}, [8, 9, 2], pool=3)
    assert (out["accumulated"], out["turns"], out["status"]) == (6, 4, "done")
    assert out["note"].endswith("6/5: done")


def test_the_rolls_own_required_is_not_used_ten_again_16():
    """ten_again-16: a roll that fails its own `required` still adds its successes to the struggle."""
    r = roll([8, 9, 2], pool=3, required=3)
    assert r["outcome"] == "failure"
    assert ten_again.struggle_turn({"target": 5}, {"roll": r})["accumulated"] == 2


def test_a_done_struggle_takes_no_turn_until_reset_ten_again_16():
    """ten_again-16: a done struggle refuses turns; struggle_reset starts again with the same target."""
    done = {"target": 2, "accumulated": 3, "turns": 2, "status": "done"}
    with pytest.raises(RulesError, match="'state.status' is done: no more turns; struggle_reset"):
        turn(done, [8], pool=1)
    again = ten_again.struggle_reset(done)
    assert again == {
        "target": 2,
        "accumulated": 0,
        "turns": 0,
        "status": "ongoing",
        "contest": False,
        "note": "Started again from scratch: 0/2",
    }


def test_a_botch_aborts_and_resets_the_effort_ten_again_17():
    """ten_again-17: a botch aborts the whole effort: accumulated back to 0, no more turns until reset."""
    out = turn({"target": 8, "accumulated": 6, "turns": 4}, [1, 3, 5], pool=3)
    assert (out["accumulated"], out["turns"], out["status"]) == (0, 5, "aborted")
    assert "botch" in out["note"] and "start again from scratch" in out["note"]
    with pytest.raises(RulesError, match="'state.status' is aborted"):
        turn(out, [8], pool=1)
    assert ten_again.struggle_reset(out)["status"] == "ongoing"


def test_a_risky_botch_aborts_too_ten_again_17():
    """ten_again-17: 1s left after eating every success on a risky roll are a botch, and abort."""
    out = turn({"target": 3, "accumulated": 2}, [1, 1, 9], pool=3, risky=True)
    assert out["status"] == "aborted" and out["accumulated"] == 0


CONTEST = {"target": 6, "contest": True}


def test_in_a_contest_the_net_accumulates_ten_again_18():
    """ten_again-18: in an ongoing contest the actor's successes left after the resistance's accumulate."""
    # actor 8 9 10 (the 10 rolls a 3): 3 successes; resistance 8 2: 1 success; net 2
    out = turn(CONTEST, [8, 9, 10, 3, 8, 2], pool=3, opposed={"pool": 2})
    assert (out["accumulated"], out["turns"], out["status"]) == (2, 1, "ongoing")
    assert out["note"] == "Turn 1: 2 successes left after the resistance's: 2/6"


@pytest.mark.parametrize("accumulated, after", [(4, 1), (3, 0), (1, 0), (0, 0)])
def test_the_resistances_excess_eats_accumulated_successes_ten_again_18(accumulated, after):
    """ten_again-18: excess successes on the resistance roll eat accumulated successes, never below 0."""
    # actor 2 3: no success; resistance 8 9 8: 3 successes; net -3
    out = turn({**CONTEST, "accumulated": accumulated}, [2, 3, 8, 9, 8], pool=2, opposed={"pool": 3})
    assert (out["accumulated"], out["status"]) == (after, "ongoing")
    assert "the resistance has 3 successes left" in out["note"]


def test_the_resistances_botch_aborts_nothing_ten_again_17():
    """ten_again-17: in a contest only the actor's botch aborts; the resistance's botch is its own."""
    r = roll([8, 2, 1, 3], pool=2, opposed={"pool": 2})
    assert r["target"]["botch"] and not r["botch"]
    out = ten_again.struggle_turn({**CONTEST, "accumulated": 2}, {"roll": r})
    assert (out["accumulated"], out["status"]) == (3, "ongoing")


def test_the_actors_botch_aborts_a_contest_ten_again_17():
    """ten_again-17: the actor's botch aborts an ongoing contest whatever the resistance rolled."""
    out = turn({**CONTEST, "accumulated": 5}, [1, 2, 3, 4], pool=2, opposed={"pool": 2})
    assert (out["accumulated"], out["status"]) == (0, "aborted")


def test_a_struggle_is_a_contest_or_not_throughout_ten_again_18():
    """ten_again-18: a contest takes contested rolls and requests only, and a plain struggle plain ones."""
    plain = roll([8, 2], pool=2)
    contested = roll([8, 2, 3], pool=2, opposed={"pool": 1})
    with pytest.raises(RulesError, match=r"'args.roll' must be a contest \(with 'opposed'\)"):
        ten_again.struggle_turn(CONTEST, {"roll": plain})
    with pytest.raises(RulesError, match=r"'args.roll' must be unopposed"):
        ten_again.struggle_turn({"target": 3}, {"roll": contested})
    with pytest.raises(RulesError, match=r"'args.request' must be a contest"):
        ten_again.struggle_odds(CONTEST, {"request": {"pool": 2}, "turns": 2})
    with pytest.raises(RulesError, match=r"'args.request' must be unopposed"):
        ten_again.struggle_odds({"target": 3}, {"request": {"pool": 2, "opposed": {"pool": 1}}, "turns": 2})


@pytest.mark.parametrize(
    "state, words",
    [
        ({}, "'state.target' is missing: Successes needed, a whole number from 1 to 50"),
        ({"target": 0}, "'state.target' must be from 1 to 50"),
        ({"target": 51}, "'state.target' must be from 1 to 50"),
        ({"target": 5, "accumulated": 5}, r"'state.accumulated' must be from 0 to 4 while the struggle is ongoing"),
        ({"target": 5, "accumulated": -1}, "'state.accumulated' must be from 0 to 10000"),
        ({"target": 5, "accumulated": 4, "status": "done"}, "'state.accumulated' must be at least the target 5"),
        ({"target": 5, "accumulated": 2, "status": "aborted"}, "'state.accumulated' must be 0 when"),
        ({"target": 5, "status": "won"}, "'state.status' must be one of ongoing, done, aborted"),
        ({"target": 5, "contest": 1}, "'state.contest' must be true or false"),
        ({"target": 5, "turns": 1001}, "'state.turns' must be from 0 to 1000"),
        ("target 5", "'state' must be an object"),
    ],
)
def test_struggle_state_is_checked_ten_again_16(state, words):
    """ten_again-16: a struggle's target is 1..50 and its count fits its status; bad state names the field."""
    for op, args in (
        (ten_again.struggle_turn, {"roll": roll([8], pool=1)}),
        (ten_again.struggle_reset, None),
        (ten_again.struggle_odds, {"request": {"pool": 1}}),
    ):
        with pytest.raises(RulesError, match=words):
            op(state, args)


def _tampered(change):
    r = roll([8, 10, 9, 2], pool=3)
    change(r)
    return r


@pytest.mark.parametrize(
    "args, words",
    [
        ({}, "'args.roll' is missing"),
        ({"roll": None}, "'args.roll' must be an object"),
        ({"roll": [8, 9]}, "'args.roll' must be an object"),
        ({"roll": {"system": "luck"}}, "'args.roll' must be a ten_again roll"),
        ({"roll": _tampered(lambda r: r.update(successes=9))}, "'args.roll.successes' does not match the dice"),
        ({"roll": _tampered(lambda r: r.update(botch=True))}, "'args.roll.botch' does not match the dice"),
        ({"roll": _tampered(lambda r: r.update(dice=[8, 10, 11]))}, "'args.roll.dice' must be a list of 3 faces"),
        ({"roll": _tampered(lambda r: r.update(rerolls=[]))}, "'args.roll.rerolls' must hold one chain per 10"),
        ({"roll": _tampered(lambda r: r["request"].update(pool=31))}, "'args.roll.request.pool' must be from 0 to 30"),
        ({"roll": _tampered(lambda r: r.update(target={"dice": [8]}))}, None),
        ({"roll": roll([8], pool=1), "turns": 2}, "unknown field 'args.turns'"),
    ],
)
def test_struggle_turn_checks_its_roll_ten_again_16(args, words):
    """ten_again-16: a turn's roll must be a ten_again roll whose dice and counts the rules could have given."""
    if words is None:  # a stray key the rules do not read changes nothing
        assert ten_again.struggle_turn({"target": 9}, args)["accumulated"] == 3
        return
    with pytest.raises(RulesError, match=words):
        ten_again.struggle_turn({"target": 9}, args)


@settings(max_examples=60, deadline=None)
@given(small_requests, st.integers(1, 50), st.integers(0, 49), st.integers(0, 2**32))
def test_a_turn_keeps_the_struggle_consistent_ten_again_18(request_, target, accumulated, seed):
    """ten_again-18: after any turn the count is >= 0, the status fits it, and the state given is unchanged."""
    req = fields.parse(ten_again.FIELDS, request_)
    r = ten_again.roll(req, random.Random(seed))
    state = {
        "target": target,
        "accumulated": min(accumulated, target - 1),
        "turns": 2,
        "contest": req["opposed"] is not None,
    }
    before = copy.deepcopy(state)
    out = ten_again.struggle_turn(state, {"roll": r})
    assert state == before and out["turns"] == 3 and out["accumulated"] >= 0
    gained = r["net"] if state["contest"] else r["successes"]
    if r["botch"]:
        assert (out["status"], out["accumulated"]) == ("aborted", 0)
    else:
        assert out["accumulated"] == max(0, state["accumulated"] + gained)
        assert out["status"] == ("done" if out["accumulated"] >= target else "ongoing")


# --- struggle odds ----------------------------------------------------------------------------------------


def odds_of(state, request_, turns):
    o = ten_again.struggle_odds(state, {"request": request_, "turns": turns})
    return (
        [o["finish_within"][str(n)] for n in range(1, turns + 1)],
        [o["abort_within"][str(n)] for n in range(1, turns + 1)],
    )


def test_struggle_odds_by_hand_ten_again_19():
    """ten_again-19: one die, one success needed, two turns: 3/10 + 6/10 * 3/10 done, 1/10 + 6/10 * 1/10 aborted."""
    finish, abort = odds_of({"target": 1}, {"pool": 1}, 2)
    assert finish == [Fraction(3, 10), Fraction(48, 100)]
    assert abort == [Fraction(1, 10), Fraction(16, 100)]


STRUGGLE_REQUESTS = [
    {"pool": 1},
    {"pool": 3, "risky": True},
    {"pool": 2, "initiative": True, "unskilled": True},
    {"pool": 5, "modifier": -2, "will": True},
    {"pool": 0},
    {"pool": 30, "modifier": 10, "will": True},
    {"pool": 12, "risky": True, "initiative": True},
]


@pytest.mark.parametrize("request_", STRUGGLE_REQUESTS)
def test_one_turn_to_one_success_is_the_rolls_success_ten_again_19(request_):
    """ten_again-19: target 1 within 1 turn is exactly P(successes >= 1 and no botch); aborting is P(botch)."""
    finish, abort = odds_of({"target": 1}, request_, 1)
    o = ten_again.odds(parse(**request_, required=1))
    # a botch has no successes, so P(successes >= 1) is P(successes >= 1 and no botch)
    assert finish == [o["outcomes"]["success"]]
    assert abort == [o["outcomes"]["botch"]]


@pytest.mark.parametrize(
    "actor, resistance",
    [
        ({"pool": 1}, {"pool": 1}),
        ({"pool": 4, "risky": True}, {"pool": 3}),
        (
            {"pool": 30, "modifier": 10, "will": True, "initiative": True},
            {"pool": 30, "modifier": 10, "will": True, "initiative": True},
        ),
    ],
)
def test_one_contested_turn_to_one_success_is_the_actors_win_ten_again_19(actor, resistance):
    """ten_again-19: in a contest, target 1 within 1 turn is P(actor has successes left), within 2e-15."""
    finish, abort = odds_of({"target": 1, "contest": True}, {**actor, "opposed": resistance}, 1)
    o = ten_again.odds(parse(**actor, opposed=resistance))
    assert 0 <= o["outcomes"]["actor"] - finish[0] < 2 * TAIL
    assert abort == [o["botch"]["actor"]]


def brute_struggle(net, botch, target, accumulated, turns):
    """Done and aborted within `turns`, by plain recursion over one turn's {net successes: p} (no botch) and botch."""
    memo = {}

    def go(a, t):
        if t == 0:
            return Fraction(0), Fraction(0)
        if (a, t) not in memo:
            done, aborted = Fraction(0), botch
            for k, p in net.items():
                b = max(0, a + k)
                if b >= target:
                    done += p
                else:
                    d, ab = go(b, t - 1)
                    done, aborted = done + p * d, aborted + p * ab
            memo[a, t] = done, aborted
        return memo[a, t]

    out = [go(accumulated, t) for t in range(1, turns + 1)]
    return [d for d, _ in out], [ab for _, ab in out]


def side_law(side, depth):
    pool = ten_again.Pool.of(parse(**side))
    dist, botch = brute_law(pool.size(pool.will), pool.threshold, pool.eats, depth)
    return dist, botch


UNOPPOSED_SMALL = [
    ({"pool": 1}, 3, 0, 4),
    ({"pool": 2, "risky": True}, 3, 1, 3),
    ({"pool": 3}, 4, 0, 3),
    ({"pool": 2, "initiative": True, "unskilled": True}, 2, 0, 5),
    ({"pool": 1, "will": True}, 4, 2, 2),
]


@pytest.mark.parametrize("side, target, accumulated, turns", UNOPPOSED_SMALL)
def test_struggle_odds_match_a_plain_recursion_ten_again_19(side, target, accumulated, turns):
    """ten_again-19: unopposed struggle odds equal exactly a recursion over every face of the dice."""
    dist, botch = side_law(side, 12)
    net = {j: dist[j] - (botch if j == 0 else 0) for j in range(target)}
    net[target] = 1 - sum(dist[:target])  # every count from the target up finishes
    expected = brute_struggle(net, botch, target, accumulated, turns)
    assert odds_of({"target": target, "accumulated": accumulated}, side, turns) == expected


CONTEST_SMALL = [
    ({"pool": 1}, {"pool": 1}, 2, 0, 3),
    ({"pool": 2, "risky": True}, {"pool": 1}, 3, 1, 3),
    ({"pool": 1, "initiative": True}, {"pool": 2, "unskilled": True}, 2, 1, 4),
]


@pytest.mark.parametrize("actor, resistance, target, accumulated, turns", CONTEST_SMALL)
def test_contest_struggle_odds_match_a_plain_recursion_ten_again_19(actor, resistance, target, accumulated, turns):
    """ten_again-19: contest struggle odds agree with a recursion over every face within 2e-15 a turn, never above."""
    depth = 40
    dist_a, botch = side_law(actor, depth)
    dist_t, _ = side_law(resistance, depth)
    net = defaultdict(Fraction)
    for i, pa in enumerate(dist_a):
        for j, pt in enumerate(dist_t):
            net[i - j] += (pa - (botch if i == 0 else 0)) * pt
    expected = brute_struggle(net, botch, target, accumulated, turns)
    got = odds_of(
        {"target": target, "accumulated": accumulated, "contest": True}, {**actor, "opposed": resistance}, turns
    )
    for g, e in zip(got[0] + got[1], expected[0] + expected[1]):
        assert -Fraction(1, 10**30) < e - g < 2 * TAIL * turns


def test_struggle_odds_refuses_bad_args_ten_again_19():
    """ten_again-19: turns are 1 to 20, the request must be a ten_again request, a finished struggle has no odds."""
    for args, words in [
        ({"request": {"pool": 1}, "turns": 21}, "'args.turns' must be from 1 to 20"),
        ({"request": {"pool": 1}, "turns": 0}, "'args.turns' must be from 1 to 20"),
        ({"turns": 2}, "'args.request' is missing"),
        ({"request": {"pool": 31}}, "'args.request.pool' must be from 0 to 30"),
        ({"request": {"dots": 3}}, "unknown field 'args.request.dots'"),
        ({"request": 3}, "'args.request' must be an object"),
    ]:
        with pytest.raises(RulesError, match=words):
            ten_again.struggle_odds({"target": 3}, args)
    with pytest.raises(RulesError, match="'state.status' is done"):
        ten_again.struggle_odds({"target": 3, "accumulated": 3, "status": "done"}, {"request": {"pool": 1}})


struggle_requests = strategies.ten_again_request()


@settings(max_examples=40, deadline=None)
@given(struggle_requests, st.integers(1, 50), st.integers(0, 49), st.integers(1, 20))
def test_struggle_odds_grow_with_turns_and_never_pass_one_ten_again_19(request_, target, accumulated, turns):
    """ten_again-19: done and aborted within N turns never fall as N grows, and together never exceed 1."""
    state = {"target": target, "accumulated": min(accumulated, target - 1), "contest": request_["opposed"] is not None}
    finish, abort = odds_of(state, request_, turns)
    for a, b in zip(finish, finish[1:]):
        assert a <= b
    for a, b in zip(abort, abort[1:]):
        assert a <= b
    assert all(0 <= f and 0 <= a and f + a <= 1 for f, a in zip(finish, abort))


@settings(max_examples=40, deadline=None)
@given(small_requests, st.integers(2, 12), st.integers(0, 10), st.integers(1, 6))
def test_starting_closer_never_hurts_ten_again_18(request_, target, accumulated, turns):
    """ten_again-18: one more success accumulated never lowers the chance to finish, nor raises the chance to abort."""
    a = min(accumulated, target - 2)
    state = {"target": target, "contest": request_["opposed"] is not None}
    f0, b0 = odds_of({**state, "accumulated": a}, request_, turns)
    f1, b1 = odds_of({**state, "accumulated": a + 1}, request_, turns)
    assert all(x <= y for x, y in zip(f0, f1))
    assert all(x >= y for x, y in zip(b0, b1))


@pytest.mark.parametrize(
    "request_, target, turns, seed",
    [
        ({"pool": 3, "risky": True}, 4, 3, 3019),
        ({"pool": 3, "unskilled": True, "opposed": {"pool": 2}}, 3, 3, 3020),
    ],
)
def test_chi_square_struggles_agree_with_odds_ten_again_19(request_, target, turns, seed):
    """ten_again-19: 20 000 seeded struggles, turn by turn, end (done or aborted at each turn, or not) as the odds say."""
    req = parse(**request_)
    state = {"target": target, "contest": req["opposed"] is not None}
    finish, abort = odds_of(state, request_, turns)
    probs = {"ongoing": float(1 - finish[-1] - abort[-1])}
    for n in range(turns):
        probs[f"done {n + 1}"] = float(finish[n] - (finish[n - 1] if n else 0))
        probs[f"aborted {n + 1}"] = float(abort[n] - (abort[n - 1] if n else 0))
    dice = random.Random(seed)
    actor = ten_again.Pool.of(req)
    resistance = ten_again.Pool.of(req["opposed"]) if req["opposed"] else None
    seen = Counter()
    for _ in range(20_000):
        s = ten_again.Struggle(target, contest=state["contest"])
        while s.status is ten_again.Status.ONGOING and s.turns < turns:
            r = ten_again.Roll(
                ten_again.roll_hand(actor, dice), 1, ten_again.roll_hand(resistance, dice) if resistance else None
            )
            s, _ = s.turn(r)
        seen["ongoing" if s.status is ten_again.Status.ONGOING else f"{s.status.value} {s.turns}"] += 1
    assert_fits(seen, probs, 20_000)


LARGEST_STRUGGLE = {
    "pool": 30,
    "modifier": 10,
    "will": True,
    "initiative": True,
    "opposed": {"pool": 30, "modifier": 10, "will": True, "initiative": True},
}


def test_largest_struggle_odds_have_exact_strings_ten_again_19():
    """ten_again-19: the largest contest (43 dice a side, 6s up, target 50, 20 turns) gives every "p/q" string."""
    from arbiter import api

    o = api.table(
        "ten_again", "struggle_odds", {"target": 50, "contest": True}, {"request": LARGEST_STRUGGLE, "turns": 20}
    )
    assert Fraction(o["exact"]["finish_within"]["20"]) > 0
    assert float(Fraction(o["exact"]["abort_within"]["20"])) == o["abort_within"]["20"]


@pytest.mark.benchmark(group="odds")
@pytest.mark.parametrize(
    "request_",
    [{k: v for k, v in LARGEST_STRUGGLE.items() if k != "opposed"}, LARGEST_STRUGGLE],
    ids=["unopposed", "contest"],
)
def test_bench_struggle_odds_largest(benchmark, request_):
    """Benchmark: struggle_odds for 43 dice (against 43 in a contest), target 50, 20 turns."""
    state = {"target": 50, "contest": "opposed" in request_}
    result = benchmark(ten_again.struggle_odds, state, {"request": request_, "turns": 20})
    assert len(result["finish_within"]) == 20


def test_api_table_ten_again():
    """Through the API: a Will spent, a struggle's turn and its odds as floats with exact strings; inputs unchanged."""
    from arbiter import api

    sheet = {**WILL, "name": "Mara"}
    before = copy.deepcopy(sheet)
    assert api.table("ten_again", "spend_will", sheet)["will"] == 2 and sheet == before
    r = api.roll("ten_again", {"pool": 3}, seed=3)
    out = api.table("ten_again", "struggle_turn", {"target": 50}, {"roll": r})
    assert out["accumulated"] == r["successes"] and out["turns"] == 1
    o = api.table("ten_again", "struggle_odds", {"target": 1}, {"request": {"pool": 1}, "turns": 2})
    assert o["exact"] == {"finish_within": {"1": "3/10", "2": "12/25"}, "abort_within": {"1": "1/10", "2": "4/25"}}
    assert o["finish_within"]["2"] == 0.48
