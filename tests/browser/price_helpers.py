"""Pay the Price on the Threat form, as a test taps it: its list, the options shown marked, rolling until it is offered
(or not), picking an option; and the current Situation's marks as stored."""

from __future__ import annotations

import pytest

from page_helpers import follow_up, form, roll
from table_helpers import records


def price_list(page):
    return form(page, "threat").locator("details.price")


def pressed(page) -> list[int]:
    """The Pay the Price options the Threat form shows marked."""
    return page.evaluate("""() => [...document.querySelectorAll('form[data-system=threat] .price-list button')]
        .filter((b) => b.getAttribute('aria-pressed') === 'true').map((b) => Number(b.dataset.option))""")


def marks(page) -> list[dict]:
    """The current Situation's marks, as stored."""
    price = records(page)["shared:price"]["data"]
    return next(s for s in price["situations"] if s["id"] == price["current"])["marked"]


def offers_price(roll_json) -> bool:
    return any(c["name"] == "pay_the_price" for c in roll_json["choices"])


def roll_until(page, offered: bool, tries: int = 60):
    """Roll the Threat form until the roll offers Pay the Price (a threat not Desperate got a 4 or 5), or until it
    does not; the list is shown exactly then."""
    for _ in range(tries):
        result = roll(page, "threat")
        if offers_price(result) == offered:
            assert price_list(page).count() == (1 if offered else 0)
            return result
    pytest.fail(f"no roll {'offering' if offered else 'without'} Pay the Price in {tries} rolls", pytrace=False)


def open_price(page):
    """Open the Threat form's Pay the Price list (a new roll shows it folded)."""
    if price_list(page).get_attribute("open") is None:
        price_list(page).locator("summary").click()


def pick_price(page, option):
    """Pick a Pay the Price option; the roll that follows is the engine's (a refusal leaves the roll as it was)."""
    open_price(page)
    follow_up(page, "threat", price_list(page).locator(f'.price-list button[data-option="{option}"]'))
