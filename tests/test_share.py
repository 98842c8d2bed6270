"""A roll shared by link (share.py, api.share_link and api.shared_roll): what re-derives it and nothing else, small
enough for a QR code, re-derived by the engine on the other phone, and refused when cut, altered, of another version
or when its faces do not fit its request."""

from __future__ import annotations

import base64
import json
import re
import zlib

import pytest

from arbiter import api, share
from arbiter.errors import RulesError

SYSTEMS = {s["id"]: s for s in api.systems()}
WHEN = 1_790_000_000


def steps_of(*rolls) -> list[dict]:
    """The steps of a roll and its follow-ups as the log keeps them: each one's faces, and each follow-up's action."""
    first, *after = rolls
    return [{"drawn": first["drawn"]}, *({"action": a, "drawn": r["drawn"]} for a, r in after)]


def payload_of(fragment: str) -> dict:
    return json.loads(zlib.decompress(base64.urlsafe_b64decode(fragment + "=" * (-len(fragment) % 4))))


def fragment_of(payload: dict) -> str:
    raw = json.dumps(payload, separators=(",", ":"), sort_keys=True).encode()
    return base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")


@pytest.mark.parametrize("system", list(SYSTEMS))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_shared_roll_is_the_same_roll_on_the_other_phone(system, seed):
    """Each procedure's example requests, shared and opened: the engine re-derives the same roll from the request
    and the faces, with who rolled and when; the link holds no words of the roll and stays under 500 characters."""
    for request in SYSTEMS[system]["example_requests"].values():
        rolled = api.roll(system, request, seed=seed)
        link = api.share_link(system, request, steps_of(rolled), "Mira", WHEN)
        assert link["chars"] == len(link["fragment"]) <= 500, (system, request, link["chars"])
        back = api.shared_roll(link["fragment"])
        assert back["roll"] == rolled
        assert (back["id"], back["system"], back["who"], back["time"]) == (link["id"], system, "Mira", WHEN)
        assert back["steps"] == [
            {"action": None, "drawn": rolled["drawn"], "source": "app", "step": link["id"], "did": None}
        ]
        assert not {"summary", "outcome", "steps", "words"} & set(payload_of(link["fragment"]))


def test_a_roll_and_its_follow_ups_are_shared_step_by_step():
    """A d10 pool rolled, then a Will after it: both steps' faces and the follow-up's action go in the link, and the
    roll the other phone re-derives is the one after the Will."""
    request = {"pool": 2}
    rolled = api.roll("ten_again", request, dice=[10, 3, 4])
    will = next(c["action"] for c in rolled["choices"] if c["name"] == "spend_will")
    after = api.act("ten_again", rolled, will, dice=[8, 2, 9])
    link = api.share_link("ten_again", request, steps_of(rolled, (will, after)), None, WHEN)
    back = api.shared_roll(link["fragment"])
    assert back["roll"] == after and back["who"] is None
    assert [(s["action"], s["drawn"]) for s in back["steps"]] == [(None, [10, 3, 4]), (will, [8, 2, 9])]
    assert back["steps"][-1]["step"] == link["id"] and back["steps"][-1]["did"]


def test_a_long_name_is_cut_and_the_id_is_a_hash_of_the_rest():
    rolled = api.roll("luck", {"dice": 2}, seed=1)
    long = "Mira of the Seven Bridges and the Long Night"
    one = api.share_link("luck", {"dice": 2}, steps_of(rolled), long, WHEN)
    assert api.shared_roll(one["fragment"])["who"] == long[: share.NAME_CHARS]
    again = api.share_link("luck", {"dice": 2}, steps_of(rolled), long, WHEN)
    later = api.share_link("luck", {"dice": 2}, steps_of(rolled), long, WHEN + 1)
    assert one["id"] == again["id"] != later["id"]


def test_faces_that_do_not_fit_the_request_are_refused_both_ways():
    with pytest.raises(RulesError, match="needs 1 more d6"):
        api.share_link("luck", {"dice": 2}, [{"drawn": [3]}], None, WHEN)
    payload = payload_of(api.share_link("luck", {"dice": 2}, [{"drawn": [3, 4]}], None, WHEN)["fragment"])
    payload["d"] = [[3]]
    payload["id"] = share._id(payload)  # a link made to look whole: the engine still refuses its faces
    with pytest.raises(RulesError, match=r"^This link's roll does not hold together: 'dice' needs 1 more d6"):
        api.shared_roll(fragment_of(payload))


@pytest.mark.parametrize(
    "alter, words",
    [
        (lambda f: f[:-6], "This link is cut or altered"),
        (lambda f: f[:10] + ("A" if f[10] != "A" else "B") + f[11:], "This link is"),
        (lambda f: "", "This link holds no shared roll."),
        (lambda f: "x" * (share.LINK_CHARS + 1), "This link is too long to be a shared roll"),
        (lambda f: fragment_of({**payload_of(f), "v": 99}), "This link was made by a newer version of Arbiter: update"),
        (lambda f: fragment_of({**payload_of(f), "v": 0}), "This link was made by another version of Arbiter"),
        (lambda f: fragment_of({**payload_of(f), "o": "x"}), "This link is cut or altered: whose dice"),
        (lambda f: fragment_of({**payload_of(f), "d": [[2, 101]]}), "This link is cut or altered: its faces must"),
        (lambda f: fragment_of({**payload_of(f), "t": WHEN + 60}), "This link is altered: its id does not match"),
        (
            lambda f: fragment_of({**payload_of(f), "w": "<b>x</b>" * 9}),
            "This link is altered: who rolled must be a name of at most 24",
        ),
        (lambda f: fragment_of({**payload_of(f), "extra": 1}), "This link is cut or altered"),
        (lambda f: fragment_of([1, 2]), "This link is cut or altered"),
    ],
)
def test_a_link_cut_altered_or_of_another_version_is_refused(alter, words):
    good = api.share_link("two_dice", {"trait": 3}, [{"drawn": [2, 5]}], "Ann", WHEN)["fragment"]
    with pytest.raises(RulesError) as refused:
        api.shared_roll(alter(good))
    assert str(refused.value).startswith(words), str(refused.value)


def test_a_link_to_a_procedure_this_arbiter_lacks_is_refused():
    payload = payload_of(api.share_link("luck", {"dice": 1}, [{"drawn": [3]}], None, WHEN)["fragment"])
    payload["s"] = "no_such_game"
    payload["id"] = share._id(payload)
    with pytest.raises(RulesError, match="names a procedure this Arbiter does not have"):
        api.shared_roll(fragment_of(payload))


def test_bad_arguments_to_share_are_refused():
    with pytest.raises(RulesError, match="'steps' must be a list of 1 to 20 steps"):
        api.share_link("luck", {"dice": 1}, [], None, WHEN)
    with pytest.raises(RulesError, match="'who' must be a name or null"):
        api.share_link("luck", {"dice": 1}, [{"drawn": [3]}], 7, WHEN)
    with pytest.raises(RulesError, match="'time' must be whole seconds since 1970"):
        api.share_link("luck", {"dice": 1}, [{"drawn": [3]}], None, -1)


# --- the table's shared state by link ------------------------------------------------------------------------------

PRICE = {
    "current": "s1",
    "situations": [{"id": "s1", "name": "Docks", "marked": [{"option": 2, "by": "Bo"}], "player": ""}],
}
ROOK = {
    "id": "rook-1",
    "data": {
        "kind": "ten_again",
        "name": "Rook",
        "created": "2026-11-27T00:00:00.000Z",
        "sheet": {"attributes": [], "skills": [], "resolve": 2, "composure": 2, "will": 1},
    },
}


@pytest.mark.parametrize("characters", [None, [], [ROOK]])
def test_a_tables_shared_state_comes_back_as_it_went(characters):
    """The Scheme, the Situations with who marked what, and the characters if chosen: checked, packed, and read back
    the same on the other phone; small enough for one QR code without characters."""
    link = api.share_table({"scheme": 3, "tracked": True}, PRICE, characters)
    back = api.shared_table(link["fragment"])
    assert (back["scheme"], back["price"], back["characters"]) == (
        {"scheme": 3, "tracked": True},
        PRICE,
        characters or [],
    )
    assert back["id"] == link["id"] and link["chars"] == len(link["fragment"])
    if not characters:
        assert link["chars"] <= 500


@pytest.mark.parametrize(
    "args, words",
    [
        (({"scheme": -1, "tracked": True}, PRICE, None), "'scheme.scheme'"),
        (({"scheme": 1, "tracked": True}, {**PRICE, "current": "nope"}, None), "'price.current'"),
        (({"scheme": 1, "tracked": True}, PRICE, [ROOK["data"]]), "'characters[0]'"),
        (({"scheme": 1, "tracked": True}, PRICE, "Rook"), "'characters'"),
    ],
)
def test_a_table_the_declarations_refuse_is_not_shared(args, words):
    """What is shared is checked as any record the table keeps: a bad one is refused, naming the field."""
    with pytest.raises(RulesError, match=re.escape(words)):
        api.share_table(*args)


def test_a_table_link_altered_cut_or_bombed_is_refused():
    """A table link is untrusted input too: another id, a record the declarations refuse (packed by hand with a
    matching id), a cut link, a roll's link, and a deflate bomb are each refused in words."""
    link = api.share_table({"scheme": 1, "tracked": True}, PRICE)["fragment"]
    payload = payload_of(link)
    with pytest.raises(RulesError, match="id does not match"):
        api.shared_table(fragment_of({**payload, "s": {"scheme": 9, "tracked": True}}))
    forged = {k: v for k, v in payload.items() if k != "id"} | {"s": {"scheme": -4, "tracked": True}}
    forged["id"] = share._id(forged)
    with pytest.raises(RulesError, match="does not hold together"):
        api.shared_table(fragment_of(forged))
    with pytest.raises(RulesError, match="cut or altered"):
        api.shared_table(link[:-7])
    roll = api.share_link("ten_again", {"pool": 1}, [{"drawn": [3]}], None, WHEN)["fragment"]
    with pytest.raises(RulesError, match="cut or altered"):
        api.shared_table(roll)
    bomb = base64.urlsafe_b64encode(zlib.compress(b'{"v":1,"pad":"' + b"x" * 5_000_000 + b'"}', 9)).decode()
    assert len(bomb) < share.TABLE_CHARS
    with pytest.raises(RulesError, match="cut or altered"):
        api.shared_table(bomb.rstrip("="))


# --- version 2 (issue 30): whose dice each step used, any die; version 1 links still open --------------------------

# Made on main at 3d20dfc by the version 1 packer (api.share_link): a Will after a d10 pool, by Mira, and two d6 of Luck.
V1_WILL = (
    "eNo9jlEOwjAMQ-_i73yUgYD1DpxgmqZKy1BEaUfbgdC0u5MNRP5sx8mb4WCbGXnk0Hcv8R62pImXltBr0uwM7enQUnOmiupWbVEf5lwdeTjUfDQD"
    "CA_YGRKkiCvyZNjB-cyEe-xlEE6whhDHMWbWdpi8J4wx6rOKkPgxSVqDnQrJt_e_P4V8U6Y1-zlfxE0shKwohUPnrk6CchS9carNdwjP7eRLly6S"
    "HJYPwvZJvQ"
)
V1_LUCK = (
    "eNolSzkKgDAQ_MvUW5jgmSf4hWAREpWgRLwL8e8OOM3cDxyM7QSBZEvRHXWkQa1C3peF8kE7CFaYB250Me0HTMZD9D2MFgzLxuAV7HzNp5-45kRV"
    "TfZDcNEKbvbtmfB-QFce9Q"
)


def test_a_version_1_link_still_opens_with_its_ids_and_the_apps_dice():
    """Links shared before version 2 open as they did: the same roll, the same step ids (a table that added one
    does not add it again), every step the app's dice."""
    will = api.shared_roll(V1_WILL)
    assert (will["id"], will["who"], will["time"]) == ("0826ef49e60f", "Mira", WHEN)
    assert [(s["drawn"], s["source"]) for s in will["steps"]] == [([10, 3, 4], "app"), ([8, 2, 9], "app")]
    assert will["steps"][-1]["step"] == "0826ef49e60f"
    assert will["roll"] == api.act(
        "ten_again", api.roll("ten_again", {"pool": 2}, dice=[10, 3, 4]), {"spend_will": True}, dice=[8, 2, 9]
    )
    luck = api.shared_roll(V1_LUCK)
    assert (luck["id"], luck["steps"][0]["source"], luck["steps"][0]["drawn"]) == ("81d4e651cd2a", "app", [6, 2])
    assert payload_of(V1_LUCK)["v"] == 1 and "o" not in payload_of(V1_LUCK)


def test_whose_dice_each_step_used_goes_through_the_link():
    """Faces typed on the face pad come back as the table's, step by step; the source is part of the id."""
    request = {"pool": 2}
    rolled = api.roll("ten_again", request, dice=[10, 3, 4])
    will = next(c["action"] for c in rolled["choices"] if c["name"] == "spend_will")
    after = api.act("ten_again", rolled, will, dice=[8, 2, 9])
    steps = [{"drawn": [10, 3, 4], "source": "table"}, {"action": will, "drawn": [8, 2, 9], "source": "app"}]
    link = api.share_link("ten_again", request, steps, "Jun", WHEN)
    assert payload_of(link["fragment"])["v"] == share.ROLL_VERSION == 2
    back = api.shared_roll(link["fragment"])
    assert [s["source"] for s in back["steps"]] == ["table", "app"] and back["roll"] == after
    plain = api.share_link("ten_again", request, steps_of(rolled, (will, after)), "Jun", WHEN)
    assert [s["source"] for s in api.shared_roll(plain["fragment"])["steps"]] == ["app", "app"]
    assert plain["id"] != link["id"]
    with pytest.raises(RulesError, match=r"'steps\[1\].source' must be \"app\" or \"table\""):
        api.share_link("ten_again", request, [steps[0], {**steps[1], "source": "mine"}], None, WHEN)


def test_the_packed_form_takes_any_die_up_to_100_faces():
    """A d20's and a d100's faces pack and unpack (the procedure's declared sides are checked on replay, not here);
    a face past 100 is refused."""
    for faces in ([17, 20], [1, 100], [13]):
        fragment = share.pack("coin", {}, [{"drawn": faces, "source": "table"}], "Ann", WHEN)
        assert share.unpack(fragment)["d"] == [faces]
        assert share.sources(share.unpack(fragment)) == ["table"]
    with pytest.raises(RulesError, match="from 1 to 100"):
        share.unpack(share.pack("coin", {}, [{"drawn": [101]}], None, WHEN))


def test_read_links_says_which_pieces_are_links():
    """The engine's check of link.js's candidates: whole links "ok" (a roll's and a table's), a cut one or one with
    a word stuck to it null, a whole link of a later version "newer"; bad pieces refused naming the field."""
    roll = api.share_link("luck", {"dice": 2}, [{"drawn": [3, 4]}], None, WHEN)["fragment"]
    table = api.share_table({"scheme": 1, "tracked": True}, PRICE)["fragment"]
    newer = {**payload_of(roll), "v": 3}
    pieces = [["r", roll], ["r", roll + "lol"], ["r", roll[:-5]], ["t", table], ["t", roll], ["r", V1_LUCK]]
    assert api.read_links(pieces + [["r", fragment_of(newer)]]) == ["ok", None, None, "ok", None, "ok", "newer"]
    with pytest.raises(RulesError, match=r"'pieces\[0\]' must be"):
        api.read_links([["x", roll]])
    with pytest.raises(RulesError, match="'pieces' must be a list of at most 64"):
        api.read_links([["r", roll]] * 65)
