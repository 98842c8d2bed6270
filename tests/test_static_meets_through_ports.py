"""Parts meet through what they are handed (docs/contributing.md#state-has-one-owner, issue 29): no module of
static/ reaches the table through `window.arbiterPage` (tableFor, tableAfter, situation, recheck, kept: the forms'
TablePort carries them, static/port.js), no data travels as a document-wide event (arbiter:roll, arbiter:shared,
arbiter:built are the port's landed, shared and built), and the notices that carry no data (tab, view) go through
port.js' one `notices` target, not the document. Scanned in the code, not its comments or strings
(tests/js_scanner.py)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from js_scanner import tokens

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "static"
TABLE_FUNCTIONS = {"tableFor", "tableAfter", "situation", "recheck", "kept"}
GONE_EVENTS = ("arbiter:roll", "arbiter:shared", "arbiter:built", "arbiter:tab", "arbiter:view")


def sources() -> dict[str, str]:
    return {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8") for p in sorted(STATIC.rglob("*.js"))}


def test_the_page_global_holds_no_table_function():
    """main.js' `window.arbiterPage = {...}` names none of the table's functions, and no module sets or reads one on
    it (`arbiterPage.tableFor`, `page.recheck = ...`)."""
    main = (STATIC / "main.js").read_text(encoding="utf-8")
    literal = re.search(r"window\.arbiterPage\s*=\s*\{([^}]*)\}", main)
    assert literal, "main.js no longer sets window.arbiterPage as one object literal: update this test"
    keys = set(re.findall(r"([A-Za-z_$][\w$]*)\s*(?:[:,]|$)", literal[1]))
    assert not keys & TABLE_FUNCTIONS, keys & TABLE_FUNCTIONS
    found = []
    for path, text in sources().items():
        for m in re.finditer(r"(?:arbiterPage|\bpage)\??\.(" + "|".join(TABLE_FUNCTIONS) + r")\b", text):
            line = text.count("\n", 0, m.start()) + 1
            if not text.splitlines()[line - 1].lstrip().startswith(("//", "*", "/*")):
                found.append(f"{path}:{line}: {m[0]}")
    assert not found, "\n".join(found)


def test_no_data_travels_as_a_document_wide_event():
    """No arbiter:roll (or arbiter:shared, arbiter:built, arbiter:tab, arbiter:view) event in code, and no
    CustomEvent dispatched on the document."""
    found = []
    for path, text in sources().items():
        strings = [t.text for t in tokens(text) if t.kind == "string"]
        found += [f"{path}: {s}" for s in strings if any(e in s for e in GONE_EVENTS)]
        code = "\n".join(t.text for t in tokens(text) if t.kind not in ("comment", "string"))
        if re.search(r"document\s*\.\s*dispatchEvent", code):
            found.append(f"{path}: document.dispatchEvent")
    assert not found, "\n".join(found)


def page_global_uses(root: Path = ROOT) -> list[str]:
    """Each use of `arbiterPage` in the code of `root`'s static/ (comments and strings apart) but main.js' one
    assignment of it: a read of the page, or of the table, through a window global."""
    found, assigned = [], 0
    for path in sorted((root / "static").rglob("*.js")):
        name = path.relative_to(root).as_posix()
        toks = [t for t in tokens(path.read_text(encoding="utf-8")) if t.kind != "comment"]
        for i, tok in enumerate(toks):
            if tok.kind != "name" or tok.text != "arbiterPage":
                continue
            after = toks[i + 1].text if i + 1 < len(toks) else ""
            after2 = toks[i + 2].text if i + 2 < len(toks) else ""
            if name == "static/main.js" and after == "=" and after2 != "=" and not assigned:
                assigned += 1
                continue
            found.append(f"{name}:{tok.line}")
    return found if assigned == 1 else [*found, "static/main.js sets no window.arbiterPage"]


def test_no_module_reads_the_page_through_a_window_global():
    """window.arbiterPage is a test hook only: main.js sets it once and hands the table the object itself; no module of
    static/ (main.js included) reads it back."""
    assert page_global_uses() == []


def test_a_read_of_the_page_global_is_caught(tmp_path):
    """A read of window.arbiterPage planted in a copy of static/ (in the table, or main.js handing it on) is named."""
    shutil.copytree(STATIC, tmp_path / "static")
    assert page_global_uses(tmp_path) == []
    table = tmp_path / "static" / "table" / "index.js"
    table.write_text(table.read_text(encoding="utf-8") + "\nexport const planted = () => window.arbiterPage.procs;\n")
    main = tmp_path / "static" / "main.js"
    main.write_text(
        main.read_text(encoding="utf-8").replace("startTable({ ...page,", "startTable({ ...window.arbiterPage,")
    )
    found = page_global_uses(tmp_path)
    assert len(found) == 2 and found[0].startswith("static/main.js:") and found[1].startswith("static/table/index.js:")
