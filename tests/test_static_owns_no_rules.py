"""The page shows, Python decides (STYLE.md): static/**/*.js holds no rule of a procedure. Two scans of the code (not
comments, strings, template text or regular expressions, by test_js_style's scanner):

- a procedure named in code (a string literal that is a procedure's id, or a name that is one: `system ===
  'ten_again'`, `procs.threat`, `case 'luck'`) only in the one map of code by procedure, VIEW_MAP, or where
  NAMED_ELSEWHERE lists it with its reason;
- a whole number other than 0 and 1 in code (a limit, a threshold, a cost: 6, 8, 30, 99, 50…) only where NUMBERS
  lists it with its reason, or in a file NO_RULES_HERE says holds none (pixels, bytes, milliseconds).

A new one fails, naming file:line; so does a listed one that is no longer there (the lists stay true). Numbers in
words shown to a player are not scanned: a label that states a rule takes it from the spec (two_dice's target)."""

from __future__ import annotations

from pathlib import Path

import pytest

from arbiter import api
from test_js_style import tokens

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "static"
PROCEDURES = {s["id"] for s in api.systems()}

# The one map of the page's code by procedure: a file (or folder) here may name any procedure.
VIEW_MAP = {
    "static/procedures.js": "VIEWS: how each procedure's roll is shown (its dice with the engine's marks, words, "
                            "odds, follow-ups)",
    "static/table/sheets/": "BY_KIND (sheets/index.js): each kind of character sheet (what 'roll as' offers, its "
                            "ops on the sheet)",
}

# Elsewhere, a procedure is named only here: file -> (the names, why).
NAMED_ELSEWHERE = {
    "static/table/words.js": (PROCEDURES, "SYSTEM_NAME: the short name the table shows for each procedure (words)"),
    # the log entry's field 'luck' (records.LOG: a roll's luck kept at roll time, api.luck_entry's), not the procedure
    **{f"static/table/{name}.js": ({"luck"}, "the log entry's field 'luck', a roll's luck at roll time")
       for name in ("index", "log", "luck")},
}

# Files whose numbers are no rule's, by their job (they name no procedure either: checked below).
NO_RULES_HERE = {
    "static/dice.js": "the canvas tray: pixels, angles, milliseconds (faces and marks come from the views)",
    "static/dice-draw.js": "how one die is drawn: pixels, angles, the pips' places on a face",
    "static/snapshot.js": "the Pyodide memory snapshot's binary layout (bytes, LEB128, wasm sections)",
    "static/worker.js": "loading: progress fractions, milliseconds",
    "static/table/repr.js": "Python's repr of a JSON value: character codes, the widths of \\x \\u \\U escapes, "
                            "a repr cut at 100 (f'{value!r:.100}')",
    "static/table/schema.js": "the checker of arbiter.api's declarations: a time's ranges as Date.parse reads one "
                              "(months, days, 24:00, 60 minutes) and its groups; every limit is a declaration's",
}

# Whole numbers in code elsewhere: (file, number) -> why it is not a rule's.
NUMBERS = {
    ("static/arbiter-client.js", 100): "the last 100 calls' timings kept, for the benchmark",
    ("static/main.js", 120): "milliseconds: a burst of key presses asks for odds once",
    ("static/reveal.js", 8): "CSS px between a revealed roll and the screen's edge",
    ("static/offline.js", 60): "seconds and minutes: how often the offline copy looks for a new version",
    ("static/offline.js", 1000): "milliseconds in a second",
    ("static/procedures.js", 2): "an event attribute's name after 'on' (onclick: click)",
    ("static/procedures.js", 3): "a bar's width to 3 decimals",
    ("static/procedures.js", 12): "a successes table shows at most 12 rows",
    ("static/procedures.js", 100): "percent",
    ("static/table/backends.js", 500): "records read from IndexedDB per batch",
    ("static/table/data.js", 40): "a value quoted in a message is cut at 40 characters",
    ("static/table/dom.js", 30_000): "milliseconds a download's object URL is kept",
    ("static/table/ids.js", 2): "two hex digits per random byte",
    ("static/table/ids.js", 8): "a log id's random part",
    ("static/table/ids.js", 9): "a log id's time part, base 36",
    ("static/table/ids.js", 16): "random bytes in an id; hexadecimal",
    ("static/table/ids.js", 36): "base 36",
    ("static/table/luck.js", 2): "the chart's dots: a diameter, a circle's 2π",
    ("static/table/luck.js", 4): "the chart's dashed line of average luck: a dash and a gap, in px",
    ("static/table/luck.js", 96): "the chart's height in CSS px",
    ("static/table/luck.js", 100): "a percentile in percent",
    ("static/table/luck.js", 320): "the chart's width in CSS px",
    ("static/table/log.js", 10): "the date's 10 characters in a file name",
    ("static/table/log.js", 50): "log entries shown per 'show more'",
    ("static/table/file.js", 20): "an import's report lists at most 20 problems",
    ("static/table/migrations.js", 2): "the schema version the migration from schema 1 reaches",
    ("static/table/migrations.js", 3): "the schema version the migration from schema 2 reaches",
    ("static/table/migrations.js", 4): "the table's schema version (SCHEMA) and the migration that reaches it",
    ("static/table/store.js", 8): "compare-and-set: a write is computed again at most 8 times",
    ("static/table/store.js", 500): "records written per request when a whole table is replaced",
    ("static/table/save.js", 6): "the length of 'aside:' in a kept-aside record's id",
    ("static/table/save.js", 10): "the date's 10 characters in a file name",
    ("static/table/sheets/ability-test.js", 2): "Significance moves from one Conviction to another: the controls "
                                                "show with two to choose from (the engine refuses fewer)",
    ("static/table/struggles.js", 250): "milliseconds: a burst of edits asks for the odds once",
}


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def js_files() -> list[Path]:
    return sorted(p for p in STATIC.rglob("*.js") if p.is_file())


def in_view_map(name: str) -> bool:
    return any(name == key or (key.endswith("/") and name.startswith(key)) for key in VIEW_MAP)


def procedures_named(text: str) -> list[tuple[int, str]]:
    """(line, id) of each procedure named in code: a string literal that is its id, or a name that is."""
    out = []
    for tok in tokens(text):
        if tok.kind == "string" and tok.text[1:-1] in PROCEDURES:
            out.append((tok.line, tok.text[1:-1]))
        elif tok.kind == "name" and tok.text in PROCEDURES:
            out.append((tok.line, tok.text))
    return out


def whole_numbers(text: str) -> list[tuple[int, int]]:
    """(line, value) of each whole number in code but 0 and 1 (a fraction is a size or a chance, never a limit)."""
    out = []
    for tok in tokens(text):
        if tok.kind != "number":
            continue
        literal = tok.text.replace("_", "").rstrip("n").lower()
        if literal.startswith(("0x", "0o", "0b")):
            value = int(literal, 0)
        else:
            number = float(literal)
            if not number.is_integer():
                continue
            value = int(number)
        if value not in (0, 1):
            out.append((tok.line, value))
    return out


def named_problems() -> list[str]:
    found = []
    for path in js_files():
        name = rel(path)
        if in_view_map(name):
            continue
        allowed = NAMED_ELSEWHERE.get(name, (set(), ""))[0]
        found += [f"{name}:{line}: names the procedure {proc!r} outside the map of code by procedure "
                  f"(move it into VIEW_MAP's files, or take it from the spec)"
                  for line, proc in procedures_named(path.read_text(encoding="utf-8")) if proc not in allowed]
    return found


def number_problems() -> list[str]:
    found = []
    for path in js_files():
        name = rel(path)
        if name in NO_RULES_HERE:
            continue
        found += [f"{name}:{line}: {value} — a number a rule may own: take it from arbiter.api, or list it in "
                  f"NUMBERS with why it is none"
                  for line, value in whole_numbers(path.read_text(encoding="utf-8")) if (name, value) not in NUMBERS]
    return found


def test_no_procedure_is_named_outside_the_map_of_code_by_procedure():
    """No `system === 'ten_again'`-style branch: a procedure is named only in VIEW_MAP or where listed, with why."""
    found = named_problems()
    assert not found, "\n".join(found)


def test_no_number_a_rule_owns_is_written_in_javascript():
    """Every whole number in the page's code (but 0 and 1) is listed with the reason it is no rule's."""
    found = number_problems()
    assert not found, "\n".join(found)


def test_files_without_rules_name_no_procedure():
    """A file whose numbers are exempt (NO_RULES_HERE) knows no procedure, so none of them can be a procedure's."""
    found = [f"{name}:{line}: {proc!r}" for name in NO_RULES_HERE if (ROOT / name).is_file()
             for line, proc in procedures_named((ROOT / name).read_text(encoding="utf-8"))]
    assert not found, "\n".join(found)


def test_every_listed_place_is_still_there():
    """Each entry of the lists matches something in the code today, so the lists say only what is true."""
    stale = [f"VIEW_MAP: {key}" for key in VIEW_MAP if not (ROOT / key).exists()]
    stale += [f"NO_RULES_HERE: {key}" for key in NO_RULES_HERE if not (ROOT / key).is_file()]
    for name, (procs, _) in NAMED_ELSEWHERE.items():
        named = {proc for _, proc in procedures_named((ROOT / name).read_text(encoding="utf-8"))}
        stale += [f"NAMED_ELSEWHERE: {name} no longer names {proc!r}" for proc in sorted(set(procs) - named)]
    numbers = {}
    for name, _ in NUMBERS:
        if name not in numbers:
            numbers[name] = {v for _, v in whole_numbers((ROOT / name).read_text(encoding="utf-8"))}
    stale += [f"NUMBERS: {name} has no {value} any more" for name, value in NUMBERS if value not in numbers[name]]
    assert not stale, "\n".join(stale)


@pytest.mark.parametrize("source, named, numbers", [
    ("if (system === 'ten_again') n = 8;", [(1, "ten_again")], [(1, 8)]),
    ("const t = page.procs.threat?.form; // luck 6", [(1, "threat")], []),
    ("switch (s) { case 'luck': return 30; }", [(1, "luck")], [(1, 30)]),
    ("const w = `${x.ability_test} of 'two_dice' 99`;", [(1, "ability_test")], []),
    ("f(0, 1, 0.5, 1.0, 2.0, 1e3, 0x10);", [], [(1, 2), (1, 1000), (1, 16)]),
    ("const arbitrations = 'an arbitration';", [], []),
])
def test_the_scans_see_code_only(source, named, numbers):
    """Names and numbers are found in code, never in comments or words; fractions are not limits."""
    assert procedures_named(source) == named
    assert whole_numbers(source) == numbers
