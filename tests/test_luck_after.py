"""Tests for arbiter.luck.after (seed 002): how lucky a Luck Roll was, as the luck view reads it."""

from fractions import Fraction


from arbiter import fields, luck
from scripted import ScriptedDice


def test_luck_6_a_six_is_a_success_in_the_luck_view():
    """luck-6: a Luck Roll of 6 counts as a success in the luck view, as its tone; the chance of it is P(a 6)."""
    from arbiter import chances

    for faces, success in (((3, 2), False), ((4, 5), False), ((6, 1), True)):
        result = luck.roll(fields.parse(luck.FIELDS, {"dice": 2}), ScriptedDice(*faces))
        out = chances.luck(luck, result)
        assert out["success"] is success
        assert out["p_success"] == 1 - Fraction(5, 6) ** 2
