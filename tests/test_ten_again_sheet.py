"""The d10 pool's character sheet (ten_again/sheet.py): what it keeps, its limits across fields, the request it fills."""

import copy

import pytest

from arbiter import RulesError, api, records
from arbiter.ten_again import SHEET

SHEET_OF = {"attributes": [], "skills": [], "resolve": 2, "composure": 3, "will": 5}


@pytest.mark.parametrize("resolve, composure, will", [(2, 3, 5), (2, 3, 0), (1, 1, 2), (10, 10, 20)])
def test_a_will_up_to_resolve_plus_composure_is_kept_ten_again_12(resolve, composure, will):
    """ten_again-12: a sheet's Will from 0 to (resolve + composure) passes check_sheet as it is."""
    sheet = {**SHEET_OF, "resolve": resolve, "composure": composure, "will": will}
    assert api.check_sheet("ten_again", copy.deepcopy(sheet)) == sheet


@pytest.mark.parametrize("resolve, composure, will", [(2, 3, 6), (1, 1, 3), (1, 2, 20), (9, 10, 20)])
def test_a_will_above_resolve_plus_composure_is_refused_not_cut_down_ten_again_12(resolve, composure, will):
    """ten_again-12: a Will above the character's maximum is refused as input, naming Will and its range (never cut
    down): check_sheet, and a character's record with that sheet."""
    sheet = {**SHEET_OF, "resolve": resolve, "composure": composure, "will": will}
    most = resolve + composure
    with pytest.raises(RulesError) as refused:
        api.check_sheet("ten_again", sheet)
    assert str(refused.value) == f"'sheet.will' must be from 0 to {most} (resolve + composure), got {will}"
    assert (refused.value.path, refused.value.says) == ("sheet.will", f"must be from 0 to {most} (resolve + composure)")
    character = {"kind": "ten_again", "name": "Mira", "created": "2024-05-01T12:00:00.000Z", "sheet": sheet}
    with pytest.raises(RulesError, match=rf"^'character.sheet.will' must be from 0 to {most} \(resolve \+ composure\)"):
        api.check_record("character", character)


def test_a_lower_resolve_under_the_will_kept_is_refused_ten_again_12():
    """ten_again-12: lowering Resolve (or Composure) below what the Will kept needs is refused too, by Will's words;
    the sheet given is not changed (Will is never lowered for it)."""
    for field in ("resolve", "composure"):
        sheet = {**SHEET_OF, field: SHEET_OF[field] - 1}
        given = copy.deepcopy(sheet)
        with pytest.raises(RulesError, match=r"^'sheet.will' must be from 0 to 4 \(resolve \+ composure\), got 5$"):
            records.check_sheet("ten_again", sheet)
        assert sheet == given


def test_the_sheet_publishes_wills_limit_ten_again_12():
    """ten_again-12: systems()' sheet declares the limit (Will at most resolve + composure) for the page to read."""
    published = next(s for s in api.systems() if s["id"] == "ten_again")["sheet"]
    assert published == SHEET.schema()
    assert published["limits"] == [{"type": "at_most_sum", "name": "will", "of": ["resolve", "composure"]}]


@pytest.mark.parametrize("kind", [k for k in records.KINDS if k != "ten_again"])
def test_the_other_sheets_have_no_limit_across_fields(kind):
    """The other sheets' fields are each within their own range alone: they declare no limit across fields (a Skill
    of 0 with Masteries is the Test's to refuse, ability_test-5, not the sheet's)."""
    assert records.KINDS[kind].SHEET.limits == ()
