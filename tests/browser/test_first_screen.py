"""The first screen on a phone (360 × 640, touch): a newcomer sees the title, "Pick your game's procedure", every tab
with its name and hint, the chosen tab's one-line description and the start of its form, with no scrolling and no
tooltip, in light and dark."""

from __future__ import annotations

import pytest

from steps import SPEC, TAB

TABS = list(dict.fromkeys(TAB.values()))

# What of the first screen is not wholly inside the viewport, or not shown, as "what: why".
OUT_OF_VIEW = """(tab) => {
  const out = [];
  const inside = (what, el, whole = true) => {
    if (!el || !el.checkVisibility()) { out.push(`${what}: not shown`); return; }
    const r = el.getBoundingClientRect();
    const bottom = whole ? r.bottom : r.top + 1;
    if (r.top < 0 || r.left < 0 || r.right > innerWidth || bottom > innerHeight || r.width === 0) {
      out.push(`${what}: at ${r.left.toFixed(0)},${r.top.toFixed(0)} to ${r.right.toFixed(0)},${r.bottom.toFixed(0)}`);
    }
  };
  inside('the title', document.querySelector('header.top h1'));
  inside('"Pick your game\\'s procedure"', document.querySelector('.pick'));
  for (const a of document.querySelectorAll('nav.tabs a')) {
    inside(`tab ${a.dataset.tab}`, a);
    inside(`tab ${a.dataset.tab}'s hint`, a.querySelector('.tab-hint'));
  }
  const panel = document.getElementById(`panel-${tab}`);
  inside(`${tab}'s description`, panel.querySelector('.tab-description'));
  inside(`${tab}'s form`, panel.querySelector('form h2'), false);
  if (document.documentElement.scrollWidth > innerWidth) out.push(`the page: ${document.documentElement.scrollWidth} px wide`);
  return out;
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("tab", TABS)
def test_the_first_screen_shows_the_tabs_the_description_and_the_form(phone, tab, scheme):
    """Once a tab is chosen, at 360 × 640 with nothing scrolled: the title, the line above the tabs, every tab with its
    hint, the chosen tab's description (its procedures' own, from systems()) and the top of its form."""
    phone.emulate_media(color_scheme=scheme)
    phone.goto("/")
    phone.click(f'nav.tabs a[data-tab="{tab}"]')
    phone.evaluate("() => scrollTo(0, 0)")
    description = phone.locator(f"#panel-{tab} .tab-description")
    assert description.inner_text() == " ".join(s["description"] for s in SPEC.values() if s["tab"] == tab)
    assert phone.locator(f'nav.tabs a[data-tab="{tab}"]').get_attribute("aria-selected") == "true"
    assert phone.locator("nav.tabs a[title]").count() == 0  # no tooltip to hover for
    out = phone.evaluate(OUT_OF_VIEW, tab)
    assert out == [], f"out of the first screen at 360 × 640 ({tab}, {scheme}):\n" + "\n".join(out)
