"""py/tools/doors.py: arbiter.api's doors written into the built worker and its client, from api.DOORS alone."""

from __future__ import annotations

import inspect
import json
import re
import shutil

import pytest

from arbiter import api
from tools import ROOT, BuildError
from tools.doors import FILES, MARKER, engine_doors, write_doors
from js_scanner import tokens

# api's public functions the worker does not pass on: the worker's own calls (call_json is its way in, start its
# first call after a restore).
NOT_DOORS = {"call_json", "start"}


def test_every_public_function_of_api_is_a_door():
    """api.DOORS is every public function of arbiter.api (its own, and the engine's, tap's, links' and receive's it
    names) but the worker's own two: a door api gains and DOORS lacks fails here, so the worker and its client never
    lag behind the API."""
    public = {
        name
        for name, f in vars(api).items()
        if inspect.isfunction(f) and f.__module__.startswith("arbiter.") and not name.startswith("_")
    }
    assert set(api.DOORS) == public - NOT_DOORS and len(api.DOORS) == len(set(api.DOORS))
    assert engine_doors() == list(api.DOORS)


def test_the_sources_hold_no_list_of_their_own():
    """static/engine/worker.js and static/engine/client.js hold one empty DOORS marker and name no door in their code (a
    string or a name: only comments may, as examples)."""
    camel = {re.sub(r"_([a-z])", lambda m: m[1].upper(), door) for door in api.DOORS}
    for name in FILES:
        text = (ROOT / name).read_text(encoding="utf-8")
        assert MARKER.findall(text) == ["/* DOORS */ [] /* DOORS */"], name
        named = [
            tok.text
            for tok in tokens(text)
            if (tok.kind == "string" and tok.text[1:-1] in api.DOORS)
            or (tok.kind == "name" and tok.text in camel - set(api.DOORS))
        ]
        assert not named, (name, named)


def test_the_built_worker_and_client_offer_exactly_api_doors(tmp_path):
    """write_doors fills each file's marker with api.DOORS, the same list in both, as JSON."""
    for name in FILES:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / name, tmp_path / name)
    write_doors(tmp_path, engine_doors())
    for name in FILES:
        written = MARKER.findall((tmp_path / name).read_text(encoding="utf-8"))
        assert len(written) == 1
        assert json.loads(written[0].removeprefix("/* DOORS */").removesuffix("/* DOORS */")) == list(api.DOORS)


def test_a_file_without_its_marker_is_refused(tmp_path):
    """A worker or client without exactly one marker stops the build: it would offer no door at all."""
    for name in FILES:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("const DOORS = [];\n")
    with pytest.raises(BuildError, match="exactly one"):
        write_doors(tmp_path, ["roll"])
