"""A tap at the table, answered at once: what it costs the one rolling and the table's other payers, the roll or
follow-up itself, what follows on the table, its luck, and what the table could pay of what comes next (api.turn,
api.check).

The page sends what the table holds that a tap may spend from (`table`): the character rolling, if any ({"name",
"kind", "sheet"}: their counts are the table's to take only when a roll is made as them), and each record a
procedure declares among its PAYERS (records.PAYERS, stored.Payer: held to its count whoever rolls, while this
device tracks it), under its name. Nothing is rolled when they cannot pay; otherwise the answer carries their new
states, for the page to keep, and nothing more is asked. This module words no payer of its own: a payer's name, its
refusal's words and what Roll says it spends are its declaration's.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from . import engine, fields, procedures, records
from .errors import RulesError

HOST = "host"  # a tap's table flag: its payers' states are the Host's of a live table (issue 32: live.py)
UNNAMED = "(unnamed)"
CHARACTER = records.CHARACTER.name  # a cost's "by" for the character rolling; any other names one of records.PAYERS
PAYERS = records.PAYERS


def _and(names: list[str]) -> str:
    return " and ".join(names) if len(names) < 3 else f"{', '.join(names[:-1])} and {names[-1]}"


def read_table(table: Any) -> dict:
    """The table's states as the page sends them: {"character": {"name", "kind", "sheet"} or null, each payer's
    record (records.PAYERS) or null, under its name, and "host": true when those states are the Host's of a live table
    (a refusal then names them so), else absent}; anything else is refused, naming the field."""
    if table is None:
        return {CHARACTER: None, **dict.fromkeys(PAYERS), HOST: False}
    if not isinstance(table, dict) or set(table) - {CHARACTER, *PAYERS, HOST}:
        raise RulesError(
            f"'table' must be an object with {_and([CHARACTER, *PAYERS])} (each may be null), got {table!r:.100}"
        )
    if table.get(HOST, False) not in (True, False):
        raise RulesError(f"'table.host' must be true or false, got {table[HOST]!r:.100}")
    who = table.get(CHARACTER)
    if who is not None and (
        not isinstance(who, dict) or not isinstance(who.get("sheet"), dict) or not isinstance(who.get("kind"), str)
    ):
        raise RulesError(f'\'table.character\' must be {{"name", "kind", "sheet"}} or null, got {who!r:.100}')
    if who is not None and who["kind"] not in records.KINDS:
        raise RulesError(f"'table.character.kind' must be one of {', '.join(records.KINDS)}, got {who['kind']!r:.100}")
    for key, payer in PAYERS.items():
        state = table.get(key)
        if state is not None and not isinstance(state, dict):
            holder = payer.holder[:1].lower() + payer.holder[1:]
            raise RulesError(f"'table.{key}' must be {holder}'s record or null, got {state!r:.100}")
    held = {key: copy.deepcopy(table.get(key)) for key in PAYERS}
    return {CHARACTER: copy.deepcopy(who), **held, HOST: table.get(HOST, False)}


class Costs:
    """What a roll or follow-up of one procedure costs (engine.costs), each asked once: a tap pays a cost, checks the
    next roll and each choice, and says what it spends, all from the one answer."""

    def __init__(self, system: str) -> None:
        self.system = system
        self.known: dict[str, list[dict] | RulesError] = {}

    def __call__(self, request: Any, action: Any, choices: Any) -> list[dict]:
        try:
            key = json.dumps([request, action, choices], sort_keys=True, default=repr)
        except TypeError:  # keys of mixed types, which the page never sends: asked anew each time
            return engine.costs(self.system, request, action, choices)
        if key not in self.known:
            try:
                self.known[key] = engine.costs(self.system, request, action, choices)
            except RulesError as error:
                self.known[key] = error
        known = self.known[key]
        if isinstance(known, RulesError):
            raise known
        return copy.deepcopy(known)


class Payers:
    """The character rolling and the table's other payers (records.PAYERS: each one's state, or None where the page
    sent none), as a tap changes them: each op of a cost applied in order, on copies. A cost's "by" names its payer:
    a payer's name, else the character."""

    def __init__(self, table: dict) -> None:
        self.who = table[CHARACTER]
        self.held = {key: table[key] for key in PAYERS}
        self.changed = dict.fromkeys([CHARACTER, *PAYERS], False)
        self.host = table.get(HOST, False)  # the payers' states are the Host's: named so, never "not set here"
        self.paid: list[dict] = []  # each cost paid, with what it said ("said")

    def applies(self, cost: dict) -> bool:
        """A cost is the table's to take: a payer's while this device tracks it, the character's when one rolls."""
        payer = PAYERS.get(cost["by"])
        if payer is not None:
            state = self.held[payer.key]
            return state is not None and (payer.tracked is None or state.get(payer.tracked, True) is not False)
        return self.who is not None

    def _holder(self, by: str) -> str:
        if by in PAYERS:
            payer = PAYERS[by]
            return payer.host_holder if self.host and payer.host_holder else payer.holder
        return (self.who.get("name") or "").strip() or UNNAMED

    def refusal(self, cost: dict, error: RulesError) -> dict:
        """Why the table cannot pay `cost`, in a player's words ("Rook has no Will left"), with the engine's error; a
        payer's empty count never set on this device adds where it is set (its `never_set`)."""
        holder = self._holder(cost["by"])
        words = f"{holder} {error.says}" if error.holder else f"{holder}: {error}"
        payer = PAYERS.get(cost["by"])
        if payer is not None and payer.unset is not None and not self.host:
            state = self.held[payer.key]
            if state.get(payer.unset) is False and state.get(payer.count) == 0:
                words += payer.never_set
        return {**error.as_json(), "words": words}

    def pay(self, cost: dict, notes: list[str]) -> None:
        """Apply one cost (`times` over, all or nothing); a RulesError when its payer cannot."""
        if cost.get("refuse"):  # a cost the procedure says this table cannot pay as asked (its words say why)
            raise RulesError(cost["refuse"])
        payer = PAYERS.get(cost["by"])
        state = self.who["sheet"] if payer is None else self.held[payer.key]
        said = []
        for _ in range(cost.get("times", 1)):
            result = engine.table(cost["system"], cost["op"], state, cost.get("args"))
            said.append(result.get("note"))
            state = self._kept(payer, state, result)
        if payer is None:
            self.who = {**self.who, "sheet": state}
        else:
            self.held[payer.key] = state
        self.changed[CHARACTER if payer is None else payer.key] = True
        note = cost.get("note") or "; ".join(s for s in said if s)
        self.paid.append({**cost, "said": note})
        notes.append(note)

    def _kept(self, payer, state: dict, result: dict) -> dict:
        """What an op's answer changes of a state: the sheet's declared fields it holds, or a payer's own keys (and,
        on one that says whether its count was set on this device, set now)."""
        if payer is not None:
            kept = {k: result[k] for k in state}
            return kept | ({payer.unset: True} if payer.unset is not None and payer.unset in state else {})
        names = {f.name for f in records.KINDS[self.who["kind"]].SHEET.fields}
        return {**state, **{k: v for k, v in result.items() if k in names}}

    def try_all(self, costs: list[dict], notes: list[str]) -> dict | None:
        """Pay `costs` in order; on the first that cannot be paid, nothing is paid and its refusal is returned."""
        before = (self.who, dict(self.held), dict(self.changed), len(notes), len(self.paid))
        for cost in costs:
            if not self.applies(cost):
                continue
            try:
                self.pay(cost, notes)
            except RulesError as error:
                self.who, self.held, self.changed = before[0], before[1], before[2]
                del notes[before[3] :]
                del self.paid[before[4] :]
                return self.refusal(cost, error)
        return None

    def states(self) -> dict:
        """What the tap changed: the character's sheet and each payer's state, None where unchanged."""
        return {
            CHARACTER: self.who["sheet"] if self.who and self.changed[CHARACTER] else None,
            **{key: state if self.changed[key] else None for key, state in self.held.items()},
        }

    def table(self) -> dict:
        return {CHARACTER: self.who, **self.held, HOST: self.host}


def _step(step: Any) -> dict:
    keys = (
        {"request", "choices", "seed", "dice"}
        if isinstance(step, dict) and "request" in step
        else {"roll", "action", "seed", "dice"}
    )
    if not isinstance(step, dict) or set(step) - keys or ("request" not in step and "action" not in step):
        raise RulesError(
            '\'step\' must be {"request", "choices"?, "dice"?} for a roll or {"roll", "action", "dice"?} '
            f"for a follow-up, got {step!r:.100}"
        )
    return step


def turn(system: str, step: Any, table: Any = None) -> dict:
    """One tap: a roll of `step.request` (filled from the sheet by `step.choices`, when it was) or the follow-up
    `step.action` of `step.roll`, paid from `table`; `step.dice`, the table's faces for it (api.roll's and api.act's
    `dice`: too few, and nothing is rolled or paid). The answer: {"roll" (null when refused), "refused" (null, or why
    the table cannot pay: the engine's error and its "words"), "character" and each payer's name (records.PAYERS: their
    new states, null where unchanged), "notes" (what the table did, for the log), "paid" (each op paid, with what it "said"), "earned",
    "marked", "luck_entry" (a new roll's), "did" (a follow-up's: what it did, in a player's words for the log),
    "checks" (api.check of the new roll on the new states), "refill" (the
    request the sheet fills now, after a roll as a character filled from it), "next" (after a roll, the form as it
    leaves it and its odds: {"request", "odds"})}."""
    step = _step(step)
    tables = read_table(table)
    payers = Payers(tables)
    cost = Costs(system)
    action = step.get("action")
    request = (
        step["roll"].get("request")
        if action is not None and isinstance(step.get("roll"), dict)
        else step.get("request")
    )
    choices = step.get("choices") if action is None else None
    earned = action is not None and earned_before(system, step["roll"])
    notes: list[str] = []
    answer = {
        "roll": None,
        "refused": None,
        **dict.fromkeys([CHARACTER, *PAYERS]),
        "notes": notes,
        "paid": [],
        "earned": earned,
        "marked": None,
        "luck_entry": None,
        "did": None,
        "checks": None,
        "refill": None,
    }
    refused = payers.try_all(cost(request, action, choices), notes)
    if refused is not None:
        return {**answer, "refused": refused}
    roll = (
        engine.roll(system, request, step.get("seed"), step.get("dice"))
        if action is None
        else engine.act(system, step["roll"], action, step.get("seed"), step.get("dice"))
    )
    then, marked = engine.follows(system, roll, action, earned)
    for op in then:
        if not payers.applies(op):
            continue
        try:
            payers.pay(op, notes)
            earned = op.get("earned", earned)
        except RulesError as error:
            notes.append(f"Not done: {payers.refusal(op, error)['words']}")
    states = payers.states()
    who = payers.who
    refill = (
        engine.request_from_sheet(system, who["sheet"], choices)
        if action is None and choices is not None and who is not None
        else None
    )
    next_form = _next_form(system, request, refill) if action is None else None
    return {
        **answer,
        "roll": roll,
        **states,
        "paid": payers.paid,
        "earned": earned,
        "marked": marked,
        "luck_entry": engine.luck_entry(system, roll) if action is None else None,
        "did": None if action is None else procedures.did(procedures.PROCEDURES[system], step["roll"], action, roll),
        "checks": _check(cost, next_form["request"] if next_form else request, roll, payers.table(), choices),
        "refill": refill,
        "next": next_form,
    }


def earned_before(system: str, roll: Any) -> bool:
    """Whether the steps up to `roll` earned what follows a roll once (a payer's die), for its follow-up: the
    procedure's `earned` reads it from the roll itself (Python chains it, not the page: issue 28), False for procedures that earn nothing."""
    m = procedures.PROCEDURES[system]
    if not isinstance(roll, dict) or roll.get("system") != m.ID:
        return False  # not a roll of this system: api.act refuses it, naming the field
    return m.earned(roll)


def _next_form(system: str, request: dict, refill: dict | None) -> dict:
    """The form as a roll leaves it, and its odds, so the page asks for nothing more: the fields the sheet fills now
    over the rest, and what is spent for one roll only unticked (fields.unticked)."""
    after = fields.unticked(procedures.PROCEDURES[system].FIELDS, {**request, **(refill or {})})
    try:
        odds = engine.odds(system, after)
    except RulesError:
        odds = None  # a form the rules refuse: the page asks, and says why by the field
    return {"request": after, "odds": odds}


def spends(cost: Costs, request: Any, choices: Any, tables: dict) -> str | None:
    """What a roll of `request` takes from the table, in the words Roll says it with ("1 Will (2 left)", and each
    payer's own: stored.Payer.spent), or None when it takes nothing: each count of the sheet (by its label, without
    what follows it in brackets: "Will (current)" says Will) and of a payer that paying its costs lowers."""
    try:
        costs = cost(request, None, choices)
    except RulesError:
        return None
    payers = Payers(tables)
    if payers.try_all(costs, []) is not None:
        return None
    said = []
    if payers.changed[CHARACTER]:
        kind = records.KINDS[tables[CHARACTER]["kind"]]
        for f in kind.SHEET.fields:
            if isinstance(f, fields.Int):
                before, after = tables[CHARACTER]["sheet"].get(f.name), payers.who["sheet"].get(f.name)
                if isinstance(before, int) and isinstance(after, int) and after < before:
                    said.append(f"{before - after} {f.label.split(' (')[0]} ({after} left)")
    for key, payer in PAYERS.items():
        if payers.changed[key]:
            before, after = tables[key][payer.count], payers.held[key][payer.count]
            if after < before:
                said.append(payer.spent(before, after))
    return ", ".join(said) or None


def check(system: str, request: Any, roll: Any = None, table: Any = None, choices: Any = None) -> dict:
    """What the table would refuse, as it stands: {"ahead": why a roll of `request` could not be paid (null if it can),
    "choices": for each of `roll`'s choices, null, why taking its action could not be paid, or a list of those, one for
    each action of a choice of several (Pay the Price's options), "spends": what the roll takes from the table, in
    words (spends), or null}. Nothing is changed."""
    return _check(Costs(system), request, roll, read_table(table), choices)


def _check(cost: Costs, request: Any, roll: Any, tables: dict, choices: Any) -> dict:
    """check(), each cost asked of `cost` (a tap's: computed once for the whole tap)."""

    def refused(req: Any, action: Any, picked: Any = None) -> dict | None:
        try:
            costs = cost(req, action, picked)
        except RulesError:
            return None  # a request or action the rules refuse: said by its field (odds, act), not as a cost
        return Payers(tables).try_all(costs, [])

    out: dict = {"ahead": refused(request, None, choices), "choices": [], "spends": None}
    if out["ahead"] is None:
        out["spends"] = spends(cost, request, choices, tables)
    if isinstance(roll, dict):
        for choice in roll.get("choices") or ():
            if "action" in choice:
                out["choices"].append(refused(roll.get("request"), choice["action"]))
            elif "actions" in choice:
                out["choices"].append([refused(roll.get("request"), a) for a in choice["actions"]])
            else:
                out["choices"].append(None)
    return out
