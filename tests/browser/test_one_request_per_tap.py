"""One tap, one request: a roll or a follow-up asks the worker once (arbiter.api.turn), whoever rolls, and the table
change that follows asks at most once more (arbiter.api.check, to recheck the form)."""

from __future__ import annotations


from page_helpers import form, set_field, wait_until
from table_helpers import add_row, characters, create, fill_from_sheet, log

# Counts every call the page posts to the worker and every answer; `window.__sent`, the calls' methods, is reset per tap.
COUNT = """(() => {
  window.__sent = []; window.__posted = 0; window.__answered = 0;
  const Native = window.Worker;
  window.Worker = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (event) => { if (event.data && 'id' in event.data) window.__answered += 1; });
    }
    postMessage(message, ...rest) {
      if (message && message.method) { window.__sent.push(message.method); window.__posted += 1; }
      return super.postMessage(message, ...rest);
    }
  };
})()"""


def quiet(page, system: str) -> None:
    """Wait until the form's last tap is kept by the table, its checks are done and every call is answered."""
    wait_until(
        page,
        "(s) => !window.arbiterPage.procs[s].pending && !('stale' in window.arbiterPage.procs[s].oddsBox.dataset)",
        10_000,
        system,
    )  # odds asked, answered
    page.evaluate("() => window.arbiterPage.built()[0].table.recheck()")  # a recheck of unchanged inputs asks nothing
    wait_until(page, "() => window.__posted === window.__answered", 10_000)


def tap(page, system: str, button) -> list[str]:
    """The worker calls one tap on `button` makes, once all it causes has settled."""
    quiet(page, system)
    entries = len(log(page))
    page.evaluate("() => { window.__sent = []; }")
    button.click()
    wait_until(
        page,
        "(n) => document.querySelectorAll('.log-entry').length > n"
        " || Number(document.querySelector('[data-log-count]')?.dataset.logCount) > n",
        10_000,
        entries,
    )
    quiet(page, system)
    return page.evaluate("() => window.__sent")


def rook(page) -> None:
    """Rook, a d10 pool character with Wits 2 and 4 Will, rolls the d10 form, filled from the sheet."""
    create(page, "ten_again", "Rook")
    add_row(page, "attributes", "Wits", 2)
    page.locator(".sheet .use").get_by_label("Wits 2").check()
    fill_from_sheet(page, "ten_again")
    wait_until(page, "() => window.arbiterPage.procs.ten_again.request().pool === 2", 10_000)


def test_a_roll_as_nobody_is_one_request(page, app):
    """As nobody, a tap on Roll makes one request to the worker, the turn; nothing follows on the table."""
    page.add_init_script(COUNT)  # the worker's calls counted from the first
    page = app("#ten_again")
    sent = tap(page, "ten_again", form(page, "ten_again").locator("button[data-roll]"))
    assert sent == ["turn"]


def test_a_roll_with_a_will_as_a_character_is_one_request_and_one_recheck(page, app):
    """As a character with "Expend a Will" ticked, a tap on Roll makes one request (the roll, its Will, its luck and
    its checks at once) and at most one more, the recheck after the table kept the new Will; one Will is taken."""
    page.add_init_script(COUNT)  # the worker's calls counted from the first
    page = app("#ten_again")
    rook(page)
    set_field(page, "ten_again", "will", True)
    sent = tap(page, "ten_again", form(page, "ten_again").locator("button[data-roll]"))
    assert sent[0] == "turn" and len(sent) <= 2 and set(sent[1:]) <= {"check"}, sent
    assert characters(page)["Rook"]["sheet"]["will"] == 3
    assert [e["kind"] for e in log(page)][-1] == "roll" and "Spent 1 Will" in log(page)[-1]["note"]


def test_a_follow_up_is_one_request_and_one_recheck(page, app):
    """Expending a Will after the roll, as a character, is one request (and at most one recheck)."""
    page.add_init_script(COUNT)  # the worker's calls counted from the first
    page = app("#ten_again")
    rook(page)
    tap(page, "ten_again", form(page, "ten_again").locator("button[data-roll]"))
    will = form(page, "ten_again").locator('[data-choice="spend_will-actor"] button')
    wait_until(page, "(el) => !el.disabled", 10_000, will.element_handle())
    sent = tap(page, "ten_again", will)
    assert sent[0] == "turn" and len(sent) <= 2 and set(sent[1:]) <= {"check"}, sent
    assert characters(page)["Rook"]["sheet"]["will"] == 3
    assert [e["kind"] for e in log(page)][-1] == "follow-up"
