"""Tests for arbiter.ten_again.words: each step of a roll in a player's words (the 10s rolled again chain by
chain, a contest's unused `required`)."""

from __future__ import annotations


import pytest

from ten_again_helpers import roll


# --- one rule sentence, one scripted roll -----------------------------------------------------------------


def test_rerolls_are_listed_chain_by_chain_ten_again_5():
    """ten_again-5: the 10s roll again round by round (a die for each 10, then for each 10 among those), and
    `rerolls` lists each 10's chain in turn, until a die that is not a 10."""
    r = roll([10, 10, 10, 7, 4], pool=2)
    assert r["rerolls"] == [10, 4, 7] and r["successes"] == 3
    assert [s for s in r["steps"] if s.startswith("10 rolled again")] == [
        "10 rolled again → 10 → 4: +1 success",
        "10 rolled again → 7: +0 successes",
    ]


# --- contests ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("required, said", [(1, False), (2, True), (7, True)])
def test_a_contest_says_it_does_not_use_required_ten_again_8(required, said):
    """ten_again-8: a contest asked with `required` above 1 says in its steps that it is not used; the outcome is
    who has successes left, whatever `required` is."""
    r = roll([8, 3, 9], pool=2, required=required, opposed={"pool": 1})
    step = f"{required} successes required: not used in a contest (who has successes left decides)"
    assert (step in r["steps"], r["outcome"]) == (said, "tie")
    assert not any("required" in s for s in roll([8], pool=1)["steps"][:-1])
