"""The declarations of what the table stores: every key there, ids, times, JSON, lists of entries; refusals name
the field and what it allows, as fields.parse does for requests."""

import json

import pytest

from arbiter import RulesError, fields
from arbiter.stored import AtMostSum, Id, Json, ListOf, Maybe, Record, Time, check, int_map, named_list

ENTRY = named_list("skills", "Skills", (fields.Int("value", "Value", 0, 30, default=3),), max_len=2)
SHEET = Record(
    "sheet",
    "Sheet",
    (
        ENTRY,
        int_map("ratings", "Ratings", ("Charm", "Rig"), 0, 10, 1),
        fields.Int("will", "Will", 0, 20, 4),
        Maybe(Id("character", "Character")),
        ListOf("marked", "Marked", fields.Int("marked", "Option", 0, 7), 8, unique=True),
    ),
)
MARKS = ListOf(
    "marks", "Marks", Record("marks", "Mark", (fields.Int("option", "Option", 0, 7), Maybe(Id("by")))), 8, key="option"
)


def test_a_record_defaults_to_every_fields_default():
    """A fresh record holds every field's default: empty lists, each number's default, null for a nullable."""
    assert SHEET.default == {
        "skills": [],
        "ratings": {"Charm": 1, "Rig": 1},
        "will": 4,
        "character": None,
        "marked": [],
    }
    assert ENTRY.of.default == {"id": "", "name": "", "value": 3}


def test_a_valid_record_comes_back_as_json():
    """check() answers the record in JSON form (lists, not tuples), unchanged."""
    value = {
        "skills": [{"id": "a", "name": "Climb", "value": 30}],
        "ratings": {"Charm": 0, "Rig": 10},
        "will": 20,
        "character": "x-1_Z",
        "marked": [7, 0],
    }
    assert check(SHEET, value, "sheet") == value


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda s: s.pop("will"), "'sheet.will' is missing: Will, a whole number from 0 to 20"),
        (lambda s: s.pop("ratings"), "'sheet.ratings' is missing: Ratings, an object with Charm, Rig"),
        (lambda s: s.pop("skills"), "'sheet.skills' is missing: Skills, a list of 0 to 2 entries"),
        (lambda s: s.pop("character"), "'sheet.character' is missing: Character, null or an id"),
        (lambda s: s.update(x=1), "unknown field 'sheet.x'; allowed: skills, ratings, will, character, marked"),
        (lambda s: s.update(will=21), "'sheet.will' must be from 0 to 20, got 21"),
        (lambda s: s["ratings"].update(Rig=11), "'sheet.ratings.Rig' must be from 0 to 10, got 11"),
        (lambda s: s["ratings"].pop("Rig"), "'sheet.ratings.Rig' is missing"),
        (lambda s: s["skills"][0].update(value=31), r"'sheet.skills\[0\].value' must be from 0 to 30, got 31"),
        (lambda s: s["skills"][0].pop("name"), r"'sheet.skills\[0\].name' is missing: Name, text of at most 80"),
        (lambda s: s["skills"][0].update(name="n" * 81), r"'sheet.skills\[0\].name' must be text of at most 80"),
        (lambda s: s["skills"][0].update(id=""), r"'sheet.skills\[0\].id' must be an id \(1 to 64 letters"),
        (lambda s: s["skills"][0].update(id="a" * 65), r"'sheet.skills\[0\].id' must be an id"),
        (lambda s: s["skills"][0].update(id="a b"), r"'sheet.skills\[0\].id' must be an id"),
        (lambda s: s["skills"].append(dict(s["skills"][0])), r"'sheet.skills\[1\].id' is the id of an earlier entry"),
        (
            lambda s: s["skills"].extend([{"id": "b", "name": "", "value": 0}, {"id": "c", "name": "", "value": 0}]),
            "'sheet.skills' must be a list of 0 to 2 entries",
        ),
        (lambda s: s.update(skills={}), "'sheet.skills' must be a list of 0 to 2 entries"),
        (lambda s: s.update(character="no way"), "'sheet.character' must be an id"),
        (lambda s: s.update(marked=[1, 2, 1]), r"'sheet.marked\[2\]' repeats an earlier entry: 1"),
        (lambda s: s.update(marked=[8]), r"'sheet.marked\[0\]' must be from 0 to 7, got 8"),
        (lambda s: s.update(will=True), "'sheet.will' must be a whole number from 0 to 20, got True"),
    ],
)
def test_every_problem_names_its_field(change, words):
    """A missing, unknown or out-of-range field is refused, naming its path and what it allows."""
    value = {
        "skills": [{"id": "a", "name": "Climb", "value": 3}],
        "ratings": {"Charm": 1, "Rig": 1},
        "will": 4,
        "character": None,
        "marked": [],
    }
    change(value)
    with pytest.raises(RulesError, match=words):
        check(SHEET, value, "sheet")


def test_entries_never_share_their_key():
    """A list keyed by another field than "id" refuses an entry whose key an earlier entry has, naming the key."""
    assert check(MARKS, [{"option": 1, "by": "a"}, {"option": 2, "by": "a"}], "m")[1] == {"option": 2, "by": "a"}
    with pytest.raises(RulesError, match=r"^'m\[1\].option' is the option of an earlier entry too: 1$"):
        check(MARKS, [{"option": 1, "by": "a"}, {"option": 1, "by": None}], "m")
    assert MARKS.schema()["key"] == "option" and SHEET.schema()["fields"][0]["key"] == "id"


def test_a_record_must_be_an_object():
    """Anything but an object is refused, naming the fields it needs."""
    with pytest.raises(RulesError, match="'sheet' must be an object with skills, ratings, will"):
        check(SHEET, [], "sheet")


@pytest.mark.parametrize(
    "value, ok",
    [
        ("2024-05-01T12:00:00.000Z", True),
        ("2024-05-01T12:00:00Z", True),
        ("2024-02-31T00:00:00Z", True),  # Date.parse takes day 31 in any month
        ("2024-01-01T24:00:00.000Z", True),  # the end of a day
        ("2024-01-01T00:00:00.1234567Z", True),
        ("2024-01-01T24:00:01Z", False),
        ("2024-01-01T24:00:00.5Z", False),
        ("2024-01-01T23:60:00Z", False),
        ("2024-01-01T23:59:60Z", False),
        ("2024-13-01T00:00:00Z", False),
        ("2024-00-10T00:00:00Z", False),
        ("2024-01-00T00:00:00Z", False),
        ("2024-01-01T00:00:00", False),
        ("2024-01-01T00:00:00Z\n", False),
        ("２０２４-01-01T00:00:00Z", False),  # digits are ASCII, as in the page's pattern
        (1714564800000, False),
    ],
)
def test_a_time_is_what_the_browser_reads_as_one(value, ok):
    """A time is an ISO moment in UTC as Date.toISOString writes it, with the ranges Date.parse accepts."""
    t = Time("created", "Created")
    if ok:
        assert t.parse(value, "created") == value
    else:
        with pytest.raises(RulesError, match="'created' must be a time like 2024-05-01T12:00:00.000Z"):
            t.parse(value, "created")


def test_json_is_measured_written_compactly():
    """A JSON value is refused past max_chars as written without spaces (as JSON.stringify writes it)."""
    j = Json("request", "Request", 22)
    value = {"pool": 3, "will": True}
    assert len(json.dumps(value, separators=(",", ":"))) == 22
    assert j.parse(value, "request") == value
    with pytest.raises(RulesError, match="'request' must be JSON of at most 22 characters"):
        j.parse({"pool": 30, "will": True}, "request")


def test_an_optional_id_may_be_empty():
    """An optional id (none chosen) may be "", a required one may not."""
    assert Id("skill", optional=True).parse("", "skill") == ""
    with pytest.raises(RulesError, match="'skill' must be an id"):
        Id("skill").parse("", "skill")


def test_schemas_are_json_and_nest():
    """Each declaration publishes its type, limits, label and default; lists and nullables publish what they hold."""
    schema = SHEET.schema()
    assert json.loads(json.dumps(schema)) == schema
    skills, ratings, will, character, marked = schema["fields"]
    assert skills["type"] == "list" and skills["max_len"] == 2 and skills["of"]["type"] == "record"
    assert [f["name"] for f in skills["of"]["fields"]] == ["id", "name", "value"]
    assert skills["of"]["default"] == {"id": "", "name": "", "value": 3}
    assert ratings["fields"][1] == {
        "name": "Rig",
        "label": "Rig",
        "type": "int",
        "min": 0,
        "max": 10,
        "default": 1,
        "help": "",
    }
    assert character["type"] == "nullable" and character["of"]["type"] == "id"
    assert character["of"]["words"] == "an id (1 to 64 letters, digits, - or _)"
    assert Id("skill", optional=True).schema()["words"] == "an id (1 to 64 letters, digits, - or _) or empty"
    assert Time("created", "Created").schema()["words"] == "a time like 2024-05-01T12:00:00.000Z"
    assert marked["unique"] is True and marked["of"]["max"] == 7


def test_a_may_be_absent_field_may_be_left_out():
    """A MayBeAbsent field (data kept before it existed lacks it) is checked when there, stays out when not, and a
    fresh record leaves it out; every other field is still required."""
    from arbiter.stored import MayBeAbsent

    record = Record("r", "R", (fields.Int("will", "Will", 0, 20, 4), MayBeAbsent(ListOf("ids", "Ids", Id("ids"), 3))))
    assert record.default == {"will": 4}
    assert check(record, {"will": 2}, "r") == {"will": 2}
    assert check(record, {"will": 2, "ids": ["a"]}, "r") == {"will": 2, "ids": ["a"]}
    with pytest.raises(RulesError, match=r"'r.ids\[0\]' must be an id"):
        check(record, {"will": 2, "ids": ["a b"]}, "r")
    with pytest.raises(RulesError, match="'r.will' is missing"):
        check(record, {"ids": []}, "r")
    assert record.schema()["fields"][1]["may_be_absent"] is True


def test_a_limit_across_fields_is_checked_after_each_field():
    """AtMostSum: a whole number at most the sum of others is refused above it with the range it has there; each
    field is checked on its own first; the limit is published with the record."""
    record = Record(
        "r",
        "R",
        (fields.Int("a", "A", 1, 5, 2), fields.Int("b", "B", 1, 5, 2), fields.Int("will", "Will", 0, 8, 4)),
        limits=(AtMostSum("will", ("a", "b")),),
    )
    assert check(record, {"a": 1, "b": 3, "will": 4}, "r") == {"a": 1, "b": 3, "will": 4}
    with pytest.raises(RulesError) as refused:
        check(record, {"a": 1, "b": 2, "will": 4}, "r")
    assert str(refused.value) == "'r.will' must be from 0 to 3 (a + b), got 4"
    assert refused.value.says == "must be from 0 to 3 (a + b)"
    with pytest.raises(RulesError, match=r"^'r.will' must be from 0 to 8, got 9$"):
        check(record, {"a": 5, "b": 5, "will": 9}, "r")
    with pytest.raises(RulesError, match=r"^'r.a' must be from 1 to 5"):
        check(record, {"a": 0, "b": 2, "will": 4}, "r")
    assert record.schema()["limits"] == [{"type": "at_most_sum", "name": "will", "of": ["a", "b"]}]
    assert SHEET.schema()["limits"] == []
