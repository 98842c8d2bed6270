"""One JavaScript style in static/ and tests/js/: strings in single quotes (double quotes only around a single quote,
to spare the escape), lines of at most 120 columns. Pure Python: a small scanner that knows comments, template
literals and regular expressions, so a quote inside them is not taken for a string."""

from __future__ import annotations

import re
from pathlib import Path

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
    out = []
    i, n, line = 0, len(text), 1
    stack = []  # "{" for a block, "`" for a template literal's ${…}
    last = ""  # the last significant token, to tell a regular expression from a division

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
        """From inside a template literal to just after its end, or just after a "${" (pushed on the stack)."""
        nonlocal line
        while j < n:
            c = text[j]
            if c == "\\":
                j += 2
                continue
            if c == "\n":
                line += 1
            if c == "`":
                return j + 1
            if c == "$" and text[j + 1:j + 2] == "{":
                stack.append("`")
                return j + 2
            j += 1
        return j

    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif c.isspace():
            i += 1
        elif text.startswith("//", i):
            i = text.find("\n", i)
            i = n if i < 0 else i
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            line += text.count("\n", i, end)
            i = end
        elif c in "'\"":
            start, start_line = i, line
            i = skip_quoted(i + 1, c)
            out.append((start, start_line, c, text[start + 1:i - 1]))
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
            last = "regex"
        elif c == "{":
            stack.append("{")
            last = c
            i += 1
        elif c == "}":
            if stack and stack.pop() == "`":
                i = template(i + 1)
                last = "string"
            else:
                last = c
                i += 1
        elif c.isalnum() or c in "_$":
            m = re.compile(r"[\w$]+").match(text, i)
            last = m[0] if m[0] in _REGEX_AFTER_WORDS else "name"
            i = m.end()
        else:
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
