"""One table across the group's phones (issue 22): a roll shared by its link, opened on another phone (a fresh
profile, and offline after its first visit), shows the same outcome; "Add" puts it in that phone's log once, applying
what it does to that table (a Scheme die taken once, a Price marked, an option another player marked refused); bad
links are refused with the reason and add nothing. Two browser contexts are two phones: 360 × 640, touch."""

from __future__ import annotations

import base64
import json
import shutil
import sys
import zlib
from pathlib import Path

import pytest

from page_helpers import (
    SUB_PATH,
    after_done,
    form,
    offline_copy_saved,
    open_app,
    read_qr,
    roll,
    serve,
    set_field,
    show_view,
    wait_until,
)
from table_helpers import PUT, characters, create, log, records, scheme

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "py"))
from arbiter import api, share  # noqa: E402

READY_MS = 60_000
PHONE = {"viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
WHEN = 1_790_000_000
PANEL = "[data-shared-roll]"


@pytest.fixture
def phones(browser, server, watch):
    """`phones()`: a new phone (its own profile: a fresh context, 360 × 640, touch, motion reduced) on the site; the
    test fails on any console error, page error or request to another origin in any of them."""
    opened = []

    def new_phone(base_url: str = server.url, service_workers: str = "block"):
        seen = type(watch)(base_url.rstrip("/").removesuffix(SUB_PATH.rstrip("/")))  # conftest's Watch, its origin
        context = browser.new_context(base_url=base_url, service_workers=service_workers, **PHONE)
        context.route("**/*", seen.route)
        context.on("console", seen.console)
        context.on("weberror", lambda error: seen.page_error(error.error))
        page = context.new_page()
        page.emulate_media(reduced_motion="reduce")
        opened.append((context, seen))
        return page

    yield new_phone
    problems = []
    for context, seen in opened:
        context.close()
        problems += seen.problems
    if problems:
        pytest.fail("the page reported problems:\n" + "\n".join(problems), pytrace=False)


def shared_link(page, system: str) -> str:
    """Share the roll shown on `system`'s form, as a player does: Share under the landed roll; the sheet's link."""
    button = form(page, system).locator("[data-result] button[data-share]")
    button.tap()
    page.wait_for_selector("dialog[data-share-sheet][open] a[data-share-link]")
    link = page.get_attribute("dialog[data-share-sheet] a[data-share-link]", "href")
    page.locator("dialog[data-share-sheet] [data-share-close]").tap()
    wait_until(page, "() => !document.querySelector('dialog[data-share-sheet][open]')", what="the Share sheet closed")
    after_done(page, "the Share sheet")
    return link


def open_link(page, link: str) -> None:
    """Open a shared link on this phone (a fresh tab's address, as the camera or a message opens it)."""
    page.goto(link)
    page.wait_for_selector(f"{PANEL}[data-read]", timeout=READY_MS)


def add(page) -> None:
    """Tap "Add to this table's log" and wait until it is done (added, or refused)."""
    page.locator("[data-add-shared]").tap()
    page.wait_for_selector(f"{PANEL} [data-shared-in-log], {PANEL} [data-add-refused]", timeout=20_000)


def shared_entries(page) -> list[dict]:
    return [e for e in log(page) if "shared" in e]


def fragment_of(link: str) -> str:
    return link.split("#r=", 1)[1]


def test_a_roll_shared_by_link_shows_the_same_outcome_and_is_added_once(phones):
    """A rolls a d10 pool and shares it; B, a fresh profile, opens the link: the same outcome, worked out again; Add
    puts it in B's log once (a double tap too), and opening the link again offers nothing more to add."""
    a = phones()
    open_app(a, "#ten_again", 360, 640)
    rolled = roll(a, "ten_again")
    link = shared_link(a, "ten_again")
    assert link.startswith(a.url.split("#")[0] + "#r=") and len(fragment_of(link)) <= 500
    b = phones()
    open_link(b, link)
    outcome = b.locator(f"{PANEL} [data-shared-outcome]")
    assert outcome.get_attribute("data-shared-outcome") == rolled["outcome"]
    assert rolled["summary"] in outcome.inner_text()
    wait_until(b, "() => document.querySelector('#table[data-ready]')")
    b.locator("[data-add-shared]").dblclick()  # a double tap adds it once
    b.wait_for_selector(f"{PANEL} [data-shared-in-log]", timeout=20_000)
    entries = shared_entries(b)
    assert len(entries) == 1 and entries[0]["summary"] == rolled["summary"] and entries[0]["drawn"] == rolled["drawn"]
    b.goto(b.url.split("#")[0] + "#log")
    open_link(b, link)
    assert b.locator(f"{PANEL} [data-shared-in-log]").is_visible()
    assert b.locator("[data-add-shared]").count() == 0
    assert len(shared_entries(b)) == 1
    show_view(b, "log")
    assert b.locator(".log-entry .log-shared").count() == 1
    assert "via" not in entries[0]["shared"]  # a link's (a live table's says so: test_live_sync.py)
    assert b.locator(".log-entry .log-shared").text_content().startswith("Shared by link: rolled by ")


def test_a_link_opened_offline_after_the_first_visit_shows_the_same_roll(dist, phones):
    """B visited Arbiter once (its offline copy saved), then has no signal: A's link still opens from the copy, with
    the same outcome, and adds to B's log."""
    a = phones()
    open_app(a, "#arbitration", 360, 640)
    rolled = roll(a, "arbitration")
    fragment = fragment_of(shared_link(a, "arbitration"))
    server = serve({SUB_PATH: dist})
    b = phones(server.url, service_workers="allow")
    b.goto(SUB_PATH)
    offline_copy_saved(b, READY_MS)
    server.shutdown()
    server.server_close()
    b.context.set_offline(True)
    open_link(b, f"{server.url.rstrip('/')}{SUB_PATH}#r={fragment}")
    assert b.locator(f"{PANEL} [data-shared-outcome]").get_attribute("data-shared-outcome") == rolled["outcome"]
    wait_until(b, "() => document.querySelector('#table[data-ready]')")
    add(b)
    assert [e["summary"] for e in shared_entries(b)] == [rolled["summary"]]


def put_scheme(page, n: int) -> None:
    """This phone's Scheme holds `n` dice, set as a player does: − and + on the Table."""
    show_view(page, "table")
    for count in range(scheme_now(page), n):
        page.locator('[data-k="scheme:plus"]').tap()
        wait_until(page, lambda: scheme_now(page) > count, what="a die added to the Scheme")
    assert scheme_now(page) == n


def scheme_now(page) -> int:
    return records(page).get("shared:scheme", {}).get("data", {}).get("scheme", 0)


def test_an_ability_test_that_used_a_scheme_die_takes_one_from_bs_scheme_once(phones):
    """A rolls an Ability Test with a Scheme die; B adds it: B's Scheme loses the die once (and gains one if the roll
    adds one, as on A's table): opening and adding again changes nothing."""
    a = phones()
    open_app(a, "#ability_test", 360, 640)
    put_scheme(a, 1)
    show_view(a, "roll")
    set_field(a, "ability_test", "scheme_die", True)
    rolled = roll(a, "ability_test")
    assert rolled["request"]["scheme_die"] is True
    link = shared_link(a, "ability_test")
    b = phones()
    open_app(b, "#table", 360, 640)
    put_scheme(b, 3)
    open_link(b, link)
    add(b)
    expected = api.add_shared(fragment_of(link), {"character": None, "scheme": {"scheme": 3, "tracked": True}}, [], [])
    assert expected["scheme"]["scheme"] in (2, 3)  # one die taken; one added back when the roll says so
    assert scheme(b) == expected["scheme"]["scheme"]
    open_link(b, link)
    assert b.locator("[data-add-shared]").count() == 0
    assert scheme(b) == expected["scheme"]["scheme"] and len(shared_entries(b)) == 1


def test_an_empty_scheme_refuses_the_roll_and_adds_nothing(phones):
    """B's Scheme is empty: Add says why, in words, and nothing is added or taken."""
    rolled = api.roll("ability_test", {"type1": 1, "type2": 1, "difficulty": 4, "scheme_die": True}, seed=3)
    link = api.share_link("ability_test", rolled["request"], [{"drawn": rolled["drawn"]}], "Ann", WHEN)
    b = phones()
    open_app(b, "#table", 360, 640)
    open_link(b, f"{b.url.split('#')[0]}#r={link['fragment']}")
    add(b)
    said = b.text_content("[data-add-refused]")
    assert said.startswith("Not added: The Scheme has no die left: it was never set on this phone") and "Table" in said
    assert shared_entries(b) == [] and scheme_now(b) == 0


def threat_link(option: int, by: str) -> str:
    """A Threat roll and `by` paying its Price with `option`, as a link made on another phone."""
    request = {"rating": 2, "threats": [{"name": "Fail"}]}
    rolled = next(
        r
        for r in (api.roll("threat", request, seed=s) for s in range(100))
        if any(c["name"] == "pay_the_price" for c in r["choices"])
    )
    action = {"pay_the_price": option, "by": by, "marked": []}
    after = api.act("threat", rolled, action, seed=1)
    steps = [{"drawn": rolled["drawn"]}, {"action": action, "drawn": after["drawn"]}]
    return api.share_link("threat", request, steps, by, WHEN)["fragment"]


def mark_here(page, option: int, by: str) -> None:
    """This table's current Situation has `option` marked by `by` (as a Price paid here earlier left it)."""
    price = records(page)["shared:price"]
    data = price["data"]
    current = next(s for s in data["situations"] if s["id"] == data["current"])
    current["marked"] = [{"option": option, "by": by}]
    page.evaluate(PUT, [{**price, "rev": price["rev"] + 1, "data": data}])
    page.reload()
    page.wait_for_selector("#table[data-ready]", state="attached", timeout=READY_MS)


def test_a_price_another_player_marked_on_this_table_is_refused_naming_them(phones):
    """Ann paid the Price with option 2 on her phone; on B's table Bo had marked option 2 this Situation: Add is
    refused with who marked it, and nothing is added; a free option is added and marks B's Situation."""
    b = phones()
    open_app(b, "#table", 360, 640)
    wait_until(b, lambda: "shared:price" in records(b), what="the Situations kept")
    mark_here(b, 2, "Bo")
    base = b.url.split("#")[0]
    open_link(b, f"{base}#r={threat_link(2, 'Ann')}")
    add(b)
    assert "marked by Bo" in b.text_content("[data-add-refused]")
    assert shared_entries(b) == []
    open_link(b, f"{base}#r={threat_link(5, 'Ann')}")
    add(b)
    price = records(b)["shared:price"]["data"]
    current = next(s for s in price["situations"] if s["id"] == price["current"])
    assert current["marked"] == [{"option": 2, "by": "Bo"}, {"option": 5, "by": "Ann"}]
    assert [e["kind"] for e in shared_entries(b)] == ["roll", "follow-up"]


def repack(payload: dict) -> str:
    raw = json.dumps(payload, separators=(",", ":"), sort_keys=True).encode()
    return base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")


def bad_links() -> dict[str, tuple[str, str]]:
    """name -> (fragment, words the refusal holds)."""
    good = api.share_link("ability_test", {"type1": 2, "type2": 2, "difficulty": 2}, [{"drawn": [3, 4]}], "Ann", WHEN)
    payload = json.loads(zlib.decompress(base64.urlsafe_b64decode(good["fragment"] + "==")))
    face = {**payload, "d": [[3, 5]]}  # one face changed, the id left as it was
    version = {**payload, "v": 99}
    return {
        "cut": (good["fragment"][:-9], "cut or altered"),
        "one face changed": (repack(face), "id does not match"),
        "wrong version": (repack(version), "newer version of Arbiter: update this page"),
        "100 kB": ("A" * 100_000, "too long"),
    }


@pytest.mark.parametrize("name", list(bad_links()))
def test_a_bad_link_is_refused_with_the_reason_and_adds_nothing(phones, name):
    """A cut, altered, other-version or 100 kB link: the panel says why (role=alert), offers no Add, and the log is
    as it was; no console error (the fixture fails the test on one)."""
    fragment, words = bad_links()[name]
    b = phones()
    open_app(b, "#table", 360, 640)
    open_link(b, f"{b.url.split('#')[0]}#r={fragment}")
    refused = b.locator(f"{PANEL} [data-shared-refused]")
    assert refused.get_attribute("role") == "alert" and words in refused.inner_text()
    assert b.locator("[data-add-shared]").count() == 0 and log(b) == []


def test_a_name_with_markup_is_shown_as_text(phones):
    """Who rolled is shown as the text it is: markup in a name makes no element."""
    name = "<b onclick=x>Ann</b>"
    link = api.share_link("ability_test", {"type1": 2, "type2": 2, "difficulty": 2}, [{"drawn": [3, 4]}], name, WHEN)
    b = phones()
    open_app(b, "#table", 360, 640)
    open_link(b, f"{b.url.split('#')[0]}#r={link['fragment']}")
    assert b.text_content(f"{PANEL} .who") == name
    assert b.locator(f"{PANEL} b").count() == 0


def test_a_logged_roll_shares_the_same_link_as_the_landed_roll(phones):
    """Share on a log entry gives the link Share under the landed roll gave (the same roll: one id), so a phone that
    added one never adds the other; a follow-up's entry shares the roll up to it."""
    a = phones()
    open_app(a, "#ten_again", 360, 640)
    roll(a, "ten_again")
    link = shared_link(a, "ten_again")
    show_view(a, "log")
    a.locator(".log-entry.roll button[data-share]").first.tap()
    a.wait_for_selector("dialog[data-share-sheet][open] a[data-share-link]")
    assert a.get_attribute("dialog[data-share-sheet] a[data-share-link]", "href") == link
    assert api.shared_roll(fragment_of(link))["id"] == share.unpack(fragment_of(link))["id"]


def test_a_table_shared_from_a_replaces_bs_only_after_b_says_yes_and_keeps_the_old_aside(phones):
    """A (the Host) shares the Scheme, the Situations and a character; B opens the link: nothing changes until B says
    yes; then B has A's Scheme, Situations and character, B's own log stays, and what B had is kept aside."""
    a = phones()
    open_app(a, "#table", 360, 640)
    put_scheme(a, 2)
    create(a, "ten_again", "Rook")
    a.locator("[data-k='share:characters']").check()
    a.locator("[data-share-table]").tap()
    a.wait_for_selector("dialog[data-share-sheet][open] a[data-share-link]")
    link = a.get_attribute("dialog[data-share-sheet] a[data-share-link]", "href")
    assert "#t=" in link
    b = phones()
    open_app(b, "#arbitration", 360, 640)
    roll(b, "arbitration")
    before = records(b)
    open_link(b, link)
    b.wait_for_selector(f"{PANEL} [data-k='shared:replace']")
    assert scheme_now(b) == 0 and not any(k.startswith("char:") for k in records(b))
    b.locator("[data-k='shared:replace']").tap()
    b.locator("[data-k='shared:replace:yes']").tap()
    b.wait_for_selector(f"{PANEL} [data-shared-replaced]", timeout=20_000)
    after = records(b)
    assert after["shared:scheme"]["data"]["scheme"] == 2
    assert after["shared:price"]["data"] == records(a)["shared:price"]["data"]
    assert [r["data"]["name"] for k, r in after.items() if k.startswith("char:")] == ["Rook"]
    assert [e["summary"] for e in log(b)] == [e["data"]["summary"] for k, e in before.items() if k.startswith("log:")]
    (aside,) = [r["data"] for k, r in after.items() if k.startswith("aside:")]
    assert aside["reason"] == "replaced"
    assert {r["id"]: r["data"] for r in aside["records"]} == {
        k: before[k]["data"] for k in ("shared:scheme", "shared:price") if k in before
    }


@pytest.mark.skipif(not shutil.which("zbarimg"), reason="zbarimg is not installed (Debian: apt-get install zbar-tools)")
def test_the_share_sheets_qr_code_reads_back_as_its_link(phones, tmp_path):
    """The Share sheet's QR code, read by a test-only decoder (zbarimg) from a screenshot of a 360 × 640 phone, gives
    the link the sheet shows; opened on another phone, it is the same roll."""
    a = phones()
    open_app(a, "#threat", 360, 640)
    rolled = roll(a, "threat")
    form(a, "threat").locator("[data-result] button[data-share]").tap()
    qr = a.locator("dialog[data-share-sheet][open] [data-qr]")
    qr.wait_for(timeout=20_000)
    link = a.get_attribute("dialog[data-share-sheet] a[data-share-link]", "href")
    shot = tmp_path / "sheet-qr.png"
    qr.screenshot(path=str(shot))
    assert read_qr(shot) == link
    b = phones()
    open_link(b, link)
    assert b.locator(f"{PANEL} [data-shared-outcome]").get_attribute("data-shared-outcome") == rolled["outcome"]


def test_a_price_marked_here_by_another_is_named_by_its_words_and_the_roll_can_still_be_added(phones):
    """threat-18 (issue 30): Ann's Price "Take 1 Harm." was marked by Sam on the Host's table: Add says so, by the
    option's words and who marked it; "Add without this Price" adds the roll, its Price step logged as refused, and
    Sam's mark stays the only one."""
    b = phones()
    open_app(b, "#table", 360, 640)
    wait_until(b, lambda: "shared:price" in records(b), what="the Situations kept")
    mark_here(b, 7, "Sam")
    open_link(b, f"{b.url.split('#')[0]}#r={threat_link(7, 'Ann')}")
    add(b)
    refused = b.text_content("[data-add-refused]")
    assert "“Take 1 Harm.” is marked by Sam" in refused and "option 7" not in refused
    assert shared_entries(b) == []
    b.locator("[data-add-without-price]").tap()
    b.wait_for_selector(f"{PANEL} [data-shared-in-log]", timeout=20_000)
    entries = shared_entries(b)
    assert [e["kind"] for e in entries] == ["roll", "follow-up"]
    assert "Price refused: pick again" in json.dumps(entries[1])
    price = records(b)["shared:price"]["data"]
    current = next(s for s in price["situations"] if s["id"] == price["current"])
    assert current["marked"] == [{"option": 7, "by": "Sam"}]


def test_the_payer_defaults_to_the_hosts_character_of_the_rollers_name(phones):
    """Issue 30: a link from Mira, opened on a table that has a Mira of the roll's kind: she pays, and what it charges
    her is said before Add; her Harm goes up with the Price she paid; the choice's words fit a 360 px phone."""
    b = phones()
    open_app(b, "#table", 360, 640)
    create(b, "threat", "Rook")
    create(b, "threat", "Mira")
    open_link(b, f"{b.url.split('#')[0]}#r={threat_link(7, 'Mira')}")
    mira = next(
        k.split(":", 1)[1] for k, r in records(b).items() if k.startswith("char:") and r["data"]["name"] == "Mira"
    )
    assert b.input_value("[data-shared-charge]") == mira
    b.wait_for_selector("[data-shared-payer][data-read]", timeout=20_000)
    assert b.text_content("[data-shared-payer]") == "Charged to Mira on this phone: Took 1 Harm (Harm 1)"
    fits = b.evaluate(
        """() => [...document.querySelectorAll('[data-shared-roll] label, [data-shared-charge], [data-shared-payer]')]
            .every((el) => el.getBoundingClientRect().right <= 360 && el.scrollWidth <= el.clientWidth + 1)"""
    )
    assert fits
    add(b)
    wait_until(b, lambda: characters(b)["Mira"]["sheet"]["counters"]["harm"] == 1, what="Mira's Harm taken")
