"""py/tools/snapshot_setup.py, run here under CPython: before the page's memory snapshot it calls every door of
arbiter.api (a module first imported after the snapshot would not be found), and a second round imports nothing."""

import inspect
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Runs the setup with api.call_json recording each method it is asked for; prints them and the setup's own report.
PROBE = """
import json, sys
from arbiter import api
called = set()
door = api.call_json
def recording(method, args_json):
    called.add(method)
    return door(method, args_json)
api.call_json = recording
source = open(sys.argv[1], encoding="utf-8").read()
*body, last = source.rstrip().splitlines()
namespace = {}
exec("\\n".join(body), namespace)
print(json.dumps({"called": sorted(called), "report": json.loads(eval(last, namespace))}))
"""


def run_setup(probe: str):
    """Run `probe` under CPython with snapshot_setup.py's path as its argument; the JSON it prints."""
    setup = ROOT / "py" / "tools" / "snapshot_setup.py"
    run = subprocess.run(
        [sys.executable, "-c", probe, str(setup)],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(ROOT / "py")},
        cwd=ROOT,
    )
    return json.loads(run.stdout)


def test_the_snapshot_setup_calls_every_door_of_the_api():
    """Every public door of arbiter.api but start, call_json and systems (called directly) goes through call_json
    once, and the second round imports no module the first did not."""
    from arbiter import api

    out = run_setup(PROBE)
    doors = {
        name
        for name, value in vars(api).items()
        if inspect.isfunction(value) and not name.startswith("_") and value.__module__.startswith("arbiter.")
    }
    assert {"table_spec", "check_sheet", "check_record", "costs", "after_roll", "request_from_sheet"} <= doors
    assert doors - {"start", "call_json", "systems"} <= set(out["called"])
    assert out["report"]["late_imports"] == []


def test_the_snapshot_setup_refuses_the_codecs_whose_tables_the_snapshot_drops():
    """After the setup, importing a CJK codec (a builtin module under Pyodide, importable without the stdlib, whose
    tables the snapshot holds as zeros) raises ImportError with the reason; other modules still import."""
    probe = """
import importlib, json, sys
source = open(sys.argv[1], encoding="utf-8").read()
*body, last = source.rstrip().splitlines()
exec("\\n".join(body), {})
answers = {}
for name in ("_codecs_jp", "_codecs_kr", "_codecs_cn", "_codecs_tw", "_codecs_hk", "_codecs_iso2022", "_bisect"):
    try:
        importlib.import_module(name)
        answers[name] = "imported"
    except ImportError as error:
        answers[name] = str(error)
print(json.dumps(answers))
"""
    answers = run_setup(probe)
    assert answers.pop("_bisect") == "imported"
    for name, answer in answers.items():
        assert answer == f"{name} is left out of Arbiter's build: its tables are not in the snapshot"
