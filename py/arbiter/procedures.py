"""The one registry of procedures, and the protocol through which shared code asks each what it needs.

Every procedure (a module, or a package that gathers its modules) provides ID, TITLE, LABEL, HINT, DESCRIPTION, SIDES,
FIELDS, ACTIONS, EXTRAS, `roll`, `act` and `odds` (api.py's door), and the odds between the choices (chances.py's
door):

- `standing(roll)`: the roll's outcome as it stands, in the shape of its odds, with probability 1;
- `odds_after(roll, action)`: the exact odds of the final outcome if `action` is taken now;
- `choice_odds(roll, choice)`: the odds of the action a choice suggests, with that action, or None (no suggestion);
- `what_if(req)`: what the player could still add to the request before the roll, each with its odds;
- `luck(roll)`: how the roll as first rolled stands among all it could have been (its order of outcomes, worst first);
- `headline(odds)`: {label: p}, the one chance a player reads beside Roll, from its exact odds.

What it may leave out: `note(roll, action, after)` (what a follow-up's odds say beyond their numbers: {"words",
"tone"}, "muted" when it cannot raise the chance it is taken for, "warn" when it can only lower it, or None;
chances.verdict), SEED (its rule text in docs/seeds/), SHEET (the character
sheet that rolls it; KIND names another procedure's instead; without either no character rolls it), CHOICES and
`request_from_sheet` (what a sheet fills), TABLE and TABLE_OPS, `costs` and `follows` (what the table keeps and pays),
`earned(roll)` (whether the steps up to `roll` added a Scheme die, for `follows` of its follow-up: tap.py chains it),
and `did(roll, action, after)`: what a follow-up did, in a player's words for the log ("Negated the setback with two
Scheme dice"; without it, the label its ACTIONS declare for the action: `did`).

Shared code never asks a procedure's id what to do: what differs, the procedure declares (the icepool way). The
procedures of this package are listed here; more come from outside it (`more()`: `build.py --procedures DIR`), and no
module of this package names them.
"""

from __future__ import annotations

import importlib
import os
import sys
import types
from pathlib import Path

from . import ability_test, arbitration, luck, ten_again, threat, two_dice

PROTOCOL = ("standing", "odds_after", "choice_odds", "what_if", "luck", "headline")

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


# The words the page's address keeps for its own views (`#table`, `#log`; `#roll` for the Roll view, `#settings`, and
# `#r` and `#t` for a roll and a table shared by link): no procedure may take one as its id, so `#ID` always names a
# procedure or a view.
RESERVED_IDS = ("roll", "table", "log", "settings", "r", "t")


def _registry(modules) -> dict:
    """id -> procedure; two procedures of one id are refused (one from outside would hide one of ours), and so is an
    id the page's address keeps for a view (RESERVED_IDS)."""
    out: dict = {}
    for m in modules:
        if m.ID in RESERVED_IDS:
            raise ImportError(f"{m.__name__}: the id {m.ID!r} is kept for the page's views ({', '.join(RESERVED_IDS)})")
        if m.ID in out:
            raise ImportError(f"two procedures have the id {m.ID!r}: {out[m.ID].__name__} and {m.__name__}")
        out[m.ID] = m
    return out


PROCEDURES = _registry((arbitration, two_dice, threat, luck, ten_again, ability_test, *more()))


def kind(m):
    """The procedure whose character sheet rolls `m`: its own, or the one it names as its KIND (Luck: threat's); None
    when no sheet does (a procedure without a SHEET)."""
    sheet_of = PROCEDURES[getattr(m, "KIND", m.ID)]
    return sheet_of if hasattr(sheet_of, "SHEET") else None


def tab(m) -> str:
    """The tab that shows `m` in the picker: its own, even where two share a rule text (Threat and Luck), so the Roll
    view holds one form and one Roll bar."""
    return m.ID


# A character's kind is the procedure whose sheet it keeps; it also rolls the procedures that share that sheet.
KINDS = {m.ID: m for m in PROCEDURES.values() if kind(m) is m}


def did(m, roll: dict, action: dict, after: dict) -> str:
    """What the follow-up `action` of `roll` did (giving `after`), in a player's words for the log: the procedure's
    own `did`, else the label its ACTIONS declare for the action named."""
    if hasattr(m, "did"):
        return m.did(roll, action, after)
    labels = {a["name"]: a["label"] for a in m.ACTIONS}
    named = [labels[k] for k in action if k in labels] if isinstance(action, dict) else []
    return named[0] if named else "A follow-up"
