"""The rules in the browser: Pyodide in a Web Worker answers exactly as CPython's `arbiter.api` does."""

from __future__ import annotations

import json
import time
import re

import pytest

import arbiter
from arbiter import RulesError, api
from page_helpers import serve, wait_until

SYSTEMS = api.systems()

# Every call of the client, as [method, args], answered as {"ok": true, "value"} or {"ok": false, "error", "name"}.
CALL_ALL = """async (calls) => Promise.all(calls.map(([method, args]) =>
    window.arbiter[method](...args).then(
        (value) => ({ ok: true, value }),
        (error) => ({ ok: false, error: error.message, name: error.name }))))"""


def _filled(schema: dict, high: bool):
    """A request value for one field: its maximum (high) or minimum, as far as the type is known."""
    kind, default = schema["type"], schema.get("default")
    if kind == "int":
        return schema["max"] if high else schema["min"]
    if kind == "int_or_word":
        return schema["min"] if high else schema["words"][0]
    if kind == "int_list":
        return [schema["max"] if high else schema["min"]] * max(schema["min_len"], 1 if high else 0)
    if kind == "choice":
        return schema["options"][-1 if high else 0]["value"]
    if kind == "bool":
        return high
    if kind == "group":
        return {f["name"]: _filled(f, high) for f in schema["fields"]} if high else default
    if kind == "records":
        record = {f["name"]: f.get("default") for f in schema["fields"]}
        count = schema["max_len"] if high else schema["min_len"]
        return [{**record, "name": f"Threat {i + 1}"} if "name" in record else dict(record) for i in range(count)]
    return default


def requests_for(system: dict) -> list[dict]:
    """The system's defaults, and requests with every field at its top and at its bottom."""
    return [system["defaults"]] + [{f["name"]: _filled(f, high) for f in system["fields"]} for high in (True, False)]


def cpython(method: str, *args) -> dict:
    """What the browser should answer for `api.<method>(*args)`."""
    try:
        return {"ok": True, "value": getattr(api, method)(*args)}
    except RulesError as exc:
        return {"ok": False, "error": str(exc), "name": "RulesError"}


def canonical(value):
    """JSON as both sides mean it: JS has one number type (1.0 arrives as 1), but a bool is no number."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, (int, float)):
        return ("number", float(value)) if float(value) == value else ("number", value)
    if isinstance(value, dict):
        return {k: canonical(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [canonical(v) for v in value]
    raise TypeError(f"not JSON: {value!r}")


def call_all(page, calls: list[tuple[str, list]]) -> list[dict]:
    return page.evaluate(CALL_ALL, [[method, list(args)] for method, args in calls])


def assert_same(calls, got, want):
    mismatches = [
        f"{method}{tuple(args)!r}:\n  browser {json.dumps(g)[:600]}\n  CPython {json.dumps(w)[:600]}"
        for (method, args), g, w in zip(calls, got, want)
        if canonical(g) != canonical(w)
    ]
    assert not mismatches, f"{len(mismatches)} of {len(calls)} answers differ:\n" + "\n".join(mismatches)


def test_ready_resolves_with_the_wheel_version(page, await_ready):
    """window.arbiter.ready resolves once the rules are imported, after progress reports that end at 1."""
    page.goto("/")
    wait_until(page, "() => window.arbiter !== undefined")
    page.evaluate("() => { window.__progress = []; window.arbiter.onProgress((p) => window.__progress.push(p)); }")
    assert await_ready(page) == {"version": arbiter.__version__}
    assert page.evaluate("window.arbiter.status") == "ready"
    progress = page.evaluate("window.__progress")
    values = [p["progress"] for p in progress]
    assert values == sorted(values) and values[-1] == 1, progress
    assert all(p["label"] for p in progress) and not any("failed" in p for p in progress)


def test_systems_match_cpython(booted_page):
    """systems() in the browser is api.systems()."""
    page = booted_page
    calls = [("systems", [])]
    assert_same(calls, call_all(page, calls), [cpython("systems")])


def test_odds_match_cpython_exactly(booted_page):
    """odds() in the browser equals CPython's for each system's defaults, top and bottom requests, `exact` included."""
    page = booted_page
    calls = [("odds", [s["id"], request]) for s in SYSTEMS for request in requests_for(s)]
    want = [cpython(*[method, *args]) for method, args in calls]
    assert any(w["ok"] for w in want) and {s["id"] for s in SYSTEMS} <= {
        args[0] for (_, args), w in zip(calls, want) if w["ok"]
    }, "every system answers some request"
    assert_same(calls, call_all(page, calls), want)


def test_seeded_rolls_match_cpython(booted_page):
    """roll() with a seed gives the very roll CPython gives with that seed."""
    page = booted_page
    calls = [
        ("roll", [s["id"], request, seed]) for s in SYSTEMS for request in requests_for(s) for seed in (1, 20260101)
    ]
    assert_same(calls, call_all(page, calls), [cpython(*[method, *args]) for method, args in calls])


ACT_CASES = [
    (
        "threat",
        {
            "rating": 2,
            "threats": [{"name": "A", "desperate": False}, {"name": "B", "desperate": True}],
            "extra_dice": 1,
        },
        {"assign": [[0], [1, 2, 3]]},
    ),
    (
        "ability_test",
        {
            "type1": 2,
            "type2": 2,
            "skill": 1,
            "item": 0,
            "convictions": [],
            "difficulty": 3,
            "masteries": 2,
            "scheme_die": False,
        },
        {"reroll": [0, 1]},
    ),
    (
        "ability_test",
        {
            "type1": 2,
            "type2": 2,
            "skill": 0,
            "item": 0,
            "convictions": [],
            "difficulty": 2,
            "masteries": 0,
            "scheme_die": False,
        },
        {"exert": 1},
    ),
    ("ten_again", {"pool": 5}, {"spend_will": True}),
]


@pytest.mark.parametrize("seed", [3, 77])
def test_follow_up_choices_match_cpython(booted_page, seed):
    """act() on a seeded roll gives what CPython's act gives, or the same refusal."""
    page = booted_page
    rolls = [cpython("roll", system, request, seed) for system, request, _ in ACT_CASES]
    assert all(r["ok"] for r in rolls), [r for r in rolls if not r["ok"]]
    calls = [("act", [system, r["value"], action, seed + 1]) for (system, _, action), r in zip(ACT_CASES, rolls)]
    assert_same(calls, call_all(page, calls), [cpython(*[method, *args]) for method, args in calls])


BAD_CALLS = [
    ("odds", ["no_such_system", {}]),
    ("odds", ["luck", [1, 2]]),
    ("odds", ["luck", {"dice": True}]),
    ("odds", ["luck", {"dice": 10_000}]),
    ("roll", ["luck", {"dice": "three"}, 1]),
    ("roll", ["luck", {"dice": 1}, -5]),
    ("act", ["threat", {"system": "luck"}, {"assign": []}, 1]),
]


def test_bad_requests_reject_with_the_rules_error_message(booted_page):
    """A bad request rejects with an Error named RulesError whose message is CPython's RulesError message."""
    page = booted_page
    want = [cpython(*[method, *args]) for method, args in BAD_CALLS]
    assert not any(w["ok"] for w in want)
    assert_same(BAD_CALLS, call_all(page, BAD_CALLS), want)


# The table's doors through the client: its name for each, and arbiter.api's.
TABLE_DOORS = {
    "costs": "costs",
    "afterRoll": "after_roll",
    "requestFromSheet": "request_from_sheet",
    "tableSpec": "table_spec",
    "checkSheet": "check_sheet",
    "checkRecord": "check_record",
}


def test_the_table_doors_match_cpython(booted_page):
    """costs, afterRoll, requestFromSheet (and the records' tableSpec, checkSheet, checkRecord) answer through the
    worker as arbiter.api's costs, after_roll, request_from_sheet… do in CPython, refusals included."""
    page = booted_page
    specs = {s["id"]: s for s in SYSTEMS}
    test = api.roll("ability_test", {**specs["ability_test"]["defaults"], "convictions": [2], "scheme_die": True}, 5)
    sheet = specs["ten_again"]["sheet"]["default"]
    calls = [
        ("costs", ["ability_test", test["request"], None]),
        ("costs", ["ten_again", {"pool": 3, "will": True}, None]),
        ("costs", ["ability_test", None, {"exert": 2}]),
        ("costs", ["ten_again", {"pool": 31}, None]),
        ("afterRoll", ["ability_test", test, None, False]),
        ("afterRoll", ["ability_test", test, {"reroll": [0]}, True]),
        ("afterRoll", ["luck", api.roll("luck", {}, 2), None, False]),
        ("costs", ["ability_test", test["request"], None, {"convictions": ["c1"]}]),  # the sheet's choices: by id
        ("costs", ["ability_test", test["request"], None, {"convictions": []}]),
        ("afterRoll", ["ability_test", test, None, False, {"convictions": ["c1"]}]),
        (
            "requestFromSheet",
            ["ten_again", {**sheet, "attributes": [{"id": "a", "name": "Wits", "dots": 3}]}, {"stats": ["a"]}],
        ),
        ("requestFromSheet", ["ten_again", sheet, {"stats": []}]),
        ("tableSpec", []),
        ("checkSheet", ["luck", specs["threat"]["sheet"]["default"]]),
        ("checkRecord", ["scheme", {"scheme": 100}]),
    ]
    want = [cpython(TABLE_DOORS[method], *args) for method, args in calls]
    assert any(w["ok"] for w in want) and not all(w["ok"] for w in want)
    assert_same(calls, call_all(page, calls), want)


def test_every_door_of_api_is_a_method_of_the_client(booted_page):
    """Each of api.DOORS is `arbiter.<camelCased>` and passes the worker (an answer, or a RulesError, never "Unknown
    method"); a trailing argument left out takes Python's default (after_roll's earned: false)."""
    page = booted_page
    camel = {re.sub(r"_([a-z])", lambda m: m[1].upper(), door): door for door in api.DOORS}
    assert page.evaluate("(names) => names.filter((n) => typeof window.arbiter[n] !== 'function')", list(camel)) == []
    calls = [(name, []) for name in camel]
    answers = call_all(page, calls)
    assert [a for a in answers if not a["ok"] and a["name"] != "RulesError" and "Internal" not in a["error"]] == []
    roll = api.roll("luck", {}, 2)
    calls = [("afterRoll", ["luck", roll]), ("checkSheet", ["ten_again", {**TEN_AGAIN_SHEET, "will": 5}])]
    want = [cpython("after_roll", "luck", roll), cpython("check_sheet", "ten_again", {**TEN_AGAIN_SHEET, "will": 5})]
    assert_same(calls, call_all(page, calls), want)


TEN_AGAIN_SHEET = {"attributes": [], "skills": [], "resolve": 2, "composure": 2, "will": 4}


def test_unknown_method_is_refused(booted_page):
    """A message with a method the worker does not offer gets an error answer, not silence."""
    page = booted_page
    reply = page.evaluate("""() => new Promise((resolve) => {
        const worker = new Worker(new URL('/static/engine/worker.js', location.href), { type: 'module' });
        worker.onmessage = ({ data }) => { if ('id' in data) { worker.terminate(); resolve(data); } };
        worker.postMessage({ id: 1, method: '__import__', args: ['os'] });
    })""")
    assert reply == {"id": 1, "ok": False, "error": 'Unknown method "__import__"'}


def test_python_starts_once_the_first_screen_is_drawn(booted_page):
    """The worker starts with the page's client and fetches at once, but Python's start (compiling the wasm,
    instantiating, restoring the snapshot) waits for the page's word, `arbiter.go()`, given once the shown forms are
    drawn: the page painted before it said go, and every heavy step of the worker comes after its go."""
    page = booted_page
    marks = page.evaluate("""() => Object.fromEntries(performance.getEntries()
        .filter((e) => e.name.startsWith('arbiter:') || e.name === 'first-contentful-paint')
        .map((e) => [e.name, e.startTime]))""")
    assert marks["arbiter:worker-start"] < marks["arbiter:go"] < marks["arbiter:ready"], marks
    assert marks["first-contentful-paint"] < marks["arbiter:go"], marks
    steps = {step["what"]: step["ms"] for step in page.evaluate("arbiter.loadTimeline")}
    heavy = ["wasm compiled", "instantiated", "ready"]
    assert all(step in steps for step in ["worker started", "go", *heavy]), steps
    # It waited for the word. (The worker's own script may run before or after the page says go: a busy machine can
    # start the worker's thread later than the forms are drawn, so only the order of go and the heavy steps is fixed.)
    assert marks["arbiter:go"] <= steps["go"], (steps, marks)
    assert all(steps["go"] <= steps[step] for step in heavy), steps
    assert page.evaluate("arbiterPage.built().length") >= 1 and page.locator("form[data-system]").first.is_visible()


def test_the_worker_waits_for_the_word_go(booted_page):
    """A worker of its own, told nothing until both downloads are in (its bar at "Starting Python…"), starts Python
    only after it is told go: its timeline's go, and every heavy step, come after the moment the page sent it."""
    page = booted_page
    result = page.evaluate("""() => new Promise((resolve, reject) => {
        const worker = new Worker(new URL('/static/engine/worker.js', location.href), { type: 'module' });
        let sent = null;
        worker.onmessage = ({ data }) => {
            if (data.failed) reject(new Error(data.failed));
            if (data.progress >= 0.8 && sent === null) {
                sent = performance.timeOrigin + performance.now();
                worker.postMessage({ go: true });
            }
            if (data.ready) { worker.terminate(); resolve({ sent, timeline: data.timeline }); }
        };
    })""")
    steps = dict(result["timeline"])
    assert result["sent"] is not None and {"go", "wasm compiled", "instantiated", "ready"} <= steps.keys(), result
    assert steps["worker started"] < result["sent"] <= steps["go"], result
    assert all(steps["go"] <= steps[step] for step in ["wasm compiled", "instantiated", "ready"]), result


def test_python_is_not_on_the_main_thread(booted_page):
    """The page never loads Pyodide itself: no globals, and the runtime and wheels are fetched by the worker."""
    page = booted_page
    assert page.evaluate("typeof window.pyodide") == "undefined"
    assert page.evaluate("typeof window.loadPyodide") == "undefined"
    # (Chromium fetches a module worker's static imports, such as pyodide.mjs, for the page; the rest is the worker's.)
    main_thread = page.evaluate("performance.getEntriesByType('resource').map((e) => e.name)")
    assert any(name.endswith("/static/engine/worker.js") for name in main_thread)
    assert not [
        n for n in main_thread if n.endswith((".wasm", ".whl", "python_stdlib.zip", "pyodide-lock.json", ".bin"))
    ]


def test_requests_to_other_origins_are_caught(page, watch):
    """The page fixture notices (and blocks) a request that leaves the origin, even one made by a worker.

    The app's own Content-Security-Policy would refuse such a request before it is made, so the probe runs on a
    bare same-origin page without one: this tests the fixture's net, not the policy."""
    page.route(
        "**/probe.html",
        lambda route: route.fulfill(
            body='<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>probe</title>',
            content_type="text/html",
        ),
    )
    page.goto("/probe.html")
    elsewhere = "http://127.0.0.1:9/elsewhere"  # another origin, on the loopback
    page.evaluate(
        """(url) => new Promise((resolve) => {
        const code = `fetch(${JSON.stringify(url)}).then(() => postMessage('sent'), () => postMessage('blocked'))`;
        const worker = new Worker(URL.createObjectURL(new Blob([code], { type: 'text/javascript' })));
        worker.onmessage = ({ data }) => { worker.terminate(); resolve(data); };
    })""",
        elsewhere,
    )
    assert watch.problems == [f"request to another origin: {elsewhere}"]
    watch.problems.clear()


TIMEOUT_PAGE = """<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>timeout</title>
<script type="module" src="/static/engine/client.js?timeout=10000"></script>"""


def test_stalled_load_times_out_and_retry_recovers(page, await_ready):
    """If the runtime never arrives, ready rejects after the load timeout; retry() then starts a working worker."""
    stalled = []
    page.route("**/pyodide.asm.wasm", lambda route: stalled.append(route))  # never answered
    page.route("**/timeout.html", lambda route: route.fulfill(body=TIMEOUT_PAGE, content_type="text/html"))
    page.goto("/timeout.html")
    wait_until(page, "() => window.arbiter?.status === 'failed'", 30_000)
    assert stalled, "the runtime was requested"
    message = page.evaluate("window.arbiter.ready.then(() => 'resolved', (e) => e.message)")
    assert "took longer than 10 s" in message and "Loading Python runtime" in message
    assert page.evaluate("window.arbiter.odds('luck', {}).then(() => 'answered', (e) => e.message)") == message

    page.unroute("**/pyodide.asm.wasm")
    for route in stalled:
        route.abort()
    page.evaluate("window.arbiter.retry()")
    assert await_ready(page) == {"version": arbiter.__version__}
    assert page.evaluate("window.arbiter.odds('luck', {}).then((o) => o.exact)") == api.odds("luck", {})["exact"]


@pytest.mark.parametrize(
    "damage, words",
    [
        (lambda data: data[:-1000], "damaged"),  # truncated: the lengths in its header no longer add up
        (lambda data: data[:-9] + bytes([data[-9] ^ 1]) + data[-8:], "damaged"),  # one bit of the zstd frame flipped
        (lambda data: b"not a snapshot", "not an Arbiter snapshot"),
    ],
)
def test_damaged_snapshot_fails_the_load(page_at, dist, tmp_path, damage, words):
    """A memory snapshot that is not the one built fails the load with a message, not silence or wrong dice.

    The damaged file is served from a copy of the site (its other files linked), as a server would send it, rather than
    put in by page.route in the worker's fetch (interception of workers' requests has had races in Chromium:
    microsoft/playwright#30125). A fresh clone's run once waited 30 s for a failure that never came, and did not say
    what came instead: the test now waits for the load to settle and says how it ended."""
    site = tmp_path / "site"
    site.mkdir()
    for entry in dist.iterdir():
        if entry.name != "pyodide":
            (site / entry.name).symlink_to(entry)
    (site / "pyodide").mkdir()
    for entry in (dist / "pyodide").iterdir():
        if entry.name != "snapshot.bin":
            (site / "pyodide" / entry.name).symlink_to(entry)
    (site / "pyodide" / "snapshot.bin").write_bytes(damage((dist / "pyodide" / "snapshot.bin").read_bytes()))
    srv = serve(site)
    try:
        page = page_at(srv.url)
        page.goto("/")
        status = wait_until(page, "() => window.arbiter?.status !== 'loading' && window.arbiter?.status", 30_000)
        message = page.evaluate("window.arbiter.ready.then(() => 'resolved', (e) => e.message)")
        assert status == "failed", message
        assert "snapshot.bin" in message and words in message
    finally:
        srv.shutdown()
        srv.server_close()


def test_console_errors_are_caught_from_page_and_worker(page, watch):
    """The page fixture notices console errors and uncaught errors, from the page and from a worker."""
    page.route(
        "**/probe.html",
        lambda route: route.fulfill(
            body='<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>probe</title>',
            content_type="text/html",
        ),
    )
    page.goto("/probe.html")  # a bare page: the app's CSP would refuse the blob: worker this probe starts
    page.evaluate("""() => new Promise((resolve) => {
        console.error('page says boom');
        const code = "console.error('worker says boom'); postMessage('logged'); setTimeout(() => { throw new Error('worker throws'); });";
        const worker = new Worker(URL.createObjectURL(new Blob([code], { type: 'text/javascript' })));
        worker.onerror = () => resolve();
        setTimeout(() => { throw new Error('page throws'); });
    })""")
    texts = ("page says boom", "worker says boom", "page throws", "worker throws")
    deadline = time.monotonic() + 10
    while not all(text in "\n".join(watch.problems) for text in texts) and time.monotonic() < deadline:
        page.wait_for_timeout(50)  # polling: the console events arrive on their own
    found = "\n".join(watch.problems)
    for text in texts:
        assert text in found, text
    watch.problems.clear()
