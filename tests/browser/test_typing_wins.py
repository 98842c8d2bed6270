"""What the player types wins (issue 29): on every form, a tap on Roll and then, with no pause between fields (0, 50
and 100 ms), a new value typed, chosen or ticked in every field on screen, while the roll's answer and the odds are
still on their way: once everything has settled, every field holds what the player put in it (a late answer from
the worker writes no field the player touched since it was asked)."""

from __future__ import annotations

import pytest

from arbiter import api
from page_helpers import SLOW_WORKER, form, open_app, show_form, table_idle, wait_until

SYSTEMS = [s["id"] for s in api.systems()]

# Each field on screen of the form, with a value other than the one it shows: a number one step within its range, a
# word, another option, the box ticked the other way (the switches of optional groups left alone: they add fields).
FIELDS = """(form) => [...form.querySelectorAll('input[data-path], select[data-path]')]
  .filter((el) => el.checkVisibility() && !el.disabled && !el.hasAttribute('data-toggle'))
  .map((el) => {
    const path = el.dataset.path;
    if (el.tagName === 'SELECT') {
      const other = [...el.options].find((o) => o.value !== el.value);
      return other && { path, kind: 'select', value: other.value };
    }
    if (el.type === 'checkbox') return { path, kind: 'check', value: !el.checked };
    if (el.type === 'number') {
      const v = Number(el.value), max = Number(el.max);
      return { path, kind: 'type', value: String(v + 1 <= max ? v + 1 : v - 1) };
    }
    return { path, kind: 'type', value: `${el.value}x` };
  })
  .filter(Boolean)"""


SHOWN = """(form, [path, kind]) => {
  const el = form.querySelector(`[data-path="${CSS.escape(path)}"]`);
  if (!el) return null; // the field is gone
  return kind === 'check' ? el.checked : el.value;
}"""


@pytest.mark.parametrize("gap", [0, 50, 100])
def test_values_typed_while_a_roll_is_answered_all_stay(page, gap):
    page.emulate_media(reduced_motion="reduce")
    page.add_init_script(SLOW_WORKER)
    page = open_app(page, "#ten_again", 360, 640)
    lost = []
    for system in SYSTEMS:
        show_form(page, system)
        f = form(page, system)
        fields = f.evaluate(FIELDS)
        assert fields, f"{system}: no field on screen"
        f.locator("button[data-roll]").click()
        for field in fields:
            el = f.locator(f'[data-path="{field["path"]}"]')
            if field["kind"] == "select":
                el.select_option(field["value"])
            elif field["kind"] == "check":
                el.set_checked(field["value"])
            else:
                el.click()
                page.keyboard.press("ControlOrMeta+A")
                page.keyboard.type(field["value"])
            if gap:
                page.wait_for_timeout(gap)
        roll = f.locator("button[data-roll]").element_handle()
        wait_until(page, "(b) => !b.hasAttribute('aria-disabled')", 10_000, roll, what="the roll answered")
        table_idle(page)
        page.wait_for_timeout(400)  # the odds of the last keystroke asked and answered
        for field in fields:
            shown = f.evaluate(SHOWN, [field["path"], field["kind"]])
            if shown != field["value"]:
                lost.append(f"{system} {field['path']}: typed {field['value']!r}, shows {shown!r}")
    assert not lost, "\n".join(lost)
