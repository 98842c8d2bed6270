"""What crosses a live table (live.py: api.live_roll, live_table, live_read): a player's roll reaches the Host as the
fragment a shared link carries and is added as one is (once by its id, paid from the Host's Scheme only); the Host's
shared state goes back as checked records; every message is checked like a link, and a bad one is answered as a value
whose words name the field, never raised."""

from __future__ import annotations

import json

import pytest

from arbiter import api, live, share
from arbiter.errors import RulesError

WHEN = 1_790_000_000
SCHEME_DIE = {"type1": 1, "type2": 1, "difficulty": 4, "scheme_die": True}
ROOK = {
    "name": "Rook",
    "kind": "ten_again",
    "sheet": {"attributes": [], "skills": [], "resolve": 2, "composure": 2, "will": 1},
}
PRICE = {
    "current": "now",
    "situations": [
        {"id": "old", "name": "The docks", "marked": [], "player": ""},
        {"id": "now", "name": "The vault", "marked": [{"option": 2, "by": "Bo"}], "player": "Ann"},
    ],
}
SCHEME = {"scheme": 3, "tracked": True, "set": True}
TABLE = "0123456789ab"  # the id of the Host's table


def host(n: int = 2, seen: list | None = None, character: dict | None = None, set_: bool = True) -> dict:
    """What the Host's table holds, as its page sends it with each message."""
    scheme = {"scheme": n, "tracked": True, "set": set_}
    return {"table": {"character": character, "scheme": scheme}, "marked": [], "seen": seen or []}


def scheme_die_roll(who: str = "Ann") -> dict:
    rolled = api.roll("ability_test", SCHEME_DIE, seed=3)
    return api.live_roll("ability_test", SCHEME_DIE, [{"drawn": rolled["drawn"]}], who, WHEN)


def message(**fields) -> str:
    return json.dumps({"v": live.VERSION, **fields})


def test_a_roll_is_the_fragment_its_share_link_carries():
    """The message to the Host carries the roll's Share link fragment, and its id is that link's."""
    rolled = api.roll("ability_test", SCHEME_DIE, seed=3)
    sent = api.live_roll("ability_test", SCHEME_DIE, [{"drawn": rolled["drawn"]}], "Ann", WHEN)
    link = api.share_link("ability_test", SCHEME_DIE, [{"drawn": rolled["drawn"]}], "Ann", WHEN)
    assert json.loads(sent["text"]) == {"v": 1, "k": "roll", "f": link["fragment"]}
    assert sent["id"] == link["id"]


def test_a_roll_that_does_not_fit_its_faces_is_not_sent():
    """A player's phone sends only a roll the engine re-derives from its faces, as a Share link is made."""
    with pytest.raises(RulesError):
        api.live_roll("ability_test", SCHEME_DIE, [{"drawn": [9, 9, 9, 9, 9, 9]}], "Ann", WHEN)


def test_the_host_adds_a_players_roll_once_by_its_id():
    """The Host adds the roll as a shared link (its Scheme die taken once) and says so; sent again, with its step in
    the Host's log, it adds nothing, takes nothing, and is acknowledged again."""
    sent = scheme_die_roll()
    first = api.live_read(sent["text"], host(2))
    assert first["kind"] == "roll" and first["id"] == sent["id"]
    assert first["added"]["refused"] is None and first["added"]["scheme"]["scheme"] == 1
    assert [e["step"] for e in first["added"]["entries"]] == [sent["id"]]
    assert first["shared"]["who"] == "Ann" and first["shared"]["steps"] == [{"step": sent["id"], "source": "app"}]
    assert first["shared"]["via"] == "live"  # kept in the log entry's `shared`: the Host's log says how it came
    assert api.live_read(first["reply"]) == {"kind": "added", "id": sent["id"]}
    again = api.live_read(sent["text"], host(1, seen=[sent["id"]]))
    assert again["added"]["entries"] == [] and again["added"]["scheme"] is None
    assert api.live_read(again["reply"]) == {"kind": "added", "id": sent["id"]}


def test_a_follow_up_adds_only_its_new_step():
    """A follow-up goes as the roll cut after it: the Host, holding the roll, adds the follow-up alone."""
    request = {"pool": 2, "will": False}
    rolled = api.roll("ten_again", request, dice=[3, 4])
    action = {"spend_will": True}  # offered after a roll of two dice, whatever they show
    after = api.act("ten_again", rolled, action, seed=1)
    steps = [{"drawn": rolled["drawn"]}, {"action": action, "drawn": after["drawn"]}]
    short = api.live_roll("ten_again", request, steps[:1], "Rook", WHEN)
    whole = api.live_roll("ten_again", request, steps, "Rook", WHEN)
    taken = api.live_read(whole["text"], host(seen=[short["id"]]))
    assert [e["step"] for e in taken["added"]["entries"]] == [whole["id"]]
    assert [s["step"] for s in taken["shared"]["steps"]] == [short["id"], whole["id"]]


def test_the_players_character_is_never_charged_on_the_host():
    """A Will spent on a player's roll was paid on the player's phone: the Host charges nobody, whatever character its
    page sends."""
    request = {"pool": 2, "will": True}
    rolled = api.roll("ten_again", request, dice=[3, 4, 5, 6, 7])
    sent = api.live_roll("ten_again", request, [{"drawn": rolled["drawn"]}], "Rook", WHEN)
    taken = api.live_read(sent["text"], host(character=ROOK))
    assert taken["added"]["refused"] is None and taken["added"]["character"] is None
    assert taken["added"]["entries"][0]["notes"] == []


@pytest.mark.parametrize("set_", [True, False])
def test_the_hosts_empty_scheme_refuses_the_roll_in_words_naming_the_hosts_scheme(set_):
    """A Scheme die the Host's Scheme cannot give: nothing added, and the refusal back names the Host's Scheme (never
    "not set on this phone": it is the Host's table), with the roll's id."""
    sent = scheme_die_roll()
    taken = api.live_read(sent["text"], host(0, set_=set_))
    assert taken["added"]["refused"] is not None and taken["added"]["entries"] == []
    refusal = api.live_read(taken["reply"])
    words = f"{live.NOT_ADDED}The Host's Scheme has no die left"
    assert refusal == {"kind": "refused", "id": sent["id"], "words": words}


def test_a_tap_paid_from_the_hosts_scheme_names_it():
    """On a player's phone joined to a live table, the Scheme sent is the Host's: an empty one refuses the Scheme die
    in words naming the Host's Scheme, and never as a Scheme not set here."""
    table = {"character": None, "scheme": {"scheme": 0, "tracked": True, "set": False}, "host": True}
    answer = api.turn("ability_test", {"request": SCHEME_DIE}, table)
    assert answer["refused"]["words"] == "The Host's Scheme has no die left"
    assert api.check("ability_test", SCHEME_DIE, None, table)["ahead"]["words"] == "The Host's Scheme has no die left"
    mine = api.turn("ability_test", {"request": SCHEME_DIE}, {**table, "host": False})
    assert mine["refused"]["words"].startswith("The Scheme has no die left: it was never set on this phone")


def test_table_host_must_be_true_or_false():
    """A page that says whose the Scheme is says it as true or false; anything else is refused, naming the field."""
    with pytest.raises(RulesError, match="'table.host'"):
        api.turn("ability_test", {"request": SCHEME_DIE}, {"character": None, "scheme": None, "host": "yes"})


def test_the_hosts_table_goes_with_its_current_situation_only():
    """The Host's shared state: its Scheme and the current Situation with its marks, read back as the table's
    records, and the id of the Host's table."""
    sent = api.live_table(SCHEME, PRICE, TABLE)
    read = api.live_read(sent["text"])
    assert read == {
        "kind": "table",
        "scheme": SCHEME,
        "price": {"current": "now", "situations": [PRICE["situations"][1]]},
        "table": TABLE,
    }


def test_the_hosts_table_is_checked_before_it_is_sent():
    """A Scheme the table's records refuse is not sent, nor a table with no id: refused, naming the field."""
    with pytest.raises(RulesError, match="scheme"):
        api.live_table({"scheme": -1, "tracked": True, "set": True}, PRICE, TABLE)
    with pytest.raises(RulesError, match="'table' must be the id of the Host's table"):
        api.live_table(SCHEME, PRICE, "ABC")


def _forged(**changes) -> str:
    """A roll's fragment with `changes` to its payload, its id made again (so only what changed is wrong)."""
    payload = share.unpack(scheme_die_roll()["text"].split('"f":"')[1].rstrip('"}'))
    payload.update(changes)
    del payload["id"]
    return share._deflate(payload)


# (message text, the field its refusal names) for a Host reading a player's message
BAD_TO_HOST = [
    pytest.param(42, "'text'", id="not a text"),
    pytest.param("x" * (live.MESSAGE_CHARS + 1), "'text' is too long", id="too long"),
    pytest.param("{not json", "'text' cannot be read", id="not JSON"),
    pytest.param("[1, 2]", "'text' cannot be read", id="not an object"),
    pytest.param(message(k="roll"), "'f' is missing", id="no roll"),
    pytest.param(json.dumps({"v": 2, "k": "roll", "f": ""}), "'v' is 2: the other phone runs a newer", id="newer"),
    pytest.param(json.dumps({"v": 0, "k": "roll", "f": ""}), "'v' must be 1", id="older"),
    pytest.param(json.dumps({"k": "roll", "f": ""}), "'v' must be 1", id="no version"),
    pytest.param(message(k="table", s=SCHEME, p=PRICE, h=TABLE), "'k' must be roll", id="a player's table"),
    pytest.param(message(k="nonsense"), "'k' must be roll", id="unknown kind"),
    pytest.param(message(k="roll", f="", extra=1), "'extra' is not a field", id="extra field"),
    pytest.param(message(k="roll", f="AAAA"), "'f' (the roll) This link is cut or altered", id="cut roll"),
    pytest.param(message(k="roll", f=7), "'f' (the roll) This link holds no", id="roll not a text"),
    pytest.param(message(k="roll", f=_forged(s="poker")), "'f' (the roll) names a procedure", id="procedure"),
    pytest.param(message(k="roll", f=_forged(d=[[9, 9]])), "'f' (the roll) This link's roll does not", id="faces"),
    pytest.param(message(k="roll", f=_forged(d=[[0]])), "'f' (the roll) This link is cut or altered", id="face 0"),
    pytest.param(message(k="roll", f=_forged(w="x" * 40)), "'f' (the roll) This link is altered: who", id="who"),
]


@pytest.mark.parametrize(("text", "says"), BAD_TO_HOST)
def test_a_bad_message_to_the_host_is_refused_naming_its_field(text, says):
    """Each bad message a player's phone could send is answered, not raised: words naming the field, and a refusal
    back that the player's phone reads."""
    read = api.live_read(text, host(2))
    assert read["kind"] == "bad" and read["words"].startswith(live.REFUSED + says), read["words"]
    back = api.live_read(read["reply"])
    assert back["kind"] == "refused" and back["words"] == read["words"][: live.WORDS_CHARS]


def test_a_refusal_names_the_roll_once_it_was_read():
    """A roll whose fragment unpacks but does not hold together is refused with its id, so the player's phone marks
    that roll."""
    fragment = _forged(d=[[9, 9]])
    read = api.live_read(message(k="roll", f=fragment), host(2))
    assert read["id"] == share.unpack(fragment)["id"]
    assert api.live_read(read["reply"])["id"] == read["id"]


# a player's phone reading the Host's messages
BAD_TO_PLAYER = [
    pytest.param(message(k="roll", f=""), "'k' must be table or added or refused", id="a host's roll"),
    pytest.param(message(k="table", s={"scheme": -1}, p=PRICE, h=TABLE), "'s' (the Host's scheme)", id="bad scheme"),
    pytest.param(message(k="table", s=SCHEME, p={"current": "x"}, h=TABLE), "'p' (the Host's price)", id="bad price"),
    pytest.param(message(k="table", s=SCHEME, p=PRICE, h="x"), "'h' must be the id of the Host's table", id="bad h"),
    pytest.param(message(k="table", s=SCHEME, p=PRICE), "'h' is missing", id="no h"),
    pytest.param(message(k="added", id="zz"), "'id' must be a roll's id", id="bad id"),
    pytest.param(message(k="added", id=None), "'id' must be a roll's id", id="no id"),
    pytest.param(message(k="refused", id=None, w=""), "'w' must be the Host's words", id="no words"),
    pytest.param(message(k="refused", id=None, w="x" * 501), "'w' must be the Host's words", id="long words"),
    pytest.param(message(k="refused", id=None), "'w' is missing", id="missing words"),
]


@pytest.mark.parametrize(("text", "says"), BAD_TO_PLAYER)
def test_a_bad_message_to_a_player_is_refused_and_answered_with_nothing(text, says):
    """A player's phone logs a bad message from the Host and answers nothing (no refusal goes back and forth)."""
    read = api.live_read(text)
    assert read["kind"] == "bad" and read["reply"] is None
    assert read["words"].startswith(live.REFUSED + says), read["words"]


@pytest.mark.parametrize("holds", ["x", {"table": None}, {"table": None, "marked": [], "seen": [], "more": 1}])
def test_what_the_host_holds_is_checked_as_the_pages_own_mistake(holds):
    """The Host's own page sends what its table holds: anything else is raised, naming the field."""
    with pytest.raises(RulesError, match="'host'"):
        api.live_read(scheme_die_roll()["text"], holds)


def test_what_one_message_costs():
    """Bytes of a roll's message and of the Host's table (the figures in docs/features.md come from the benchmark
    below; this keeps them within the cap)."""
    assert len(scheme_die_roll()["text"].encode()) < live.MESSAGE_CHARS
    assert len(api.live_table(SCHEME, PRICE, TABLE)["text"].encode()) < live.MESSAGE_CHARS


@pytest.mark.benchmark(group="live")
def test_bench_the_host_adds_a_roll(benchmark):
    """Benchmark: the Host's engine reading and adding one player's roll (live_read: checked, re-derived, paid)."""
    sent = scheme_die_roll()
    read = benchmark(api.live_read, sent["text"], host(2))
    assert read["kind"] == "roll" and len(read["added"]["entries"]) == 1
    benchmark.extra_info["bytes"] = len(sent["text"].encode())
