"""An open pad owns the form (issue 29): at 360 × 640, with the face pad open for a new roll, the previous outcome is
marked stale (dimmed) and none of its follow-ups, nor its Share, can be used (a tap on one logs nothing and leaves
the pad open); leaving the pad restores them."""

from __future__ import annotations

from page_helpers import form, wait_until
from table_helpers import log
from test_table_dice import asked, open_form, pad_of, use_table_dice

SYSTEM = "ten_again"


def test_with_the_pad_open_the_old_result_is_stale_and_its_follow_ups_unusable(phone_app):
    page = open_form(phone_app, SYSTEM, {"pool": 2})
    f = form(page, SYSTEM)
    f.locator("button[data-roll]").tap()  # the app's dice
    will = f.locator('[data-choices] button:has-text("Expend a Will")')
    wait_until(page, lambda: will.count() == 1 and will.is_enabled(), what="the roll's follow-ups")
    wait_until(page, lambda: len(log(page)) == 1, what="the roll logged")
    result, share = f.locator("[data-result]"), f.locator("[data-result] button[data-share]")
    assert result.get_attribute("data-stale") is None and share.is_enabled()

    use_table_dice(page, SYSTEM)
    f.locator("button[data-roll]").tap()  # a new roll, of the table's dice: the pad opens
    asked(page, SYSTEM)
    assert result.get_attribute("data-stale") is not None
    assert float(result.evaluate("(el) => getComputedStyle(el).opacity")) < 1
    assert not share.is_enabled()
    # no control of the old roll takes a tap (the browser passes none to them), and even one sent to it does nothing
    choices = f.locator("[data-choices] button")
    assert choices.count() > 0
    assert choices.evaluate_all("(all) => all.every((b) => b.closest('[inert]') !== null)")
    choices.evaluate_all("(all) => all.forEach((b) => b.click())")
    page.wait_for_timeout(500)  # what a tap would have asked, answered and logged by now
    assert len(log(page)) == 1 and pad_of(page, SYSTEM).is_visible()

    pad_of(page, SYSTEM).locator("button[data-face-leave]").tap()  # leaving the pad: the old roll is live again
    wait_until(page, lambda: result.get_attribute("data-stale") is None, what="the outcome no longer stale")
    assert share.is_enabled()
    assert choices.evaluate_all("(all) => all.every((b) => b.closest('[inert]') === null)")
    will.tap()
    assert asked(page, SYSTEM).startswith("Roll 3 d10")  # the Will's own dice, on the pad
