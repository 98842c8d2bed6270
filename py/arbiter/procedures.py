"""The one registry of procedures, and the protocol through which shared code asks each what it needs.

`Procedure` (a typing.Protocol) is what every procedure (a module, or a package that gathers its modules) provides:
ID, TITLE, LABEL, HINT, DESCRIPTION, SIDES, FIELDS, ACTIONS, EXTRAS, ROLL, EXAMPLE_REQUESTS, `roll`, `act` and `odds`
(the engine's door), and the odds between the choices (chances.py's door):

- `standing(roll)`: the roll's outcome as it stands, in the shape of its odds, with probability 1;
- `odds_after(roll, action)`: the exact odds of the final outcome if `action` is taken now;
- `luck(roll)`: how the roll as first rolled stands among all it could have been (its order of outcomes, worst first);
- `headline(odds)`: {label: p}, the one chance a player reads beside Roll, from its exact odds.

What it may leave out, each filled with its default by the one adapter (`Adapted`, OPTIONAL names them all; a
procedure never writes a default out): `choice_odds(roll, choice)` (the odds of the action a choice suggests, with
that action; default None: no suggestion); `what_if(req)` (what the player could still add before the roll, each with
its odds; default none); `note(roll, action, after)` (what a follow-up's odds say beyond their numbers: {"words",
"tone"}, "muted" when it cannot raise the chance it is taken for, "warn" when it can only lower it; default None;
chances.verdict); SEED (its rule text in docs/seeds/); SHEET (the character sheet that rolls it; KIND names another
procedure's instead; without either no character rolls it); CHOICES and `request_from_sheet` (what a sheet fills;
default nothing); TABLE and TABLE_OPS, `costs` and `follows` (what the table keeps and pays; default none);
`earned(roll)` (whether the steps up to `roll` added a Scheme die, for `follows` of its follow-up: tap.py chains it;
default False); `did(roll, action, after)` (what a follow-up did, in a player's words for the log, "Negated the setback
with two Scheme dice"; default the label its ACTIONS declare for the action); `shared_action(action, who, marked)`
(a follow-up of a shared roll as this table reads it, and the words when this table refuses it; default unchanged)
and LEFT_OUT (what the log says of a step added without the follow-up this table refused; default "Left out on this
table"); RECORDS (the table records it declares, as it declares SHEET: records.py gathers them; default none) and
PAYERS (which of them pay what a roll costs, beside the character rolling: stored.Payer, its holder's name and its
refusal's words; tap.py takes a cost whose "by" names one from it; default none); and `faces(roll)` (the dice a roll
shows, to draw and to log, in rolled order: [{"sides", "face", "group", "marks"}], shapes.FACES; default each face
of its "dice" with its "marks", a d SIDES, in one group).

Shared code never asks a procedure's id what to do, and never asks whether it has a member (no hasattr, no getattr:
the adapter has every one): what differs, the procedure declares (the icepool way). The procedures of this package are
listed here; more come from outside it (`more()`: `build.py --procedures DIR`), and no module of this package names
them.
"""

from __future__ import annotations

import importlib
import os
import sys
import types
from pathlib import Path
from typing import Any, Protocol

from . import ability_test, arbitration, luck, ten_again, threat, two_dice

PROTOCOL = ("standing", "odds_after", "luck", "headline")  # chances.py's door: what every procedure answers


class Procedure(Protocol):
    """What every procedure provides (the module docstring says what each member is)."""

    ID: str
    TITLE: str
    LABEL: str
    HINT: str
    DESCRIPTION: str
    SIDES: int
    FIELDS: tuple
    ACTIONS: list
    EXTRAS: dict
    ROLL: Any
    EXAMPLE_REQUESTS: dict

    def roll(self, req: dict, dice: Any) -> dict: ...
    def act(self, roll: dict, action: dict, dice: Any) -> dict: ...
    def odds(self, req: dict) -> dict: ...
    def standing(self, roll: dict) -> dict: ...
    def odds_after(self, roll: dict, action: Any) -> dict: ...
    def luck(self, roll: dict) -> dict: ...
    def headline(self, exact: dict) -> dict: ...


REQUIRED = tuple(Procedure.__annotations__) + ("roll", "act", "odds", *PROTOCOL)


def _by_label(actions: list):
    """The default `did`: the label `actions` declare for the action named, else "A follow-up"."""

    def did(roll: dict, action: dict, after: dict) -> str:
        labels = {a["name"]: a["label"] for a in actions}
        named = [labels[k] for k in action if k in labels] if isinstance(action, dict) else []
        return named[0] if named else "A follow-up"

    return did


def _one_group(sides: int):
    """The default `faces`: each face of the roll's "dice", a d`sides`, with its "marks", in one group (shapes.FACES;
    shapes.shown builds a procedure's own)."""

    def faces(roll: dict) -> list[dict]:
        marks = roll.get("marks") or [[] for _ in roll["dice"]]
        return [{"sides": sides, "face": f, "group": "", "marks": list(k)} for f, k in zip(roll["dice"], marks)]

    return faces


# Every optional member of the protocol, with what it is when a procedure leaves it out (a function of the
# procedure's module, for a default that reads what it declares).
OPTIONAL = {
    "SEED": lambda m: None,
    "SHEET": lambda m: None,
    "KIND": lambda m: m.ID,
    "CHOICES": lambda m: (),
    "TABLE": lambda m: {},
    "TABLE_OPS": lambda m: [],
    "RECORDS": lambda m: (),
    "PAYERS": lambda m: (),
    "LEFT_OUT": lambda m: "Left out on this table",
    "choice_odds": lambda m: lambda roll, choice: None,
    "what_if": lambda m: lambda req: [],
    "note": lambda m: lambda roll, action, after: None,
    "request_from_sheet": lambda m: lambda sheet, choices: None,
    "costs": lambda m: lambda request, action, choices=None: [],
    "follows": lambda m: lambda roll, earned: ([], None),
    "earned": lambda m: lambda roll: False,
    "did": lambda m: _by_label(m.ACTIONS),
    "shared_action": lambda m: lambda action, who, marked: (action, None),
    "faces": lambda m: _one_group(m.SIDES),
}


class Adapted:
    """The one adapter: a procedure's module with every member of the protocol, its own where it declares one, else
    the default OPTIONAL gives; what shared code reads of a procedure, through PROCEDURES. `module` is the procedure's
    module itself (what it declares beyond the protocol is its own business: tests read it there)."""

    def __init__(self, module: types.ModuleType) -> None:
        own = vars(module)
        missing = [name for name in REQUIRED if name not in own]
        if missing:
            raise ImportError(f"{module.__name__}: a procedure must provide {', '.join(missing)}")
        self.module = module
        self.__name__ = module.__name__
        self.__file__ = module.__file__
        for name in REQUIRED:
            setattr(self, name, own[name])
        for name, default in OPTIONAL.items():
            setattr(self, name, own[name] if name in own else default(module))

    def __repr__(self) -> str:
        return f"<procedure {self.ID} ({self.__name__})>"


# Procedures from outside this package are the packages (or modules) of this namespace: in CPython, of the folders
# MORE_ENV names (os.pathsep between them; `build.py --procedures DIR` sets it); in the page, the wheel's folder of
# that name (py/tools/wheel.py puts them there).
MORE, MORE_ENV = "arbiter_procedures", "ARBITER_PROCEDURES"


def _namespace(folders: list[str] | None) -> types.ModuleType | None:
    """The namespace of the procedures from outside: of `folders`, else of the folders MORE_ENV names, else the one
    installed (the page's wheel), else None."""
    if folders is None:
        folders = [f for f in os.environ.get(MORE_ENV, "").split(os.pathsep) if f]
    if folders:
        space = types.ModuleType(MORE, "Procedures from outside arbiter (procedures.MORE_ENV)")
        space.__path__ = [str(Path(f).resolve()) for f in folders]
        sys.modules[MORE] = space
        return space
    try:
        return importlib.import_module(MORE)
    except ModuleNotFoundError:
        return None


def more(folders: list[str] | None = None) -> list[types.ModuleType]:
    """The procedures from outside this package: each package (a folder with __init__.py) or module of the
    namespace's folders (`folders`, else MORE_ENV's, else the installed ones), by name; a name in an earlier folder
    hides the same name in a later one."""
    space = _namespace(folders)
    names: dict[str, None] = {}
    for folder in map(Path, space.__path__ if space is not None else ()):
        for entry in sorted(folder.iterdir()) if folder.is_dir() else ():
            if (entry / "__init__.py").is_file() or (entry.suffix == ".py" and entry.is_file()):
                names.setdefault(entry.stem)
    return [importlib.import_module(f"{MORE}.{name}") for name in names if not name.startswith(("_", "."))]


# The words the page's address keeps for its own views (`#table`, `#log`; `#roll` for the Roll view, `#settings`,
# `#r` and `#t` for a roll and a table shared by link, `#j` and `#a` for a live table's join code and its answer): no
# procedure may take one as its id, so `#ID` always names a procedure or a view.
RESERVED_IDS = ("roll", "table", "log", "settings", "r", "t", "j", "a")


def _registry(modules) -> dict:
    """id -> procedure; two procedures of one id are refused (one from outside would hide one of ours), and so is an
    id the page's address keeps for a view (RESERVED_IDS)."""
    out: dict = {}
    for m in modules:
        if m.ID in RESERVED_IDS:
            raise ImportError(f"{m.__name__}: the id {m.ID!r} is kept for the page's views ({', '.join(RESERVED_IDS)})")
        if m.ID in out:
            raise ImportError(f"two procedures have the id {m.ID!r}: {out[m.ID].__name__} and {m.__name__}")
        out[m.ID] = Adapted(m)
    return out


PROCEDURES = _registry((arbitration, two_dice, threat, luck, ten_again, ability_test, *more()))


def kind(m):
    """The procedure whose character sheet rolls `m`: its own, or the one it names as its KIND (Luck: threat's); None
    when no sheet does (a procedure without a SHEET)."""
    sheet_of = PROCEDURES[m.KIND]
    return sheet_of if sheet_of.SHEET is not None else None


def tab(m) -> str:
    """The tab that shows `m` in the picker: its own, even where two share a rule text (Threat and Luck), so the Roll
    view holds one form and one Roll bar."""
    return m.ID


# A character's kind is the procedure whose sheet it keeps; it also rolls the procedures that share that sheet.
KINDS = {m.ID: m for m in PROCEDURES.values() if kind(m) is m}


def did(m, roll: dict, action: dict, after: dict) -> str:
    """What the follow-up `action` of `roll` did (giving `after`), in a player's words for the log: the procedure's
    own `did`, else the label its ACTIONS declare for the action named."""
    return m.did(roll, action, after)
