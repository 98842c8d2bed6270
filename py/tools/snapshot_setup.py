"""Run inside Pyodide at build time, just before the memory snapshot is taken (py/tools/pyodide_build.mjs).

It defines the two functions static/worker.js calls after restoring the snapshot, imports everything the rules use
by calling every door of `arbiter.api` once, checks that a second round imports nothing new (the page mounts no
stdlib: a module first imported after the snapshot would not be found), and tidies up so the snapshot is small.
The last expression is a JSON report for the build.
"""

import gc
import importlib
import json
import linecache
import random
import re
import sys
import zipimport

import arbiter
from arbiter import RulesError, api


def _arbiter_call(method, args_json):
    """One request from the page: JSON in, JSON out, errors as values (the worker's only way into Python)."""
    try:
        value = getattr(api, method)(*json.loads(args_json))
        return json.dumps({"ok": True, "value": value}, allow_nan=False)
    except RulesError as exc:
        return json.dumps({"ok": False, "kind": "RulesError", "error": str(exc)})
    except Exception as exc:
        return json.dumps({"ok": False, "kind": "InternalError",
                           "error": f"Internal error in {method}: {type(exc).__name__}: {exc}"})


def _arbiter_start():
    """Called once after each restore. Every load restores the same memory, so the global `random` state would
    repeat; reseed it from the OS. (Dice never use it: unseeded rolls draw from secrets.SystemRandom, the OS.)"""
    random.seed()
    return arbiter.__version__


def _exercise():
    def call(method, *args):
        return json.loads(_arbiter_call(method, json.dumps(args)))

    for system in api.systems():
        sid, defaults = system["id"], system["defaults"]
        call("odds", sid, defaults)
        rolled = call("roll", sid, defaults, 1)
        call("roll", sid, defaults)
        call("act", sid, rolled.get("value"), {}, 2)
        for op in system.get("table_ops", []):
            call("table", sid, op, {}, {})
    call("odds", "no such system", {})
    call("no_such_method")


_exercise()
_before = set(sys.modules)
_exercise()
_late = sorted(set(sys.modules) - _before)

# The page mounts an empty stdlib zip at the same path: forget this one's directory, and every cache worth nothing.
zipimport._zip_directory_cache.clear()
sys.path_importer_cache.clear()
importlib.invalidate_caches()
linecache.clearcache()
re.purge()
gc.collect()

json.dumps({"modules": len(sys.modules), "late_imports": _late, "version": arbiter.__version__})
