"""What roll() and act() answer, declared key by key: each procedure's ROLL, published by api.systems() ("roll"),
so the page's reads of a roll (`roll.target.successes`) can be checked against it (tests/test_shapes.py).

A declaration lists every key an answer holds (none missing but an `optional` one, none unknown) and what each holds:
a whole number, a number, text, true or false, null or something (`Nullable`), a list (`Items`), an object of named
keys (`Shape`), an object whose keys are data (`Table`: an outcome's name, a number of successes), or, in a list of
choices, an object shaped by its "name" (`ByName`). `problems` says where an answer differs from its declaration.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import fields


@dataclass(frozen=True, slots=True)
class Scalar:
    """A whole number ("int"), a number ("number"), text ("text"), true or false ("bool"), or any JSON ("json")."""

    type: str

    def problems(self, value: Any, path: str) -> list[str]:
        ok = {
            "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
            "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
            "text": lambda v: isinstance(v, str),
            "bool": lambda v: isinstance(v, bool),
            "json": lambda v: True,
        }[self.type](value)
        return [] if ok else [f"{path}: {self.type} expected, got {value!r:.60}"]

    def schema(self) -> dict:
        return {"type": self.type}


INT, NUMBER, TEXT, BOOL, JSON = Scalar("int"), Scalar("number"), Scalar("text"), Scalar("bool"), Scalar("json")


@dataclass(frozen=True, slots=True)
class Nullable:
    """null, or what `of` declares."""

    of: Any

    def problems(self, value: Any, path: str) -> list[str]:
        return [] if value is None else self.of.problems(value, path)

    def schema(self) -> dict:
        return {"type": "nullable", "of": self.of.schema()}


@dataclass(frozen=True, slots=True)
class Either:
    """What one of `options` declares (a difficulty: a whole number or a word)."""

    options: tuple

    def problems(self, value: Any, path: str) -> list[str]:
        found = [o.problems(value, path) for o in self.options]
        return [] if any(not p for p in found) else [f"{path}: none of {[o.schema() for o in self.options]}"]

    def schema(self) -> dict:
        return {"type": "either", "options": [o.schema() for o in self.options]}


@dataclass(frozen=True, slots=True)
class Items:
    """A list, each entry what `of` declares (a die's marks: Items(Items(TEXT)))."""

    of: Any

    def problems(self, value: Any, path: str) -> list[str]:
        if not isinstance(value, list):
            return [f"{path}: a list expected, got {value!r:.60}"]
        return [p for i, v in enumerate(value) for p in self.of.problems(v, f"{path}[{i}]")]

    def schema(self) -> dict:
        return {"type": "list", "of": self.of.schema()}


@dataclass(frozen=True, slots=True)
class Table:
    """An object whose keys are data (an outcome's name, a number of successes), each value what `of` declares."""

    of: Any

    def problems(self, value: Any, path: str) -> list[str]:
        if not isinstance(value, dict):
            return [f"{path}: an object expected, got {value!r:.60}"]
        return [p for k, v in value.items() for p in self.of.problems(v, f"{path}.{k}")]

    def schema(self) -> dict:
        return {"type": "table", "of": self.of.schema()}


@dataclass(frozen=True, slots=True)
class Key:
    """One key of a Shape: its name, what it holds, what it means; an `optional` one may be absent."""

    name: str
    of: Any
    help: str = ""
    optional: bool = False

    def schema(self) -> dict:
        """The key as systems() publishes it: its name and type, its help if any, "optional" if it is."""
        return {
            "name": self.name,
            **self.of.schema(),
            **({"help": self.help} if self.help else {}),
            **({"optional": True} if self.optional else {}),
        }


@dataclass(frozen=True, slots=True)
class Shape:
    """An object with exactly these keys: each there (but an optional one), none other."""

    keys: tuple[Key, ...]

    def key(self, name: str) -> Key | None:
        return next((k for k in self.keys if k.name == name), None)

    def problems(self, value: Any, path: str) -> list[str]:
        if not isinstance(value, dict):
            return [f"{path}: an object expected, got {value!r:.60}"]
        out = [f"{path}.{name}: not declared" for name in value if self.key(name) is None]
        for k in self.keys:
            if k.name in value:
                out += k.of.problems(value[k.name], f"{path}.{k.name}")
            elif not k.optional:
                out.append(f"{path}.{k.name}: missing")
        return out

    def schema(self) -> dict:
        return {"type": "object", "keys": [k.schema() for k in self.keys]}


def shape(*keys: Key) -> Shape:
    """A Shape of these keys, in the order an answer writes them."""
    return Shape(tuple(keys))


@dataclass(frozen=True, slots=True)
class ByName:
    """An object shaped by its "name" (a roll's choices): `shapes` pairs each name with its Shape."""

    shapes: tuple[tuple[str, Shape], ...]

    def problems(self, value: Any, path: str) -> list[str]:
        by_name = dict(self.shapes)
        name = value.get("name") if isinstance(value, dict) else None
        if name not in by_name:
            return [f"{path}: an object named one of {', '.join(by_name)} expected, got {value!r:.60}"]
        return by_name[name].problems(value, path)

    def schema(self) -> dict:
        return {"type": "by_name", "shapes": {name: s.schema() for name, s in self.shapes}}


def problems(decl: Any, value: Any, path: str = "roll") -> list[str]:
    """Where `value` differs from the declaration `decl`: an undeclared key, a missing one, a value of another kind."""
    return decl.problems(value, path)


# --- the parts every roll shares ----------------------------------------------------------------------------------

MARKS = Items(Items(TEXT))
# The dice a roll shows, as the engine publishes them with every roll and follow-up (engine.roll: each procedure's
# `faces`), so the page draws and logs any procedure's dice from one list, knowing none of its keys.
FACES = Key(
    "faces",
    Items(
        Shape(
            (
                Key("sides", INT, "the die's sides (a d100 is one die of faces 1 to 100)"),
                Key("face", INT, "its face, from 1 to sides"),
                Key("group", TEXT, 'whose or which dice it is among, as the tray labels them ("": the only group)'),
                Key("marks", Items(TEXT), "the engine's marks of it"),
            )
        )
    ),
    "every die the roll shows, to draw and to log, in rolled order (the procedure's `faces`)",
)


def shown(faces: list[int], marks: list[list[str]] | None, sides: int, group: str = "") -> list[dict]:
    """One group of a roll's dice as FACES lists them: each face of `faces`, a d`sides`, with its `marks` (one list
    per die; none where None)."""
    marks = marks if marks is not None else [[] for _ in faces]
    return [{"sides": sides, "face": f, "group": group, "marks": list(k)} for f, k in zip(faces, marks)]


"""The engine's marks, one list per die ("kept", "cancelled", "exploded"...): what each die means on the page."""


def request(decls: tuple) -> Shape:
    """The request as the roll echoes it: every field of the procedure's FIELDS, checked and defaulted."""
    return Shape(tuple(Key(f.name, _field(f)) for f in decls))


def _field(f: Any) -> Any:
    if isinstance(f, fields.Group):
        inner = request(f.fields)
        return Nullable(inner) if f.optional else inner
    if isinstance(f, fields.Records):
        return Items(request(f.fields))
    if isinstance(f, fields.IntList):
        return Items(INT)
    if isinstance(f, fields.IntOrWord):
        return Either((INT, TEXT))
    return {fields.Int: INT, fields.Bool: BOOL, fields.Choice: TEXT, fields.Text: TEXT}[type(f)]


def odds_json(*keys: Key) -> Shape:
    """Odds in the engine's shape: `keys` of numbers (0 to 1), and "exact" the same keys as "p/q" text."""
    return Shape(
        keys
        + (
            Key(
                "exact",
                Shape(tuple(Key(k.name, _as_text(k.of), k.help) for k in keys)),
                'the same chances, exact, as "p/q"',
            ),
        )
    )


def _as_text(decl: Any) -> Any:
    if decl == NUMBER:
        return TEXT
    if isinstance(decl, (Items, Table, Nullable)):
        return type(decl)(_as_text(decl.of))
    return decl


OUTCOMES = Key("outcomes", Table(NUMBER), "the chance of each outcome, the headline's first")


NOTE = Key(
    "note",
    shape(Key("words", TEXT, "why, in a player's words"), Key("tone", TEXT, "muted (no gain) or warn (risky)")),
    "what the odds say beyond their numbers: no gain from the action, or only a risk (chances.note)",
    optional=True,
)


def choice(name: str, *keys: Key, odds: Shape | None = None) -> tuple[str, Shape]:
    """One follow-up choice a roll offers: its "name", "label" and `keys`; with `odds` (the odds of the action it
    suggests, that action under "action", and its `NOTE` when it has one), "odds" where the engine gives them."""
    more = (
        ()
        if odds is None
        else (
            Key(
                "odds",
                Shape(
                    (
                        Key(
                            "action",
                            Nullable(JSON),
                            "the action suggested (null: no action does better than the roll as it stands)",
                        ),
                    )
                    + odds.keys
                    + (NOTE,)
                ),
                "the odds after the action suggested",
                optional=True,
            ),
        )
    )
    return name, shape(Key("name", TEXT, "the follow-up's name, as act() takes it"), Key("label", TEXT), *keys, *more)


def roll_json(decls: tuple, *keys: Key, standing: Shape, choices: tuple = ()) -> Shape:
    """A roll as api.roll and api.act answer it: "system", "request" (the FIELDS `decls` checked), the procedure's own
    `keys` (its dice and marks among them), the words ("outcome", "steps", "summary", "tone"), the follow-ups
    ("choices", each shaped by its name), "drawn" (the faces drawn, in draw order), "faces" (the dice it shows, to
    draw and to log: FACES) and "standing" (the outcome as it stands, in the odds' shape)."""
    return shape(
        Key("system", TEXT, "the procedure's id"),
        Key("request", request(decls), "the request rolled, checked and defaulted"),
        *keys,
        Key("outcome", TEXT, "the outcome's key in the procedure's odds"),
        Key("steps", Items(TEXT), "each step of the rule, in words"),
        Key("summary", TEXT, "the outcome in one line"),
        Key("tone", TEXT, "the outcome's class at a glance: success, mixed, failure or botch (arbiter.tone)"),
        Key("choices", Items(ByName(choices)), "the follow-ups still open, each shaped by its name"),
        Key(
            "drawn",
            Items(INT),
            "the faces this step drew, in draw order (a follow-up: only its own; [] when it drew none)",
        ),
        Key(
            "drawn_own",
            Items(INT),
            "the roller's own faces among drawn, in draw order: not a contest's other side's, not the Narrator's "
            "Scheme die (whose fairness is the roller's: api.fairness_summary)",
        ),
        FACES,
        Key("standing", standing, "the outcome as it stands, with probability 1, in the odds' shape"),
    )


def names(decl: Any) -> set[str]:
    """Every key name `decl` declares, at any depth (the names a reader of the roll may ask for)."""
    if isinstance(decl, Shape):
        return {k.name for k in decl.keys}.union(*(names(k.of) for k in decl.keys))
    if isinstance(decl, ByName):
        return set().union(*(names(s) for _, s in decl.shapes))
    if isinstance(decl, Either):
        return set().union(*(names(o) for o in decl.options))
    if isinstance(decl, (Items, Table, Nullable)):
        return names(decl.of)
    return set()
