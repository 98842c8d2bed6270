"""Storage you can trust (issue 23), in real Chromium with real IndexedDB: the Table says where the table lives and how
safe it is, asks for persistent storage at the first roll or character saved (never as it loads), says when the last
backup was and reminds once one is due, saves a backup (shared where the browser shares files, else downloaded), keeps
a table in memory where IndexedDB is refused, and says a write refused for lack of space without losing what was kept.
The browser's storage answers (persist, persisted, installed, the install prompt, Web Share, a refusal, a full disk)
are stubbed with init scripts: they are what the test must force and observe."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from page_helpers import form, roll, show_form, show_view, wait_until
from table_helpers import DUMP, PUT, characters, create, log, records


def storage(granted: bool, persisted: bool = False) -> str:
    """navigator.storage answering persisted() with `persisted` until persist() (counted) answers `granted`."""
    return f"""(() => {{
  window.persistCalls = 0;
  let persisted = {json.dumps(persisted)};
  StorageManager.prototype.persisted = async () => persisted;
  StorageManager.prototype.persist = async () => {{
    window.persistCalls += 1;
    persisted = {json.dumps(granted)};
    return persisted;
  }};
}})();"""


INSTALLED = {
    # an installed app's own window (Chromium, Firefox on Android)
    "display-mode": """(() => {
  const match = window.matchMedia.bind(window);
  window.matchMedia = (q) => (q.includes('display-mode: standalone') ? { matches: true, media: q,
    addEventListener() {}, removeEventListener() {} } : match(q));
})();""",
    # Safari's home-screen app
    "navigator.standalone": "Object.defineProperty(Navigator.prototype, 'standalone', { get: () => true });",
}
IPHONE = """Object.defineProperty(Navigator.prototype, 'userAgent', { get: () =>
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 '
  + 'Mobile/15E148 Safari/604.1' });"""
# IDBObjectStore.put refusing for lack of space once window.putsLeft puts have landed
QUOTA = """(() => {
  window.putsLeft = Infinity;
  const put = IDBObjectStore.prototype.put;
  IDBObjectStore.prototype.put = function (...args) {
    if (window.putsLeft <= 0) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    window.putsLeft -= 1;
    return put.apply(this, args);
  };
})();"""
REFUSED = {
    # indexedDB.open throwing at once, or its request failing (as private windows of some browsers do)
    "throws": "indexedDB.open = () => { throw new DOMException('storage is switched off', 'SecurityError'); };",
    "errors": """indexedDB.open = () => {
  const request = {};
  setTimeout(() => {
    request.error = new DOMException('A mutation operation was attempted on a database that did not allow mutations.',
      'InvalidStateError');
    request.onerror?.({ target: request });
  }, 0);
  return request;
};""",
}

WHERE = '[data-part="keeping"] [data-keeping]'
WARNING = (
    "This browser may clear the table if Arbiter is not opened for a week: "
    "install it to your home screen, or save a backup."
)


def keeping(page) -> str:
    show_view(page, "table")
    return page.locator('[data-part="keeping"]').inner_text()


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def reopen(page):
    page.reload()
    page.wait_for_selector("#table[data-ready]", state="attached", timeout=60_000)
    return page


# --- where the table lives -------------------------------------------------------------------------------------------


def test_not_kept_says_so_with_how_to_install_and_asks_at_the_first_roll_only(page, app):
    """persist() answering false, not installed: the warning and the install advice of this browser (its menu);
    persist() is not asked as the page loads, once at the first roll, and not again."""
    page.add_init_script(storage(granted=False))
    app("#two_dice")
    assert page.locator(WHERE).get_attribute("data-keeping") == "may-clear"
    said = keeping(page)
    assert WARNING in said and "open your browser’s menu, then Install app" in said
    assert page.evaluate("window.persistCalls") == 0
    roll(page, "two_dice")
    wait_until(page, "() => window.persistCalls === 1", what="persist() to be asked")
    roll(page, "two_dice")
    assert page.evaluate("window.persistCalls") == 1
    assert WARNING in keeping(page)


def test_persistent_storage_granted_at_the_first_character_is_kept_on_this_phone(page, app):
    """persist() answering true, asked when the first character is saved: "Kept on this phone", no warning."""
    page.add_init_script(storage(granted=True))
    app("#two_dice")
    assert page.evaluate("window.persistCalls") == 0 and WARNING in keeping(page)
    create(page, "two_dice", "Lou")
    page.wait_for_selector(f'{WHERE}[data-keeping="kept"]')
    assert page.evaluate("window.persistCalls") == 1
    said = keeping(page)
    assert "Kept on this phone." in said and WARNING not in said and "Install" not in said


def test_already_persisted_is_kept_and_asks_nothing(page, app):
    """persisted() already true as the page opens: kept, and persist() never asked, even at a roll."""
    page.add_init_script(storage(granted=True, persisted=True))
    app("#two_dice")
    page.wait_for_selector(f'{WHERE}[data-keeping="kept"]')
    roll(page, "two_dice")
    assert page.evaluate("window.persistCalls") == 0


@pytest.mark.parametrize("how", list(INSTALLED))
def test_installed_is_kept_on_this_phone(page, app, how):
    """Installed (its own window, or Safari's home-screen app), with persist() answering false: kept."""
    page.add_init_script(storage(granted=False))
    page.add_init_script(INSTALLED[how])
    app("#two_dice")
    assert page.locator(WHERE).get_attribute("data-keeping") == "kept"
    assert "Kept on this phone." in keeping(page)


def test_an_iphone_is_told_share_then_add_to_home_screen(phone_app, phone):
    """On an iPhone (no install prompt there): the warning, and Share → Add to Home Screen."""
    phone.add_init_script(storage(granted=False))
    phone.add_init_script(IPHONE)
    phone_app("#two_dice")
    said = keeping(phone)
    assert WARNING in said and "tap Share, then Add to Home Screen" in said


def test_the_browsers_install_prompt_is_an_install_button(page, app):
    """Where the browser offers its install prompt (beforeinstallprompt), "Install Arbiter" shows it, once."""
    page.add_init_script(storage(granted=False))
    app("#two_dice")
    assert page.locator('[data-k="keeping:install"]').count() == 0
    page.evaluate("""() => {
      const event = new Event('beforeinstallprompt', { cancelable: true });
      event.prompt = async () => { window.prompted = (window.prompted ?? 0) + 1; };
      event.userChoice = Promise.resolve({ outcome: 'accepted', platform: 'web' });
      window.dispatchEvent(event);
      window.installDefaultPrevented = event.defaultPrevented;
    }""")
    show_view(page, "table")
    page.locator('[data-k="keeping:install"]').click()
    page.wait_for_selector('[data-table-status]:has-text("Arbiter is installing")')
    assert page.evaluate("[window.prompted, window.installDefaultPrevented]") == [1, True]
    page.locator('[data-k="keeping:install"]').wait_for(state="detached")  # the browser gives its prompt once


# --- backups ---------------------------------------------------------------------------------------------------------


def base36(ms: int) -> str:
    """A log id's time part (ids.js' logId): base-36 milliseconds, 9 digits."""
    return "".join("0123456789abcdefghijklmnopqrstuvwxyz"[ms // 36**i % 36] for i in range(8, -1, -1))


def seed_rolls(page, n):
    """`n` more roll-log entries, copies of the last one with ids and times of now, written straight to IndexedDB."""
    last = log(page)[-1]
    now = datetime.now(UTC)
    stamp = int(now.timestamp() * 1000)
    copies = [
        {
            "id": f"log:{base36(stamp + i)}-seed{i:04d}",
            "rev": 1,
            "updated": stamp,
            "by": "test",
            "data": {**last, "time": iso(now + timedelta(milliseconds=i)), "kind": "roll"},
        }
        for i in range(n)
    ]
    page.evaluate(PUT, copies)


def test_a_backup_is_asked_for_at_50_rolls_and_saving_one_keeps_its_date(page, app):
    """Never backed up: no reminder at 49 rolls, one at 50 (counted since the table was made); "Save a backup"
    downloads the whole table, keeps its date as the last backup's, and the reminder goes."""
    app("#two_dice")
    assert "No backup saved yet." in keeping(page) and page.locator("[data-backup-due]").count() == 0
    roll(page, "two_dice")
    seed_rolls(page, 48)
    reopen(page)
    assert len(log(page)) == 49 and page.locator("[data-backup-due]").count() == 0
    seed_rolls(page, 1)
    reopen(page)
    reminder = page.locator("[data-backup-due]")
    assert reminder.inner_text() == ("Time to save a backup: 50 rolls since this table was started, and no backup yet.")
    show_view(page, "table")
    with page.expect_download() as info:
        page.locator('[data-k="keeping:backup"]').click()
    saved = json.loads(open(info.value.path(), encoding="utf-8").read())
    assert saved["app"] == "arbiter-table" and len(saved["log"]) == 50
    assert info.value.suggested_filename == f"arbiter-table-{saved['exported'][:10]}.json"
    wait_until(page, lambda: records(page)["meta"]["data"].get("backup") == saved["exported"], what="the backup date")
    page.wait_for_selector('[data-table-status]:has-text("Backup saved to your downloads.")')
    assert page.locator("[data-backup-due]").count() == 0
    assert page.locator("[data-backup-last]").get_attribute("data-backup-last") == saved["exported"]
    assert page.locator("[data-backup-last]").inner_text().startswith("Last backup: ")
    reopen(page)  # the date is the table's, kept
    assert page.locator("[data-backup-last]").get_attribute("data-backup-last") == saved["exported"]


@pytest.mark.parametrize(("days_ago", "due"), [(13.9, False), (14.05, True)])
def test_a_backup_is_asked_for_14_days_after_the_last(page, app, days_ago, due):
    """A last backup 14 days ago (the store's meta, seeded): the reminder; 13.9 days: none."""
    app("#two_dice")
    meta = records(page)["meta"]
    backup = iso(datetime.now(UTC) - timedelta(days=days_ago))
    page.evaluate(PUT, [{**meta, "rev": meta["rev"] + 1, "data": {**meta["data"], "backup": backup}}])
    reopen(page)
    assert page.locator("[data-backup-last]").get_attribute("data-backup-last") == backup
    if due:
        assert page.locator("[data-backup-due]").inner_text() == (
            "Time to save a backup: 14 days since the last backup."
        )
    else:
        assert page.locator("[data-backup-due]").count() == 0


def test_a_backup_is_shared_where_the_browser_shares_files(page, app):
    """navigator.canShare({files}) true: the table's file goes to the share sheet (no download) and its date is kept;
    the player cancelling the share keeps no date."""
    page.add_init_script("""(() => {
      window.shares = [];
      navigator.canShare = (data) => Array.isArray(data?.files) && data.files.every((f) => f instanceof File);
      navigator.share = async ({ files }) => {
        if (window.cancelShare) throw new DOMException('Share canceled', 'AbortError');
        window.shares.push({ name: files[0].name, type: files[0].type, text: await files[0].text() });
      };
    })();""")
    app("#two_dice")
    downloads = []
    page.on("download", lambda d: downloads.append(d))
    create(page, "two_dice", "Lou")
    page.evaluate("window.cancelShare = true")
    page.locator('[data-k="keeping:backup"]').click()
    page.wait_for_selector('[data-table-status]:has-text("No backup saved: sharing was cancelled.")')
    assert "backup" not in records(page)["meta"]["data"]
    page.evaluate("window.cancelShare = false")
    page.locator('[data-k="keeping:backup"]').click()
    page.wait_for_selector('[data-table-status]:has-text("Backup saved.")')
    [shared] = page.evaluate("window.shares")
    table = json.loads(shared["text"])
    assert shared["type"] == "application/json" and [c["name"] for c in table["characters"]] == ["Lou"]
    wait_until(page, lambda: records(page)["meta"]["data"].get("backup") == table["exported"], what="the date")
    assert downloads == []


# --- storage refused ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("how", list(REFUSED))
def test_a_refused_indexeddb_gives_a_table_in_memory_that_says_so(page, app, how):
    """IndexedDB refused (open throws, or its request fails): "This browser keeps nothing after the page closes", and
    the table works for the session: a character is made, rolls are logged; nothing asks to persist it."""
    page.add_init_script(storage(granted=True))
    page.add_init_script(REFUSED[how])
    app("#two_dice")
    assert page.locator(WHERE).get_attribute("data-keeping") == "memory"
    assert "This browser keeps nothing after the page closes" in keeping(page)
    page.select_option("#new-char-kind", "two_dice")
    page.fill("#new-char-name", "Lou")
    page.click('[data-create="character"] button[type=submit]')
    page.wait_for_selector('.sheet h4:has-text("Lou")')
    roll(page, "two_dice")
    roll(page, "two_dice")
    assert page.locator(".log-entry.roll").count() == 2
    assert page.evaluate("window.persistCalls") == 0


def test_a_write_refused_for_lack_of_space_is_said_and_loses_nothing_kept(page, app):
    """The store full at a roll's log entry (put refused: QuotaExceededError): the Table says so and what to do; the
    character and the rolls kept before are all there after a reload, and the message with them is gone."""
    page.add_init_script(QUOTA)
    app("#two_dice")
    create(page, "two_dice", "Lou")
    roll(page, "two_dice")
    roll(page, "two_dice")
    before = records(page)
    page.evaluate("window.putsLeft = 0")
    roll(page, "two_dice", logged=False)
    alert = page.locator('[data-problem="full"]')
    alert.wait_for()
    said = alert.inner_text()
    assert "no space left" in said and "Free some space on the phone, or save a backup" in said
    assert "no space left" in page.locator("[data-table-status]").inner_text()
    assert records(page) == before
    reopen(page)
    assert set(characters(page)) == {"Lou"} and len(log(page)) == 2 and records(page) == before
    assert page.locator('[data-problem="full"]').count() == 0


def test_a_write_refused_during_a_roll_marks_the_tables_link_until_a_write_lands(phone, phone_app):
    """On a phone, a roll on the Roll view whose log entry the full store refuses: the Table's link in the bottom
    navigation is marked (a "!" a screen reader hears as "needs attention") while the player stays on Roll; a later
    roll that is kept takes the mark away."""
    phone.add_init_script(QUOTA)
    phone_app("#two_dice")
    link = phone.locator('nav.views a[data-view="table"]')
    roll(phone, "two_dice")
    assert link.locator("[data-nav-alert]").count() == 0
    phone.evaluate("window.putsLeft = 0")
    roll(phone, "two_dice", logged=False)
    link.locator("[data-nav-alert]").wait_for()
    assert phone.get_attribute("body", "data-view") == "roll"
    assert "needs attention" in link.text_content()
    phone.evaluate("window.putsLeft = Infinity")
    roll(phone, "two_dice")
    wait_until(phone, lambda: link.locator("[data-nav-alert]").count() == 0, what="the mark gone")


# --- a table a newer Arbiter upgraded ----------------------------------------------------------------------------------

# what a newer Arbiter does to IndexedDB's own layout: open the table at a higher version (the page's own connection
# closes on versionchange, then the upgrade goes on), records untouched
RAISE = """(version) => new Promise((resolve, reject) => {
  const open = indexedDB.open('arbiter-table', version);
  open.onerror = () => reject(open.error);
  open.onsuccess = () => { const got = open.result.version; open.result.close(); resolve(got); };
})"""
# every record as stored, as JSON: the bytes compared; and IndexedDB's own layout version of the table
STORED = f"() => ({DUMP})().then((all) => JSON.stringify(all))"
LAYOUT = "async () => (await indexedDB.databases()).find((d) => d.name === 'arbiter-table').version"


def test_a_table_a_newer_arbiter_upgraded_says_so_keeps_it_untouched_and_loses_no_roll_silently(page, app):
    """A character and two rolls kept, then the store opened at version 5 from the page (as a newer Arbiter would),
    and the page reloaded: the Table says a newer Arbiter saved the table and to reload to update, never that the
    browser keeps nothing; it shows the table as it was (the character, the rolls); every form says, before a roll,
    that it will not be kept; a roll made then is in the log, and the store is byte for byte as it was, after a second
    reload too."""
    app("#two_dice")
    create(page, "two_dice", "Lou")
    roll(page, "two_dice")
    roll(page, "two_dice")
    before = page.evaluate(STORED)
    assert page.evaluate(LAYOUT) == 1 and len(log(page)) == 2
    assert page.evaluate(RAISE, 5) == 5
    for _ in range(2):
        reopen(page)
        assert page.locator(WHERE).get_attribute("data-keeping") == "newer"
        said = keeping(page)
        assert "Saved by a newer version of Arbiter: reload the page to update." in said
        alert = page.locator('[data-problem="newer-layout"]').inner_text()
        assert "This table was saved by a newer version of Arbiter: reload the page to update." in alert
        assert "keeps nothing after the page closes" not in page.locator("body").inner_text()
        assert "Lou" in page.locator('[data-part="characters"]').inner_text()
        assert page.locator(".log-entry.roll").count() == 2
        show_form(page, "two_dice")
        told = form(page, "two_dice").locator("[data-not-kept]")
        assert told.is_visible() and "Not kept: a newer Arbiter saved this table." in told.inner_text()
        roll(page, "two_dice")
        assert page.locator(".log-entry.roll").count() == 3  # in the log for this page, as it was told
        assert page.evaluate(STORED) == before and page.evaluate(LAYOUT) == 5
