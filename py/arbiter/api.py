"""The one door the page (and the CLI) uses: JSON-safe dicts in and out, errors as `RulesError`.

Each door is a function of the module that does its job, named here: the engine's checked operations (engine.py:
roll, act, odds, odds_after, luck, costs, after_roll, table, the table's records, ...), a tap at the table (tap.py:
turn, check), the share links (links.py), a shared roll taken into this table (receive.py: add_shared) and what
crosses a live table (live.py: live_roll, live_table, live_read). This module keeps only the door: which functions the
page may call (DOORS) and how it calls them (`call_json`: JSON text in and out, errors as values, after calling `start`
once).
"""

from __future__ import annotations

import json
import random

from . import __version__
from .engine import (
    act,
    after_roll,
    check_record,
    check_sheet,
    costs,
    dice_needed,
    dice_needed_act,
    fairness,
    fairness_summary,
    luck,
    luck_entry,
    luck_summary,
    odds,
    odds_after,
    request_from_sheet,
    roll,
    systems,
    table,
    table_spec,
)
from .errors import RulesError
from .links import read_links, share_link, share_table, shared_roll, shared_table
from .live import live_read, live_roll, live_table
from .receive import add_shared
from .tap import check, turn

# The doors the page may call, by name: build.py writes them into the worker (the methods it passes on) and its
# client (`arbiter.oddsAfter(...)` for odds_after), py/tools/doors.py.
_DOOR_FUNCTIONS = (
    systems,
    roll,
    act,
    dice_needed,
    dice_needed_act,
    odds,
    odds_after,
    luck,
    luck_entry,
    luck_summary,
    fairness,
    fairness_summary,
    share_link,
    shared_roll,
    read_links,
    add_shared,
    share_table,
    shared_table,
    live_roll,
    live_table,
    live_read,
    table,
    table_spec,
    check_sheet,
    check_record,
    costs,
    after_roll,
    request_from_sheet,
    turn,
    check,
)
DOORS = tuple(f.__name__ for f in _DOOR_FUNCTIONS)


def call_json(method: str, args_json: str) -> str:
    """Call the door `method` (one of DOORS) with the JSON list `args_json`: {"ok": true, "value": ...}, or
    {"ok": false, "kind": "RulesError" or "InternalError", "error": ...}, as JSON text (never raises); a RulesError
    also brings its "path" and "says" (the field it names, and what it says of it, for the page's own words) and
    "left" (how much its holder has left, or null: RulesError.left)."""
    try:
        if method not in DOORS:
            raise AttributeError(f"arbiter.api has no door {method!r:.100} (DOORS)")
        value = globals()[method](*json.loads(args_json))
        return json.dumps({"ok": True, "value": value}, allow_nan=False)
    except RulesError as exc:
        return json.dumps({"ok": False, **exc.as_json()})
    except Exception as exc:
        return json.dumps(
            {"ok": False, "kind": "InternalError", "error": f"Internal error in {method}: {type(exc).__name__}: {exc}"}
        )


def start() -> str:
    """Called once after each restore of the page's memory snapshot: reseeds the global `random` from the OS and
    returns the package version.

    Every load restores the same memory, so the global `random` state would repeat. The rules never use it (an
    unseeded roll draws from secrets.SystemRandom, the OS); this only keeps anything else that might from repeating.
    """
    random.seed()
    return __version__
