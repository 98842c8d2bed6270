"""The table's own records, as the page keeps them on a device: a character (its sheet by kind), each procedure's own
records (its RECORDS: the Scheme, the Situations' Pay the Price marks, an ongoing struggle) and which of them pay a
roll's costs (its PAYERS: the Scheme), a roll-log entry and the store's meta record.

Each is declared once, from the rules' own limits: here, or by the procedure whose rules it keeps (its RECORDS, as it
declares its SHEET); published by api.table_spec() and checked by api.check_record(); a character's sheet is its
kind's SHEET (api.check_sheet). No record here names a procedure.
"""

from __future__ import annotations

from typing import Any

from . import fields, share
from .errors import RulesError
from .procedures import KINDS, PROCEDURES
from .stored import NAME, Id, Json, ListOf, Maybe, MayBeAbsent, Record, Time, check

LOG_MAX = 5000  # the roll log keeps this many entries, the oldest go first
LOG_LUCK_CHARS = 1000  # a log entry's luck, as JSON (api.luck_entry keeps within it)
LOG_DID_CHARS = 300  # what a follow-up did, in words (the page keeps no more of it)
LIVE_WORDS_CHARS = 500  # why the Host refused a roll of a live table, in its words (live.py sends no more of it)
FILE_MAX = {"characters": 500, "struggles": 500, "log": LOG_MAX}  # entries in a whole-table file
# A product setting, not a rule: the Table reminds the group to save a backup once this many rolls, or this many days,
# have passed since the last one (or, never backed up, since the table was made on this device).
BACKUP_AFTER = {"rolls": 50, "days": 14}
# A face a log entry keeps (its dice, the faces drawn, the roller's own) is one of a die some procedure rolls: from 1 to
# the most sides any procedure declares (SIDES), so a procedure added from outside with a d20 logs its 17s and 20s.
FACE_MAX = max(m.SIDES for m in PROCEDURES.values())

_KIND = fields.Choice("kind", "Kind", tuple((k, m.SHEET.label) for k, m in KINDS.items()))
_SHEET = fields.Object("sheet", "The sheet of its kind", help='systems()\' "sheet" of the procedure named by kind.')
# What was picked on the sheet for its last roll of each procedure (systems()' "sheet_choices"), so "Fill" after a
# reload fills the same request; a character kept before it was remembered has none.
_CHOICES = MayBeAbsent(
    Record(
        "choices",
        "What was picked for its last roll",
        tuple(MayBeAbsent(Record(m.ID, m.TITLE, m.CHOICES)) for m in PROCEDURES.values() if m.CHOICES),
    )
)
CHARACTER = Record("character", "Character", (_KIND, NAME, Time("created", "Created"), _SHEET, _CHOICES))
LOG = Record(
    "log",
    "Roll log entry",
    (
        Time("time", "Time"),
        Maybe(Record("character", "Character", (Id("id"), NAME))),
        fields.Choice("system", "Procedure", tuple((m.ID, m.TITLE) for m in PROCEDURES.values())),
        fields.Choice("kind", "Entry", (("roll", "Roll"), ("follow-up", "Follow-up"), ("note", "Note"))),
        Maybe(Json("request", "Request", 4000)),
        Maybe(Json("action", "Follow-up", 1000)),
        ListOf("dice", "Faces", fields.Int("dice", "Face", 1, FACE_MAX), 500),
        fields.Text("outcome", "Outcome", 40),
        fields.Text("summary", "Summary", 1000),
        fields.Text("note", "Note", 500),
        # what a follow-up did, in a player's words (api.turn's "did"); an entry kept before it has none
        MayBeAbsent(fields.Text("did", "What the follow-up did", LOG_DID_CHARS)),
        # whose dice (issue 21): the app's, or the table's own typed in; the faces this step drew, in the order they
        # were drawn (a follow-up: only its own); the roll a follow-up follows (its log id). An entry kept before
        # them has none: its dice were the app's.
        MayBeAbsent(fields.Choice("source", "Dice", (("app", "App dice"), ("table", "Table dice")))),
        MayBeAbsent(ListOf("drawn", "Faces drawn", fields.Int("drawn", "Face drawn", 1, FACE_MAX), 500)),
        MayBeAbsent(ListOf("own", "The roller's own faces", fields.Int("own", "Own face", 1, FACE_MAX), 500)),
        MayBeAbsent(Id("follows", "The roll it follows")),
        # a roll shared by link and added here (issue 22): the step's id (share.step_ids: the same roll added twice,
        # or a longer link of it, adds each step once), who rolled it and when, as the link says, and how it came
        # (a live table's player sent it: issue 32; an entry kept before it has none: a link); none otherwise
        MayBeAbsent(
            Record(
                "shared",
                "Shared roll",
                (
                    fields.Text("step", "Shared step id", share.ID_CHARS),
                    fields.Text("who", "Rolled by", share.NAME_CHARS),
                    Time("rolled", "Rolled at"),
                    MayBeAbsent(
                        fields.Choice("via", "Came", (("link", "Shared by link"), ("live", "From the live table")))
                    ),
                ),
            )
        ),
        # a roll or follow-up made on a player's phone joined to a live table (issue 32): waiting to reach the Host
        # (kept while not connected, sent once on reconnect), on the Host's table, or refused there with its words;
        # none otherwise
        MayBeAbsent(
            Record(
                "live",
                "Live table",
                (
                    fields.Choice(
                        "state",
                        "On the Host's table",
                        (
                            ("waiting", "Waiting for the Host"),
                            ("added", "On the Host’s table"),
                            ("refused", "Refused by the Host"),
                        ),
                    ),
                    fields.Text("words", "The Host's words", LIVE_WORDS_CHARS),
                    # the Host's table it was rolled for (live.py's "h"), when the player's phone knew it: sent to that
                    # table only (a roll made while away waits for its own Host, not the next one joined)
                    MayBeAbsent(fields.Text("table", "The Host's table", share.ID_CHARS)),
                ),
            )
        ),
        MayBeAbsent(
            Json(
                "luck",
                "Luck at roll time",
                LOG_LUCK_CHARS,
                help='api.luck\'s answer for a roll, taken when it was made, without its "exact" strings '
                "(percentile, p_outcome, p_success, success, outcome, rank, order); an entry kept before "
                "it, a follow-up or a note has none.",
            )
        ),
    ),
)
# The store's own record: its schema, when the table was made on this device, and when it was last saved as a file
# (a backup; absent until the first, and in a store kept before schema 7).
META = Record(
    "meta",
    "The table's store",
    (
        fields.Int("schema", "Schema", 1, 10**6, 1),
        Time("created", "Created"),
        MayBeAbsent(Time("backup", "Last backup")),
    ),
)
# Each procedure's own records (its RECORDS: the Scheme, the Situations' marks, a struggle) between the character and
# the log.
RECORDS = {r.name: r for r in (CHARACTER, *(r for m in PROCEDURES.values() for r in m.RECORDS), LOG, META)}


def payers_of(procedures: dict) -> dict:
    """The records that pay what a roll costs beside the character (each procedure's PAYERS, stored.Payer), by the name
    a cost's "by" gives them; each one of its procedure's RECORDS, none named "character" (the one rolling)."""
    out: dict = {}
    for m in procedures.values():
        for p in m.PAYERS:
            if p.record not in m.RECORDS or p.key in out or p.key == CHARACTER.name:
                raise ImportError(f"{m.__name__}: a payer must be one of its own RECORDS, named once, not {p.key!r}")
            out[p.key] = p
    return out


PAYERS = payers_of(PROCEDURES)


def check_sheet(kind: str, sheet: Any, path: str = "sheet") -> dict:
    """A character sheet of `kind` as the table keeps it, checked field by field."""
    return check(KINDS[kind].SHEET, sheet, path)


def check_record(name: Any, data: Any) -> dict:
    """One of the table's records, checked field by field: a character with its sheet, the Situations with a
    current one among them."""
    if not isinstance(name, str) or name not in RECORDS:
        raise RulesError(f"'name' must be one of {', '.join(RECORDS)}, got {name!r:.100}")
    out = check(RECORDS[name], data, name)
    if name == CHARACTER.name:
        out["sheet"] = check_sheet(out["kind"], out["sheet"], "character.sheet")
    return out


def spec() -> dict:
    """Every record's declaration, the kinds of character, the roll log's and a table file's sizes and when the
    Table asks for a backup; how many characters of who rolled a shared roll's link keeps (`link_name_chars`)."""
    return {
        "kinds": list(KINDS),
        "records": {name: r.schema() for name, r in RECORDS.items()},
        "log_max": LOG_MAX,
        "file_max": dict(FILE_MAX),
        "backup_after": dict(BACKUP_AFTER),
        "link_name_chars": share.NAME_CHARS,
    }
