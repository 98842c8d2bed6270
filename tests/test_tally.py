"""How lucky the table has been (issue 11): api.luck_entry keeps what a log entry holds of api.luck, and
api.luck_summary sums the log's luck up per character and procedure: exact means and expected successes, a band
that chance alone keeps the running mean in about 9 times in 10."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

from arbiter import api, records, tally
from arbiter.errors import RulesError

CID = {"id": "c1", "name": "Cid"}


def entry(percentile, p_success, success, system="ten_again", character=None, time="2026-01-01T00:00:00.000Z"):
    return {
        "time": time,
        "character": character,
        "system": system,
        "kind": "roll",
        "luck": {"percentile": percentile, "p_success": p_success, "success": success},
    }


def test_mean_and_expected_successes_are_exact():
    out = api.luck_summary([entry(0.25, 0.5, True), entry(0.75, 0.25, False), entry(0.5, 0.125, True)])
    [g] = out["groups"]
    assert g["rolls"] == 3 and g["successes"] == 2
    assert g["exact"] == {"mean_percentile": "1/2", "expected_successes": "7/8"}
    assert g["mean_percentile"] == 0.5 and g["expected_successes"] == 0.875
    assert [p["mean"] for p in g["points"]] == [0.25, 0.5, 0.5]
    assert [p["percentile"] for p in g["points"]] == [0.25, 0.75, 0.5]


def test_sums_are_exact_over_the_floats_kept():
    """0.1 + 0.2 is not 0.3 in floats: the sum is of the floats' exact values, rounded once."""
    [g] = api.luck_summary([entry(0.1, 0.1, False), entry(0.2, 0.2, False)])["groups"]
    assert Fraction(g["exact"]["expected_successes"]) == Fraction(0.1) + Fraction(0.2)
    assert g["expected_successes"] == float(Fraction(0.1) + Fraction(0.2))


def test_groups_per_character_and_procedure_in_first_roll_order():
    entries = [
        entry(0.5, 0.5, True, "luck"),
        entry(0.2, 0.5, False, character=CID),
        {"time": "x", "character": CID, "system": "ten_again", "kind": "follow-up"},  # no luck: left out
        entry(0.4, 0.5, True, character={"id": "c1", "name": "Cid the Bold"}),
        entry(0.9, 0.5, True),
    ]
    groups = api.luck_summary(entries)["groups"]
    assert [(g["character"] and g["character"]["name"], g["system"], g["rolls"]) for g in groups] == [
        (None, "luck", 1),
        ("Cid the Bold", "ten_again", 2),
        (None, "ten_again", 1),
    ]
    assert Fraction(groups[1]["exact"]["mean_percentile"]) == (Fraction(0.2) + Fraction(0.4)) / 2


def test_app_dice_and_table_dice_are_kept_apart():
    """Issue 21: a character's rolls with the group's own dice (source "table") are a group of their own beside the
    same procedure's app dice; an entry kept before the log said whose dice is the app's; any other source is refused."""
    entries = [
        entry(0.5, 0.5, True, character=CID),
        {**entry(0.1, 0.5, False, character=CID), "source": "table"},
        {**entry(0.3, 0.5, True, character=CID), "source": "app"},
        {**entry(0.2, 0.5, False, character=CID), "source": "table"},
    ]
    groups = api.luck_summary(entries)["groups"]
    assert [(g["source"], g["rolls"]) for g in groups] == [("app", 2), ("table", 2)]
    assert Fraction(groups[1]["exact"]["mean_percentile"]) == (Fraction(0.1) + Fraction(0.2)) / 2
    with pytest.raises(RulesError, match=r"'entries\[0\].source' must be one of app, table, got 'dice'"):
        api.luck_summary([{**entry(0.5, 0.5, True), "source": "dice"}])


def test_the_band_narrows_as_rolls_add_up_and_is_symmetric():
    lows, highs = zip(*(tally.band(k) for k in range(1, 50)))
    assert all(a < b for a, b in zip(lows, lows[1:])) and all(a > b for a, b in zip(highs, highs[1:]))
    assert all(abs(lo + hi - 1) < 1e-12 for lo, hi in zip(lows, highs))
    [g] = api.luck_summary([entry(0.5, 0.5, True)] * 4)["groups"]
    assert g["band"] == list(tally.band(4)) == [g["points"][-1]["low"], g["points"][-1]["high"]]


def test_chance_alone_keeps_the_mean_in_the_band_about_nine_times_in_ten():
    """Real luck: 200 sequences of 20 Ten-Again rolls of 3 dice, each percentile from api.luck_entry (a discrete law,
    its variance below 1/12): the mean of 20 falls inside the band at least 9 times in 10, and not always (the band
    is no wider than it must be: 1/12 is close to this law's variance). Fixed seed."""
    rng = random.Random(11)
    low, high = tally.band(20)
    inside = sum(
        low
        <= sum(
            api.luck_entry("ten_again", api.roll("ten_again", {"pool": 3}, seed=rng.getrandbits(32)))["percentile"]
            for _ in range(20)
        )
        / 20
        <= high
        for _ in range(200)
    )
    assert 0.9 * 200 <= inside < 200


def test_luck_entry_is_luck_without_its_exact_strings_and_fits_the_log():
    roll = api.roll("ten_again", {"pool": 5}, seed=7)
    full = api.luck("ten_again", roll)
    kept = api.luck_entry("ten_again", roll)
    assert kept == {k: v for k, v in full.items() if k != "exact"}
    record = {
        "time": "2026-01-01T00:00:00.000Z",
        "character": None,
        "system": "ten_again",
        "kind": "roll",
        "request": None,
        "action": None,
        "dice": [],
        "outcome": "",
        "summary": "",
        "note": "",
        "luck": kept,
    }
    assert api.check_record("log", record)["luck"] == kept


def test_luck_entry_of_the_largest_roll_fits_the_log():
    """The longest words luck() gives: a threat roll of the most threats; kept, it fits the log's field."""
    most = next(f for f in next(s for s in api.systems() if s["id"] == "threat")["fields"] if f["name"] == "threats")
    threats = [{"name": f"Threat {i}", "desperate": True} for i in range(most["max_len"])]
    for seed in range(20):
        kept = api.luck_entry("threat", api.roll("threat", {"rating": 1, "threats": threats}, seed=seed))
        assert len(json.dumps(kept, separators=(",", ":"))) <= records.LOG_LUCK_CHARS


@pytest.mark.parametrize(
    "entries, words",
    [
        ("no", "'entries' must be a list of at most 5000 log entries"),
        ([entry(1.5, 0.5, True)], "'entries[0].luck.percentile' must be a chance from 0 to 1, got 1.5"),
        ([entry(0.5, -1, True)], "'entries[0].luck.p_success' must be a chance from 0 to 1, got -1"),
        ([entry(0.5, 0.5, True, system="chess")], "'entries[0].system' must be one of"),
        ([{**entry(0.5, 0.5, True), "luck": {"percentile": 0.5}}], "'entries[0].luck' must be api.luck's answer"),
        ([entry(0.5, 0.5, True, character="Cid")], "'entries[0].character' must be null or a character {id, name}"),
        ([3], "'entries[0]' must be a log entry"),
    ],
)
def test_bad_entries_are_refused_naming_the_field(entries, words):
    with pytest.raises(RulesError) as err:
        api.luck_summary(entries)
    assert str(err.value).startswith(words)


def test_rolls_luckier_and_less_lucky_than_average_are_counted():
    """A roll at exactly average luck (½) is neither luckier nor less lucky."""
    [g] = api.luck_summary(
        [entry(0.9, 0.5, True), entry(0.5, 0.5, True), entry(0.2, 0.5, False), entry(0.7, 0.5, True)]
    )["groups"]
    assert (g["luckier"], g["unluckier"], g["rolls"]) == (2, 1, 4)


@pytest.mark.parametrize(
    "percentiles, standing",
    [
        ([0.5] * 4, "within"),
        ([0.99] * 9, "above"),
        ([0.01] * 9, "below"),
        ([0.9, 0.1], "within"),
        ([0.6] * 100, "above"),
    ],
)
def test_the_mean_stands_below_within_or_above_its_band(percentiles, standing):
    """Where the mean is against the band chance alone keeps it in 9 times in 10, which narrows as rolls add up."""
    [g] = api.luck_summary([entry(p, 0.5, True) for p in percentiles])["groups"]
    assert g["standing"] == standing
    low, high = g["band"]
    assert (g["mean_percentile"] < low, g["mean_percentile"] > high) == (standing == "below", standing == "above")


def test_are_my_dice_fair_takes_each_characters_own_table_faces_per_die():
    """Issue 21: the fairness of table dice, per character and die kind, from the log's "own" faces of entries whose
    dice were the table's; the app's dice and entries without faces are left out."""
    cid = {"id": "c1", "name": "Cid"}
    entries = [
        {"character": cid, "system": "ten_again", "source": "table", "own": [1, 2, 3]},
        {"character": cid, "system": "ten_again", "source": "app", "own": [10, 10]},
        {"character": cid, "system": "luck", "source": "table", "own": [6, 6]},
        {"character": None, "system": "ten_again", "source": "table", "own": [4]},
        {"character": cid, "system": "ten_again", "source": "table", "own": [4, 5]},
        {"character": cid, "system": "ten_again", "kind": "note"},
    ]
    groups = api.fairness_summary(entries)["groups"]
    assert [(g["character"] and g["character"]["name"], g["sides"], g["fairness"]["n"]) for g in groups] == [
        ("Cid", 10, 5),
        ("Cid", 6, 2),
        (None, 10, 1),
    ]
    assert groups[0]["fairness"] == api.fairness([1, 2, 3, 4, 5], 10)
    with pytest.raises(RulesError, match=r"'entries\[0\].own' must be a list of faces"):
        api.fairness_summary([{"character": None, "system": "luck", "source": "table", "own": ["6"]}])
