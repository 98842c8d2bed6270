"""An opt-in pytest plugin: the CPU seconds each test burns in its whole process tree (pytest, the Playwright driver,
Chromium and its renderers, build.py's server thread, any program the test starts), next to its wall time, and a
table per module at the end. On a machine shared with other work, CPU seconds move far less with the load than wall
time (about 12% between a load of 9-20 and one of 30-58 on 2 cores, where wall time moved 2-3 times), so they are
what a change to the suite's speed is measured in, at a like load (docs/performance.md, "Test suite").

    ARBITER_CPU_REPORT=cpu.jsonl .venv/bin/python -m pytest tests/browser -n 0 -q

Each test (setup, call and teardown: a session fixture's start lands on the first test that needs it) appends one
JSON line {"test", "cpu", "wall"} to that file (`1` means `cpu-report.jsonl` in the working folder); under
pytest-xdist every worker appends its own tests' lines. The terminal summary then reads the file and prints the
modules by CPU and by wall minus CPU (waiting). `python3 tests/cpu_report.py FILE` prints the same from a file.

How it counts: /proc/<pid>/stat of this process and every descendant, utime + stime of each (the CPU of its live
threads) plus cutime + cstime (that of its children that ended and were waited for: a renderer that closed is
counted in the browser process that reaped it, so nothing that ended during the test is lost, nothing counted
twice). A process that leaves the tree without being waited for in it takes its CPU with it: a test then reads
less, even below zero (seen for 4 of 361 browser tests on xdist workers, a few hundred CPU seconds each: what a
worker's Chromium had burnt before); the table counts such a test as 0 and names it. Linux only; elsewhere the
plugin says so and records nothing."""

from __future__ import annotations

import json
import os
import sys
import time
from collections import defaultdict
from pathlib import Path

import pytest

ENV = "ARBITER_CPU_REPORT"
_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _stat(pid: int) -> tuple[int, float] | None:
    """(parent pid, CPU seconds of `pid` and its waited-for children) from /proc, or None if it is gone."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = raw[raw.rindex(")") + 2 :].split()  # after "pid (comm) ": state is fields[0]
    ppid = int(fields[1])
    utime, stime, cutime, cstime = (int(v) for v in fields[11:15])
    return ppid, (utime + stime + cutime + cstime) / _TICK


def tree_cpu(root: int | None = None) -> float:
    """CPU seconds so far of process `root` (this one if None) and all its descendants, live or ended and reaped."""
    root = root or os.getpid()
    parent: dict[int, int] = {}
    cpu: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            got = _stat(int(entry))
            if got:
                parent[int(entry)], cpu[int(entry)] = got
    total = 0.0
    for pid, seconds in cpu.items():
        p = pid
        while p and p != root:
            p = parent.get(p, 0)
        if p == root:
            total += seconds
    return total


_KEY = pytest.StashKey[Path]()


def _target() -> Path | None:
    value = os.environ.get(ENV, "")
    if not value or value == "0":
        return None
    return Path("cpu-report.jsonl" if value == "1" else value).resolve()


def pytest_configure(config):
    target = _target()
    if target is None:
        return
    if not Path("/proc/self/stat").exists():
        print(f"{ENV}: no /proc here; no CPU report", file=sys.stderr)
        return
    config.stash[_KEY] = target
    if not os.environ.get("PYTEST_XDIST_WORKER") and target.exists():
        target.unlink()  # a new run: the controller (or the one process) starts the file afresh


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    target = item.config.stash.get(_KEY, None)
    if target is None:
        yield
        return
    cpu0, wall0 = tree_cpu(), time.monotonic()
    yield
    line = {"test": item.nodeid, "cpu": round(tree_cpu() - cpu0, 2), "wall": round(time.monotonic() - wall0, 2)}
    with open(target, "a") as out:
        out.write(json.dumps(line) + "\n")


def table(lines: list[dict], top: int = 15) -> str:
    """The per-module figures of `lines` as text: totals, then the top modules by CPU and by wall minus CPU."""
    lost = [line for line in lines if line["cpu"] < 0]
    lines = [{**line, "cpu": max(0.0, line["cpu"])} for line in lines]
    modules: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0.0])
    for line in lines:
        m = modules[line["test"].split("::")[0]]
        m[0] += 1
        m[1] += line["cpu"]
        m[2] += line["wall"]
    cpu = sum(m[1] for m in modules.values())
    wall = sum(m[2] for m in modules.values())
    out = [f"CPU report: {len(lines)} tests, {cpu:.0f} CPU s, {wall:.0f} s of tests' wall time"]
    if lost:  # a process that had burnt CPU left the tree without being waited for in it: its CPU is not seen
        out.append(
            f"{len(lost)} tests counted as 0 CPU s (the tree lost more than they burnt): "
            + ", ".join(f"{line['test']} ({line['cpu']:.1f})" for line in lost)
        )
    for title, key in (("by CPU", lambda kv: -kv[1][1]), ("by wall - CPU (waiting)", lambda kv: kv[1][1] - kv[1][2])):
        out.append(f"modules {title}:  tests  CPU s  wall s  wall-CPU s  module")
        for name, (n, c, w) in sorted(modules.items(), key=key)[:top]:
            out.append(f"  {n:5d} {c:7.1f} {w:7.1f} {w - c:8.1f}   {name}")
    slowest = sorted(lines, key=lambda line: -line["cpu"])[:10]
    out.append("tests by CPU:  CPU s  wall s  test")
    out += [f"  {line['cpu']:7.1f} {line['wall']:7.1f}   {line['test']}" for line in slowest]
    return "\n".join(out)


def read(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def pytest_terminal_summary(terminalreporter, config):
    target = config.stash.get(_KEY, None)
    if target is None or os.environ.get("PYTEST_XDIST_WORKER") or not target.exists():
        return
    terminalreporter.write_sep("-", f"CPU seconds per test: {target}")
    terminalreporter.write_line(table(read(target)))


if __name__ == "__main__":
    print(table(read(Path(sys.argv[1])), top=int(sys.argv[2]) if len(sys.argv) > 2 else 15))
