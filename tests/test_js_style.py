"""One JavaScript style in static/ and tests/js/: strings in single quotes (double quotes only around a single quote,
to spare the escape), lines of at most 120 columns. Pure Python: a small scanner that knows comments, template
literals and regular expressions, so a quote inside them is not taken for a string."""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

import pytest

ROOT = Path(__file__).resolve().parent.parent
MAX_COLUMNS = 120
JS_SUFFIXES = {".js", ".mjs", ".cjs"}

# After these, a "/" starts a regular expression; after anything else (a name, a number, ")" or "]") it divides.
_REGEX_AFTER_WORDS = {"return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void", "throw",
                      "instanceof", "yield", "await"}
_REGEX_AFTER_PUNCT = set("(,=:[!&|?{};+-*%<>~^")


def js_files() -> list[Path]:
    files = [*(ROOT / "static").rglob("*"), *(ROOT / "tests" / "js").rglob("*")]
    return sorted(p for p in files if p.is_file() and p.suffix in JS_SUFFIXES)


def strings(text: str) -> list[tuple[int, str, str]]:
    """(line, quote, body) of every quoted string literal in the JavaScript `text`."""
    return [(line, quote, body) for _, line, quote, body in string_spans(text)]


def string_spans(text: str) -> list[tuple[int, int, str, str]]:
    """(offset, line, quote, body) of every quoted string literal in the JavaScript `text`."""
    return [(tok.offset, tok.line, tok.text[0], tok.text[1:-1]) for tok in tokens(text) if tok.kind == "string"]


class Token(NamedTuple):
    """One piece of JavaScript: its kind, where it starts (offset, line) and its text. Kinds: "string" (a quoted
    literal, quotes included), "template" (the text of a template literal between its ${…}), "regex", "comment",
    "name" (a word: a keyword, a variable, a property), "number" and "punct" (one character)."""

    kind: str
    offset: int
    line: int
    text: str


_NUMBER = re.compile(r"(?:0[xXoObB][\da-fA-F_]+|(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:[eE][+-]?\d+)?)n?")


def tokens(text: str) -> list[Token]:
    """Every token of the JavaScript `text`, in order, but white space."""
    out = []
    i, n, line = 0, len(text), 1
    stack = []  # "{" for a block, "`" for a template literal's ${…}
    last = ""  # the last significant token, to tell a regular expression from a division

    def add(kind: str, start: int, end: int, start_line: int) -> None:
        out.append(Token(kind, start, start_line, text[start:end]))

    def skip_quoted(j: int, quote: str) -> int:
        nonlocal line
        while j < n and text[j] != quote:
            if text[j] == "\\":
                j += 1
            elif text[j] == "\n":
                line += 1
            j += 1
        return j + 1

    def template(j: int) -> int:
        """From inside a template literal to just after its end, or just after a "${" (pushed on the stack); its
        text is a "template" token."""
        nonlocal line
        start, start_line = j, line
        while j < n:
            c = text[j]
            if c == "\\":
                j += 2
                continue
            if c == "\n":
                line += 1
            if c == "`":
                add("template", start, j, start_line)
                return j + 1
            if c == "$" and text[j + 1:j + 2] == "{":
                stack.append("`")
                add("template", start, j, start_line)
                return j + 2
            j += 1
        add("template", start, j, start_line)
        return j

    while i < n:
        c = text[i]
        start, start_line = i, line
        if c == "\n":
            line += 1
            i += 1
        elif c.isspace():
            i += 1
        elif text.startswith("//", i):
            i = text.find("\n", i)
            i = n if i < 0 else i
            add("comment", start, i, start_line)
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            line += text.count("\n", i, end)
            i = end
            add("comment", start, i, start_line)
        elif c in "'\"":
            i = skip_quoted(i + 1, c)
            add("string", start, i, start_line)
            last = "string"
        elif c == "`":
            i = template(i + 1)
            last = "string"
        elif c == "/" and (last == "" or last in _REGEX_AFTER_PUNCT or last in _REGEX_AFTER_WORDS):
            i += 1
            in_class = False
            while i < n and (in_class or text[i] != "/") and text[i] != "\n":
                if text[i] == "\\":
                    i += 1
                elif text[i] == "[":
                    in_class = True
                elif text[i] == "]":
                    in_class = False
                i += 1
            i += 1
            while i < n and (text[i].isalnum() or text[i] == "_"):  # flags
                i += 1
            add("regex", start, i, start_line)
            last = "regex"
        elif c == "{":
            stack.append("{")
            add("punct", start, i + 1, start_line)
            last = c
            i += 1
        elif c == "}":
            if stack and stack.pop() == "`":
                i = template(i + 1)
                last = "string"
            else:
                add("punct", start, i + 1, start_line)
                last = c
                i += 1
        elif c.isdigit() or (c == "." and text[i + 1:i + 2].isdigit()):
            i = _NUMBER.match(text, i).end()
            add("number", start, i, start_line)
            last = "name"
        elif c.isalnum() or c in "_$":
            m = re.compile(r"[\w$]+").match(text, i)
            last = m[0] if m[0] in _REGEX_AFTER_WORDS else "name"
            i = m.end()
            add("name", start, i, start_line)
        else:
            add("punct", start, i + 1, start_line)
            last = c
            i += 1
    return out


def violations(path: Path) -> list[str]:
    """'file:line: what is wrong' for each line over MAX_COLUMNS and each double-quoted string with no ' in it."""
    text = path.read_text(encoding="utf-8")
    name = path.relative_to(ROOT).as_posix()
    out = [f"{name}:{number}: {len(line)} columns, more than {MAX_COLUMNS}"
           for number, line in enumerate(text.split("\n"), 1) if len(line) > MAX_COLUMNS]
    out += [f'{name}:{number}: "{body}" is in double quotes: use single quotes'
            for number, quote, body in strings(text) if quote == '"' and "'" not in body]
    return sorted(out, key=lambda v: int(v.split(":")[1]))


@pytest.mark.parametrize("path", js_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_javascript_style(path):
    """Single quotes and at most 120 columns, in every JavaScript file of the page and its tests."""
    found = violations(path)
    assert not found, "\n".join(found)


def test_there_is_javascript_to_check():
    """The style test sees the page's modules, the table's folder and the Node tests."""
    names = {p.relative_to(ROOT).as_posix() for p in js_files()}
    assert {"static/main.js", "static/table/index.js", "static/table/sheets/threat.js"} <= names
    assert any(n.startswith("tests/js/") for n in names)


@pytest.mark.parametrize("source, found", [
    ("const a = 'x';", [(1, "'", "x")]),
    ('const a = "x";', [(1, '"', "x")]),
    ("const a = \"it's\";", [(1, '"', "it's")]),
    ("const a = 'say \\'hi\\'';", [(1, "'", "say \\'hi\\'")]),
    ('// "not a string"\n/* "nor this" */ f(\'y\');', [(2, "'", "y")]),
    ('const t = `a "b" ${f("c")} d`;', [(1, '"', "c")]),
    ('const t = `${`${"deep"}`}`;', [(1, '"', "deep")]),
    ('const r = /"[/"]/g.test(x);', []),
    ('const d = a / 2 + b / "c".length;', [(1, '"', "c")]),
    ("if (x) { y(); }\nconst z = \"w\";", [(2, '"', "w")]),
    ('return /"/.test(s);', []),
])
def test_the_scanner_finds_strings_only(source, found):
    """Quotes inside comments, template text and regular expressions are not strings; those in ${…} are."""
    assert strings(source) == found


@pytest.mark.parametrize("source, found", [
    ("x = 0.5 + 30_000 - .25 * 1e9 + 0x1F;", ["0.5", "30_000", ".25", "1e9", "0x1F"]),
    ("a.b2 = c[3]; // 4", ["3"]),
    ("s = 'pool 30' + `max ${31} of 32`; /* 33 */", ["31"]),
    ("r = /\\d{1,9}/.test(v) ? 7 : 8;", ["7", "8"]),
])
def test_the_scanner_finds_numbers_in_code_only(source, found):
    """Numbers in strings, template text, comments and regular expressions are not code; those in ${…} are."""
    assert [tok.text for tok in tokens(source) if tok.kind == "number"] == found
