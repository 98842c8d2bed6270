"""Pay the Price, in real Chromium with real IndexedDB: offered when a threat not Desperate is narrowly avoided, one
Price per roll; each option marked for the Situation with who picked it (the character rolling, or a name typed),
theirs to pick again, refused to another; all marked unmarks all; older marks folded into the first Situation;
"Lose one Insight" paid on the sheet of the one rolling."""

from __future__ import annotations

import json

import pytest

from page_helpers import current_roll, follow_up, form, roll, set_field, wait_until
from price_helpers import marks, offers_price, open_price, pick_price, pressed, price_list, roll_until
from steps import SPEC
from table_helpers import characters, create, fill_from_sheet, log, pick_character, records


def test_pay_the_price_marks_fold_into_situations(page, app):
    """Marks kept by the older page become the first Situation's, marked by someone unnamed, and the older key goes;
    with nobody rolling, a name typed by the list pays and is kept for the Situation; each Situation keeps its own."""
    page.goto("/static/table.css")  # same origin, no table yet: the older page's key alone
    page.evaluate("localStorage.setItem('arbiter.payThePrice.marked', '[1, 4]')")
    app("#threat")
    price = records(page)["shared:price"]["data"]
    assert [s["marked"] for s in price["situations"]] == [[{"option": 1, "by": None}, {"option": 4, "by": None}]]
    assert page.evaluate("localStorage.getItem('arbiter.payThePrice.marked')") is None
    assert json.loads(page.locator("[data-marked]").get_attribute("data-marked")) == marks(page)
    assert "(someone)" in page.locator("[data-marked]").inner_text()

    roll_until(page, offered=True)
    wait_until(page, lambda: pressed(page) == [1, 4], what="the migrated marks on the form")
    price_list(page).locator("summary").click()
    price_list(page).locator("[data-price-player]").fill("Ann")
    pick_price(page, 2)
    wait_until(
        page,
        lambda: marks(page) == [{"option": 1, "by": None}, {"option": 2, "by": "Ann"}, {"option": 4, "by": None}],
        what="Ann's mark",
    )
    assert records(page)["shared:price"]["data"]["situations"][0]["player"] == "Ann"
    assert price_list(page).count() == 0  # its one Price paid (threat-14): the list is gone
    roll_until(page, offered=True)
    wait_until(page, lambda: pressed(page) == [1, 2, 4], what="three marks shown")
    open_price(page)
    assert "marked by Ann" in price_list(page).locator("li").nth(2).inner_text()

    before = len(log(page))
    price_list(page).locator('.price-list button[data-option="1"]').click()  # someone else's: the engine refuses
    refusal = form(page, "threat").locator("[data-choices] p.field-error[role=alert]")
    refusal.wait_for()
    assert "is marked by someone" in refusal.inner_text()
    assert len(marks(page)) == 3 and len(log(page)) == before

    page.locator('[data-k="sit:new"]').click()
    wait_until(page, lambda: len(records(page)["shared:price"]["data"]["situations"]) == 2, what="a new Situation")
    wait_until(page, lambda: pressed(page) == [], what="no marks shown")
    assert price_list(page).locator("[data-price-player]").input_value() == ""
    page.locator('[data-k="sit:pick"]').select_option(label="Situation 1")
    wait_until(page, lambda: pressed(page) == [1, 2, 4], what="the marks back")
    price_list(page).locator("button", has_text="New Situation").click()  # the form's own: a third one
    wait_until(page, lambda: len(records(page)["shared:price"]["data"]["situations"]) == 3, what="a third Situation")
    wait_until(page, lambda: pressed(page) == [], what="no marks shown again")


def test_pay_the_price_is_paid_by_the_character_rolling(app):
    """The character rolling the Threat Roll pays: one Price per narrow escape, after which the list is gone; picking
    an option again on a later roll is theirs to do, another character is refused it with the name of who marked it;
    a roll without a 4 or 5 on a threat not Desperate offers nothing."""
    page = app("#threat")
    create(page, "threat", "Bo")
    create(page, "threat", "Ann")
    fill_from_sheet(page, "threat")
    roll_until(page, offered=True)
    assert price_list(page).locator("[data-price-by]").get_attribute("data-price-by") == "Ann"
    assert price_list(page).locator("[data-price-player]").count() == 0
    pick_price(page, 2)
    wait_until(page, lambda: marks(page) == [{"option": 2, "by": "Ann"}], what="Ann's mark")
    assert price_list(page).count() == 0  # one threat narrowly avoided: one Price, then the list is gone (threat-14)
    roll_until(page, offered=True)
    pick_price(page, 2)  # Ann again: hers to pick
    assert "Paid the Price (Ann)" in form(page, "threat").locator("[data-result]").inner_text()
    assert [e["kind"] for e in log(page)[-1:]] == ["follow-up"]
    assert marks(page) == [{"option": 2, "by": "Ann"}]

    pick_character(page, "Bo")
    fill_from_sheet(page, "threat")
    roll_until(page, offered=True)
    wait_until(
        page,
        lambda: price_list(page).locator("[data-price-by]").get_attribute("data-price-by") == "Bo",
        what="Bo paying",
    )
    assert price_list(page).locator("[data-price-by]").text_content().startswith("Paid by Bo")
    before = len(log(page))
    open_price(page)
    price_list(page).locator('.price-list button[data-option="2"]').click()
    refusal = form(page, "threat").locator("[data-choices] p.field-error[role=alert]")
    refusal.wait_for()
    assert "is marked by Ann" in refusal.inner_text()
    assert marks(page) == [{"option": 2, "by": "Ann"}] and len(log(page)) == before

    roll_until(page, offered=False)
    set_field(page, "threat", "threats[0].desperate", True)  # a Desperate threat is never narrowly avoided
    for _ in range(3):
        assert not offers_price(roll(page, "threat")) and price_list(page).count() == 0


def test_losing_one_insight_is_paid_on_the_sheet_of_the_one_rolling(app):
    """threat-14, threat-15 at the table: paying the Price once on a roll with one threat narrowly avoided takes the
    list away; "Lose one Insight." takes one Insight off the rolling character's sheet, and at Insight 0 that option is
    shown disabled with the reason (the narrative ones stay open), and nothing is paid or logged for it."""
    page = app("#threat")
    create(page, "threat", "Ann")
    page.get_by_role("button", name="Insight +1").click()
    wait_until(page, lambda: characters(page)["Ann"]["sheet"]["counters"]["insight"] == 1, what="Insight 1")
    fill_from_sheet(page, "threat")
    roll_until(page, offered=True)
    pick_price(page, 1)
    wait_until(page, lambda: characters(page)["Ann"]["sheet"]["counters"]["insight"] == 0, what="one Insight lost")
    assert price_list(page).count() == 0
    assert "Paid the Price (Ann): Lose one Insight." in form(page, "threat").locator("[data-result]").inner_text()
    assert any("Lost one Insight" in e["note"] for e in log(page))

    roll_until(page, offered=True)
    open_price(page)
    option = price_list(page).locator('.price-list button[data-option="1"]')
    wait_until(page, "(el) => el.disabled", 10_000, option.element_handle())
    assert price_list(page).locator("li").nth(1).locator("[data-refusal]").inner_text() == "Ann has no Insight left"
    assert not price_list(page).locator('.price-list button[data-option="0"]').is_disabled()
    before = len(log(page))
    option.click(force=True)
    # A fixed wait on purpose: it checks that nothing happens (a disabled button's click starts nothing to wait for).
    page.wait_for_timeout(300)
    assert len(log(page)) == before and characters(page)["Ann"]["sheet"]["counters"]["insight"] == 0
    assert price_list(page).count() == 1  # still to pay: nothing was taken


def test_pay_the_price_marks_per_situation(app):
    """Pay the Price is offered when the roll offers it; a picked option is marked for the Situation with who picked
    it, and that roll's one Price is paid (threat-14: the list goes); on later rolls the player who marked options may
    pick them again, and all marked unmarks all; "New Situation" clears."""
    page = app("#threat")
    page.wait_for_selector("#table[data-ready]", state="attached", timeout=10_000)  # the marks' owner
    price = form(page, "threat").locator("details.price")
    options = price.locator(".price-list button")

    def offering():
        """Roll until the roll offers Pay the Price (a threat not Desperate got a 4 or 5); its list open."""
        for _ in range(60):
            rolled = roll(page, "threat")
            if any(c["name"] == "pay_the_price" for c in rolled["choices"]):
                if price.get_attribute("open") is None:
                    price.locator("summary").click()
                return rolled
        pytest.fail("no roll offered Pay the Price in 60 rolls")

    def marked(want):
        wait_until(
            page,
            """(want) => JSON.stringify([...document.querySelectorAll(
            'form[data-system=threat] .price-list button')].map((b) => b.getAttribute('aria-pressed') === 'true'))
            === JSON.stringify(want)""",
            10_000,
            [i in want for i in range(8)],
        )

    rolled = offering()
    assert options.count() == 8 and len(SPEC["threat"]["extras"]["pay_the_price"]) == 8
    options.nth(3).click()  # nobody rolls as a character and no name is typed: the page asks, the engine is not asked
    assert price.locator("output.field-error").inner_text() == "Name who pays the Price first."
    assert price.locator("[data-price-player]").evaluate("e => e === document.activeElement")
    assert current_roll(page, "threat") == rolled
    price.locator("[data-price-player]").fill("Ann")
    price.locator("[data-price-player]").press("Tab")  # kept for the Situation: the next rolls' lists say Ann
    follow_up(page, "threat", options.nth(3))
    assert price.count() == 0
    offering()
    marked({3})
    assert "marked by Ann" in price.locator(".price-list li").nth(3).inner_text()
    follow_up(page, "threat", options.nth(3))  # Ann again, on another roll: hers to pick, it stays marked
    offering()
    marked({3})
    want = {3}
    for i in (0, 1, 2, 4, 5, 6):
        follow_up(page, "threat", options.nth(i))
        assert price.count() == 0  # the roll's one Price is paid
        want.add(i)
        offering()
        marked(want)
    follow_up(page, "threat", options.nth(7))  # the last one: all marked, so all unmarked
    offering()
    marked(set())
    follow_up(page, "threat", options.nth(5))
    offering()
    marked({5})
    price.locator("button", has_text="New Situation").click()
    marked(set())
