"""The built site as an installable offline app, served under a sub-path as on GitHub Pages: it works with the
network gone, a new build is offered and taken whole, a running page never sees a newer file, the manifest and its
icons load, and every cold start rolls its own dice (never dice restored from the build's memory snapshot)."""

from __future__ import annotations

import base64
import hashlib
import json
import shutil

import pytest

import build
from arbiter import api
from page_helpers import SUB_PATH, offline_copy_saved, serve, wait_until
from steps import TAB

SYSTEMS = api.systems()
READY_MS = 60_000


def open_app(context, path: str = SUB_PATH):
    """A new tab on the app, its motion reduced, once the rules are loaded."""
    page = context.new_page()
    page.emulate_media(reduced_motion="reduce")
    page.goto(path)
    page.wait_for_selector("body[data-ready]", state="attached", timeout=READY_MS)
    return page


def first_visit(context):
    """Visit once online and wait until the service worker holds the whole build and controls the page."""
    page = open_app(context)
    offline_copy_saved(page, READY_MS)
    return page


def roll_and_odds(page, system: str) -> dict:
    """Show `system`'s tab, wait for its odds, press Roll and return the roll the page got."""
    page.click(f'nav.tabs a[data-tab="{TAB[system]}"]')
    form = f'form[data-system="{system}"]'
    wait_until(
        page,
        """(f) => { const o = document.querySelector(`${f} [data-odds]`);
        return o && !('stale' in o.dataset) && o.dataset.request && /\\d/.test(o.textContent); }""",
        10_000,
        form,
    )
    page.evaluate("(s) => { window.__before = window.arbiterPage.procs[s].roll; }", system)
    page.click(f"{form} button[data-roll]")
    wait_until(
        page,
        "(s) => { const r = window.arbiterPage.procs[s].roll; return r && r !== window.__before; }",
        10_000,
        system,
    )
    return page.evaluate("(s) => window.arbiterPage.procs[s].roll", system)


def sha256_integrity(data: bytes) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(data).digest()).decode()


FETCH_ALL = """async (paths) => {
    const out = {};
    for (const path of paths) {
        const bytes = new Uint8Array(await (await fetch(path)).arrayBuffer());
        out[path] = Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)));
    }
    return out;
}"""


def served_integrities(page_or_worker, paths: list[str]) -> dict:
    """What the page (or worker) gets for each path, as sha256 integrity strings."""
    digests = page_or_worker.evaluate(FETCH_ALL, paths)
    return {path: "sha256-" + base64.b64encode(bytes(d)).decode() for path, d in digests.items()}


def build_files(site) -> dict:
    return json.loads((site / "sw.js").read_text(encoding="utf-8").split("/* BUILD */")[1])


# --- offline ----------------------------------------------------------------------------------------------------


def test_offline_after_the_first_visit_every_procedure_rolls_and_shows_odds(dist, sw_context):
    """Visited once online, the app reloads with no server at all, becomes ready, and every procedure shows its odds
    and rolls."""
    server = serve({SUB_PATH: dist})
    context = sw_context(server.url)
    page = first_visit(context)
    page.wait_for_selector("html[data-offline=saved]", state="attached", timeout=READY_MS)
    assert page.text_content("#offline-status") == "Works offline: this device holds a copy of Arbiter."
    assert page.text_content("[data-offline-mark]") == "✓ Works offline"  # the header's mark (issue 20)
    server.shutdown()  # not just emulated: nothing answers on that port any more
    server.server_close()
    context.set_offline(True)
    page.reload()
    page.wait_for_selector("body[data-ready]", state="attached", timeout=READY_MS)
    assert page.evaluate("!!navigator.serviceWorker.controller")
    for system in TAB:
        roll = roll_and_odds(page, system)
        assert roll["system"] == system and roll["summary"]
    assert page.locator("#status").get_attribute("data-state") == "ready"
    assert page.get_attribute("html", "data-offline") == "saved"
    assert page.text_content("[data-offline-mark]") == "No signal · ✓ Works offline"


def test_a_first_visit_downloads_the_build_once_and_a_repeat_visit_nothing(dist, sw_context):
    """The service worker's copy of the build comes from what the first visit fetched (revalidated, not downloaded
    again); a repeat visit asks the server for nothing but, at most, sw.js."""
    server = serve({SUB_PATH: dist})
    try:
        page = first_visit(sw_context(server.url))
        files = build_files(dist)["files"]
        full = [p for m, p, code in server.requests if code == 200]
        assert sorted(set(full)) == sorted(full), "no file was downloaded twice"
        assert {SUB_PATH + f for f in files if f != "index.html"} <= set(full)
        server.requests.clear()
        page.reload()
        page.wait_for_selector("body[data-ready]", state="attached", timeout=READY_MS)
        # A fixed wait on purpose: it checks that nothing is asked for but sw.js (the browser's own update check,
        # if it makes one); a request that never comes has no event to await.
        page.wait_for_timeout(1500)
        assert {p for m, p, code in server.requests} <= {SUB_PATH + "sw.js"}
    finally:
        server.shutdown()
        server.server_close()


def test_every_request_stays_under_the_sub_path(sub_path_server, sw_context):
    """Served at /arbiter/, the page, its worker and its service worker never ask for anything outside /arbiter/."""
    sub_path_server.requests.clear()
    first_visit(sw_context(sub_path_server.url))
    paths = [p for m, p, code in sub_path_server.requests]
    assert paths and all(p.startswith(SUB_PATH) for p in paths), paths
    assert not [r for r in sub_path_server.requests if r[2] >= 400]


# --- a new build ---------------------------------------------------------------------------------------------------


@pytest.fixture
def two_builds(dist, tmp_path):
    """A copy of the site (build A) served at /arbiter/, and `rebuild()`, which changes a page script, the page and
    the worker in place and writes the new sw.js, as a new deploy would."""
    site = tmp_path / "site"
    shutil.copytree(dist, site)
    server = serve({SUB_PATH: site})

    def rebuild() -> dict:
        for name, old, new in (
            ("static/main.js", "", "\n// build B\n"),
            ("static/engine/snapshot.js", "", "\n// build B\n"),
            ("index.html", "</body>", "<!-- build B --></body>"),
        ):
            path = site / name
            text = path.read_text(encoding="utf-8")
            path.write_text(text.replace(old, new) if old else text + new, encoding="utf-8")
        build.write_service_worker(site)
        return build_files(site)

    yield site, server, rebuild
    server.shutdown()
    server.server_close()


def test_a_new_build_is_offered_and_taken_whole(two_builds, sw_context):
    """A new deploy downloads in the background; the open page keeps build A until "New version — reload", then
    gets build B, every file of it, and build A's cache is gone."""
    site, server, rebuild = two_builds
    context = sw_context(server.url)
    page = first_visit(context)
    old = build_files(site)
    banner = page.locator("#update-banner")
    assert banner.is_hidden()

    new = rebuild()
    assert new["version"] != old["version"]
    page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.update())")
    button = page.get_by_role("button", name="New version — reload")
    button.wait_for(timeout=READY_MS)
    # Still build A, down to the last file, until the player chooses.
    paths = sorted(new["files"])
    assert served_integrities(page, paths) == {p: old["files"][p] for p in paths}

    with page.expect_navigation():
        button.click()
    page.wait_for_selector("body[data-ready]", state="attached", timeout=READY_MS)
    assert "<!-- build B -->" in page.content()
    assert served_integrities(page, paths) == {p: new["files"][p] for p in paths}
    assert banner.is_hidden()
    wait_until(page, "(v) => caches.keys().then((keys) => !keys.includes('arbiter-' + v))", 10_000, old["version"])
    assert f"arbiter-{new['version']}" in page.evaluate("caches.keys()")
    assert roll_and_odds(page, "luck")["system"] == "luck"


def test_a_running_page_and_its_worker_keep_their_build(two_builds, sw_context):
    """When another tab takes the new build, a page that keeps running, and its Python worker, are still served
    build A's files (never a mix); build A's cache goes only once no page uses it."""
    site, server, rebuild = two_builds
    context = sw_context(server.url)
    first = first_visit(context)
    second = open_app(context)
    old = build_files(site)
    new = rebuild()
    first.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.update())")
    first.get_by_role("button", name="New version — reload").wait_for(timeout=READY_MS)
    with first.expect_navigation():
        first.get_by_role("button", name="New version — reload").click()
    first.wait_for_selector("body[data-ready]", state="attached", timeout=READY_MS)
    assert "<!-- build B -->" in first.content()

    # The second tab is now controlled by build B's service worker, which serves it, and its worker, build A.
    second.get_by_role("button", name="New version — reload").wait_for(timeout=10_000)
    changed = ["static/main.js", "static/engine/snapshot.js", "index.html"]
    assert served_integrities(second, changed) == {p: old["files"][p] for p in changed}
    python_worker = next(w for w in second.workers if w.url.endswith("/static/engine/worker.js"))
    assert served_integrities(python_worker, ["snapshot.js"]) == {
        "snapshot.js": old["files"]["static/engine/snapshot.js"]
    }
    assert roll_and_odds(second, "luck")["system"] == "luck"
    assert f"arbiter-{old['version']}" in first.evaluate("caches.keys()")

    # Once no page uses build A, its cache goes (the service worker tidies up shortly after a navigation).
    second.close()
    first.reload()
    wait_until(first, "(v) => caches.keys().then((keys) => !keys.includes('arbiter-' + v))", 15_000, old["version"])
    assert served_integrities(first, changed) == {p: new["files"][p] for p in changed}


# --- install, manifest, icons --------------------------------------------------------------------------------------


def test_manifest_parses_and_its_icons_load(sub_path_server, sw_context):
    """The page links a manifest that parses, whose icons load at their declared sizes; Chromium finds nothing that
    would stop the app being installed."""
    context = sw_context(sub_path_server.url)
    page = first_visit(context)
    href = page.evaluate("document.querySelector('link[rel=manifest]').href")
    assert href == sub_path_server.url + "arbiter/manifest.webmanifest"
    manifest = json.loads(page.evaluate("(u) => fetch(u).then((r) => r.text())", href))
    assert manifest["start_url"] == manifest["scope"] == "./" and manifest["display"] == "standalone"
    for icon in manifest["icons"]:
        size = page.evaluate(
            """async (src) => { const img = new Image(); img.src = src; await img.decode();
            return `${img.naturalWidth}x${img.naturalHeight}`; }""",
            icon["src"],
        )
        assert size == icon["sizes"], icon
    cdp = context.new_cdp_session(page)
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # Playwright's contexts are incognito profiles, where Chromium installs nothing; that is the only objection.
    assert [e["errorId"] for e in errors if e["errorId"] != "in-incognito"] == [], errors


# --- the snapshot's dice ------------------------------------------------------------------------------------------


def test_two_cold_loads_roll_different_dice(sub_path_server, sw_context):
    """Two cold loads in a row, each rolling a 30-die pool first thing, get different dice: the dice come from the
    OS random source, never from state restored out of the memory snapshot."""
    rolls = []
    for _ in range(2):
        page = sw_context(sub_path_server.url).new_page()
        page.goto(SUB_PATH)
        wait_until(page, "() => window.arbiter !== undefined", READY_MS)
        roll = page.evaluate("""() => window.arbiter.ready.then(() =>
            window.arbiter.roll('ten_again', { pool: 30 }))""")
        assert len(roll["dice"]) >= 30
        rolls.append(roll["dice"][:30])
    assert rolls[0] != rolls[1]


def test_storage_persistence_is_asked_once_the_player_rolls(sub_path_server, sw_context):
    """With the service worker in charge, the first roll asks the browser to keep the offline copy (once)."""
    context = sw_context(sub_path_server.url)
    context.add_init_script("""(() => {
        if (typeof window === 'undefined' || !navigator.storage) return;  // workers; the first about:blank
        window.__persistCalls = 0;
        const persist = navigator.storage.persist.bind(navigator.storage);
        navigator.storage.persist = () => {
            window.__persistCalls++;
            return persist().then((granted) => { window.__persistAnswer = granted; return granted; });
        };
    })()""")
    page = first_visit(context)
    assert page.evaluate("window.__persistCalls") == 0
    roll_and_odds(page, "luck")
    roll_and_odds(page, "two_dice")
    assert page.evaluate("window.__persistCalls") == 1
    answer = wait_until(page, "() => window.__persistAnswer !== undefined && [window.__persistAnswer]", 10_000)[0]
    # The browser decides. Chromium grants it to installed apps and to sites the user engages with; a Playwright
    # context is a fresh incognito profile that installs nothing and has no engagement, so it says no (with the
    # permission granted beforehand, persisted() is true before any ask, which would prove nothing about the ask).
    assert answer is False
    assert page.evaluate("navigator.storage.persisted()") is False
    roll_and_odds(page, "luck")  # refused once, the page does not ask again
    assert page.evaluate("window.__persistCalls") == 1


def test_a_file_that_does_not_match_its_hash_never_enters_the_cache(dist, tmp_path, sw_context):
    """If the server holds a file that is not the one sw.js lists (a half-finished deploy), the service worker does
    not install: its cache holds only files that match their hashes, never that one; the page still works online."""
    site = tmp_path / "site"
    shutil.copytree(dist, site)
    (site / "static" / "engine" / "loading.js").write_text(
        (site / "static" / "engine" / "loading.js").read_text() + "\n// changed\n"
    )
    listed = build_files(site)
    server = serve({SUB_PATH: site})
    try:
        context = sw_context(server.url)
        page = open_app(context)
        # The page says so once the download has failed (the registration is gone by then: nothing to wait on).
        page.wait_for_selector("html[data-offline=failed]", state="attached", timeout=READY_MS)
        assert "Could not save a copy for offline use" in page.text_content("#offline-status")
        assert page.evaluate("navigator.serviceWorker.getRegistration().then((r) => !!(r && r.active))") is False
        cached = page.evaluate(
            """(name) => caches.open(name).then(async (cache) => {
            const out = {};
            for (const request of await cache.keys()) {
                const bytes = await (await cache.match(request)).arrayBuffer();
                out[new URL(request.url).pathname] = Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)));
            }
            return out;
        })""",
            f"arbiter-{listed['version']}",
        )
        assert SUB_PATH + "static/engine/loading.js" not in cached
        for path, digest in cached.items():
            assert listed["files"][path[len(SUB_PATH) :]] == "sha256-" + base64.b64encode(bytes(digest)).decode()
        context.arbiter_watch.problems[:] = [
            p
            for p in context.arbiter_watch.problems
            if "integrity" not in p and "sw.js" not in p and "loading.js" not in p
        ]
    finally:
        server.shutdown()
        server.server_close()


def test_a_lazy_file_once_used_is_kept_by_the_next_build(two_builds, sw_context):
    """A lazy file (the QR encoder) is fetched by no install, and once saved under build A (after the page was ready),
    build B's install keeps A's copy (same hash) without fetching it: a player still shares offline after an
    update."""
    site, server, rebuild = two_builds
    context = sw_context(server.url)
    page = first_visit(context)
    encoder = "static/vendor/lean-qr.mjs"
    assert encoder in build_files(site)["lazy"]
    assert served_integrities(page, [encoder]) == {encoder: build_files(site)["lazy"][encoder]}
    new = rebuild()
    server.requests.clear()
    page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.update())")
    button = page.get_by_role("button", name="New version — reload")
    button.wait_for(timeout=READY_MS)
    assert SUB_PATH + encoder not in {p for _, p, _ in server.requests}
    with page.expect_navigation():
        button.click()
    page.wait_for_selector("body[data-ready]", state="attached", timeout=READY_MS)
    context.set_offline(True)
    assert served_integrities(page, [encoder]) == {encoder: new["lazy"][encoder]}
    assert page.evaluate(
        "([v, u]) => caches.open('arbiter-' + v).then((c) => c.match(u)).then((r) => !!r)",
        [new["version"], server.url.rstrip("/") + SUB_PATH + encoder],
    )
