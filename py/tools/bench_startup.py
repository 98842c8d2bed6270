"""Start-up benchmark: the built site against a bare page that only calls stock Pyodide's loadPyodide().

Run by `python3 build.py bench` with the test venv's Python (it needs Playwright). Both pages are served by
build.py's own server (py/tools/server.py), the way GitHub Pages serves them (gzip, ETag, Cache-Control:
max-age=600): the site at /arbiter/, the bare page and the stock npm files (pyodide.mjs, pyodide.asm.mjs,
pyodide.asm.wasm, python_stdlib.zip, pyodide-lock.json, unchanged) at /bare/. Each run uses a fresh Chromium
profile for the cold visit, then starts Chromium again on that profile for the warm (second) visit. Figures are
medians over the runs, one per line.

    .venv/bin/python py/tools/bench_startup.py DIST [--runs N]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "py"))  # the package `tools`, of which this script is a part
from tools.fetch import fetch_pyodide, unpack_pyodide  # noqa: E402
from tools.server import Server  # noqa: E402
from tools.testenv import CHROMIUM_ARGS, chromium_path  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

LAUNCH_ARGS = [*CHROMIUM_ARGS, "--no-first-run"]
STOCK_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
BARE_PAGE = """<!doctype html><html lang="en"><meta charset="utf-8"><title>bare Pyodide</title>
<script type="module">
import { loadPyodide } from "./pyodide.mjs";
loadPyodide().then(() => performance.mark("bare:ready"), (e) => { document.title = "failed: " + e; });
</script>"""

# Runs in every page before its own scripts: long tasks, and the first frame in which a form is visible.
PROBE = """
window.__bench = { longtasks: [], formsVisible: null };
try {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__bench.longtasks.push([e.startTime, e.duration]);
  }).observe({ type: "longtask", buffered: true });
} catch {}
const look = () => {
  const form = document.querySelector("form[data-system]");
  if (form && form.checkVisibility()) window.__bench.formsVisible = performance.now();
  else requestAnimationFrame(look);
};
requestAnimationFrame(look);
"""
SETTLE_MS = 1000  # "during load": until ready, and this long after (the page asks for every form's odds then)


def wait_for(page, expression: str, timeout_s: float = 60, arg=None):
    deadline = time.monotonic() + timeout_s
    while True:
        value = page.evaluate(expression, arg)
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out waiting for {expression}")
        time.sleep(0.02)


class Visit:
    """One page load in a browser profile: times (ms after navigation start), bytes over the wire, requests."""

    def __init__(self, playwright, profile: Path, server, url: str, ready_mark: str):
        self.server, self.url, self.ready_mark = server, url, ready_mark
        self.context = playwright.chromium.launch_persistent_context(
            str(profile), executable_path=chromium_path(), args=LAUNCH_ARGS, headless=True
        )
        self.context.add_init_script(PROBE)
        self.page = self.context.pages[0] if self.context.pages else self.context.new_page()

    def load(self) -> dict:
        page, server = self.page, self.server
        server.bytes_sent, server.requests[:] = 0, []
        page.goto(self.url)
        ready = wait_for(page, "(m) => performance.getEntriesByName(m)[0]?.startTime", arg=self.ready_mark)
        self.bytes_at_ready = server.bytes_sent  # seen within a poll of ready: what came before it, near enough
        page.wait_for_timeout(max(0, SETTLE_MS - (page.evaluate("performance.now()") - ready)))
        bench = page.evaluate("window.__bench")
        result = {
            "ready": ready,
            "forms": bench["formsVisible"],
            "longtasks": [d for start, d in bench["longtasks"] if start < ready + SETTLE_MS],
        }
        if self.ready_mark == "arbiter:ready":
            timings = page.evaluate("window.arbiter.timings")
            result["odds_max"] = max((t["ms"] for t in timings if t["method"] == "odds"), default=None)
            # The loading bar's moves with the downloads' bytes (engine/worker.js: at most one per 2 % and per 250 ms).
            result["bar_moves"] = page.evaluate("""performance.getEntriesByType('mark')
                .filter((m) => m.name.startsWith('arbiter:progress '))
                .map((m) => Number(m.name.split(' ')[1])).filter((v) => v > 0.02 && v < 0.8).length""")
            result["steps"] = {}  # the worker's own timeline: each step's first time, ms after navigation start
            for step in page.evaluate("window.arbiter.loadTimeline"):
                result["steps"].setdefault(step["what"], step["ms"])
        return result

    def settle_offline_copy(self) -> None:
        """Wait until the service worker has the whole build, and the QR code's files saved after ready (part of a
        first visit's bytes)."""
        wait_for(
            self.page,
            """() => navigator.serviceWorker.getRegistration().then((r) =>
            !!r && !!r.active && !r.installing && !r.waiting && r.active.state === 'activated'
            && document.documentElement.dataset.offlineQr === 'saved')""",
        )
        self.page.wait_for_timeout(300)

    def rolls(self, count: int = 30) -> list[float]:
        return self.page.evaluate(
            """async (count) => {
            const systems = Object.keys(JSON.parse(document.getElementById('arbiter-systems').textContent));
            const spec = JSON.parse(document.getElementById('arbiter-systems').textContent);
            const out = [];
            for (let i = 0; i < count; i++) {
                const s = systems[i % systems.length];
                const t0 = performance.now();
                await window.arbiter.roll(s, spec[s].defaults);
                out.push(performance.now() - t0);
            }
            return out;
        }""",
            count,
        )

    def close(self) -> None:
        self.context.close()


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else float("nan")


def run(dist: Path, runs: int) -> dict:
    runtime = unpack_pyodide(fetch_pyodide())
    figures: dict[str, list] = {}

    def add(name, value):
        figures.setdefault(name, []).append(value)

    with tempfile.TemporaryDirectory(prefix="arbiter-bench-") as tmp:
        bare = Path(tmp) / "bare"
        bare.mkdir()
        for name in STOCK_FILES:
            shutil.copyfile(runtime / name, bare / name)
        (bare / "index.html").write_text(BARE_PAGE, encoding="utf-8")
        server = Server({"/arbiter/": dist, "/bare/": bare}, cache_control="max-age=600").start()
        try:
            with sync_playwright() as playwright:
                for i in range(runs):
                    profiles = Path(tmp) / f"run-{i}"
                    for kind, url, mark in (("app", "arbiter/", "arbiter:ready"), ("bare", "bare/", "bare:ready")):
                        profile = profiles / kind
                        visit = Visit(playwright, profile, server, server.url + url, mark)
                        cold = visit.load()
                        if kind == "app":
                            visit.settle_offline_copy()
                        add(f"{kind} cold bytes", server.bytes_sent)
                        add(f"{kind} cold bytes before ready", visit.bytes_at_ready)
                        visit.close()
                        visit = Visit(playwright, profile, server, server.url + url, mark)
                        warm = visit.load()
                        add(f"{kind} warm bytes", server.bytes_sent)
                        add(f"{kind} warm requests", [f"{m} {p} {c}" for m, p, c in server.requests])
                        if kind == "app":
                            add("roll", median(visit.rolls()))
                        visit.close()
                        for label, result in (("cold", cold), ("warm", warm)):
                            add(f"{kind} {label} ready", result["ready"])
                            add(f"{kind} {label} forms", result["forms"])
                            add(f"{kind} {label} longtasks", len(result["longtasks"]))
                            add(f"{kind} {label} longest task", max(result["longtasks"], default=0))
                            if kind == "app":
                                add(f"{kind} {label} odds", result["odds_max"])
                                add(f"{kind} {label} bar moves", result["bar_moves"])
                                for step, ms in result["steps"].items():
                                    add(f"{kind} {label} step {step}", ms)
                    print(
                        f"  run {i + 1}/{runs}: app ready {cold_warm(figures, 'app')}, "
                        f"bare ready {cold_warm(figures, 'bare')}",
                        flush=True,
                    )
        finally:
            server.shutdown()
            server.server_close()
    return figures


def cold_warm(figures, kind):
    return f"{figures[f'{kind} cold ready'][-1]:.0f}/{figures[f'{kind} warm ready'][-1]:.0f} ms"


def report(figures: dict, runs: int) -> list[str]:
    m = {
        name: median(values)
        for name, values in figures.items()
        if name != "app warm requests" and name != "bare warm requests"
    }
    ratio_cold = m["app cold ready"] / m["bare cold ready"]
    ratio_warm = m["app warm ready"] / m["bare warm ready"]
    warm_requests = sorted({r for rs in figures["app warm requests"] for r in rs})
    after_ready = median([a - b for a, b in zip(figures["app cold bytes"], figures["app cold bytes before ready"])])
    lines = [
        f"startup: medians of {runs} runs, headless Chromium, cold = fresh profile, warm = second visit",
        f"app cold: forms visible                {m['app cold forms']:8.0f} ms   (target <= 300)",
        f"app cold: arbiter.ready                {m['app cold ready']:8.0f} ms",
        f"bare cold: loadPyodide() ready         {m['bare cold ready']:8.0f} ms",
        f"cold ratio app/bare                    {ratio_cold:8.2f}      (target <= 0.40)",
        f"app warm: forms visible                {m['app warm forms']:8.0f} ms   (target <= 300)",
        f"app warm: arbiter.ready                {m['app warm ready']:8.0f} ms",
        f"bare warm: loadPyodide() ready         {m['bare warm ready']:8.0f} ms",
        f"warm ratio app/bare                    {ratio_warm:8.2f}      (target <= 0.30)",
        f"app first visit before ready (gzip)    {m['app cold bytes before ready'] / 1e6:8.3f} MB  (target <= 6.5; "
        f"{m['app cold bytes before ready'] / 2**20:.3f} MiB)",
        f"app offline copy saved after ready     {after_ready / 1e3:8.1f} kB  (the service worker's copy: what the "
        "visit did not fetch, and the QR code's encoder and decoder)",
        f"app first visit over the wire, in all  {m['app cold bytes'] / 1e6:8.3f} MB",
        f"bare first visit over the wire (gzip)  {m['bare cold bytes'] / 1e6:8.3f} MB",
        f"app repeat visit over the wire         {m['app warm bytes'] / 1e3:8.1f} kB  requests: "
        f"{', '.join(warm_requests) or 'none'}",
        f"app main-thread tasks > 50 ms, cold    {m['app cold longtasks']:8.0f}      (longest "
        f"{max(figures['app cold longest task']):.0f} ms; target 0)",
        f"app main-thread tasks > 50 ms, warm    {m['app warm longtasks']:8.0f}      (longest "
        f"{max(figures['app warm longest task']):.0f} ms; target 0)",
        f"roll round trip (median of 30 rolls)   {m['roll']:8.1f} ms   (target <= 30)",
        f"slowest odds request in the page, cold {m['app cold odds']:8.1f} ms",
        f"slowest odds request in the page, warm {m['app warm odds']:8.1f} ms",
        f"loading bar moves with the bytes, cold {m['app cold bar moves']:8.0f}      (downloads: the steps below)",
        f"loading bar moves with the bytes, warm {m['app warm bar moves']:8.0f}",
    ]
    # Where the time goes: the Python worker's steps (static/engine/worker.js), each a median, for cold and warm.
    for label in ("cold", "warm"):
        prefix = f"app {label} step "
        steps = sorted((value, name[len(prefix) :]) for name, value in m.items() if name.startswith(prefix))
        lines.append(
            f"app {label}: the worker's steps (ms after navigation start): "
            + ", ".join(f"{what.rstrip('…')} {ms:.0f}" for ms, what in steps)
        )
    return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dist", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", type=Path, help="also write every run's figures here")
    args = parser.parse_args(argv)
    print(f"Timing start-up: {args.runs} runs of the app and of bare stock Pyodide, cold and warm …", flush=True)
    figures = run(args.dist.resolve(), args.runs)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1))
    print("\n".join(report(figures, args.runs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
