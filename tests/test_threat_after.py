"""Tests for arbiter.threat.after (seed 002): how lucky a Threat Roll was, threat by threat in their priority."""

from arbiter import threat
from scripted import ScriptedDice
from threat_helpers import parse


def test_threat_13_luck_ranks_the_threats_in_their_order_of_priority():
    """threat-13: the first threat's outcome weighs before the second's; success is the first threat not coming to pass;
    a reassignment changes no die and no luck."""
    from arbiter import chances

    req = parse(rating=2, threats=("a", "b"))
    first_avoided = threat.roll(req, ScriptedDice(6, 1, 1))  # avoided / happens
    second_avoided = threat.roll(req, ScriptedDice(5, 6, 1))  # sorted: 6 to the first: avoided / lessened
    lessened_both = threat.roll(req, ScriptedDice(5, 4, 1))  # lessened / lessened
    lucks = [chances.luck(threat, r) for r in (lessened_both, first_avoided, second_avoided)]
    assert [x["rank"] for x in lucks] == ["lessened / lessened", "avoided / happens", "avoided / lessened"]
    assert lucks[0]["p_worse"] < lucks[1]["p_worse"] < lucks[2]["p_worse"]
    assert all(x["success"] for x in lucks)
    moved = threat.act(first_avoided, {"assign": [[1], [0, 2]]}, ScriptedDice())
    assert chances.luck(threat, moved) == lucks[1]
