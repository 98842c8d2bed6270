"""Lighthouse's mobile run against the built site, several times, with what each run found: `python3 build.py
lighthouse [--runs N] [--keep DIR]`.

The site is served as GitHub Pages serves it (under /arbiter/, max-age=600, gzip) by build.py's own server, and each
run is Lighthouse's default mobile preset (simulated slow 4G and 4× CPU) in a fresh Chromium profile, so a first
visit. Lighthouse is the pinned npm package of py/tools/lighthouse/ (package-lock.json holds every package's
integrity hash), installed once with `npm ci` into .cache/ and never shipped. Each run prints its scores, its total
blocking time and every task of its long-tasks audit (over 50 ms as simulated: 12.5 ms of real time, or 25 ms for a
task that lays out) with the file it is attributed to and what the time went to; the last line says in how many runs
the goal held: Performance ≥ 95, Accessibility and Best Practices 100, and no long task from the site's own files.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
import urllib.request
from pathlib import Path

from . import BuildError
from .npmtool import npm_tool
from .server import Server
from .testenv import CHROMIUM_ARGS, chromium_path

HERE = Path(__file__).resolve().parent / "lighthouse"  # package.json and package-lock.json
BASE = "/arbiter/"
CATEGORIES = ("performance", "accessibility", "best-practices")
CHROME_FLAGS = " ".join(("--headless=new", *CHROMIUM_ARGS, "--no-first-run"))
# Lighthouse's names for where a task's time went (its long-tasks audit's debugData), shortened for one line.
GROUPS = {
    "parseHTML": "parse",
    "styleLayout": "style+layout",
    "paintCompositeRender": "paint",
    "scriptParseCompile": "compile",
    "scriptEvaluation": "script",
    "garbageCollection": "gc",
    "other": "other",
}


def summarize(report: dict, origin: str) -> dict:
    """What one run found: the scores (0–100), total blocking time, and the long tasks, each with its file (relative
    to the site when it is one of ours), its simulated duration and where its time went."""
    scores = {c: round(report["categories"][c]["score"] * 100) for c in CATEGORIES}
    audit = report["audits"]["long-tasks"]
    details = audit.get("details") or {}
    debug = details.get("debugData") or {"urls": [], "tasks": []}
    tasks = []
    for task in debug["tasks"]:
        url = debug["urls"][task["urlIndex"]]
        groups = {GROUPS.get(k, k): v for k, v in task.items() if k not in ("urlIndex", "startTime", "duration")}
        tasks.append(
            {
                "url": url.removeprefix(origin) if url.startswith(origin) else url,
                "ours": url.startswith(origin),
                "ms": task["duration"],
                "start": task["startTime"],
                "groups": dict(sorted(groups.items(), key=lambda kv: -kv[1])),
            }
        )
    return {
        "scores": scores,
        "tbt": round(report["audits"]["total-blocking-time"]["numericValue"]),
        "tasks": sorted(tasks, key=lambda t: -t["ms"]),
    }


def met(summary: dict) -> bool:
    s = summary["scores"]
    return (
        s["performance"] >= 95
        and s["accessibility"] == 100
        and s["best-practices"] == 100
        and not any(t["ours"] for t in summary["tasks"])
    )


def describe(i: int, summary: dict) -> str:
    s = summary["scores"]
    lines = [
        f"run {i}: Performance {s['performance']}, Accessibility {s['accessibility']}, Best Practices "
        f"{s['best-practices']}, total blocking time {summary['tbt']} ms, long tasks {len(summary['tasks'])}"
        f" ({sum(t['ours'] for t in summary['tasks'])} from our files)"
    ]
    for t in summary["tasks"]:
        where = ", ".join(f"{k} {v:.0f}" for k, v in t["groups"].items() if v >= 1)
        lines.append(
            f"    {t['ms']:5.0f} ms at {t['start']:6.0f}  {t['url'] or '(the page)'}"
            f"{'' if t['ours'] else '  [not ours]'}  ({where})"
        )
    return "\n".join(lines)


def warm(origin: str, dist: Path) -> None:
    """Ask for every file once, gzipped, so the server has compressed each before the first run: GitHub Pages sends
    them compressed already, and compressing the 8 MB wasm during a run would take a core from the page measured."""
    for path in sorted(p for p in dist.rglob("*") if p.is_file()):
        request = urllib.request.Request(
            origin + path.relative_to(dist).as_posix(), headers={"Accept-Encoding": "gzip, deflate, br"}
        )
        with urllib.request.urlopen(request) as response:
            response.read()


def lighthouse(dist: Path, runs: int = 3, keep: Path | None = None) -> int:
    """Run Lighthouse `runs` times on `dist` served under /arbiter/; print each run; 0 when every run met the goal.
    `keep`: a folder for each run's report and trace (run-N.report.json, run-N.report-0.trace.json)."""
    cli = npm_tool(HERE, "lighthouse")
    chrome = chromium_path()
    if not chrome:
        raise BuildError("no Chromium found: `python3 build.py test` installs Debian's")
    env = {**os.environ, "CHROME_PATH": chrome}
    results = []
    with (
        tempfile.TemporaryDirectory(prefix="arbiter-lh-") as tmp,
        Server({BASE: dist}, 0, cache_control="max-age=600").start() as server,
    ):
        out = keep or Path(tmp)
        out.mkdir(parents=True, exist_ok=True)
        origin = server.url.rstrip("/") + BASE
        warm(origin, dist)
        for i in range(1, runs + 1):
            path = out / f"run-{i}.report.json"
            cmd = [
                str(cli),
                origin,
                "--quiet",
                "--output=json",
                f"--output-path={path}",
                f"--only-categories={','.join(CATEGORIES)}",
                f"--chrome-flags={CHROME_FLAGS}",
            ]
            if keep:
                cmd.append("--save-assets")
            done = subprocess.run(cmd, env=env, capture_output=True, text=True)
            if done.returncode or not path.exists():
                raise BuildError(f"Lighthouse failed (exit {done.returncode}):\n{done.stdout}{done.stderr}")
            summary = summarize(json.loads(path.read_text()), origin)
            results.append(summary)
            print(describe(i, summary), flush=True)
        server.shutdown()
    good = sum(met(s) for s in results)
    print(
        f"goal (Performance ≥ 95, Accessibility 100, Best Practices 100, no long task from our files) met in "
        f"{good} of {runs} runs",
        flush=True,
    )
    return 0 if good == runs else 1
