"""tests/cpu_report.py, the opt-in CPU report: a child's CPU is counted in the tree while it runs and after it ended
(reaped, in its parent's count), and the table sums the tests by module, a test below zero counted as 0."""

from __future__ import annotations

import json
import subprocess
import sys

import cpu_report

# A child that burns half a second of its own CPU (measured by itself, whatever the machine's load), then waits to be
# told to end.
BURN = """import sys, time
while time.process_time() < 0.5:
    pass
print("burnt", flush=True)
sys.stdin.read()"""


def test_a_childs_cpu_is_counted_while_it_runs_and_after_it_ended():
    before = cpu_report.tree_cpu()
    child = subprocess.Popen([sys.executable, "-c", BURN], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline() == "burnt\n"
    running = cpu_report.tree_cpu() - before
    child.communicate("")  # ends it and reaps it: its CPU moves into this process's cutime
    ended = cpu_report.tree_cpu() - before
    assert running >= 0.45 and ended >= 0.45, (running, ended)
    assert ended >= running - 0.02  # nothing lost when it ended


def test_a_process_outside_the_tree_is_not_counted():
    child = subprocess.Popen([sys.executable, "-c", BURN], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline() == "burnt\n"
        assert cpu_report.tree_cpu(child.pid) >= 0.45
        assert cpu_report.tree_cpu(child.pid) < cpu_report.tree_cpu()  # the child is in this tree, not the reverse
    finally:
        child.communicate("")


def test_the_table_sums_each_module(tmp_path):
    lines = [
        {"test": "tests/a.py::one", "cpu": 1.5, "wall": 4.0},
        {"test": "tests/a.py::two", "cpu": 2.5, "wall": 3.0},
        {"test": "tests/b.py::one", "cpu": 0.5, "wall": 9.5},
        {"test": "tests/b.py::two", "cpu": -280.0, "wall": 2.0},
    ]
    path = tmp_path / "cpu.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    text = cpu_report.table(cpu_report.read(path))
    first, second = text.splitlines()[:2]
    assert first == "CPU report: 4 tests, 4 CPU s, 18 s of tests' wall time"  # below zero is counted as 0
    assert second == "1 tests counted as 0 CPU s (the tree lost more than they burnt): tests/b.py::two (-280.0)"
    by_cpu, by_waiting = text.split("modules by CPU")[1].split("modules by wall")
    assert by_cpu.index("tests/a.py") < by_cpu.index("tests/b.py")
    assert "    2     4.0     7.0      3.0   tests/a.py" in by_cpu
    assert by_waiting.index("tests/b.py") < by_waiting.index("tests/a.py")  # 11 s waiting against 3
