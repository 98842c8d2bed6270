"""A small JavaScript scanner for the tests that read the page's code (no rule in static/, the roll's reads, the
doors): it knows comments, template literals and regular expressions, so a quote or a number inside them is not taken
for code. Pure Python. (The layout itself, quotes and width, is Biome's: tests/test_tools_formatters.py.)"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
JS_SUFFIXES = {".js", ".mjs", ".cjs"}

# After these, a "/" starts a regular expression; after anything else (a name, a number, ")" or "]") it divides.
_REGEX_AFTER_WORDS = {
    "return",
    "typeof",
    "case",
    "do",
    "else",
    "in",
    "of",
    "new",
    "delete",
    "void",
    "throw",
    "instanceof",
    "yield",
    "await",
}
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
            if c == "$" and text[j + 1 : j + 2] == "{":
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
        elif c.isdigit() or (c == "." and text[i + 1 : i + 2].isdigit()):
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
