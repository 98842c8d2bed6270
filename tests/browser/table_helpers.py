"""The table's helpers the browser tests share: what its store holds (read straight from IndexedDB, or put there),
a second tab, characters created, picked and edited as a player does, a sheet filling its form, the Scheme kept on
this device or elsewhere, a struggle started, and a sheet of each kind set up to roll (SETUP). The page's own (a roll,
a follow-up, a form's fields): page_helpers.py."""

from __future__ import annotations

import json

from page_helpers import open_app, show_view, wait_until


DUMP = """() => new Promise((resolve, reject) => {
  const open = indexedDB.open('arbiter-table');
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const db = open.result;
    const all = db.transaction('records').objectStore('records').getAll();
    all.onsuccess = () => { resolve(all.result); db.close(); };
    all.onerror = () => reject(all.error);
  };
})"""


PUT = """(records) => new Promise((resolve, reject) => {
  const open = indexedDB.open('arbiter-table');
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const db = open.result;
    const tx = db.transaction('records', 'readwrite');
    for (const r of records) tx.objectStore('records').put(r);
    tx.oncomplete = () => { db.close(); resolve(true); };
    tx.onabort = () => reject(tx.error);
  };
})"""


def records(page) -> dict:
    return {r["id"]: r for r in page.evaluate(DUMP)}


def characters(page) -> dict:
    """name -> character data, as stored."""
    return {r["data"]["name"]: r["data"] for k, r in records(page).items() if k.startswith("char:")}


def log(page) -> list[dict]:
    entries = [r["data"] for k, r in records(page).items() if k.startswith("log:")]
    return sorted(entries, key=lambda e: e["time"])


def scheme(page) -> int:
    return records(page)["shared:scheme"]["data"]["scheme"]


def second_tab(page, watch, hash_=""):
    """Another tab of the same browser profile, watched like the first."""
    other = page.context.new_page()
    other.on("pageerror", watch.page_error)
    other.emulate_media(reduced_motion="reduce")
    return open_app(other, hash_)


# --- characters and their sheets ---------------------------------------------------------------------------------


def create(page, kind, name):
    show_view(page, "table")
    page.select_option("#new-char-kind", kind)
    page.fill("#new-char-name", name)
    page.click('[data-create="character"] button[type=submit]')
    page.wait_for_selector(f'.sheet[data-kind="{kind}"] h4:has-text("{name}")' if '"' not in name else ".sheet")
    wait_until(page, lambda: name in characters(page), what=f"{name} to be saved")
    return page.locator(".sheet")


def export_table(page) -> dict:
    """The whole table as Save and restore's "Save a backup" downloads it, once its date is kept as the last
    backup's."""
    show_view(page, "table")
    with page.expect_download() as info:
        page.locator('[data-export="table"]').click()
    file = json.loads(open(info.value.path(), encoding="utf-8").read())
    wait_until(page, lambda: records(page)["meta"]["data"].get("backup") == file["exported"], what="the backup date")
    return file


def import_file(page, name, text):
    """Choose a file named `name` holding `text` to import; the import's report."""
    show_view(page, "table")
    page.locator("#table-import").set_input_files(
        {"name": name, "mimeType": "application/json", "buffer": text.encode()}
    )
    page.wait_for_selector("[data-import]")
    return page.locator("[data-import]")


def pick_character(page, name):
    show_view(page, "table")
    page.locator(".char-list button", has_text=name).first.click()
    page.wait_for_selector(f'.sheet h4:has-text("{name}")')
    return page.locator(".sheet")


def sheet_input(page, key):
    return page.locator(f'.sheet [data-k$=":sheet.{key}"]')


def edit(page, locator, value, saved):
    """Type into a sheet field, leave it (the change is saved), and wait until the store holds it."""
    show_view(page, "table")
    locator.fill(str(value))
    locator.press("Tab")
    wait_until(page, saved, what=f"the edit {value!r} to be saved")


def add_row(page, list_name, *values):
    """Add an entry to a sheet list and fill its fields (text first, then numbers, in order)."""
    show_view(page, "table")
    sheet = page.locator(".sheet")
    rows = sheet.locator(f'[data-list="{list_name}"] li.row')
    n = rows.count()
    sheet.locator(f'[data-add="{list_name}"]').click()
    wait_until(page, lambda: rows.count() == n + 1, what=f"a new {list_name} row")
    row = rows.nth(n)
    texts = [v for v in values if isinstance(v, str)]
    numbers = [v for v in values if isinstance(v, int) and not isinstance(v, bool)]
    flags = [v for v in values if isinstance(v, bool)]
    for i, text in enumerate(texts):
        row.locator("input[type=text]:not(.int)").nth(i).fill(text)
        row.locator("input[type=text]:not(.int)").nth(i).press("Tab")
    for i, number in enumerate(numbers):
        row.locator("input.int").nth(i).fill(str(number))
        row.locator("input.int").nth(i).press("Tab")
    for i, flag in enumerate(flags):
        row.locator("input[type=checkbox]").nth(i).set_checked(flag)

    def saved():
        entry = selected_sheet(page)[list_name][n]
        fields = [v for k, v in entry.items() if k != "id"]
        return (
            [v for v in fields if isinstance(v, str)] == texts
            and [v for v in fields if isinstance(v, int) and not isinstance(v, bool)][: len(numbers)] == numbers
            and [v for v in fields if isinstance(v, bool)][: len(flags)] == flags
        )

    wait_until(page, saved, what=f"the {list_name} entry {values} to be saved")
    return row


def selected_sheet(page) -> dict:
    """The stored sheet of the character shown."""
    sheet_id = page.locator(".sheet").get_attribute("data-sheet")
    return records(page)[f"char:{sheet_id}"]["data"]["sheet"]


def fill_from_sheet(page, system):
    """Press the sheet's "Fill the … form" for `system`, and wait until the engine's request is in the form (or the
    sheet says why it is not): the table carries data-filling while it asks."""
    show_view(page, "table")
    page.locator(f'.sheet [data-fill="{system}"]').click()
    wait_until(page, "() => document.querySelector('#table').dataset.filling === undefined", 10_000)


def use_select(page, name):
    """A select of the sheet's "Roll as" panel (its accessible name also holds the option shown)."""
    return page.locator(f'.sheet .use select[data-k$=":{name}"]')


def sheet_list(page, name, list_name):
    return characters(page)[name]["sheet"][list_name]


def will_shown(page):
    return page.locator(".sheet [data-will]").inner_text()


# --- the Scheme and struggles ------------------------------------------------------------------------------------


def track_scheme(page, on):
    """Tick or untick "Track the Scheme on this device", and wait until the store holds it."""
    show_view(page, "table")
    page.locator('[data-k="scheme:tracked"]').set_checked(on)
    wait_until(page, lambda: records(page)["shared:scheme"]["data"]["tracked"] is on, what=f"tracked {on}")


def keep_the_scheme_elsewhere(page):
    """Untick the table's "Track the Scheme on this device": a Scheme die or a negation is then not held to the
    empty Scheme of a fresh table."""
    page.wait_for_selector("#table[data-ready]", state="attached", timeout=10_000)
    show_view(page, "table")
    page.locator('[data-k="scheme:tracked"]').set_checked(False)
    page.wait_for_selector('.scheme[data-tracked="false"]', state="attached", timeout=10_000)


def strong(page, name):
    create(page, "ability_test", name)
    for attr in ("Mental", "Control"):
        edit(
            page,
            sheet_input(page, f"attributes.{attr}"),
            5,
            lambda a=attr: characters(page)[name]["sheet"]["attributes"][a] == 5,
        )
    use_select(page, "type1").select_option("Mental")
    use_select(page, "type2").select_option("Control")


def start_struggle(page, name, target, contest=False):
    show_view(page, "table")
    part = page.locator('[data-part="struggles"]')
    part.get_by_label("Effort").fill(name)
    part.get_by_label("Successes needed").fill(str(target))
    if contest:
        part.locator('[data-k="st:new:contest"]').check()
    part.locator('[data-create="struggle"] button[type=submit]').click()
    page.wait_for_selector(f'.struggle h4:has-text("{name}")')
    return page.locator(".struggle", has=page.locator(f'h4:has-text("{name}")'))


# --- sheets of every kind ----------------------------------------------------------------------------------------


def setup_arbitration(page):
    add_row(page, "skills", "Swords", 5)
    add_row(page, "skills", "Climbing", 2)
    add_row(page, "traits", "one-eyed", -1)
    wait_until(
        page,
        lambda: (
            [s["value"] for s in sheet_list(page, "Hero", "skills")] == [5, 2]
            and sheet_list(page, "Hero", "traits")[0]["modifier"] == -1
        ),
        what="the sheet",
    )
    use = page.locator(".sheet .use")
    use.get_by_label("Swords 5").check()
    use.get_by_label("Climbing 2").check()
    use.get_by_label("one-eyed -1").check()
    return {"skills": [5, 2], "modifiers": [-1]}


def setup_two_dice(page):
    add_row(page, "traits", "Brave", 3)
    add_row(page, "abilities", "Archery", 2)
    wait_until(
        page,
        lambda: sheet_list(page, "Hero", "abilities") and sheet_list(page, "Hero", "abilities")[0]["value"] == 2,
        what="the sheet",
    )
    use = page.locator(".sheet .use")
    use_select(page, "trait").select_option(label="Brave 3")
    use.get_by_label("Archery +2").check()
    return {"trait": 3, "abilities": [2]}


def setup_threat(page):
    edit(
        page,
        sheet_input(page, "ratings.Muscle"),
        3,
        lambda: characters(page)["Hero"]["sheet"]["ratings"]["Muscle"] == 3,
    )
    use_select(page, "rating").select_option("Muscle")
    return {"rating": 3}


def setup_ten_again(page):
    add_row(page, "attributes", "Strength", 3)
    add_row(page, "skills", "Brawl", 2, False)
    wait_until(
        page,
        lambda: sheet_list(page, "Hero", "skills") and sheet_list(page, "Hero", "skills")[0]["trained"] is False,
        what="the sheet",
    )
    use = page.locator(".sheet .use")
    use.get_by_label("Strength 3").check()
    use.get_by_label("Brawl 2 (untrained)").check()
    return {"pool": 5, "unskilled": True}


def setup_ability_test(page):
    edit(
        page,
        sheet_input(page, "attributes.Physical"),
        3,
        lambda: characters(page)["Hero"]["sheet"]["attributes"]["Physical"] == 3,
    )
    edit(
        page,
        sheet_input(page, "attributes.Power"),
        4,
        lambda: characters(page)["Hero"]["sheet"]["attributes"]["Power"] == 4,
    )
    add_row(page, "skills", "Fencing", 2, 1)
    add_row(page, "items", "Rapier", 1)
    wait_until(
        page,
        lambda: sheet_list(page, "Hero", "items") and sheet_list(page, "Hero", "items")[0]["level"] == 1,
        what="the sheet",
    )
    use_select(page, "type1").select_option("Physical")
    use_select(page, "type2").select_option("Power")
    use_select(page, "skill").select_option(label="Fencing 2, 1 Mastery")
    use_select(page, "item").select_option(label="Rapier 1")
    return {"type1": 3, "type2": 4, "skill": 2, "masteries": 1, "item": 1}


SETUP = {
    "arbitration": setup_arbitration,
    "two_dice": setup_two_dice,
    "threat": setup_threat,
    "ten_again": setup_ten_again,
    "ability_test": setup_ability_test,
}
