"""Parts meet through what they are handed (docs/contributing.md#state-has-one-owner, issue 29): no module of
static/ reaches the table through `window.arbiterPage` (tableFor, tableAfter, situation, recheck, kept: the forms'
TablePort carries them, static/port.js), no data travels as a document-wide event (arbiter:roll, arbiter:shared,
arbiter:built are the port's landed, shared and built), and the notices that carry no data (tab, view) go through
port.js' one `notices` target, not the document. Scanned in the code, not its comments or strings
(tests/js_scanner.py)."""

from __future__ import annotations

import re
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
