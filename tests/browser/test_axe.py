"""axe-core finds no accessibility violation on the built page: on each tab before and after rolling each of its forms,
in light and dark, on a desktop window and on a phone (360 × 640, touch). axe-core is the pinned npm tarball
(py/tools/fetch.py: fetched once, checked, cached in .cache/); it is evaluated in the page by the test, never served."""

from __future__ import annotations

import pytest

from page_helpers import changed, form
from steps import TAB
from table_helpers import PUT, records
from tools.fetch import fetch_axe

TABS = list(dict.fromkeys(TAB.values()))

# Every rule axe runs by default (WCAG 2.0-2.2 A and AA, and its best practices); none is switched off.
RUN = """async () => {
  const { violations } = await axe.run(document, { resultTypes: ['violations'] });
  return violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary.replace(/\\s+/g, ' ')}`) }));
}"""


@pytest.fixture(scope="session")
def axe_source() -> str:
    return fetch_axe()


def violations(page, axe_source: str, when: str) -> list[str]:
    """axe's violations on `page` now, one readable line per element ("when: rule (impact): help — where: why")."""
    if not page.evaluate("() => typeof axe === 'object'"):
        page.evaluate(axe_source)  # through the DevTools protocol: the page's CSP allows no such script, rightly
    return [
        f"{when}: {v['id']} ({v['impact']}): {v['help']}\n    " + "\n    ".join(v["nodes"]) for v in page.evaluate(RUN)
    ]


@pytest.mark.parametrize("device", ["desktop", "phone"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("tab", TABS)
def test_axe_finds_no_violation_before_and_after_each_roll(request, axe_source, tab, scheme, device):
    """The tab as it opens, then after a roll of each of its forms (the dice, the outcome, the follow-up choices
    shown), then with the rulings opened: axe-core reports 0 violations, the Table included."""
    page = request.getfixturevalue("page" if device == "desktop" else "phone")
    page.emulate_media(color_scheme=scheme, reduced_motion="reduce")
    page.goto(f"/#{tab}")
    page.wait_for_selector("body[data-ready]", state="attached", timeout=60_000)
    page.wait_for_selector("#table[data-ready]", state="attached", timeout=10_000)
    found = violations(page, axe_source, "before rolling")
    for system in [s for s, t in TAB.items() if t == tab]:
        changed(page, system, form(page, system).locator("button[data-roll]").click)
        page.wait_for_selector(f'form[data-system="{system}"] [data-choices]:not([data-checking])', state="attached")
        found += violations(page, axe_source, f"after rolling {system}")
    page.locator("#rulings > summary").click()  # parsed into the page when first opened
    page.wait_for_selector("#rulings h3", timeout=5_000)
    found += violations(page, axe_source, "with the rulings open")
    assert found == [], f"axe-core on the {tab} tab ({scheme}, {device}):\n" + "\n".join(found)


def test_axe_is_never_shipped(dist, axe_source):
    """axe-core is a test tool: no file of the built site holds it or names it."""
    shipped = [
        p.relative_to(dist)
        for p in dist.rglob("*")
        if p.is_file() and (b"axe-core" in p.read_bytes() or axe_source[:200].encode() in p.read_bytes())
    ]
    assert shipped == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_violation_in_each_view_of_a_phone(phone, axe_source, scheme):
    """Issue 20: on a phone each view is on screen alone: Roll after a roll, the Table with a character, the Log with
    that roll, the Settings panel open over them, and the Share sheet of the roll with its QR code and Copy's word:
    axe-core reports 0 violations in each."""
    phone.emulate_media(color_scheme=scheme, reduced_motion="reduce")
    phone.goto("/#ten_again")
    phone.wait_for_selector("body[data-ready]", state="attached", timeout=60_000)
    phone.wait_for_selector("#table[data-ready]", state="attached", timeout=10_000)
    changed(phone, "ten_again", form(phone, "ten_again").locator("button[data-roll]").click)
    found = violations(phone, axe_source, "the Roll view")
    phone.locator('nav.views a[data-view="table"]').click()
    phone.select_option("#new-char-kind", "ten_again")
    phone.fill("#new-char-name", "Rook")
    phone.click('[data-create="character"] button[type=submit]')
    phone.wait_for_selector('.sheet h4:has-text("Rook")')
    found += violations(phone, axe_source, "the Table view")
    phone.locator('nav.views a[data-view="log"]').click()
    phone.wait_for_selector('[data-part="log"] .log-entry[data-kind="roll"]')
    found += violations(phone, axe_source, "the Log view")
    phone.locator("[data-settings-open]").click()
    phone.wait_for_selector("dialog#settings[open]")
    found += violations(phone, axe_source, "the Settings panel")
    phone.keyboard.press("Escape")
    phone.wait_for_selector("dialog#settings:not([open])", state="attached")
    phone.locator('nav.views a[data-view="roll"]').click()
    form(phone, "ten_again").locator("[data-result] button[data-share]").click()
    phone.wait_for_selector("dialog[data-share-sheet][open] [data-qr]", timeout=20_000)
    phone.locator("dialog[data-share-sheet] [data-share-copy]").click()
    phone.wait_for_selector("[data-share-copied]:not(:empty)")
    found += violations(phone, axe_source, "the Share sheet")
    assert found == [], f"axe-core on a phone's views ({scheme}):\n" + "\n".join(found)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_violation_in_the_tables_storage_warnings(phone, axe_source, scheme):
    """Issue 23: the Table of a phone whose browser may clear it, with its "Install Arbiter" button (the browser's
    prompt) and a backup reminder due (a table made 20 days ago, never backed up): axe-core reports 0 violations."""
    phone.add_init_script("StorageManager.prototype.persisted = async () => false;")
    phone.emulate_media(color_scheme=scheme, reduced_motion="reduce")
    phone.goto("/#table")
    phone.wait_for_selector("#table[data-ready]", state="attached", timeout=60_000)
    meta = records(phone)["meta"]
    phone.evaluate(
        PUT, [{**meta, "rev": meta["rev"] + 1, "data": {**meta["data"], "created": "2020-01-01T00:00:00.000Z"}}]
    )
    phone.reload()
    phone.wait_for_selector("#table[data-ready]", state="attached", timeout=60_000)
    phone.evaluate("""() => {
      const event = new Event('beforeinstallprompt', { cancelable: true });
      event.prompt = async () => {};
      event.userChoice = Promise.resolve({ outcome: 'dismissed', platform: 'web' });
      window.dispatchEvent(event);
    }""")
    phone.wait_for_selector('[data-k="keeping:install"]')
    assert phone.locator('[data-keeping="may-clear"]').is_visible() and phone.locator("[data-backup-due]").is_visible()
    found = violations(phone, axe_source, "the Table's storage warnings")
    assert found == [], f"axe-core on the Table's storage warnings ({scheme}):\n" + "\n".join(found)
