"""Input fields: one declaration per request field gives its type, range and default.

`systems()` publishes these declarations (the page builds its limits from them) and `parse` checks a
JSON request against them, so each limit lives in exactly one place.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import RulesError


def where(path: str) -> str:
    return f"'{path}'"


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class Int:
    """A whole number in [min, max]."""

    name: str
    label: str
    min: int
    max: int
    default: int = 0
    help: str = ""

    def parse(self, value: Any, path: str) -> int:
        if not _is_int(value):
            raise RulesError(
                f"{where(path)} must be a whole number from {self.min} to {self.max}, got {value!r}",
                says=f"must be a whole number from {self.min} to {self.max}",
            )
        if not self.min <= value <= self.max:
            raise RulesError(
                f"{where(path)} must be from {self.min} to {self.max}, got {value}",
                says=f"must be from {self.min} to {self.max}",
            )
        return value

    def schema(self) -> dict:
        return {
            "name": self.name,
            "label": self.label,
            "type": "int",
            "min": self.min,
            "max": self.max,
            "default": self.default,
            "help": self.help,
        }


@dataclass(frozen=True, slots=True)
class IntOrWord:
    """A whole number in [min, max], or one of a few words (e.g. "impossible")."""

    name: str
    label: str
    min: int
    max: int
    words: tuple[str, ...]
    default: int = 0
    help: str = ""

    def parse(self, value: Any, path: str) -> int | str:
        if isinstance(value, str) and value in self.words:
            return value
        if not _is_int(value) or not self.min <= value <= self.max:
            words = " or ".join(f'"{w}"' for w in self.words)
            must = f"must be a whole number from {self.min} to {self.max} or {words}"
            raise RulesError(f"{where(path)} {must}, got {value!r}", says=must)
        return value

    def schema(self) -> dict:
        return {
            "name": self.name,
            "label": self.label,
            "type": "int_or_word",
            "min": self.min,
            "max": self.max,
            "words": list(self.words),
            "default": self.default,
            "help": self.help,
        }


@dataclass(frozen=True, slots=True)
class Bool:
    """true or false (and nothing else: no 0/1). `once`: it spends something for one roll only (a Will, a Scheme
    die), so the form unticks it after each roll (published as "once")."""

    name: str
    label: str
    default: bool = False
    help: str = ""
    once: bool = False

    def parse(self, value: Any, path: str) -> bool:
        if not isinstance(value, bool):
            raise RulesError(f"{where(path)} must be true or false, got {value!r}")
        return value

    def schema(self) -> dict:
        out = {"name": self.name, "label": self.label, "type": "bool", "default": self.default, "help": self.help}
        return {**out, "once": True} if self.once else out


@dataclass(frozen=True, slots=True)
class Choice:
    """One of a fixed list of values; `options` pairs each value with its label."""

    name: str
    label: str
    options: tuple[tuple[str, str], ...]
    default: str = ""
    help: str = ""

    def parse(self, value: Any, path: str) -> str:
        allowed = [v for v, _ in self.options]
        if value not in allowed or not isinstance(value, str):
            raise RulesError(f"{where(path)} must be one of {', '.join(allowed)}, got {value!r}")
        return value

    def schema(self) -> dict:
        return {
            "name": self.name,
            "label": self.label,
            "type": "choice",
            "options": [{"value": v, "label": name} for v, name in self.options],
            "default": self.default or self.options[0][0],
            "help": self.help,
        }


@dataclass(frozen=True, slots=True)
class Text:
    """A short piece of text (a threat's name); shown as text, never parsed as markup."""

    name: str
    label: str
    max_len: int = 80
    default: str = ""
    help: str = ""

    def parse(self, value: Any, path: str) -> str:
        if not isinstance(value, str) or len(value) > self.max_len:
            raise RulesError(
                f"{where(path)} must be text of at most {self.max_len} characters, got {value!r:.100}",
                says=f"must be text of at most {self.max_len} characters",
            )
        return value

    def schema(self) -> dict:
        return {
            "name": self.name,
            "label": self.label,
            "type": "text",
            "max_len": self.max_len,
            "default": self.default,
            "help": self.help,
        }


@dataclass(frozen=True, slots=True)
class IntList:
    """A list of min_len..max_len whole numbers, each in [min, max]."""

    name: str
    label: str
    min: int
    max: int
    min_len: int
    max_len: int
    default: tuple[int, ...] = ()
    help: str = ""

    def parse(self, value: Any, path: str) -> tuple[int, ...]:
        if not isinstance(value, list) or not self.min_len <= len(value) <= self.max_len:
            must = f"must be a list of {self.min_len} to {self.max_len} whole numbers from {self.min} to {self.max}"
            raise RulesError(f"{where(path)} {must}, got {value!r:.100}", says=must)
        item = Int(self.name, self.label, self.min, self.max)
        return tuple(every([lambda v=v, i=i: item.parse(v, f"{path}[{i}]") for i, v in enumerate(value)]))

    def schema(self) -> dict:
        return {
            "name": self.name,
            "label": self.label,
            "type": "int_list",
            "min": self.min,
            "max": self.max,
            "min_len": self.min_len,
            "max_len": self.max_len,
            "default": list(self.default),
            "help": self.help,
        }


@dataclass(frozen=True, slots=True)
class Group:
    """A nested object of fields (e.g. the `opposed` side); optional groups may be absent or null."""

    name: str
    label: str
    fields: tuple
    optional: bool = True
    help: str = ""
    default: None = None

    def parse(self, value: Any, path: str) -> dict | None:
        if value is None and self.optional:
            return None
        return parse(self.fields, value, path)

    def schema(self) -> dict:
        return {
            "name": self.name,
            "label": self.label,
            "type": "group",
            "optional": self.optional,
            "fields": [f.schema() for f in self.fields],
            "default": None,
            "help": self.help,
        }


@dataclass(frozen=True, slots=True)
class Records:
    """A list of min_len..max_len objects, each made of `fields` (e.g. the threats)."""

    name: str
    label: str
    fields: tuple
    min_len: int
    max_len: int
    default: tuple = ()
    help: str = ""

    def parse(self, value: Any, path: str) -> tuple[dict, ...]:
        if not isinstance(value, list) or not self.min_len <= len(value) <= self.max_len:
            raise RulesError(
                f"{where(path)} must be a list of {self.min_len} to {self.max_len} entries, got {value!r:.100}"
            )
        return tuple(every([lambda v=v, i=i: parse(self.fields, v, f"{path}[{i}]") for i, v in enumerate(value)]))

    def schema(self) -> dict:
        return {
            "name": self.name,
            "label": self.label,
            "type": "records",
            "min_len": self.min_len,
            "max_len": self.max_len,
            "fields": [f.schema() for f in self.fields],
            "default": [dict(d) for d in self.default],
            "help": self.help,
        }


def parse(fields: tuple, request: Any, path: str = "request") -> dict:
    """Check `request` against `fields`: an object with no unknown keys; missing keys take their defaults. Every
    field is checked: the RulesError names the first problem and carries them all (`problems`)."""
    if not isinstance(request, dict):
        raise RulesError(
            f"{where(path)} must be an object with fields {', '.join(f.name for f in fields)}, "
            f"got {type(request).__name__}"
        )
    known = {f.name: f for f in fields}
    for key in request:
        if key not in known:
            raise RulesError(f"unknown field {where(join(path, key))}; allowed: {', '.join(known)}")

    def one(f) -> Any:
        if f.name in request:
            return f.parse(request[f.name], join(path, f.name))
        if isinstance(f, Group):
            return None if f.optional else f.parse({}, join(path, f.name))
        return f.default

    return dict(zip(known, every([lambda f=f: one(f) for f in fields]), strict=True))


def every(checks: list) -> list:
    """Each check's value, in order; if any refused, one RulesError: the first refusal, with every refusal's
    `problems` (a form's bad fields, flagged at once)."""
    out, refused = [], []
    for check in checks:
        try:
            out.append(check())
        except RulesError as error:
            refused.append(error)
    if not refused:
        return out
    first = refused[0]
    if len(refused) == 1:
        raise first
    raise RulesError(
        str(first),
        path=first.path,
        says=first.says,
        holder=first.holder,
        left=first.left,
        problems=tuple(p for error in refused for p in error.problems),
    )


def join(path: str, key: str) -> str:
    return key if path == "request" else f"{path}.{key}"


def as_json(value: Any) -> Any:
    """A parsed request back in JSON form: tuples become lists, all the way down."""
    if isinstance(value, dict):
        return {k: as_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [as_json(v) for v in value]
    return value


def defaults(fields: tuple) -> dict:
    """The request a fresh form shows: every field at its default (JSON-safe)."""
    out = {}
    for f in fields:
        d = f.default
        if isinstance(d, tuple):
            d = [dict(x) if isinstance(x, dict) else x for x in d]
        out[f.name] = d
    return out


def unticked(fields: tuple, request: dict) -> dict:
    """`request` as its form stands after a roll: what is spent for one roll only (a Bool declared `once`: a Will, a
    Scheme die) unticked, in a Group too; the rest as it was."""
    out = dict(request)
    for f in fields:
        value = out.get(f.name)
        if isinstance(f, Bool) and f.once and value is True:
            out[f.name] = False
        elif isinstance(f, Group) and isinstance(value, dict):
            out[f.name] = unticked(f.fields, value)
    return out


# --- table-state ops: a state and args checked by declarations (api.table) -------------------------------------


@dataclass(frozen=True, slots=True)
class Object:
    """An `args` entry holding a whole JSON object (a roll, a request) that the op checks itself."""

    name: str
    label: str
    help: str = ""
    default: None = None

    def parse(self, value: Any, path: str) -> dict:
        if not isinstance(value, dict):
            raise RulesError(f"'{path}' must be an object ({self.label}), got {value!r:.100}")
        return value

    def schema(self) -> dict:
        return {"name": self.name, "label": self.label, "type": "object", "default": None, "help": self.help}


def describe(decl: Any) -> str:
    """What a declaration allows, in words (for "missing" messages)."""
    if isinstance(decl, Int):
        return f"a whole number from {decl.min} to {decl.max}"
    if isinstance(decl, Bool):
        return "true or false"
    if isinstance(decl, Choice):
        return "one of " + ", ".join(v for v, _ in decl.options)
    if isinstance(decl, (IntList, Records)):
        return "a list"
    if isinstance(decl, Text):
        return f"text of at most {decl.max_len} characters"
    if hasattr(decl, "words"):
        return decl.words()
    return "an object"


def a(noun: str) -> str:
    """`noun` with its indefinite article: "an Arbitration", "a Threat Roll"."""
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


def read_state(state: Any, decls: tuple, required: tuple[str, ...]) -> dict:
    """The keys of `state` an op reads, each checked by its declaration; absent optional keys take defaults."""
    if not isinstance(state, dict):
        raise RulesError(f"'state' must be an object with {', '.join(d.name for d in decls)}, got {state!r:.100}")
    out = {}
    for d in decls:
        if d.name in state:
            out[d.name] = d.parse(state[d.name], f"state.{d.name}")
        elif d.name in required:
            raise RulesError(f"'state.{d.name}' is missing: {d.label}, {describe(d)}")
        else:
            out[d.name] = d.default
    return out


def read_args(args: Any, decls: tuple, op: str, required: tuple[str, ...] = ()) -> dict:
    """`args` checked by the op's declarations (None for none): unknown keys refused, absent ones defaulted
    unless `required`."""
    if args is None:
        args = {}
    if not decls and args != {}:
        raise RulesError(f"'args' must be empty or null: {op} takes no arguments, got {args!r:.100}")
    out = parse(decls, args, "args")
    for d in decls:
        if d.name in required and d.name not in args:
            raise RulesError(f"'args.{d.name}' is missing: {d.label}")
    return out


def new_state(state: dict, note: str, **changes: Any) -> dict:
    """The state an op returns: what it was given, with its changes and a note for the roll log."""
    return {**state, **changes, "note": note}


def table_op(name: str, label: str, help: str, state: tuple, args: tuple = ()) -> dict:
    """One entry of a procedure's TABLE_OPS: the op's name and words, and the declarations of the state and args
    it reads (published by api.systems())."""
    return {
        "name": name,
        "label": label,
        "help": help,
        "state": [d.schema() for d in state],
        "args": [d.schema() for d in args],
    }


def pay(by: str, system: str, op: str, args: dict | None = None, times: int = 1, **more: Any) -> dict:
    """One api.table op that a roll costs or brings, in the order paid: on the rolling character's sheet
    (`by` "character") or on the shared Scheme (`by` "scheme"), `times` over."""
    return {"by": by, "system": system, "op": op, "args": args, "times": times, **more}
