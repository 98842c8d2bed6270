"""Run inside Pyodide at build time, just before the memory snapshot is taken (py/tools/pyodide_build.mjs).

It imports everything the rules use by calling every door of `arbiter.api` once through `api.call_json` (after
`api.start`), the two functions static/engine/worker.js calls after restoring the snapshot, checks that a second round
imports nothing new (the page mounts no stdlib: a module first imported after the snapshot would not be found),
and tidies up so the snapshot is small. The last expression is a JSON report for the build.
"""

import gc
import importlib
import json
import linecache
import re
import sys
import zipimport

import arbiter
from arbiter import api, share


def _exercise():
    def call(method, *args):
        return json.loads(api.call_json(method, json.dumps(args)))

    api.start()

    systems = api.systems()
    sheets = {s["id"]: s["sheet"]["default"] for s in systems if s["sheet"]}
    for system in systems:
        sid, defaults = system["id"], system["defaults"]
        call("odds", sid, defaults)
        rolled = call("roll", sid, defaults, 1)
        call("roll", sid, defaults)
        call("act", sid, rolled.get("value"), {}, 2)
        drawn = (rolled.get("value") or {}).get("drawn", [])
        call("roll", sid, defaults, None, drawn)
        call("dice_needed", sid, defaults, drawn[:-1])
        call("dice_needed_act", sid, rolled.get("value"), {}, [])
        for choice in (rolled.get("value") or {}).get("choices", []):
            call("odds_after", sid, rolled["value"], (choice.get("odds") or {}).get("action") or {})
        call("odds_after", sid, rolled.get("value"), {})
        call("luck", sid, rolled.get("value"))
        kept = call("luck_entry", sid, rolled.get("value")).get("value")
        call("luck_summary", [{"time": "", "character": None, "system": sid, "luck": kept}] * 2)
        own = (rolled.get("value") or {}).get("drawn_own")
        call("fairness_summary", [{"time": "", "character": None, "system": sid, "source": "table", "own": own}])
        drawn = (rolled.get("value") or {}).get("drawn")
        shared = call("share_link", sid, defaults, [{"drawn": drawn}], "A", 0).get("value") or {}
        call("shared_roll", shared.get("fragment"))
        call("read_links", [["r", shared.get("fragment")], ["r", "not-a-link"]])
        call(
            "add_shared", shared.get("fragment"), {"character": None, "scheme": {"scheme": 1, "tracked": True}}, [], []
        )
        live = call("live_roll", sid, defaults, [{"drawn": drawn}], "A", 0).get("value") or {}
        host = {"table": {"character": None, "scheme": {"scheme": 1, "tracked": True}}, "marked": [], "seen": []}
        call("live_read", live.get("text"), host)
        for op in system.get("table_ops", []):
            call("table", sid, op["name"], {d["name"]: d["default"] for d in op["state"]}, {})
        call("costs", sid, defaults)
        call("after_roll", sid, rolled.get("value"), {}, True)
        sheet = sheets.get(system["kind"])  # None: no character sheet rolls it (check_sheet refuses it)
        table = {
            "character": None if sheet is None else {"name": "A", "kind": system["kind"], "sheet": sheet},
            "scheme": {"scheme": 1, "tracked": True},
        }
        turned = call("turn", sid, {"request": defaults, "choices": None}, table).get("value") or {}
        call("turn", sid, {"roll": turned.get("roll"), "action": {}}, None)
        call("check", sid, defaults, turned.get("roll"), table)
        call("check_sheet", sid, sheet)
        call("request_from_sheet", sid, sheet, {})
    for sides in sorted({s["waiting_dice"]["sides"] for s in systems}):  # each die kind: its p and its power figure
        call("fairness", list(range(1, sides + 1)) * 5, sides)
    specs = call("table_spec")["value"]["records"]
    for name, record in specs.items():
        call("check_record", name, record["default"])
    price = {"current": "s", "situations": [{"id": "s", "name": "S", "marked": [], "player": ""}]}
    table = call("share_table", specs["scheme"]["default"], price, None).get("value") or {}
    call("shared_table", table.get("fragment"))
    pushed = call("live_table", specs["scheme"]["default"], price, "0" * share.ID_CHARS).get("value") or {}
    call("live_read", pushed.get("text"))
    call("odds", "no such system", {})
    call("no_such_method")


_exercise()
_before = set(sys.modules)
_exercise()
_late = sorted(set(sys.modules) - _before)

# Builtin modules whose static tables the snapshot holds as zeros (py/tools/snapshot.py's UNREACHABLE): importable
# without any stdlib, so importing them is refused here, before they could read those zeros.
LEFT_OUT = frozenset({"_codecs_cn", "_codecs_hk", "_codecs_iso2022", "_codecs_jp", "_codecs_kr", "_codecs_tw"})


class LeftOut:
    """A finder ahead of all others on sys.meta_path: the LEFT_OUT modules raise ImportError, with the reason."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if name in LEFT_OUT:
            raise ImportError(f"{name} is left out of Arbiter's build: its tables are not in the snapshot", name=name)
        return None


if LEFT_OUT & set(sys.modules):
    raise RuntimeError(f"the rules imported {sorted(LEFT_OUT & set(sys.modules))}, whose tables the snapshot drops")
sys.meta_path.insert(0, LeftOut)

# The page mounts an empty stdlib zip at the same path: forget this one's directory, and every cache worth nothing.
zipimport._zip_directory_cache.clear()
sys.path_importer_cache.clear()
importlib.invalidate_caches()
linecache.clearcache()
re.purge()
gc.collect()

json.dumps({"modules": len(sys.modules), "late_imports": _late, "version": arbiter.__version__})
