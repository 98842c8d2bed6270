"""A roll, and a table's shared state, as a link's fragment and back (issue 22): what api.share_link, shared_roll,
share_table and shared_table do. A roll is re-derived by the engine before it is packed and again when it is read
(api.roll and api.act with the link's faces), never taken from the link's words; a table's records are checked by the
table's declarations at both ends. share.py packs and unpacks; this module checks and re-derives.
"""

from __future__ import annotations

from typing import Any

from . import engine, procedures, records, share
from .errors import RulesError
from .procedures import PROCEDURES
from .stored import Id

READ_PIECES = 64  # the most pieces of a text read_links checks at once (link.js sends far fewer)


def share_link(system: str, request: Any, steps: Any, who: Any = None, time: Any = 0) -> dict:
    """The roll re-derived from `steps`' faces (a roll they do not fit is refused), then packed: api.share_link."""
    if not isinstance(steps, list) or not 1 <= len(steps) <= share.STEPS or not all(isinstance(x, dict) for x in steps):
        raise RulesError(f"'steps' must be a list of 1 to {share.STEPS} steps ({{drawn}}, then {{action, drawn}})")
    if who is not None and not isinstance(who, str):
        raise RulesError(f"'who' must be a name or null, got {who!r:.100}")
    if isinstance(time, bool) or not isinstance(time, int) or time < 0:
        raise RulesError(f"'time' must be whole seconds since 1970, got {time!r:.100}")
    for i, step in enumerate(steps):
        if step.get("source") not in (None, *share.SOURCES):
            raise RulesError(f'\'steps[{i}].source\' must be "app" or "table", got {step.get("source")!r:.100}')
    rolled = _replay(system, request, [x.get("drawn") for x in steps], [x.get("action") for x in steps[1:]])
    fragment = share.pack(system, rolled[0]["request"], steps, who, time)
    payload = share.unpack(fragment)
    return {"fragment": fragment, "id": payload["id"], "chars": len(fragment)}


def shared_roll(fragment: Any) -> dict:
    """A link's roll re-derived from its request and its faces, each step with its id and words: api.shared_roll."""
    payload = share.unpack(fragment)
    if payload["s"] not in PROCEDURES:
        raise RulesError("This link names a procedure this Arbiter does not have.")
    try:
        rolled = _replay(payload["s"], payload["q"], payload["d"], payload["a"])
    except RulesError as error:
        raise RulesError(f"This link's roll does not hold together: {error}") from None
    return {
        "id": payload["id"],
        "system": payload["s"],
        "who": payload["w"] or None,
        "time": payload["t"],
        "request": rolled[0]["request"],
        "steps": [
            {
                "action": a,
                "drawn": d,
                "source": o,
                "step": i,
                "did": None if a is None else procedures.did(PROCEDURES[payload["s"]], rolled[k - 1], a, rolled[k]),
            }
            for k, (a, d, o, i) in enumerate(
                zip([None, *payload["a"]], payload["d"], share.sources(payload), share.step_ids(payload))
            )
        ],
        "roll": rolled[-1],
    }


def read_links(pieces: Any) -> list:
    """For each piece of a pasted or scanned text read as a link (static/share/link.js's candidates: [kind ("r" or
    "t"), fragment]), whether it is one: "ok" (it unpacks and its id checks), "newer" (a whole link of a later
    version: opened, to say to update) or null: api.read_links."""
    if not isinstance(pieces, list) or len(pieces) > READ_PIECES:
        raise RulesError(f"'pieces' must be a list of at most {READ_PIECES} [kind, fragment] pairs")
    out = []
    for i, piece in enumerate(pieces):
        if not (isinstance(piece, list) and len(piece) == 2 and piece[0] in ("r", "t")):
            raise RulesError(f'\'pieces[{i}]\' must be ["r" or "t", fragment], got {piece!r:.100}')
        out.append(share.found(piece[1], piece[0]))
    return out


def share_table(scheme: Any, price: Any, characters: Any = None) -> dict:
    """The table's shared state, each record checked first, packed: api.share_table."""
    if characters is None:
        characters = []
    if not isinstance(characters, list) or len(characters) > records.FILE_MAX["characters"]:
        raise RulesError(f"'characters' must be a list of at most {records.FILE_MAX['characters']} characters or null")
    kept = (
        records.check_record("scheme", scheme),
        records.check_record("price", price),
        [_kept_character(c, f"characters[{i}]") for i, c in enumerate(characters)],
    )
    fragment = share.pack_table(*kept)
    if len(fragment) > share.TABLE_CHARS:
        raise RulesError(f"This table is too big for a link ({len(fragment)} characters; at most {share.TABLE_CHARS}).")
    return {"fragment": fragment, "id": share.unpack_table(fragment)["id"], "chars": len(fragment)}


def shared_table(fragment: Any) -> dict:
    """A link's table, every record checked by the table's declarations: api.shared_table."""
    payload = share.unpack_table(fragment)
    if len(payload["c"]) > records.FILE_MAX["characters"]:
        raise RulesError("This link is altered: it holds more characters than a table keeps.")
    try:
        scheme = records.check_record("scheme", payload["s"])
        price = records.check_record("price", payload["p"])
        characters = [_kept_character(c, f"characters[{i}]") for i, c in enumerate(payload["c"])]
    except RulesError as error:
        raise RulesError(f"This link's table does not hold together: {error}") from None
    return {"id": payload["id"], "scheme": scheme, "price": price, "characters": characters}


def _kept_character(entry: Any, path: str) -> dict:
    """A character as a shared table holds it: {"id" (its id on the table), "data" (its "character" record)}."""
    if not isinstance(entry, dict) or set(entry) != {"id", "data"}:
        raise RulesError(f'\'{path}\' must be {{"id", "data"}}, got {entry!r:.100}')
    return {"id": Id("id").parse(entry["id"], f"{path}.id"), "data": records.check_record("character", entry["data"])}


def _replay(system: str, request: Any, drawn: list, actions: list) -> list[dict]:
    """Each step of a roll re-derived from the faces it drew: the roll, then each follow-up."""
    out = [engine.roll(system, request, dice=drawn[0])]
    for action, faces in zip(actions, drawn[1:]):
        out.append(engine.act(system, out[-1], action, dice=faces))
    return out
