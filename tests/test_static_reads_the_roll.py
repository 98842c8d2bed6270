"""The page reads only what the roll JSON declares (shapes.py, each procedure's ROLL, published by systems()): every
property read on a roll in static/**/*.js (`roll.target.successes`, `proc.roll?.choices`, `roll.threats[t].die`)
follows keys its declaration holds, read by tests/js_scanner.py (code only: no comment counts).

A read inside a procedure's view (`const ten_again = { … }` in static/procedures/ten_again/view.js) must hold for that procedure's roll; a read
elsewhere for some procedure's. A chain is followed while it names keys of an object; a list's or a text's own
properties (`roll.dice.length`, `roll.choices.some`) and a table's data keys end it. Names other than `roll` that hold
a roll or part of one are listed in PARTS, each with where in the roll it starts."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from arbiter import shapes
from arbiter.procedures import PROCEDURES
from js_scanner import tokens

ROOT = Path(__file__).resolve().parent.parent

# A name `roll` (a variable, or a property: `proc.roll`) holds a roll in every file but these: file -> what it is.
NOT_A_ROLL = {"static/table/roll-as.js": "the Roll button of a sheet's form"}

# The views' files where `c` is a choice of the roll (the shared parts, and the views that read choices).
VIEWS_READING_CHOICES = ("view-parts", "threat/view", "ability_test/view", "ten_again/view")

# Other names that hold a roll or a part of one: (file, the function or const whose body holds them, or "" for the
# whole file, name) -> the keys from the roll to it ("" the roll itself; "choices[]" an entry of its choices). A name
# may start at several places (a side: the roll, or its other side).
PARTS = {
    ("static/procedures/ten_again/view.js", "tenAgainSide", "side"): ("", "target"),  # the actor's side or the target's
    ("static/procedures/threat/view.js", "threat", "t"): ("threats[]",),  # a threat's die and outcome
    **{(f"static/procedures/{view}.js", "", "c"): ("choices[]",) for view in VIEWS_READING_CHOICES},
    ("static/procedures/threat/view.js", "payThePrice", "offer"): ("choices[]",),  # Pay the Price's choice
    ("static/procedures/ability_test/view.js", "ability_test", "reroll"): ("choices[]",),  # the reroll choice (its tap)
    ("static/log/log.js", "facesOf", "d"): ("faces[]",),  # a die the roll shows
}


def js_files(root: Path) -> list[Path]:
    return sorted(p for p in (root / "static").rglob("*.js") if p.is_file())


def rel(path: Path, root: Path) -> str:
    return path.relative_to(root).as_posix()


def _step(decls: list, name: str) -> list | None:
    """The declarations `name` reads from `decls`: [] to end the chain (no object of named keys there), None if
    objects are there and none declares it."""
    flat, objects = [], []
    todo = list(decls)
    while todo:
        d = todo.pop()
        if isinstance(d, shapes.Nullable):
            todo.append(d.of)
        elif isinstance(d, shapes.Either):
            todo += d.options
        elif isinstance(d, shapes.ByName):
            todo += [s for _, s in d.shapes]
        elif isinstance(d, shapes.Shape):
            objects.append(d)
        else:
            flat.append(d)
    if not objects:
        return []
    found = [k.of for s in objects if (k := s.key(name)) is not None]
    return found if found or flat else None


def _index(decls: list) -> list:
    """The declarations an index reads (`list[i]`): a list's entries; nothing further checked otherwise."""
    out = []
    for d in decls:
        while isinstance(d, shapes.Nullable):
            d = d.of
        if isinstance(d, shapes.Items):
            out.append(d.of)
    return out


def _start(roll, path: str) -> list:
    """The declarations at `path` ("threats[]", "target", "") from a ROLL: [] if that roll has no such key."""
    decls = [roll]
    for part in filter(None, path.replace("[]", ".[]").split(".")):
        decls = _index(decls) if part == "[]" else (_step(decls, part) or [])
    return [d for d in decls if not isinstance(d, shapes.Scalar)]


def reads(
    text: str, names: dict[str, tuple[str, ...]], scopes: dict[str, str] | None = None
) -> list[tuple[int, int, str, list[str]]]:
    """(line, offset, start name, [keys read]) of each read chain on a name of `names` in the JavaScript `text` (a
    name of `scopes` only inside the body of the function or const it names there)."""
    toks = [t for t in tokens(text) if t.kind != "comment"]
    within = {name: _scope(toks, scope) for name, scope in (scopes or {}).items() if scope}
    out = []
    for i, tok in enumerate(toks):
        if tok.kind != "name" or tok.text not in names:
            continue
        if tok.text in within and not within[tok.text][0] <= tok.offset < within[tok.text][1]:
            continue
        if i and toks[i - 1].text == "." and tok.text != "roll":
            continue  # a property of something else (`ui.reroll`); a roll held as one is one (`proc.roll`)
        chain, j = [], i + 1
        while j < len(toks):
            if toks[j].text == "?" and j + 1 < len(toks) and toks[j + 1].text == ".":
                j += 1
            if toks[j].text == "." and j + 1 < len(toks) and toks[j + 1].kind == "name":
                chain.append(toks[j + 1].text)
                j += 2
            elif toks[j].text == "[":
                depth, k = 0, j
                while k < len(toks):
                    depth += (toks[k].text == "[") - (toks[k].text == "]")
                    k += 1
                    if depth == 0:
                        break
                chain.append("[]")
                j = k
            else:
                break
        while chain and chain[-1] == "[]":
            chain.pop()
        if chain:
            out.append((tok.line, tok.offset, tok.text, chain))
    return out


def _scope(toks: list, name: str) -> tuple[int, int]:
    """(start, end) offsets of the body of the function or const `name` (`function name(…) {…}`, `const name = {…}`,
    `const name = (…) => {…}`); (0, 0) if there is none."""
    for i, tok in enumerate(toks[:-1]):
        if tok.text in ("function", "const") and toks[i + 1].text == name:
            j = i + 2
            if j < len(toks) and toks[j].text == "=":
                j += 1
            if j < len(toks) and toks[j].text == "(":
                j = _close(toks, j) + 1
            while j < len(toks) and toks[j].text in ("=", ">"):
                j += 1
            if j < len(toks) and toks[j].text == "{":
                return toks[j].offset, toks[_close(toks, j)].offset
    return 0, 0


def _close(toks: list, j: int) -> int:
    """The index of the bracket that closes the one at `j`."""
    opener = toks[j].text
    closer = {"(": ")", "[": "]", "{": "}"}[opener]
    depth = 0
    for k in range(j, len(toks)):
        depth += (toks[k].text == opener) - (toks[k].text == closer)
        if depth == 0:
            return k
    return len(toks) - 1


def _views(text: str) -> list[tuple[int, int, str]]:
    """(start, end offset, procedure) of each procedure's view: `const <id> = { … }`."""
    toks = [t for t in tokens(text) if t.kind != "comment"]
    return [(*_scope(toks, p), p) for p in PROCEDURES if _scope(toks, p) != (0, 0)]


def _declared(chain: list[str], starts: tuple[str, ...], systems: list[str]) -> bool:
    """Whether `chain` follows declared keys from one of `starts` in the roll of one of `systems`."""
    for system in systems:
        for start in starts:
            decls = _start(PROCEDURES[system].ROLL, start)
            if not decls:
                continue
            for part in chain:
                decls = _index(decls) if part == "[]" else _step(decls, part)
                if not decls:
                    break
            if decls is not None:
                return True
    return False


def problems(root: Path = ROOT) -> list[str]:
    found = []
    for path in js_files(root):
        name = rel(path, root)
        names = {n: starts for (f, _, n), starts in PARTS.items() if f == name}
        scopes = {n: scope for (f, scope, n) in PARTS if f == name}
        if name not in NOT_A_ROLL:
            names["roll"] = ("",)
        if not names:
            continue
        text = path.read_text(encoding="utf-8")
        views = _views(text)
        for line, offset, start, chain in reads(text, names, scopes):
            view = next((p for first, last, p in views if first <= offset < last), None)
            systems = [view] if view else list(PROCEDURES)
            if not _declared(chain, names[start], systems):
                whose = f"{view}'s roll" if view else "any procedure's roll"
                found.append(
                    f"{name}:{line}: {start}.{'.'.join(chain)} — {whose} declares no such key (ROLL, "
                    f"arbiter.shapes): declare it, or read a key the roll has"
                )
    return found


def test_the_page_reads_only_declared_keys_of_a_roll():
    """Every read of a roll in static/ follows keys its procedure's ROLL declares (in a view, that procedure's)."""
    found = problems()
    assert not found, "\n".join(found)


def test_the_scan_sees_the_reads():
    """The scan finds the reads the views make, nested ones too: the check has something to check."""
    text = "\n".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "static" / "procedures").glob("*/view.js")))
    chains = {(start, ".".join(chain)) for *_, start, chain in reads(text, {"roll": ("",), "t": ("threats[]",)})}
    assert {("roll", "target.marks"), ("roll", "scheme_roll"), ("t", "desperate")} <= chains
    assert {p for *_, p in _views(text)} == set(PROCEDURES)


@pytest.mark.parametrize(
    "file, planted, where",
    [
        ("static/roll/outcome.js", "roll.successess", "any procedure's roll"),
        ("static/log/log.js", "roll.target.sucesses", "any procedure's roll"),
        ("static/table/situations.js", "proc.roll?.choicez", "any procedure's roll"),
    ],
)
def test_a_read_of_an_undeclared_key_is_caught(tmp_path, file, planted, where):
    """A read planted in a copy of static/ (a misspelt key, a key of no roll) fails, naming file and line."""
    shutil.copytree(ROOT / "static", tmp_path / "static")
    target = tmp_path / file
    target.write_text(
        target.read_text(encoding="utf-8") + f"\nexport const planted = (roll, proc) => {planted};\n", encoding="utf-8"
    )
    found = problems(tmp_path)
    assert len(found) == 1 and found[0].startswith(f"{file}:") and where in found[0], found


def test_a_view_reads_only_its_own_procedures_roll(tmp_path):
    """A key of another procedure's roll read in a view is caught: the d10 pool's roll has no defender."""
    shutil.copytree(ROOT / "static", tmp_path / "static")
    target = tmp_path / "static" / "procedures" / "ten_again" / "view.js"
    text = target.read_text(encoding="utf-8")
    anchor = "const ten_again = {\n"
    assert anchor in text
    target.write_text(text.replace(anchor, anchor + "  defender: (roll) => roll.defender.dice,\n"), encoding="utf-8")
    found = problems(tmp_path)
    assert len(found) == 1 and "roll.defender.dice" in found[0] and "ten_again's roll" in found[0], found


def test_every_listed_part_is_still_read():
    """Each of PARTS and NOT_A_ROLL is still in its file, so the lists say only what is true."""
    stale = [f"NOT_A_ROLL: {f}" for f in NOT_A_ROLL if not (ROOT / f).is_file()]
    for (f, scope, name), starts in PARTS.items():
        path = ROOT / f
        if not path.is_file() or not reads(path.read_text(encoding="utf-8"), {name: starts}, {name: scope}):
            stale.append(f"PARTS: {f} reads nothing of {name!r}" + (f" in {scope}" if scope else ""))
    assert not stale, "\n".join(stale)
