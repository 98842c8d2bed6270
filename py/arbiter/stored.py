"""What the table stores on a device, declared once: a record with every key, a list of entries with ids, ids,
times and JSON, built on fields.py's `parse` and its messages (a refusal names the field and what it allows).

The sheets (each procedure's SHEET) and the table's records (records.py) are made of these; api.check_sheet and
api.check_record check data with them, and api.systems() / api.table_spec() publish their `schema()`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from .errors import RulesError
from .fields import Int, Text, join, where, as_json, defaults, describe, parse


_ID = re.compile(r"[A-Za-z0-9_-]{1,64}", re.ASCII)
_ID_WORDS = "an id (1 to 64 letters, digits, - or _)"
_TIME = re.compile(r"[0-9]{4}-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]+))?Z", re.ASCII)
_TIME_WORDS = "a time like 2024-05-01T12:00:00.000Z"


@dataclass(frozen=True, slots=True)
class Id:
    """A record's id: 1 to 64 letters, digits, - or _ (with `optional`, "" too: none chosen)."""

    name: str
    label: str = "Id"
    optional: bool = False
    default: str = ""
    help: str = ""

    def parse(self, value: Any, path: str) -> str:
        if not (isinstance(value, str) and (_ID.fullmatch(value) or (self.optional and value == ""))):
            raise RulesError(f"{where(path)} must be {self.words()}, got {value!r:.100}")
        return value

    def words(self) -> str:
        return _ID_WORDS + (" or empty" if self.optional else "")

    def schema(self) -> dict:
        return {
            "name": self.name,
            "label": self.label,
            "type": "id",
            "pattern": "^[A-Za-z0-9_-]{1,64}$",
            "optional": self.optional,
            "words": self.words(),
            "default": self.default,
            "help": self.help,
        }


@dataclass(frozen=True, slots=True)
class Time:
    """A moment as the page writes it (Date.toISOString), checked as the browser's Date.parse reads it: months 1-12,
    days 1-31 in any month, 24:00:00 the end of a day."""

    name: str
    label: str
    default: None = None
    help: str = ""

    def parse(self, value: Any, path: str) -> str:
        m = _TIME.fullmatch(value) if isinstance(value, str) else None
        if m:
            month, day, hour, minute, second = (int(g) for g in m.groups()[:5])
            end_of_day = hour == 24 and minute == second == 0 and not (m.group(6) or "0").strip("0")
            if 1 <= month <= 12 and 1 <= day <= 31 and minute < 60 and second < 60 and (hour < 24 or end_of_day):
                return value
        raise RulesError(f"{where(path)} must be {_TIME_WORDS}, got {value!r:.100}")

    def words(self) -> str:
        return _TIME_WORDS

    def schema(self) -> dict:
        return {
            "name": self.name,
            "label": self.label,
            "type": "time",
            "words": self.words(),
            "default": None,
            "help": self.help,
        }


@dataclass(frozen=True, slots=True)
class Json:
    """Any JSON value (a request, an action) of at most `max_chars` characters written compactly."""

    name: str
    label: str
    max_chars: int
    default: None = None
    help: str = ""

    def parse(self, value: Any, path: str) -> Any:
        try:
            text = json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
        except (TypeError, ValueError):
            text = None
        if text is None or len(text) > self.max_chars:
            raise RulesError(f"{where(path)} must be {self.words()}, got {value!r:.100}")
        return value

    def words(self) -> str:
        return f"JSON of at most {self.max_chars} characters"

    def schema(self) -> dict:
        return {
            "name": self.name,
            "label": self.label,
            "type": "json",
            "max_chars": self.max_chars,
            "default": None,
            "help": self.help,
        }


class _Wrapping:
    """A declaration that wraps another (`of`): it keeps that one's name and label."""

    __slots__ = ()

    @property
    def name(self) -> str:
        return self.of.name

    @property
    def label(self) -> str:
        return self.of.label


@dataclass(frozen=True, slots=True)
class Maybe(_Wrapping):
    """null, or what `of` allows."""

    of: Any

    @property
    def default(self) -> None:
        return None

    def parse(self, value: Any, path: str) -> Any:
        return None if value is None else self.of.parse(value, path)

    def words(self) -> str:
        return f"null or {describe(self.of)}"

    def schema(self) -> dict:
        return {
            "name": self.name,
            "label": self.label,
            "type": "nullable",
            "of": self.of.schema(),
            "default": None,
            "help": "",
        }


@dataclass(frozen=True, slots=True)
class MayBeAbsent(_Wrapping):
    """A field of a Record that data kept before the field existed may lack: absent, it stays absent (the rules
    read it as `of`'s default), and a fresh record leaves it out."""

    of: Any

    @property
    def default(self) -> Any:
        return self.of.default

    def parse(self, value: Any, path: str) -> Any:
        return self.of.parse(value, path)

    def words(self) -> str:
        return describe(self.of)

    def schema(self) -> dict:
        return {**self.of.schema(), "may_be_absent": True}


@dataclass(frozen=True, slots=True)
class AtMostSum:
    """A limit across a Record's fields: the whole number `name` is at most the sum of the fields `of` (a d10 pool's
    Will, at most resolve + composure), refused as input, never cut down."""

    name: str
    of: tuple[str, ...]

    def check(self, record: "Record", value: dict, path: str) -> None:
        field = next(f for f in record.fields if f.name == self.name)
        most = min(field.max, sum(value[n] for n in self.of))
        if value[self.name] > most:
            says = f"must be from {field.min} to {most} ({' + '.join(self.of)})"
            raise RulesError(f"{where(join(path, self.name))} {says}, got {value[self.name]}", says=says)

    def schema(self) -> dict:
        return {"type": "at_most_sum", "name": self.name, "of": list(self.of)}


@dataclass(frozen=True, slots=True)
class Among:
    """A check across a Record's fields: the `name` field holds the `key` of one entry of the list `within` (the
    current Situation, one of the Situations); checked here only (the page keeps the record as the engine sends it)."""

    name: str
    within: str
    key: str = "id"

    def check(self, record: "Record", value: dict, path: str) -> None:
        if not any(entry[self.key] == value[self.name] for entry in value[self.within]):
            raise RulesError(
                f"{where(join(path, self.name))} must be the {self.key} of one of the {self.within}, "
                f"got {value[self.name]!r}"
            )


@dataclass(frozen=True, slots=True)
class Record:
    """An object as the table stores it: every field there (none missing but a MayBeAbsent one, none unknown); its
    default is every field's default (a MayBeAbsent one left out). `limits` across its fields (AtMostSum) are
    checked once each field is."""

    name: str
    label: str
    fields: tuple
    help: str = ""
    limits: tuple = ()
    among: tuple = ()  # Among checks, not published: limits the page need not keep

    @property
    def default(self) -> dict:
        return defaults(tuple(f for f in self.fields if not isinstance(f, MayBeAbsent)))

    def parse(self, value: Any, path: str) -> dict:
        if not isinstance(value, dict):
            raise RulesError(
                f"{where(path)} must be an object with {', '.join(f.name for f in self.fields)}, got {value!r:.100}"
            )
        known = [f.name for f in self.fields]
        for key in value:
            if key not in known:
                raise RulesError(f"unknown field {where(join(path, key))}; allowed: {', '.join(known)}")
        for f in self.fields:
            if f.name not in value and not isinstance(f, MayBeAbsent):
                raise RulesError(f"{where(join(path, f.name))} is missing: {f.label}, {describe(f)}")
        out = parse(self.fields, value, path)
        for limit in (*self.limits, *self.among):
            limit.check(self, out, path)
        return {k: v for k, v in out.items() if k in value}  # a MayBeAbsent field left out stays out

    def words(self) -> str:
        return f"an object with {', '.join(f.name for f in self.fields)}"

    def schema(self) -> dict:
        return {
            "name": self.name,
            "label": self.label,
            "type": "record",
            "fields": [f.schema() for f in self.fields],
            "limits": [limit.schema() for limit in self.limits],
            "default": self.default,
            "help": self.help,
        }


@dataclass(frozen=True, slots=True)
class ListOf:
    """A list of min_len..max_len entries, each what `of` allows; with `unique` no entry may repeat, and entries
    with a `key` ("id" unless told) never share one."""

    name: str
    label: str
    of: Any
    max_len: int
    min_len: int = 0
    unique: bool = False
    default: tuple = ()
    help: str = ""
    key: str = "id"

    def parse(self, value: Any, path: str) -> tuple:
        if not isinstance(value, list) or not self.min_len <= len(value) <= self.max_len:
            raise RulesError(
                f"{where(path)} must be a list of {self.min_len} to {self.max_len} entries, got {value!r:.100}"
            )
        out = tuple(self.of.parse(v, f"{path}[{i}]") for i, v in enumerate(value))
        for i, v in enumerate(out):
            if self.unique and v in out[:i]:
                raise RulesError(f"{where(f'{path}[{i}]')} repeats an earlier entry: {v!r:.100}")
            if isinstance(v, dict) and self.key in v and any(w.get(self.key) == v[self.key] for w in out[:i]):
                raise RulesError(
                    f"{where(f'{path}[{i}].{self.key}')} is the {self.key} of an earlier entry too: {v[self.key]!r}"
                )
        return out

    def words(self) -> str:
        return f"a list of {self.min_len} to {self.max_len} entries"

    def schema(self) -> dict:
        return {
            "name": self.name,
            "label": self.label,
            "type": "list",
            "of": self.of.schema(),
            "min_len": self.min_len,
            "max_len": self.max_len,
            "unique": self.unique,
            "key": self.key,
            "default": list(self.default),
            "help": self.help,
        }


@dataclass(frozen=True, slots=True)
class Payer:
    """A record of the table that pays what a roll costs, beside the character rolling: a procedure declares it in
    its PAYERS (as it declares its RECORDS), and a cost whose "by" is the record's name is taken from it (tap.py).
    The page sends its state under that name with each tap, and gets its new state back under it.

    `holder`: who it is in a refusal's words ("The Scheme" has no die left); `count`: its field a cost lowers, and
    `unit` what one and many of it are called where Roll says what it spends ("1 Scheme die (3 left)"); `tracked`:
    its true-or-false field that, false, says this device keeps no count of it (nothing is checked, taken or added);
    `unset`: its true-or-false field that, false, says this device's count was never set (a pay sets it), and
    `never_set` what a refusal of such an empty count adds (`never_set_host`: on the phone that adds a shared roll);
    `host_holder`: who it is in a refusal when its state is the Host's of a live table ("The Host's Scheme")."""

    record: Record
    holder: str
    count: str
    unit: tuple[str, str]
    tracked: str | None = None
    unset: str | None = None
    never_set: str = ""
    never_set_host: str = ""
    host_holder: str = ""

    @property
    def key(self) -> str:
        """The name a cost's "by" and a tap's table give it: its record's."""
        return self.record.name

    def spent(self, before: int, after: int) -> str:
        """What a roll takes of its count, in the words Roll says it with: "1 Scheme die (3 left)"."""
        n = before - after
        return f"{n} {self.unit[0] if n == 1 else self.unit[1]} ({after} left)"


NAME = Text("name", "Name", 80)


def named_list(name: str, label: str, entry: tuple, max_len: int = 50) -> ListOf:
    """A sheet's list of named things (skills, traits...): each entry an id, a name and `entry`'s fields."""
    return ListOf(name, label, Record(name, label, (Id("id"), NAME) + entry), max_len)


def int_map(
    name: str, label: str, keys: tuple[str, ...], lo: int, hi: int, default: int, labels: tuple[str, ...] = ()
) -> Record:
    """A record of one whole number per key (ratings, counters, Attributes), labelled by `labels` or the keys."""
    return Record(name, label, tuple(Int(k, name, lo, hi, default) for k, name in zip(keys, labels or keys)))


def check(decl: Any, value: Any, path: str) -> Any:
    """`value` checked by the declaration `decl` at `path`, back in JSON form (RulesError naming the field)."""
    return as_json(decl.parse(value, path))
