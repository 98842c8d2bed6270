"""Threat Roll (seed 002), one roll: `roll` and `act` (the Warden reassigning the dice, Pay the Price after a threat
narrowly avoided, one Price for each), a roll as JSON with its choices, and a roll read back in (its dice, its
assignment and the Prices it reports paid, each checked). The rules are `rules`; the draw order is in its docstring.
"""

from __future__ import annotations

from typing import Any

from .. import fields
from ..dice import roll as roll_dice
from ..errors import RulesError
from ..tone import Tone
from .price import PAY_THE_PRICE, marks_json, pay_the_price, read_player
from .rules import ACTIONS, FIELDS, ID, SIDES, TONE, Threat, ThreatRoll, check_assignment, default_assignment, pool


def _threats(req: dict) -> tuple[Threat, ...]:
    return tuple(Threat(t["name"], t["desperate"]) for t in req["threats"])


def _request_json(req: dict) -> dict:
    return {"rating": req["rating"], "threats": [dict(t) for t in req["threats"]], "extra_dice": req["extra_dice"]}


def _result(req: dict, value: ThreatRoll, prices: tuple[dict, ...] = ()) -> dict:
    """The roll as JSON; `prices`, the Prices paid after it so far ({"picked", "option", "by", "unmarked_all"}), one for
    each threat narrowly avoided at most: once one is paid the dice are settled (no more reassigning)."""
    assigned = {d for a in value.assignment for d in a}
    choices = []
    if value.faces and len(value.threats) > 1 and not prices:  # one threat: reassigning changes nothing (threat-5)
        choices.append(
            {"name": "assign", "label": "Reassign the dice", "dice": len(value.faces), "threats": len(value.threats)}
        )
    left = len(value.narrowly_avoided) - len(prices)
    if left > 0:
        choices.append(
            {
                "name": "pay_the_price",
                "label": "Pay the Price",
                "threats": list(value.narrowly_avoided),
                "options": len(PAY_THE_PRICE),
                "left": left,
                "actions": [{"pay_the_price": i} for i in range(len(PAY_THE_PRICE))],
                # paying settles the dice (threat-14): said before the tap while reassigning is still open (threat-16)
                **(
                    {"ends": "settles the dice: no reassigning after"}
                    if any(c["name"] == "assign" for c in choices)
                    else {}
                ),
            }
        )
    steps = value.steps() + [_paid_step(p) for p in prices]
    out = {
        "system": ID,
        "request": _request_json(req),
        "pool": value.pool,
        "dice": list(value.faces),
        "assignment": [list(a) for a in value.assignment],
        "marks": value.marks,
        "unassigned": [d for d in range(len(value.faces)) if d not in assigned],
        "threats": [
            {
                "name": r.threat.name,
                "desperate": r.threat.desperate,
                "die": r.die,
                "dice": list(r.dice),
                "outcome": r.outcome.value,
                "text": r.text,
            }
            for r in value.results
        ],
        "steps": steps,
        "outcome": value.outcome,
        "summary": str(value),
        "tone": Tone.overall(TONE[r.outcome] for r in value.results).value,
        "choices": choices,
        "prices_paid": [{k: p[k] for k in ("picked", "option", "by", "unmarked_all")} for p in prices],
    }
    return out


def _paid_step(price: dict) -> str:
    by = f" ({price['by']})" if price["by"] else ""
    note = " All options were marked, so all are unmarked." if price.get("unmarked_all") else ""
    return f"Paid the Price{by}: {price['option']}{note}"


def roll(req: dict, dice) -> dict:
    """Roll the pool and assign the dice by priority: the highest die to the first threat, and so on."""
    threats = _threats(req)
    faces = roll_dice(dice, pool(req["rating"], len(threats), req["extra_dice"]), SIDES, "the Threat Roll's pool")
    value = ThreatRoll(req["rating"], req["extra_dice"], threats, faces, default_assignment(faces, len(threats)))
    return _result(req, value)


def check_roll(roll: Any) -> tuple[dict, tuple[int, ...]]:
    if not isinstance(roll, dict) or roll.get("system") != ID:
        raise RulesError(f"'roll' must be a {ID} roll as returned by roll() or act()")
    req = fields.parse(FIELDS, roll.get("request"), "roll.request")
    n = pool(req["rating"], len(req["threats"]), req["extra_dice"])
    faces = roll.get("dice")
    if (
        not isinstance(faces, list)
        or len(faces) != n
        or any(isinstance(f, bool) or not isinstance(f, int) or not 1 <= f <= SIDES for f in faces)
    ):
        raise RulesError(f"'roll.dice' must be a list of {n} faces from 1 to {SIDES} (the pool of this request)")
    return req, tuple(faces)


def act(roll: dict, action: dict, dice) -> dict:
    """The roll after the Warden (re)assigns the dice: `{"assign": [[die indexes], ...]}`, one list per threat."""
    req, faces = check_roll(roll)
    allowed = ", ".join(a["name"] for a in ACTIONS)
    if isinstance(action, dict) and "pay_the_price" in action and set(action) <= {"pay_the_price", "by", "marked"}:
        return _pay(req, faces, roll, action)
    if not isinstance(action, dict) or set(action) != {"assign"}:
        keys = ", ".join(map(repr, action)) if isinstance(action, dict) else repr(action)
        raise RulesError(f"'action' must be one of: {allowed} (got {keys:.100})")
    if not faces:
        raise RulesError("'action.assign': there are no dice to assign (the pool is 0); every threat comes to pass")
    if _settled(req, faces, roll)[1]:
        raise RulesError("'action.assign' is not allowed: a Price was paid for this roll, so its dice are settled")
    threats = _threats(req)
    assignment = check_assignment(action["assign"], len(faces), len(threats))
    value = ThreatRoll(req["rating"], req["extra_dice"], threats, faces, assignment, by_warden=True)
    return _result(req, value)


def did(roll: dict, action: dict, after: dict) -> str:
    """What a follow-up did, in a player's words for the log: "The dice reassigned: Fail takes 5; Fall takes 2 1",
    "Ann paid the Price: Take 1 Harm."."""
    if "pay_the_price" in action:
        by = (action.get("by") or "").strip() or "Someone"
        return f"{by} paid the Price: {PAY_THE_PRICE[action['pay_the_price']]}"
    names = [t["name"] for t in after["request"]["threats"]]
    takes = "; ".join(
        f"{name or f'Threat {i + 1}'} takes {' '.join(str(after['dice'][d]) for d in dice) or 'no die'}"
        for i, (name, dice) in enumerate(zip(names, after["assignment"], strict=True))
    )
    return f"The dice reassigned: {takes}"


def _pay(req: dict, faces: tuple[int, ...], roll: dict, action: dict) -> dict:
    """Pay the Price after a roll that narrowly avoided a threat, one Price for each threat narrowly avoided: `by`
    marks the picked option among the Situation's `marked` ones (the page keeps them)."""
    value, prices = _settled(req, faces, roll)
    narrow = len(value.narrowly_avoided)
    if not narrow:
        raise RulesError(
            "'action.pay_the_price' is not allowed: no threat was narrowly avoided (The Referee may ask "
            "you to Pay the Price when you narrowly avoid a Threat: a 4 or 5 on a threat that is not "
            "Desperate)"
        )
    if len(prices) == narrow:
        raise RulesError(
            f"'action.pay_the_price' is not allowed: the Price is paid: one Price for each threat "
            f"narrowly avoided ({_threats_words(narrow)}, {_prices_words(len(prices))} paid)"
        )
    marks = pay_the_price(action.get("marked", []), action["pay_the_price"], action.get("by"))
    by = read_player(action.get("by"), "action.by")
    paid = {
        "picked": action["pay_the_price"],
        "option": PAY_THE_PRICE[action["pay_the_price"]],
        "by": by,
        "marked": marks_json(marks),
        "unmarked_all": not marks,
    }
    out = _result(req, value, (*prices, paid))
    out["pay_the_price"] = paid  # the latest payment, with the Situation's marks from now on
    return out


def _settled(req: dict, faces: tuple[int, ...], roll: dict) -> tuple[ThreatRoll, tuple[dict, ...]]:
    """The roll as its assignment leaves it, and the Prices it reports paid, each checked; refused when its
    `prices_paid` disagrees with its own fields (its steps, its latest `pay_the_price`): a roll cannot drop a Price
    it paid to pay another (threat-14)."""
    threats = _threats(req)
    assignment = check_assignment(roll.get("assignment"), len(faces), len(threats)) if faces else ((),) * len(threats)
    by_warden = tuple(assignment) != tuple(default_assignment(faces, len(threats)))
    value = ThreatRoll(req["rating"], req["extra_dice"], threats, faces, assignment, by_warden=by_warden)
    prices = _prices_paid(roll.get("prices_paid", []), len(value.narrowly_avoided))
    steps = roll.get("steps")
    latest = roll.get("pay_the_price")
    said = (
        [s for s in steps if isinstance(s, str) and s.startswith("Paid the Price")] if isinstance(steps, list) else None
    )
    if said is not None and said != [_paid_step(p) for p in prices]:
        raise RulesError(
            f"'roll.prices_paid' disagrees with the roll's steps: they say {len(said)} "
            f"Price{'' if len(said) == 1 else 's'} paid, it holds {len(prices)}"
        )
    if latest is not None and (
        not prices
        or not isinstance(latest, dict)
        or latest.get("picked") != prices[-1]["picked"]
        or latest.get("by") != prices[-1]["by"]
    ):
        raise RulesError("'roll.prices_paid' disagrees with the roll's pay_the_price: the latest Price paid")
    return value, prices


def _threats_words(n: int) -> str:
    return f"{n} threat{'' if n == 1 else 's'} narrowly avoided"


def _prices_words(n: int) -> str:
    return f"{n} Price{'' if n == 1 else 's'}"


def _prices_paid(prices: Any, narrow: int) -> tuple[dict, ...]:
    """The Prices a roll reports paid, each checked: at most one for each threat narrowly avoided."""
    last = len(PAY_THE_PRICE) - 1
    if not isinstance(prices, list) or len(prices) > narrow:
        raise RulesError(
            f"'roll.prices_paid' must be a list of at most {narrow} Prices paid (one for each threat "
            f"narrowly avoided), got {prices!r:.100}"
        )
    out = []
    for i, p in enumerate(prices):
        picked = p.get("picked") if isinstance(p, dict) else None
        if isinstance(picked, bool) or not isinstance(picked, int) or not 0 <= picked <= last:
            raise RulesError(
                f'\'roll.prices_paid[{i}]\' must be a Price paid {{"picked": 0 to {last}, "by": name}}, got {p!r:.100}'
            )
        out.append(
            {
                "picked": picked,
                "option": PAY_THE_PRICE[picked],
                "by": read_player(p.get("by"), f"roll.prices_paid[{i}].by"),
                "unmarked_all": p.get("unmarked_all") is True,
            }
        )
    return tuple(out)
