"""Roll Conventions (003), one roll: `roll` and `act` (a Will expended after the roll), a roll as JSON out and back in
(every die checked against the rules), and the checks of a request and an action (a Will that adds no dice is not
expended, ten_again-7). The rules are `rules`, their words `words`; the draw order is in `rules`' docstring.
"""

from __future__ import annotations

from typing import Any

from .. import fields
from ..dice import DiceSource
from ..errors import RulesError
from .rules import FIELDS, ID, SIDES, WILL_DICE, Count, Hand, Pool, Roll, chains, roll_hand, spend_will
from .words import dice_count, signed, steps, summary


def _hand_json(hand: Hand) -> dict:
    return {
        "dice": list(hand.dice),
        "will_dice": list(hand.will_dice),
        "will_spent": hand.will_spent,
        "rerolls": list(hand.rerolls),
        "successes": hand.successes,
        "ones_left": hand.ones_left,
        "botch": hand.botch,
        "botch_dice": hand.botch_dice,
        "eaten": list(hand.count.eaten),
        "marks": hand.marks,
        "reroll_marks": hand.reroll_marks,
    }


def _choices(r: Roll) -> list[dict]:
    out = []
    for side, hand in (("actor", r.actor), ("target", r.target)):
        if hand is not None and hand.can_spend_will:
            action = {"spend_will": True} if side == "actor" else {"spend_will": True, "side": "target"}
            label = "Expend a Will" if side == "actor" else "Target expends a Will"
            out.append(
                {
                    "name": "spend_will",
                    "label": f"{label}: +{dice_count(hand.pool.will_adds)}",
                    "side": side,
                    "dice": hand.pool.will_adds,
                    "action": action,
                }
            )
    return out


def roll_to_json(r: Roll, request: dict, dropped: dict | None = None) -> dict:
    out = {"system": ID, "request": request, **_hand_json(r.actor)}
    if r.target is not None:
        out["target"] = _hand_json(r.target)
        out["net"] = r.net
    out.update(
        outcome=r.outcome.value, steps=steps(r, dropped), summary=summary(r), tone=r.tone.value, choices=_choices(r)
    )
    return out


def request_json(req: dict) -> dict:
    out = dict(req)
    out["opposed"] = dict(req["opposed"]) if req["opposed"] is not None else None
    return out


def check_will(req: dict) -> dict:
    """`req` unless it expends a Will that adds no dice (dots + modifier + 3 ≤ 0, either side): such a Will is
    neither taken nor charged (ten_again-7)."""
    for path, side in (("will", req), ("opposed.will", req["opposed"])):
        if side is not None and side["will"] and Pool.of(side).will_adds == 0:
            total = side["pool"] + side["modifier"] + WILL_DICE
            raise RulesError(
                f"'{path}' is not allowed: a Will would add no dice (dots {side['pool']} "
                f"{signed(side['modifier'])} + {WILL_DICE} = {total}), so none is expended",
                says=f"is not allowed: a Will would add no dice (dots {side['pool']} "
                f"{signed(side['modifier'])} + {WILL_DICE} = {total})",
            )
    return req


def roll(req: dict, dice: DiceSource) -> dict:
    """Roll the actor's pool (and the contesting side's, when opposed): every die, each step, the outcome."""
    check_will(req)
    contest = req["opposed"] is not None
    actor = roll_hand(Pool.of(req), dice, "actor" if contest else "")
    target = roll_hand(Pool.of(req["opposed"]), dice, "target") if contest else None
    return roll_to_json(Roll(actor, req["required"], target), request_json(req))


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _faces(value: Any, path: str, count: int | None) -> tuple[int, ...]:
    ok = isinstance(value, list) and all(_is_int(f) and 1 <= f <= SIDES for f in value)
    if not ok or (count is not None and len(value) != count):
        many = f"{count} faces" if count is not None else "faces"
        raise RulesError(f"'{path}' must be a list of {many} from 1 to {SIDES}, got {value!r:.100}")
    return tuple(value)


def _hand_from_json(data: Any, pool: Pool, path: str) -> Hand:
    """Rebuild a hand from a roll dict, refusing anything the rules could not have rolled."""
    if not isinstance(data, dict):
        raise RulesError(f"'{path}' must be an object with dice, will_dice, will_spent and rerolls")
    spent = data.get("will_spent")
    if not isinstance(spent, bool) or (pool.will and not spent):
        raise RulesError(
            f"'{path}.will_spent' must be true or false (true when the request expends Will), got {spent!r}"
        )
    base = _faces(data.get("dice"), f"{path}.dice", pool.size(False))
    will_dice = _faces(data.get("will_dice"), f"{path}.will_dice", pool.will_adds if spent else 0)
    rerolls = _faces(data.get("rerolls"), f"{path}.rerolls", None)
    tens_left = Count.of(base + will_dice, pool).tens_left
    try:
        n_chains = len(chains(rerolls))
    except ValueError:
        n_chains = -1
    if n_chains != tens_left:
        raise RulesError(
            f"'{path}.rerolls' must hold one chain per 10 left ({tens_left}), each rolling on "
            f"until a die is not a 10, got {list(rerolls)!r:.100}"
        )
    return Hand(pool, base, will_dice, spent, rerolls)


def roll_from_json(roll: Any, path: str = "roll") -> tuple[Roll, dict]:
    """Rebuild a roll from its dict (the request re-parsed, every die checked): the Roll and its parsed request."""
    if not isinstance(roll, dict):
        raise RulesError(f"'{path}' must be a ten_again roll as returned by roll() or act()")
    req = fields.parse(FIELDS, roll.get("request"), f"{path}.request")
    actor = _hand_from_json(roll, Pool.of(req), path)
    target = None
    if req["opposed"] is not None:
        target = _hand_from_json(roll.get("target"), Pool.of(req["opposed"]), f"{path}.target")
    return Roll(actor, req["required"], target), req


def did(roll: dict, action: dict, after: dict) -> str:
    """What a follow-up did, in a player's words for the log: "Expended a Will: +3 dice (9 2 10)", or the target's."""
    side = action.get("side", "actor")
    hand = after if side == "actor" else after["target"]
    faces = hand.get("will_dice") or []
    words = f"xpended a Will: +{len(faces)} {'die' if len(faces) == 1 else 'dice'} ({' '.join(map(str, faces))})"
    return f"E{words}" if side == "actor" else f"The target e{words}"


def will_side(r: Roll, action: Any) -> str:
    """The side ("actor" or "target") whose Will `action` expends after the roll, refused as `act` refuses it."""
    if not isinstance(action, dict) or "spend_will" not in action or set(action) - {"spend_will", "side"}:
        raise RulesError(
            f"'action' must be one of: {{\"spend_will\": true}} or, in a contest, "
            f'{{"spend_will": true, "side": "target"}}; got {action!r:.100}'
        )
    if action["spend_will"] is not True:
        raise RulesError(f"'action.spend_will' must be true, got {action['spend_will']!r}")
    side = action.get("side", "actor")
    sides = ("actor", "target") if r.target is not None else ("actor",)
    if side not in sides:
        raise RulesError(f"'action.side' must be one of {', '.join(sides)}, got {side!r}")
    hand = r.actor if side == "actor" else r.target
    if hand.will_spent:
        raise RulesError(
            f"'action.spend_will': the {side} already expended a Will on this roll; "
            f"you can only expend one will per action"
        )
    if hand.pool.will_adds == 0:
        raise RulesError(
            f"'action.spend_will': a Will adds no dice to the {side}'s pool "
            f"(pool + modifier + {WILL_DICE} is {hand.pool.pool + hand.pool.modifier + WILL_DICE})"
        )
    return side


def act(roll: dict, action: dict, dice: DiceSource) -> dict:
    """Expend a Will after the roll: its dice join the same roll (same result as rolling them up front)."""
    r, req = roll_from_json(roll)
    side = will_side(r, action)
    actor, target = r.actor, r.target
    new, lost = spend_will(actor if side == "actor" else target, dice, side if target is not None else "")
    r = Roll(new, req["required"], target) if side == "actor" else Roll(actor, req["required"], new)
    return roll_to_json(r, request_json(req), {side: lost})
