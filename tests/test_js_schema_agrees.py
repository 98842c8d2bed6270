"""static/store/schema.js checks what the table stores by arbiter.api's published declarations: for every record and
sheet of a corpus (valid ones, and each field of each declaration missing, unknown, of the wrong type, one past its
limits, repeated...), the page's checker under Node and CPython's check_record / check_sheet give the same verdict,
the same value back, and the same message, word for word."""

from __future__ import annotations

import copy
import json
import subprocess

import pytest

from arbiter import RulesError, api
from test_js import ROOT, node_command

TIME = "2024-05-01T12:00:00.000Z"
SYSTEMS = {s["id"]: s for s in api.systems()}
SPEC = api.table_spec()
# Values of every JSON type, strings Python writes with care (quotes, escapes, beyond ASCII, past a repr's 100).
ANY = [
    None,
    True,
    False,
    0,
    -1,
    2.5,
    1e-07,
    "x",
    "it's",
    'say "hi"',
    "a\nb\t\\\x7f",
    "\u00a0\u200b\U000e0001é",
    "\ud800",
    "😀" * 120,
    [],
    [1, "two"],
    {},
    {"a": [None, {"b": "it's"}]},
    "2024-05-01T12:00:00.000Z",
]


def valid(decl, i=0):
    """A value `decl` allows (entry `i` of a list: keys differ between entries)."""
    t = decl["type"]
    if t == "record":
        return {f["name"]: valid(f, i) for f in decl["fields"]}
    if t == "list":
        out = [valid(decl["of"], j) for j in range(min(decl["max_len"], max(decl["min_len"], 2)))]
        key = decl.get("key", "id")
        if decl["of"]["type"] == "record" and key != "id":
            lowest = next(f for f in decl["of"]["fields"] if f["name"] == key)["min"]
            for j, entry in enumerate(out):
                entry[key] = lowest + j
        return out
    if t == "int":
        return min(decl["max"], max(decl["min"], decl["default"] + i))
    if t == "nullable":
        return None if i == 0 else valid(decl["of"], i)
    if t == "choice":
        return decl["options"][i % len(decl["options"])]["value"]
    return {
        "text": f"Name {i}",
        "id": f"e{i}",
        "time": TIME,
        "json": {"pool": 3, "n": i},
        "bool": i % 2 == 1,
        "object": {},
    }[t]


def bad_values(decl):
    """What to put in a field of `decl`: its edges, one past them, and values of every other type."""
    t = decl["type"]
    out = list(ANY)
    if t == "int":
        out += [decl["min"], decl["max"], decl["min"] - 1, decl["max"] + 1, str(decl["min"])]
    elif t == "text":
        n = decl["max_len"]
        out += ["n" * n, "n" * (n + 1), "😀" * n, "😀" * (n + 1), "'" * (n + 1)]
    elif t == "id":
        out += ["", "a b", "a" * 64, "a" * 65, "a\n", "ünï", "-_"]
    elif t == "time":
        out += [
            "2024-02-31T00:00:00Z",
            "2024-01-01T24:00:00.000Z",
            "2024-01-01T24:00:00.5Z",
            "2024-01-01T23:60:00Z",
            "2024-13-01T00:00:00Z",
            "2024-01-01T00:00:00Z\n",
            1714564800000,
            "２０２４-01-01T00:00:00Z",
        ]
    elif t == "json":
        n = decl["max_chars"]
        out += [{"x": "é" * (n - 8)}, {"x": "é" * (n - 7)}, ["y" * n]]
    elif t == "choice":
        out += [o["value"] for o in decl["options"]] + [decl["options"][0]["label"] + "!", "nope"]
    elif t == "nullable":
        out += bad_values(decl["of"])
    return out


def mutations(decl, value, path=()):
    """(path, change) pairs: each field of `value` (as `decl` declares it) changed or taken out, at any depth."""
    t = decl["type"]
    if t == "nullable":
        t, decl = decl["of"]["type"], decl["of"]
        if value is None:
            yield path, ("set", valid(decl))
            return
    if t == "record":
        yield path, ("set", {**value, "unknown": 1})
        for f in decl["fields"]:
            if f["name"] in value:
                yield path, ("del", f["name"])
                yield from mutations(f, value[f["name"]], path + (f["name"],))
    elif t == "list":
        yield path, ("set", value + [copy.deepcopy(value[0])] if value else [valid(decl["of"])] * 2)
        yield path, ("set", [copy.deepcopy(value[0]) if value else valid(decl["of"])] * (decl["max_len"] + 1))
        yield path, ("set", value[: decl["min_len"] - 1] if decl["min_len"] else [])
        for i, entry in enumerate(value[:2]):
            yield from mutations(decl["of"], entry, path + (i,))
    for bad in bad_values(decl):
        yield path, ("set", bad)


def changed(value, path, change):
    out = copy.deepcopy(value)
    if not path and change[0] == "set":
        return change[1]
    node = out
    for key in path[:-1] if change[0] == "set" else path:
        node = node[key]
    if change[0] == "set":
        node[path[-1]] = change[1]
    else:
        del node[change[1]]
    return out


def corpus() -> list[dict]:
    cases = []
    records = {name: valid(decl) for name, decl in SPEC["records"].items()}
    records["character"].update(kind="ten_again", sheet=valid(SYSTEMS["ten_again"]["sheet"]))
    records["price"]["current"] = records["price"]["situations"][1]["id"]
    for name, decl in SPEC["records"].items():
        cases += [
            {"door": "record", "name": name, "value": changed(records[name], p, c)}
            for p, c in mutations(decl, records[name])
        ]
        cases.append({"door": "record", "name": name, "value": records[name]})
    character = records["character"]
    for kind in SPEC["kinds"]:
        cases.append({"door": "record", "name": "character", "value": {**character, "kind": kind}})
    cases += [
        {"door": "record", "name": "character", "value": {**character, "sheet": changed(character["sheet"], p, c)}}
        for p, c in mutations(SYSTEMS["ten_again"]["sheet"], character["sheet"])
    ]
    for system, entry in SYSTEMS.items():
        sheet = SYSTEMS[entry["kind"]]["sheet"]
        good = valid(sheet)
        cases += [
            {"door": "sheet", "name": system, "value": good},
            {"door": "sheet", "name": system, "value": sheet["default"]},
        ]
        cases += [{"door": "sheet", "name": system, "value": changed(good, p, c)} for p, c in mutations(sheet, good)]
    cases += [{"door": "record", "name": name, "value": {}} for name in ("sheet", 3, None, "Character")]
    cases += [{"door": "sheet", "name": name, "value": {}} for name in ("d20", 3, None)]
    return cases


def engine(case):
    try:
        door = api.check_record if case["door"] == "record" else api.check_sheet
        return {"ok": True, "value": door(case["name"], case["value"])}
    except RulesError as error:
        return {"ok": False, "message": str(error)}


@pytest.fixture(scope="module")
def answers(tmp_path_factory):
    """The corpus, as JSON both sides read, and the page's answers under Node."""
    path = tmp_path_factory.mktemp("schema") / "corpus.json"
    published = {"systems": SYSTEMS, "table": SPEC}
    path.write_text(json.dumps({"published": published, "cases": corpus()}), encoding="utf-8")
    cases = json.loads(path.read_text(encoding="utf-8"))["cases"]
    command = [c for c in node_command() if c != "--test"]
    result = subprocess.run(
        [*command, "tests/js/check-corpus.mjs", str(path)], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    return cases, json.loads(result.stdout)


def test_the_corpus_is_large_and_has_both_verdicts(answers):
    """The corpus reaches every record and sheet, with thousands of refusals and valid values both."""
    cases, _ = answers
    verdicts = [engine(c)["ok"] for c in cases]
    assert len(cases) > 3000 and verdicts.count(True) > 300 and verdicts.count(False) > 2000
    assert {c["name"] for c in cases} >= set(SPEC["records"]) | set(SYSTEMS)


def test_the_page_refuses_and_accepts_as_the_engine_does(answers):
    """Each case gets the same verdict from both, the same value back when valid, the same message when not."""
    cases, got = answers
    assert len(got) == len(cases)
    differ = [(c, engine(c), g) for c, g in zip(cases, got) if engine(c) != g]
    shown = "\n".join(
        f"{json.dumps(c, ensure_ascii=False)[:300]}\n  engine: {e}\n  page:   {g}" for c, e, g in differ[:10]
    )
    assert not differ, f"{len(differ)} of {len(cases)} cases differ:\n{shown}"
