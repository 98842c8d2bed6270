"""What crosses a live table (issue 32): the messages between a player's phone and the Host's, made and read here,
checked like a link. The connection itself is the page's (static/live/peers.js); what a message means is the engine's.

A message is a small JSON object: its version ("v"), its kind ("k") and that kind's fields, nothing more.

    roll      player -> Host  "f": a roll as it stood after one step, packed as the same fragment a shared link
                              carries (links.share_link); the Host adds it as it adds a shared link (receive.add_shared:
                              re-derived from its faces, each step added once by its id, paid from the Host's Scheme
                              and checked against its marks; nobody's character is charged there)
    table     Host -> player  "s", "p", "h": the Host's Scheme and its current Situation with its marks, checked as
                              the table's records (records.check_record), and the id of the Host's table ("h",
                              share.ID_CHARS hex digits, the same on that phone from one evening to the next): a
                              player's roll made while away is for that table, and is sent to no other
    added     Host -> player  "id": the roll's id as sent: it is on the Host's table (or was already)
    refused   Host -> player  "id" (null when the message could not be read that far), "w": why, in words

Every message read is untrusted input: its size, version, kind (the kinds the reading phone takes), fields, and the
roll's procedure, faces and who, or the records' fields. A bad one is answered as a value ({"kind": "bad", "words"}:
the words name the field), never raised, so the phone logs it and the connection goes on; the Host also answers the
player with a refusal.
"""

from __future__ import annotations

import json
import re
from typing import Any

from . import links, receive, records, share, tap
from .errors import RulesError
from .procedures import PROCEDURES

VERSION = 1  # of the live table's messages
MESSAGE_CHARS = 8000  # the most a message may hold; a longer one is refused unread
WORDS_CHARS = records.LIVE_WORDS_CHARS  # a refusal's words, as a message carries them (and a log entry keeps)
FIELDS = {  # each kind's fields, besides "v" and "k"
    "roll": ("f",),
    "table": ("s", "p", "h"),
    "added": ("id",),
    "refused": ("id", "w"),
}
TO_HOST = ("roll",)  # what a Host takes from a player
TO_PLAYER = ("table", "added", "refused")  # what a player takes from the Host
REFUSED = "A live message was refused: "  # how the words of a bad message start
NOT_ADDED = "Not added on the Host's table: "  # how the words of a roll the Host's table refused start
_ID = re.compile(f"[0-9a-f]{{{share.ID_CHARS}}}")


def _is_id(value: Any) -> bool:
    """Whether `value` is an id as share.py makes them (a roll's, and a Host's table's): ID_CHARS hex digits."""
    return isinstance(value, str) and _ID.fullmatch(value) is not None


class _Bad(Exception):
    """A message that is not to be taken: why, naming its field, and the roll's id when it was read that far."""

    def __init__(self, field: str, says: str, roll_id: str | None = None) -> None:
        super().__init__(f"{REFUSED}'{field}' {says}")
        self.roll_id = roll_id


def _write(kind: str, **fields: Any) -> str:
    return json.dumps({"v": VERSION, "k": kind, **fields}, separators=(",", ":"), ensure_ascii=False)


def live_roll(system: str, request: Any, steps: Any, who: Any = None, time: Any = 0) -> dict:
    """A roll or follow-up that landed on a player's phone, as the message to the Host: the roll re-derived and packed
    as its Share link is (links.share_link, with the same arguments): {"text", "id" (the roll's id as it stands after
    its last step: the Host's "added" or "refused" names it)}."""
    link = links.share_link(system, request, steps, who, time)
    return {"text": _write("roll", f=link["fragment"]), "id": link["id"]}


def live_table(scheme: Any, price: Any, table: Any) -> dict:
    """The Host's shared state as the message to its players: the Scheme and the current Situation with its marks,
    each checked as the table's records first, and `table`, the id of the Host's table: {"text"}."""
    scheme = records.check_record("scheme", scheme)
    price = records.check_record("price", price)
    if not _is_id(table):
        raise RulesError(f"'table' must be the id of the Host's table ({share.ID_CHARS} hex digits), got {table!r:.40}")
    current = [s for s in price["situations"] if s["id"] == price["current"]]
    return {"text": _write("table", s=scheme, p={"current": price["current"], "situations": current}, h=table)}


def live_read(text: Any, host: Any = None) -> dict:
    """A message that came over the live table, checked like a link. On a player's phone (`host` null) it is one of
    the Host's: {"kind": "table", "scheme", "price", "table" (its id)}, {"kind": "added", "id"} or {"kind": "refused",
    "id", "words"}.
    On the Host's phone, `host` is what its table holds ({"table": as for tap.turn, its Scheme; "marked": its current
    Situation's marks; "seen": the shared step ids its log holds}) and the message is a player's roll, added as a
    shared link is: {"kind": "roll", "id", "shared" ({"id", "system", "who", "time", "steps": [{"step", "source"}],
    "via": "live"}),
    "added" (receive.add_shared's answer), "reply" (the message back: "added", or "refused" with the Host's words)}.
    A message that cannot be taken: {"kind": "bad", "id" (the roll's, or null), "words" (naming the field), "reply"
    (on the Host, the refusal back; null on a player's phone: a player answers nothing)}."""
    holds = _holds(host)
    try:
        message = _message(text, TO_PLAYER if holds is None else TO_HOST)
        if message["k"] == "roll":
            return _add(message["f"], holds)
        return _from_host(message)
    except _Bad as bad:
        words = str(bad)
        reply = None if holds is None else _write("refused", id=bad.roll_id, w=words[:WORDS_CHARS])
        return {"kind": "bad", "id": bad.roll_id, "words": words, "reply": reply}


def _holds(host: Any) -> dict | None:
    """What the Host's table holds, as the page sends it (a page's own mistake is raised, naming the field)."""
    if host is None:
        return None
    if not isinstance(host, dict) or set(host) != {"table", "marked", "seen"}:
        raise RulesError(f'\'host\' must be {{"table", "marked", "seen"}} or null, got {host!r:.100}')
    return host


def _message(text: Any, kinds: tuple[str, ...]) -> dict:
    """The message's object, its size, version, kind (one of `kinds`) and fields checked."""
    if not isinstance(text, str):
        raise _Bad("text", f"must be a message's text, got {type(text).__name__}")
    if len(text) > MESSAGE_CHARS:
        raise _Bad("text", f"is too long ({len(text)} characters; at most {MESSAGE_CHARS})")
    try:
        message = json.loads(text)
    except ValueError:
        raise _Bad("text", "cannot be read: it is not a message Arbiter sends") from None
    if not isinstance(message, dict):
        raise _Bad("text", "cannot be read: it is not a message Arbiter sends")
    version = message.get("v")
    if isinstance(version, int) and not isinstance(version, bool) and version > VERSION:
        raise _Bad("v", f"is {version}: the other phone runs a newer Arbiter; update this page (reload it online)")
    if version != VERSION:
        raise _Bad("v", f"must be {VERSION}, got {version!r:.40}")
    kind = message.get("k")
    if kind not in kinds:
        raise _Bad("k", f"must be {' or '.join(kinds)} on this phone, got {kind!r:.40}")
    extra = sorted(str(key) for key in set(message) - {"v", "k", *FIELDS[kind]})
    if extra:
        raise _Bad(extra[0][:40], f"is not a field of a {kind} message")
    for missing in FIELDS[kind]:
        if missing not in message:
            raise _Bad(missing, f"is missing from a {kind} message")
    return message


def _add(fragment: Any, host: dict) -> dict:
    """A player's roll taken into the Host's table, as a shared link is added, paid from the Host's Scheme only."""
    try:
        payload = share.unpack(fragment)
    except RulesError as error:
        raise _Bad("f", f"(the roll) {error}") from None
    roll_id = payload["id"]
    if payload["s"] not in PROCEDURES:
        raise _Bad("f", f"(the roll) names a procedure this Arbiter does not have: {payload['s']!r:.40}", roll_id)
    table = host["table"] if isinstance(host["table"], dict) else {}
    # the Host's payers only (its Scheme), named as the Host's: the player's phone paid its own character's costs
    paying = {tap.CHARACTER: None, **{key: table.get(key) for key in records.PAYERS}, tap.HOST: True}
    try:
        added = receive.add_shared(fragment, paying, host["marked"], host["seen"])
    except RulesError as error:
        raise _Bad("f", f"(the roll) {error}", roll_id) from None
    refused = added["refused"]
    reply = (
        _write("added", id=roll_id)
        if refused is None
        else _write("refused", id=roll_id, w=(NOT_ADDED + refused["words"])[:WORDS_CHARS])
    )
    steps = [{"step": s, "source": o} for s, o in zip(share.step_ids(payload), share.sources(payload))]
    who = payload["w"] or None
    shared = {"id": roll_id, "system": payload["s"], "who": who, "time": payload["t"], "steps": steps, "via": "live"}
    return {"kind": "roll", "id": roll_id, "shared": shared, "added": added, "reply": reply}


def _from_host(message: dict) -> dict:
    """One of the Host's messages to a player, its fields checked."""
    kind = message["k"]
    if kind == "table":
        out = {"kind": kind}
        for field, record, name in (("s", "scheme", "scheme"), ("p", "price", "price")):
            try:
                out[name] = records.check_record(record, message[field])
            except RulesError as error:
                raise _Bad(field, f"(the Host's {record}) {error}") from None
        table = message["h"]
        if not _is_id(table):
            raise _Bad("h", f"must be the id of the Host's table ({share.ID_CHARS} hex digits), got {table!r:.40}")
        out["table"] = table
        return out
    roll_id = message["id"]
    if not _is_id(roll_id) and not (kind == "refused" and roll_id is None):
        raise _Bad("id", f"must be a roll's id ({share.ID_CHARS} hex digits), got {roll_id!r:.40}")
    if kind == "added":
        return {"kind": kind, "id": roll_id}
    words = message["w"]
    if not isinstance(words, str) or not 1 <= len(words) <= WORDS_CHARS:
        raise _Bad("w", f"must be the Host's words (1 to {WORDS_CHARS} characters), got {words!r:.40}")
    return {"kind": kind, "id": roll_id, "words": words}
