"""tests/js_scanner.py: the scanner finds strings and numbers in code only, never in comments, template text or
regular expressions."""

from __future__ import annotations

import pytest

from js_scanner import ROOT, js_files, strings, tokens


def test_there_is_javascript_to_scan():
    """The scanner's file list holds the page's modules, the table's folder and the Node tests."""
    names = {p.relative_to(ROOT).as_posix() for p in js_files()}
    assert {"static/main.js", "static/table/index.js", "static/procedures/threat/sheet.js"} <= names
    assert any(n.startswith("tests/js/") for n in names)


@pytest.mark.parametrize(
    "source, found",
    [
        ("const a = 'x';", [(1, "'", "x")]),
        ('const a = "x";', [(1, '"', "x")]),
        ('const a = "it\'s";', [(1, '"', "it's")]),
        ("const a = 'say \\'hi\\'';", [(1, "'", "say \\'hi\\'")]),
        ('// "not a string"\n/* "nor this" */ f(\'y\');', [(2, "'", "y")]),
        ('const t = `a "b" ${f("c")} d`;', [(1, '"', "c")]),
        ('const t = `${`${"deep"}`}`;', [(1, '"', "deep")]),
        ('const r = /"[/"]/g.test(x);', []),
        ('const d = a / 2 + b / "c".length;', [(1, '"', "c")]),
        ('if (x) { y(); }\nconst z = "w";', [(2, '"', "w")]),
        ('return /"/.test(s);', []),
    ],
)
def test_the_scanner_finds_strings_only(source, found):
    """Quotes inside comments, template text and regular expressions are not strings; those in ${…} are."""
    assert strings(source) == found


@pytest.mark.parametrize(
    "source, found",
    [
        ("x = 0.5 + 30_000 - .25 * 1e9 + 0x1F;", ["0.5", "30_000", ".25", "1e9", "0x1F"]),
        ("a.b2 = c[3]; // 4", ["3"]),
        ("s = 'pool 30' + `max ${31} of 32`; /* 33 */", ["31"]),
        ("r = /\\d{1,9}/.test(v) ? 7 : 8;", ["7", "8"]),
    ],
)
def test_the_scanner_finds_numbers_in_code_only(source, found):
    """Numbers in strings, template text, comments and regular expressions are not code; those in ${…} are."""
    assert [tok.text for tok in tokens(source) if tok.kind == "number"] == found
