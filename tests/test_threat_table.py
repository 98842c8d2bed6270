"""Tests for arbiter.threat.table (seed 002): the Prices paid on the rolling character's sheet."""

import copy

import pytest

from arbiter import RulesError, threat
from threat_helpers import ANN, parse


# --- one Price per narrow escape (threat-14), marks that arrive all marked (threat-10), the Price on the sheet -------


@pytest.mark.parametrize("option, op", [(1, "lose_insight"), (3, "spend_gear"), (7, "take_harm")])
def test_the_price_is_paid_on_the_sheet_threat_15(option, op):
    """threat-15: Lose one Insight, Spend a point of Gear and Take 1 Harm are ops on the rolling character's sheet;
    the other options, the roll and a reassignment cost nothing."""
    assert threat.costs(None, {"pay_the_price": option, "by": ANN, "marked": []}) == [
        {"by": "character", "system": "threat", "op": op, "args": None, "times": 1}
    ]
    for other in set(range(8)) - {1, 3, 7}:
        assert threat.costs(None, {"pay_the_price": other}) == []
    assert threat.costs(None, {"assign": [[0]]}) == [] == threat.costs(parse(), None)


COUNTERS = {"renown": 3, "aether": 2, "insight": 2, "gear": 1, "harm": 5}


@pytest.mark.parametrize(
    "op, counter, after, note",
    [
        ("lose_insight", "insight", 1, "Lost one Insight (Insight 1)"),
        ("spend_gear", "gear", 0, "Spent a point of Gear (Gear 0)"),
        ("take_harm", "harm", 6, "Took 1 Harm (Harm 6)"),
    ],
)
def test_paying_on_the_sheet_changes_one_counter_threat_15(op, counter, after, note):
    """threat-15: each op changes its one counter by one and says so; the rest of the sheet is as it was."""
    sheet = {"ratings": {"Charm": 2}, "counters": dict(COUNTERS)}
    out = threat.TABLE[op](copy.deepcopy(sheet), None)
    assert out == {**sheet, "counters": {**COUNTERS, counter: after}, "note": note}


@pytest.mark.parametrize(
    "op, counters, says",
    [
        ("lose_insight", {**COUNTERS, "insight": 0}, "has no Insight left"),
        ("spend_gear", {**COUNTERS, "gear": 0}, "has no Gear left"),
        ("take_harm", {**COUNTERS, "harm": threat.MAX_COUNTER}, "has Harm at the sheet's maximum, 999"),
    ],
)
def test_a_price_the_sheet_cannot_pay_is_refused_in_its_holders_name_threat_15(op, counters, says):
    """threat-15: with no Insight or Gear left, or Harm at its maximum, the op is refused, said of the character."""
    with pytest.raises(RulesError) as e:
        threat.TABLE[op]({"counters": counters}, None)
    assert (e.value.says, e.value.holder) == (says, True)
