"""A roll shared by link (issue 22, a first part): what re-derives it and nothing else, packed small enough for a QR
code, and unpacked as untrusted input.

The link's fragment (`#r=…`, never sent to any server) holds a version, the procedure, the request, the faces drawn
at each step (the roll's, then each follow-up's, with its action), who rolled (a name, cut short), when (whole
seconds since 1970), and an id: a hash of all the rest. Packed as compact JSON, deflated, in base64url. Unpacked,
every part is checked by the same declarations as any request, and the roll is re-derived by the engine from the
request and the faces (`roll(..., dice=)`, `act(..., dice=)`): the words are never taken from the link. A link that
is cut, altered, of an unknown version, or whose faces do not fit its request is refused with a RulesError.

What a link proves, and what it cannot: the outcome follows from its faces under the rules; not that the faces were
rolled rather than typed.

Versions (issue 30): a roll's link of version 2 adds whose dice each step used ("o": one letter a step, "a" the app's,
"t" the table's own typed on the face pad), so the Host's log says "Table dice" as the player's does; its faces are
any die's, 1 to FACE_MOST (the procedure's declared sides are checked when the roll is re-derived). Version 1 links
(no "o": every step the app's) still open, with the ids they always had. A link of a later version than this page
knows is refused with words that say to update.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import zlib
from typing import Any

from .errors import RulesError

VERSION = 1  # a table's link
ROLL_VERSION = 2  # a roll's link as packed now; ROLL_VERSIONS are read
ROLL_VERSIONS = (1, 2)
SOURCES = {"app": "a", "table": "t"}  # whose dice a step used, as a roll's link of version 2 says it
FACE_MOST = 100  # the highest face a link's die may show (a d100's); the procedure's own sides are checked on replay
NAME_CHARS = 24  # who rolled, in a link: a longer name is cut (the link stays small enough for a QR code)
LINK_CHARS = 2000  # the most a shared roll's fragment may hold; a longer one is refused unread
STEPS = 20  # the most steps (a roll and its follow-ups) a link holds
ID_CHARS = 12  # the id: this many hex digits of the SHA-256 of the rest
TABLE_CHARS = (
    20_000  # the most a shared table's fragment may hold (one QR code holds far less: then a file or a message)
)
TABLE_KIND = "table"


def _canonical(payload: dict) -> bytes:
    return json.dumps(payload, separators=(",", ":"), sort_keys=True, ensure_ascii=False).encode()


def _id(payload: dict) -> str:
    return hashlib.sha256(_canonical({k: v for k, v in payload.items() if k != "id"})).hexdigest()[:ID_CHARS]


def pack(system: str, request: dict, steps: list[dict], who: str | None, time: int) -> str:
    """The fragment for a roll of `system`: `request` as rolled, `steps` ([{"drawn"}, then {"action", "drawn"} per
    follow-up], as the log keeps them, each with its "source" ("app" or "table", "app" when left out)), `who` (a
    name or None) and `time` (whole seconds since 1970)."""
    return _deflate(
        {
            "v": ROLL_VERSION,
            "s": system,
            "q": request,
            "d": [step["drawn"] for step in steps],
            "a": [step["action"] for step in steps[1:]],
            "o": "".join(SOURCES[step.get("source") or "app"] for step in steps),
            "w": (who or "")[:NAME_CHARS],
            "t": time,
        }
    )


def sources(payload: dict) -> list[str]:
    """Whose dice each step of an unpacked roll used ("app" or "table"): a version 1 link's are all the app's."""
    by_letter = {letter: source for source, letter in SOURCES.items()}
    return [by_letter[letter] for letter in payload.get("o", "a" * len(payload["d"]))]


def step_ids(payload: dict) -> list[str]:
    """The id of the roll as it stood after each step: the id of the same link cut after that step (the roll alone,
    then the roll and its first follow-up, ...). A link shared again after a follow-up shares its first ids with the
    earlier link, so a table that added the earlier one adds only the steps it has not seen."""
    cut = (lambda k: {"o": payload["o"][: k + 1]}) if "o" in payload else (lambda k: {})
    return [
        _id({**payload, "d": payload["d"][: k + 1], "a": payload["a"][:k], **cut(k)}) for k in range(len(payload["d"]))
    ]


class NewerLink(RulesError):
    """A link of a later version than this page reads: whole, but to be opened by an updated page."""


def _inflate(fragment: Any, most: int, what: str, versions: tuple[int, ...], kind: str | None = None) -> dict:
    """The JSON object a fragment of at most `most` characters packs (its inflated text at most ten times that), of
    one of `versions`, its "k" `kind` (None: it has no "k")."""
    if not isinstance(fragment, str) or not fragment:
        raise RulesError(f"This link holds no {what}.")
    if len(fragment) > most:
        raise RulesError(f"This link is too long to be a {what} ({len(fragment)} characters; at most {most}).")
    try:
        inflater = zlib.decompressobj()
        raw = inflater.decompress(base64.urlsafe_b64decode(fragment + "=" * (-len(fragment) % 4)), most * 10)
        if inflater.unconsumed_tail or not inflater.eof or inflater.unused_data:
            raise ValueError("cut, too big once inflated, or with more after its end")
        payload = json.loads(raw.decode())
    except (binascii.Error, zlib.error, UnicodeDecodeError, ValueError):
        raise RulesError(f"This link is cut or altered: its {what} cannot be read.") from None
    if not isinstance(payload, dict) or payload.get("k") != kind:
        raise RulesError(f"This link is cut or altered: its {what} cannot be read.")
    version = payload.get("v")
    if isinstance(version, int) and not isinstance(version, bool) and version > max(versions):
        raise NewerLink(
            f"This link was made by a newer version of Arbiter: update this page (reload it while online) to open its"
            f" {what}."
        )
    if version not in versions:
        raise RulesError(f"This link was made by another version of Arbiter: its {what} cannot be read here.")
    return payload


def _deflate(payload: dict) -> str:
    payload["id"] = _id(payload)
    return base64.urlsafe_b64encode(zlib.compress(_canonical(payload), 9)).decode().rstrip("=")


def unpack(fragment: Any) -> dict:
    """The payload of a fragment, its shape and its id checked (the roll itself is re-derived by the caller):
    {"v", "s", "q", "d", "a", "w", "t", "id"}, and "o" from version 2 (`sources`). Anything else is refused with what
    is wrong, in a player's words."""
    payload = _inflate(fragment, LINK_CHARS, "shared roll", ROLL_VERSIONS)
    expected = {"v", "s", "q", "d", "a", "w", "t", "id"} | ({"o"} if payload["v"] >= 2 else set())
    if set(payload) != expected:
        raise RulesError("This link is cut or altered: its roll cannot be read.")
    steps, actions = payload["d"], payload["a"]
    if not (isinstance(steps, list) and isinstance(actions, list) and 1 <= len(steps) <= STEPS):
        raise RulesError("This link is cut or altered: its steps cannot be read.")
    if not all(isinstance(faces, list) and all(_face(x) for x in faces) for faces in steps):
        raise RulesError(f"This link is cut or altered: its faces must be whole numbers from 1 to {FACE_MOST}.")
    letters = payload.get("o", "a" * len(steps))
    if not (isinstance(letters, str) and len(letters) == len(steps) and set(letters) <= set(SOURCES.values())):
        raise RulesError("This link is cut or altered: whose dice each step used cannot be read.")
    if len(actions) != len(steps) - 1 or not all(isinstance(a, dict) for a in actions):
        raise RulesError("This link is cut or altered: its follow-ups do not match its steps.")
    if not isinstance(payload["w"], str) or len(payload["w"]) > NAME_CHARS:
        raise RulesError(f"This link is altered: who rolled must be a name of at most {NAME_CHARS} characters.")
    if isinstance(payload["t"], bool) or not isinstance(payload["t"], int) or payload["t"] < 0:
        raise RulesError("This link is altered: when it was rolled cannot be read.")
    if payload["id"] != _id(payload):
        raise RulesError("This link is altered: its id does not match the roll it holds.")
    return payload


def _face(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and 1 <= x <= FACE_MOST


def found(fragment: Any, kind: str) -> str | None:
    """For a piece of text read as a fragment of `kind` ("r" a roll, "t" a table): "ok" when it unpacks and its id
    checks, "newer" when it is a whole link of a later version than this page reads (to open, and be told to
    update), None for anything else."""
    try:
        (unpack if kind == "r" else unpack_table)(fragment)
    except NewerLink:
        return "newer"
    except RulesError:
        return None
    return "ok"


# --- the table's shared state: the Scheme, the Situations and their marks, and the characters if chosen -------------


def pack_table(scheme: dict, price: dict, characters: list[dict]) -> str:
    """The fragment (for `#t=`) of a table's shared state, each record as the table keeps it (checked by the caller)."""
    return _deflate({"v": VERSION, "k": TABLE_KIND, "s": scheme, "p": price, "c": characters})


def unpack_table(fragment: Any) -> dict:
    """The payload of a table's fragment, its shape and id checked (its records are checked by the caller against
    the table's declarations): {"v", "k", "s", "p", "c", "id"}."""
    payload = _inflate(fragment, TABLE_CHARS, "shared table", (VERSION,), TABLE_KIND)
    if set(payload) != {"v", "k", "s", "p", "c", "id"}:
        raise RulesError("This link is cut or altered: its table cannot be read.")
    if not isinstance(payload["c"], list):
        raise RulesError("This link is cut or altered: its characters cannot be read.")
    if payload["id"] != _id(payload):
        raise RulesError("This link is altered: its id does not match the table it holds.")
    return payload
