"""Roll, Table and Log as views of a phone app (issue 20, static/views.js): one on screen at a time, each reached in
one tap and by its address, Back moving between them, a form's edits replacing the address rather than adding to
the history; the Settings panel from the header with "Keep the screen on" (the Screen Wake Lock API); and Roll saying what a
tap will spend. (The header's offline mark: test_offline.py.)"""

from __future__ import annotations

from page_helpers import IN_VIEW, form, roll, set_field, wait_until
from table_helpers import create, edit, setup_ten_again, sheet_input

CURRENT = "() => [...document.querySelectorAll('main > .view')].filter((v) => v.checkVisibility()).map((v) => v.id)"


def view_of(page) -> list[str]:
    return page.evaluate(CURRENT)


def tap_view(page, view):
    link = page.locator(f'nav.views a[data-view="{view}"]')
    assert link.evaluate(IN_VIEW), f"the {view} link is not in the thumb's reach"
    box = link.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44, f"the {view} link is {box}"
    link.tap()
    wait_until(page, lambda: view_of(page) == [view], what=f"the {view} view alone on screen")


def test_each_view_is_one_tap_away_and_back_returns(phone_app):
    """From a procedure's Roll view, one tap shows the Table, one more the Log, each alone on screen with its address
    (#table, #log) and its link marked current; Back returns to the Table, then to the procedure with its form."""
    page = phone_app("#two_dice")
    assert view_of(page) == ["roll"]
    set_field(page, "two_dice", "trait", 2)
    tap_view(page, "table")
    assert page.evaluate("location.hash") == "#table"
    assert page.locator('nav.views a[aria-current="page"]').get_attribute("data-view") == "table"
    tap_view(page, "log")
    assert page.evaluate("location.hash") == "#log"
    assert page.locator('[data-part="log"]').is_visible()
    page.go_back()
    wait_until(page, lambda: view_of(page) == ["table"], what="Back to the Table")
    page.go_back()
    wait_until(page, lambda: view_of(page) == ["roll"], what="Back to the Roll view")
    assert page.evaluate("location.hash").startswith("#two_dice")
    assert form(page, "two_dice").locator('[data-path="trait"]').input_value() == "2"
    tap_view(page, "roll")  # already there: nothing changes
    assert view_of(page) == ["roll"]


def test_each_view_opens_by_its_address(phone_app):
    """#table and #log open their view; #ID=FORM opens the procedure with its form filled, as links made before the
    views do; #roll opens the Roll view."""
    page = phone_app("#log")
    assert view_of(page) == ["log"]
    page.goto("/#table")
    page.wait_for_selector("#table[data-ready]", state="attached", timeout=30_000)
    assert view_of(page) == ["table"]
    page.goto('/#ten_again={"pool":7}')
    page.wait_for_selector("body[data-ready]", state="attached", timeout=30_000)
    assert view_of(page) == ["roll"]
    assert form(page, "ten_again").locator('[data-path="pool"]').input_value() == "7"
    assert form(page, "ten_again").is_visible()
    page.evaluate("location.hash = '#log'")
    wait_until(page, lambda: view_of(page) == ["log"], what="the Log by a typed address")
    page.evaluate("location.hash = '#roll'")
    wait_until(page, lambda: view_of(page) == ["roll"], what="the Roll view by #roll")
    assert form(page, "ten_again").is_visible()


def test_a_form_edit_replaces_the_address_and_a_procedure_pushes_it(phone_app):
    """Typing into a form rewrites the address in place (the history does not grow with each keystroke); picking
    another procedure adds an entry, so Back returns to the one before."""
    page = phone_app("#ten_again")
    length = page.evaluate("history.length")
    for pool in (5, 6, 7):
        set_field(page, "ten_again", "pool", pool)
    wait_until(page, "() => location.hash.includes('7')", 5_000, what="the address to follow the form")
    assert page.evaluate("history.length") == length
    page.locator('nav.tabs a[data-tab="luck"]').tap()
    assert page.evaluate("location.hash") == "#luck" and page.evaluate("history.length") == length + 1
    page.go_back()
    wait_until(page, lambda: form(page, "ten_again").is_visible(), what="Back to the d10 pool")
    assert form(page, "ten_again").locator('[data-path="pool"]').input_value() == "7"


def test_back_onto_an_older_entry_keeps_what_the_player_typed_since(phone_app):
    """Back returns to a view the player left with the numbers the player typed last, not the older ones its entry
    held (the address then says the form's numbers, so a reload keeps them too); a link opened afterwards still
    fills the form (docs/features.md#at-the-table-on-a-phone)."""
    page = phone_app("#ten_again")
    set_field(page, "ten_again", "pool", 5)
    wait_until(page, "() => location.hash.includes('5')", 5_000, what="the address to follow the form")
    tap_view(page, "table")
    tap_view(page, "roll")
    set_field(page, "ten_again", "pool", 8)
    wait_until(page, "() => location.hash.includes('8')", 5_000, what="the address to follow the form")
    tap_view(page, "log")
    page.go_back()
    wait_until(page, lambda: view_of(page) == ["roll"], what="Back to the Roll view")
    page.go_back()
    wait_until(page, lambda: view_of(page) == ["table"], what="Back to the Table")
    page.go_back()  # the first entry: its address held pool 5
    wait_until(page, lambda: view_of(page) == ["roll"], what="Back to the first Roll entry")
    pool = form(page, "ten_again").locator('[data-path="pool"]')
    assert pool.input_value() == "8"
    wait_until(page, "() => location.hash.includes('8')", 5_000, what="the entry's address now the form's")
    page.reload()
    page.wait_for_selector("body[data-ready]", state="attached", timeout=30_000)
    assert form(page, "ten_again").locator('[data-path="pool"]').input_value() == "8"
    page.evaluate("""location.hash = '#ten_again=' + encodeURIComponent('{"pool":3}')""")
    wait_until(page, lambda: pool.input_value() == "3", what="a typed address filling the form")


def test_threat_and_luck_are_two_procedures_with_one_roll_bar_each(phone_app):
    """The picker offers Threat and Luck apart: choosing one shows its form alone, and one Roll is on screen."""
    page = phone_app("#threat")
    visible = "() => [...document.querySelectorAll('button[data-roll]')].filter((b) => b.checkVisibility()).length"
    assert page.evaluate(visible) == 1 and form(page, "threat").is_visible() and not form(page, "luck").is_visible()
    page.locator('nav.tabs a[data-tab="luck"]').tap()
    assert page.evaluate(visible) == 1 and form(page, "luck").is_visible() and not form(page, "threat").is_visible()


def test_fill_from_the_table_opens_the_roll_view(phone_app):
    """A sheet's Fill, tapped in the Table view, shows the filled form in the Roll view; Back returns to the Table."""
    page = phone_app("#table")
    create(page, "two_dice", "Mira")
    page.locator('.sheet [data-fill="two_dice"]').tap()
    wait_until(page, lambda: view_of(page) == ["roll"], what="the Roll view after Fill")
    assert form(page, "two_dice").locator("button[data-roll]").evaluate(IN_VIEW)
    page.go_back()
    wait_until(page, lambda: view_of(page) == ["table"], what="Back to the Table")


def test_roll_says_what_the_tap_will_spend(phone_app):
    """As a character with Will, ticking "Expend a Will" makes Roll say "Roll · 1 Will (N left)"; after the roll the
    Will is unticked and Roll says "Roll" again."""
    page = phone_app("#table")
    create(page, "ten_again", "Hero")
    edit(page, sheet_input(page, "will"), 3, lambda: True)
    setup_ten_again(page)
    page.locator('.sheet [data-fill="ten_again"]').tap()
    wait_until(page, lambda: view_of(page) == ["roll"], what="the Roll view")
    button = form(page, "ten_again").locator("button[data-roll]")
    set_field(page, "ten_again", "will", True)
    wait_until(page, lambda: button.inner_text() == "Roll · 1 Will (2 left)", what="Roll to say the Will it spends")
    roll(page, "ten_again")
    assert not form(page, "ten_again").locator('[data-path="will"]').is_checked()
    wait_until(page, lambda: button.inner_text() == "Roll", what="Roll to spend nothing")


WATCH_WAKE_LOCK = """() => {
  window.__wakeRequests = [];
  if (!navigator.wakeLock) return;
  const request = navigator.wakeLock.request.bind(navigator.wakeLock);
  navigator.wakeLock.request = (type) => { window.__wakeRequests.push(type); return request(type); };
}"""


def test_keep_the_screen_on_asks_for_a_wake_lock_and_keeps_the_choice(phone):
    """Settings, from the header: "Keep the screen on" asks the browser for a screen wake lock (the permission granted
    to the test), says it holds, and is kept on this device: after a reload it is ticked and asked for again."""
    phone.add_init_script(f"({WATCH_WAKE_LOCK})()")
    phone.goto("/")
    cdp = phone.context.new_cdp_session(phone)
    origin = phone.evaluate("location.origin")
    cdp.send("Browser.grantPermissions", {"origin": origin, "permissions": ["wakeLockScreen"]})
    phone.wait_for_selector("body[data-ready]", state="attached", timeout=60_000)
    phone.locator("[data-settings-open]").tap()
    box = phone.get_by_label("Keep the screen on")
    box.check()
    status = phone.locator("[data-wake-status]")
    wait_until(phone, lambda: "stays on" in status.inner_text(), what="the wake lock to be held")
    assert phone.evaluate("window.__wakeRequests") == ["screen"]
    assert status.get_attribute("data-refused") is None
    phone.locator("[data-settings-close]").tap()
    wait_until(phone, "() => !history.state?.arbiterOver", 5_000, what="Settings' history entry taken back (back.js)")
    phone.reload()
    phone.wait_for_selector("body[data-ready]", state="attached", timeout=60_000)
    wait_until(phone, "() => window.__wakeRequests.length === 1", 10_000, what="the wake lock asked for again")
    phone.locator("[data-settings-open]").tap()
    assert phone.get_by_label("Keep the screen on").is_checked()


def test_a_refused_wake_lock_is_said_not_thrown(phone, watch):
    """Where the page may not keep the screen on (here the host's Permissions-Policy forbids it, as an embedding page
    can: the browser answers NotAllowedError), the box is unticked and the panel says, in view under it, that the
    browser would not keep the screen on, in the player's words (not the browser's error's name); the choice kept is
    off, so after a reload the box is unticked and nothing is asked; no error escapes the page."""
    phone.add_init_script(f"({WATCH_WAKE_LOCK})()")

    def forbid_wake_lock(route):
        response = route.fetch()
        route.fulfill(response=response, headers={**response.headers, "permissions-policy": "screen-wake-lock=()"})

    phone.route("**/", forbid_wake_lock)
    phone.goto("/")
    phone.wait_for_selector("body[data-ready]", state="attached", timeout=60_000)
    phone.locator("[data-settings-open]").tap()
    phone.get_by_label("Keep the screen on").click()  # ticked, then unticked at the refusal
    status = phone.locator("[data-wake-status]")
    wait_until(phone, lambda: status.get_attribute("data-refused") is not None, what="the refusal to be said")
    assert "would not keep the screen on" in status.inner_text()
    assert "Error" not in status.inner_text() and "not allowed" not in status.inner_text().lower()
    assert not phone.get_by_label("Keep the screen on").is_checked()
    assert status.evaluate(IN_VIEW), f"the refusal is at {status.bounding_box()}, out of the 360 × 640 view"
    assert phone.evaluate("window.__wakeRequests") == ["screen"]
    assert phone.evaluate("self.arbiterErrors") == []
    phone.reload()
    phone.wait_for_selector("body[data-ready]", state="attached", timeout=60_000)
    phone.locator("[data-settings-open]").tap()
    assert not phone.get_by_label("Keep the screen on").is_checked()
    assert phone.evaluate("window.__wakeRequests") == []
    policy = "Permissions policy violation: screen-wake-lock"  # the browser's own report of the policy, expected here
    watch.problems = [problem for problem in watch.problems if policy not in problem]


def test_settings_fit_a_phone_and_nothing_moves_under_the_thumb(phone):
    """On a 360 × 640 phone the Settings panel shows Done without scrolling, and Done stays where it is while the panel
    changes under it (the screen kept on, its words changed; a name typed); "Your name" is a text box as wide as the
    panel, a thumb's height, that keeps what is typed."""
    phone.goto("/")
    cdp = phone.context.new_cdp_session(phone)
    cdp.send(
        "Browser.grantPermissions", {"origin": phone.evaluate("location.origin"), "permissions": ["wakeLockScreen"]}
    )
    phone.wait_for_selector("body[data-ready]", state="attached", timeout=60_000)
    phone.evaluate("""() => { window.__tops = [];
        new MutationObserver(() => {
            const done = document.querySelector('dialog#settings[open] [data-settings-close]');
            if (done) window.__tops.push(Math.round(done.getBoundingClientRect().top));
        }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    }""")
    phone.locator("[data-settings-open]").tap()
    phone.wait_for_selector("dialog#settings[open]")
    phone.get_by_label("Keep the screen on").check()
    wait_until(phone, lambda: "stays on" in phone.locator("[data-wake-status]").inner_text(), what="the wake lock")
    name = phone.get_by_label("Your name")
    panel = phone.locator("dialog#settings form").bounding_box()
    box = name.bounding_box()
    assert box["width"] >= panel["width"] - 1 and box["height"] >= 44, (box, panel)
    name.tap()
    phone.keyboard.type("Mira")
    done = phone.locator("[data-settings-close]")
    top = round(done.bounding_box()["y"])
    tops = phone.evaluate("() => window.__tops")
    assert tops and set(tops) == {top}, tops
    assert done.evaluate(IN_VIEW), done.bounding_box()
    done.tap()
    wait_until(phone, "() => !document.querySelector('dialog#settings').open", 5_000, what="Settings to close")
    phone.locator("[data-settings-open]").tap()
    assert phone.get_by_label("Your name").input_value() == "Mira"
