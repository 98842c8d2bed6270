"""Saving and restoring the table, in real Chromium with real IndexedDB: the table exported and imported (a malformed
file refused whole, naming each bad field; a good one replacing the table only once confirmed), a damaged store or one
from a newer version kept aside untouched while the app still rolls, and a browser without storage given a table for
the session."""

from __future__ import annotations

import json
import re
from pathlib import Path

from page_helpers import roll, set_field, wait_until
from table_helpers import PUT, characters, create, export_table, fill_from_sheet, import_file, log, records


# the table's data as this version keeps it: static/store/migrations.js's SCHEMA
SCHEMA = int(
    re.search(
        r"^export const SCHEMA = (\d+);$",
        (Path(__file__).parents[2] / "static" / "store" / "migrations.js").read_text(encoding="utf-8"),
        re.MULTILINE,
    ).group(1)
)


def test_a_malformed_import_changes_nothing_and_says_what_is_wrong(app, tmp_path):
    """Bad files are refused whole, naming each bad field; a good file replaces the table only once confirmed."""
    page = app("#ten_again")
    create(page, "ten_again", "Dee")
    roll(page, "ten_again")
    good = export_table(page)
    assert good["app"] == "arbiter-table" and [c["name"] for c in good["characters"]] == ["Dee"]
    before = records(page)

    bad_will = json.loads(json.dumps(good))
    bad_will["characters"][0]["sheet"]["will"] = "lots"
    bad_will["log"][0]["dice"] = [0]
    over_max = json.loads(json.dumps(good))
    over_max["characters"][0]["sheet"]["will"] = 9  # resolve 2 + composure 2: 4 at most
    newer = dict(good, schema=99)
    cases = [
        ("not json", "{not json", ["This is not a table file"]),
        ("wrong app", json.dumps({"app": "something"}), ["This is not a table exported by Arbiter."]),
        (
            "bad fields",
            json.dumps(bad_will),
            [
                "Dee’s Will (current) must be a whole number from 0 to 20, got 'lots'",
                "Log entry 1’s Faces 1 must be from 1 to 10, got 0",
            ],
        ),
        (
            "over the maximum",
            json.dumps(over_max),
            ["Dee’s Will (current) must be from 0 to 4 (Resolve + Composure), got 9"],
        ),
        ("newer", json.dumps(newer), ["saved by a newer version of Arbiter"]),
    ]
    for name, text, messages in cases:
        report = import_file(page, f"{name}.json", text)
        # The previous file's report says "refused" too: wait for the one that names this file.
        wait_until(
            page,
            "(f) => { const r = document.querySelector('[data-import]'); "
            "return r.dataset.import === 'refused' && r.textContent.startsWith(f); }",
            10_000,
            f"{name}.json",
        )
        assert "nothing changed" in report.inner_text() or "newer version" in report.inner_text()
        for message in messages:
            assert message in report.inner_text(), (name, report.inner_text())
        assert records(page) == before, name

    renamed = json.loads(json.dumps(good))
    renamed["characters"][0]["name"] = "Dee Two"
    renamed["scheme"] = {"scheme": 5, "tracked": False}  # the Scheme's record, its setting with it
    report = import_file(page, "good.json", json.dumps(renamed))
    wait_until(page, "() => document.querySelector('[data-import]').dataset.import === 'ready'", 10_000)
    assert records(page) == before  # not yet: the import waits for its confirmation
    report.get_by_role("button", name="Replace this table").click()
    wait_until(page, lambda: "Dee Two" in characters(page), what="the import")
    assert records(page)["shared:scheme"]["data"] == {"scheme": 5, "tracked": False}
    assert "Dee" not in characters(page)
    assert [e["summary"] for e in log(page)] == [e["summary"] for e in good["log"]]
    page.wait_for_selector('.char-list button:has-text("Dee Two")')


def test_a_damaged_store_is_kept_aside_and_the_app_still_rolls(app):
    """A record that cannot be read is copied aside untouched, the user is told, the rest stays, and rolling works."""
    page = app("#ten_again")
    create(page, "ten_again", "Eve")
    create(page, "ten_again", "Fay")
    fay = next(r for r in records(page).values() if r["id"].startswith("char:") and r["data"]["name"] == "Fay")
    damaged = json.loads(json.dumps(fay))
    damaged["data"]["sheet"]["will"] = "lots"
    page.evaluate(PUT, [damaged, {"id": "char:junk", "rev": "x", "data": 42}])
    page.reload()
    page.wait_for_selector("#table[data-ready]", state="attached", timeout=60_000)
    alert = page.locator('[data-problem="damaged"]')
    assert alert.is_visible() and alert.get_attribute("role") == "alert"
    assert "kept aside" in alert.inner_text()
    kept = [r for k, r in records(page).items() if k.startswith("aside:")]
    assert len(kept) == 1 and kept[0]["data"]["reason"] == "damaged"
    copy = {r["id"]: r for r in kept[0]["data"]["records"]}
    assert copy[damaged["id"]] == damaged and copy["char:junk"]["data"] == 42
    assert set(characters(page)) == {"Eve"}
    with page.expect_download() as info:
        alert.get_by_role("button", name="Download the kept copy").click()
    assert json.loads(open(info.value.path(), encoding="utf-8").read())["records"]
    set_field(page, "ten_again", "pool", 3)
    result = roll(page, "ten_again")
    assert log(page)[-1]["summary"] == result["summary"]


def test_a_store_from_a_newer_version_is_kept_aside_untouched(app):
    """A store a newer Arbiter wrote is copied aside as it was; this page says so and starts a fresh table."""
    page = app("#luck")
    create(page, "threat", "Gil")
    meta = records(page)["meta"]
    newer = dict(meta, data=dict(meta["data"], schema=99), rev=meta["rev"] + 1)
    page.evaluate(PUT, [newer])
    saved = {k: r for k, r in records(page).items() if not k.startswith("aside:")}
    page.reload()
    page.wait_for_selector("#table[data-ready]", state="attached", timeout=60_000)
    assert "newer version of Arbiter" in page.locator('[data-problem="newer"]').inner_text()
    kept = [r for k, r in records(page).items() if k.startswith("aside:")]
    assert len(kept) == 1 and kept[0]["data"]["schema"] == 99
    assert {r["id"]: r for r in kept[0]["data"]["records"]} == saved
    assert characters(page) == {}
    assert records(page)["meta"]["data"]["schema"] == SCHEMA
    result = roll(page, "luck")
    assert log(page)[-1]["summary"] == result["summary"]


def test_an_unreadable_meta_record_is_kept_aside_and_the_sheets_stay(app):
    """A meta record that says no schema makes the store unreadable as a whole: copied aside, sheets kept, meta rebuilt."""
    page = app("#arbitration")
    create(page, "arbitration", "Kim")
    meta = records(page)["meta"]
    page.evaluate(PUT, [dict(meta, data="garbage")])
    page.reload()
    page.wait_for_selector("#table[data-ready]", state="attached", timeout=60_000)
    assert page.locator('[data-problem="damaged"]').is_visible()
    kept = [r for k, r in records(page).items() if k.startswith("aside:")]
    assert {r["id"]: r for r in kept[0]["data"]["records"]}["meta"]["data"] == "garbage"
    assert records(page)["meta"]["data"]["schema"] == SCHEMA and set(characters(page)) == {"Kim"}


def test_without_indexeddb_the_table_lives_in_memory_and_says_so(page, app):
    """A browser that refuses storage still gets a working table for the session, and is told it will not last."""
    page.add_init_script(
        "indexedDB.open = () => { throw new DOMException('storage is switched off', 'SecurityError'); };"
    )
    app("#two_dice")
    where = page.locator('[data-part="keeping"] [data-keeping="memory"]')
    assert "This browser keeps nothing after the page closes" in where.inner_text()
    page.select_option("#new-char-kind", "two_dice")
    page.fill("#new-char-name", "Lou")
    page.click('[data-create="character"] button[type=submit]')
    page.wait_for_selector('.sheet h4:has-text("Lou")')
    fill_from_sheet(page, "two_dice")
    roll(page, "two_dice")
    assert page.locator(".log-entry.roll .who").first.inner_text() == "Lou"
    assert "keeps nothing" in page.locator('[data-part="keeping"]').inner_text()
