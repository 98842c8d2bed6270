"""Roll Conventions (003), odds between the choices: the roll as it stands, what expending a Will after the roll
does to the final outcome (ten_again-21), what a Will up front would do (the what-ifs), and how lucky a roll was as
first rolled (ten_again-22); and the headline, the one chance beside Roll. Together: procedures.py's protocol.

A Will after the roll adds `will_adds` dice to the same roll (ten_again-6). Each of them is a 1, a plain miss, a hit
below 10 or a 10, so the few kinds of those dice decide the successes left after 1s eat, the 10s left, the re-roll
chains kept; the new 10s' chains are then summed exactly: m chains have successes (a + c x)**m / (10 - x)**m, a
chain die being a miss (a faces), a hit that ends it (c faces) or a 10 that rolls on. All integers until the end.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from math import comb

from ..chances import verdict
from ..errors import RulesError
from ..headline import chance_of
from .exact import law, odds
from .rolling import roll_from_json, will_side
from .rules import SIDES, Count, Hand, Outcome, Pool, Winner, chains
from .words import dice_count

# A kind of die: the face standing for it (Count.of only tells 8s from 9s by which it eats first) and its faces.
_ONE, _MISS, _TEN = 1, 2, SIDES


def _kinds(threshold: int) -> tuple[tuple[int, int], ...]:
    """(a face standing for the kind, how many faces are of that kind): a 1, a miss, a hit below 10, a 10."""
    return ((_ONE, 1), (_MISS, threshold - 2), (threshold, SIDES - threshold), (_TEN, 1))


def chain_ways(m: int, threshold: int, j: int) -> int:
    """Ways (over 10**(m + j)) that m chains of 10-again re-rolls add exactly j successes."""
    if j < 0:
        return 0
    if m == 0:
        return 1 if j == 0 else 0
    a, c = threshold - 1, SIDES - threshold
    return sum(comb(m, i) * a ** (m - i) * c**i * comb(j - i + m - 1, m - 1) * SIDES**i for i in range(min(m, j) + 1))


def _after_will(hand: Hand) -> tuple[int, dict[tuple[int, int, bool], int]]:
    """Every way the Will's dice can land, grouped: (successes known, new chains, 1s left) -> ways over 10**k."""
    pool = hand.pool
    k = pool.will_adds
    old = chains(hand.rerolls)
    out: dict[tuple[int, int, bool], int] = {}
    for dice in product(_kinds(pool.threshold), repeat=k):
        ways = 1
        for _, n in dice:
            ways *= n
        if not ways:
            continue
        count = Count.of(hand.dice + tuple(face for face, _ in dice), pool)
        kept = old[: count.tens_left]
        known = count.successes + sum(1 for chain in kept for f in chain if f >= pool.threshold)
        key = (known, count.tens_left - len(kept), count.ones_left > 0)
        out[key] = out.get(key, 0) + ways
    return k, out


def will_successes(hand: Hand, upto: int) -> tuple[list[Fraction], Fraction]:
    """P(the side ends with exactly j successes) for j < `upto` after expending a Will now, and P(a botch)."""
    k, grouped = _after_will(hand)
    threshold = hand.pool.threshold
    exact = [Fraction(0)] * upto
    botch = Fraction(0)
    for (known, m, ones), ways in grouped.items():
        for j in range(known, upto):
            exact[j] += Fraction(ways * chain_ways(m, threshold, j - known), SIDES ** (k + m + j - known))
        if ones and known == 0:
            botch += Fraction(ways * chain_ways(m, threshold, 0), SIDES ** (k + m))
    return exact, botch


def odds_after(roll: dict, action: dict) -> dict:
    """The exact outcomes if `action` ({"spend_will": true}, in a contest maybe with "side": "target") is taken now:
    {"outcomes": {success, failure, botch}} unopposed, {"outcomes": {actor, target, tie}} in a contest."""
    r, req = roll_from_json(roll)
    side = will_side(r, action)
    if r.target is None:
        exact, botch = will_successes(r.actor, r.required)
        success = 1 - sum(exact, Fraction(0))
        return {"outcomes": {"success": success, "failure": 1 - success - botch, "botch": botch}}
    hand, other = (r.actor, r.target.successes) if side == "actor" else (r.target, r.actor.successes)
    exact, _ = will_successes(hand, other + 1)
    tie = exact[other]
    below = sum(exact[:other], Fraction(0))
    win = 1 - below - tie if side == "actor" else below
    return {"outcomes": {"actor": win, "target": 1 - win - tie, "tie": tie}}


def keys(contest: bool) -> tuple[str, ...]:
    """The outcomes' keys, as odds() gives them."""
    return (
        tuple(w.value for w in (Winner.ACTOR, Winner.TARGET, Winner.TIE))
        if contest
        else tuple(o.value for o in Outcome)
    )


def standing(roll: dict) -> dict:
    """The roll's outcome as it stands, in the odds' shape: probability 1 for its outcome, 0 for the others."""
    r, _ = roll_from_json(roll)
    return {"outcomes": {key: Fraction(int(key == r.outcome.value)) for key in keys(r.target is not None)}}


def choice_odds(roll: dict, choice: dict) -> dict:
    """The odds of the action a choice names (expend a Will, the actor's or the target's), with that action."""
    return {"action": choice["action"], **odds_after(roll, choice["action"])}


def note(roll: dict, action: dict, after: dict) -> dict | None:
    """What the odds of expending a Will after the roll say beside their numbers (ten_again-23), for the side whose Will
    it is: a warning when it can only lower their chance (a risky or unskilled roll: its 1s eat successes), muted when
    they have already succeeded or won and it can change nothing."""
    r, _ = roll_from_json(roll)
    side = will_side(r, action)
    aim = Winner.TARGET.value if side == "target" else keys(r.target is not None)[0]
    before = Fraction(int(r.outcome.value == aim))
    already = "already a success" if r.target is None else f"the {side} already has successes left"
    return verdict(before, after["outcomes"][aim], f"no gain: {already}", "risky: more dice, more 1s to eat successes")


def what_if(req: dict) -> list[dict]:
    """What the actor could still add before the roll: Expend a Will, when the request does not and it adds dice."""
    pool = Pool.of(req)
    if req["will"] or pool.will_adds == 0:
        return []
    changed = dict(req, will=True)
    return [
        {
            "label": f"Expend a Will (+{dice_count(pool.will_adds)})",
            "change": {"will": True},
            "outcomes": odds(changed)["outcomes"],
        }
    ]


# --- luck: how the roll as first rolled stands among all it could have been ---------------------------------------

ORDER = ("botch", "failure", "success")
CONTEST_ORDER = ("target", "tie", "actor")


def luck(roll: dict) -> dict:
    """The roll as first rolled, ranked: unopposed botch < no successes < 1 success < 2 … (the outcome follows);
    in a contest, from the actor's side: the target wins < a tie < the actor wins (ten_again-22)."""
    r, req = roll_from_json(roll)
    for who, hand in (("actor", r.actor), ("target", r.target)):
        if hand is not None and hand.will_spent and not hand.pool.will:
            raise RulesError(
                f"'roll': luck is of a roll as first rolled, and the {who} expended a Will after this "
                f"one (its 1s may have taken re-rolls off the table); pass the roll as roll() returned it"
            )
    if r.target is not None:
        p = odds(req)["outcomes"]
        outcome = r.outcome.value
        worse = sum((p[key] for key in CONTEST_ORDER[: CONTEST_ORDER.index(outcome)]), Fraction(0))
        return {
            "order": list(CONTEST_ORDER),
            "outcome": outcome,
            "rank": outcome,
            "p_worse": worse,
            "p_same": p[outcome],
            "p_outcome": p[outcome],
            "p_success": p["actor"],
            "success": outcome == "actor",
        }
    pool = Pool.of(req)
    s = r.actor.successes
    lw = law(pool.size(pool.will), pool.threshold, pool.eats, s + 1)
    botch = Fraction(lw.botch, SIDES**lw.n)
    below = sum((lw.p(j) for j in range(s)), Fraction(0))
    if r.actor.botch:
        worse, same, rank = Fraction(0), botch, "botch"
    else:
        worse = below if s else botch
        same = lw.p(s) - (botch if s == 0 else 0)
        rank = f"{s} success{'' if s == 1 else 'es'}"
    p_success = 1 - sum((lw.p(j) for j in range(r.required)), Fraction(0))
    outcome = r.outcome.value
    p_outcome = {"success": p_success, "botch": botch}.get(outcome, 1 - p_success - botch)
    return {
        "order": list(ORDER),
        "outcome": outcome,
        "rank": rank,
        "p_worse": worse,
        "p_same": same,
        "p_outcome": p_outcome,
        "p_success": p_success,
        "success": outcome == "success",
    }


# --- the headline: the one chance beside Roll ---------------------------------------------------------------------


def headline(exact: dict) -> dict:
    """Beside Roll: the chance of success; in a contest, that the actor has successes left after the target's."""
    outcomes = exact["outcomes"]
    if Winner.ACTOR.value in outcomes:
        return chance_of("Actor has successes left", outcomes, (Winner.ACTOR.value,))
    return chance_of("Success", outcomes, (Outcome.SUCCESS.value,))
