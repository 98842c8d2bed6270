"""The page shows, Python decides (docs/contributing.md#the-page-shows-python-decides): static/**/*.js holds no rule
of a procedure. Two scans of the code (not comments, strings, template text or regular expressions, by
tests/js_scanner.py):

- a procedure named in code (a string literal that is a procedure's id, or a name that is one: `system ===
  'ten_again'`, `procs.threat`, `case 'luck'`) only in the one map of code by procedure, VIEW_MAP, or where
  NAMED_ELSEWHERE lists it with its reason;
- a whole number other than 0 and 1 in code (a limit, a threshold, a cost: 6, 8, 30, 99, 50…) only where NUMBERS
  lists it with its reason, or in a file NO_RULES_HERE says holds none (pixels, bytes, milliseconds);
- a die's face compared in code, in every file (`face === 6`, `f >= threshold`, `roll.dice.indexOf(roll.result)`):
  what a die means is its marks, which the engine gives each die; only FACES lists a comparison, with why it is no
  rule's (a die checked before it is drawn, a die that tumbles when its face changed).

A new one fails, naming file:line; so does a listed one that is no longer there (the lists stay true). Numbers in
words shown to a player are not scanned: a label that states a rule takes it from the spec (two_dice's target)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from arbiter import api
from js_scanner import tokens

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "static"
PROCEDURES = {s["id"] for s in api.systems()}

# The one map of the page's code by procedure: a file (or folder) here may name any procedure.
VIEW_MAP = {
    "static/procedures/index.js": "PROCEDURE_VIEWS: each procedure's view (how its roll is shown: its dice with the "
    "engine's marks, words, odds, follow-ups)",
    "static/procedures/sheets.js": "BY_KIND: each kind of character sheet (what 'roll as' offers, its ops on the "
    "sheet)",
    # a procedure's own folder: its view (<id>/view.js) and its character sheet (<id>/sheet.js)
    **{
        f"static/procedures/{folder.name}/": "a procedure's own view and sheet"
        for folder in sorted((STATIC / "procedures").iterdir())
        if folder.is_dir()
    },
}

# Elsewhere, a procedure is named only here: file -> (the names, why).
NAMED_ELSEWHERE = {
    # the log entry's field 'luck' (records.LOG: a roll's luck kept at roll time, api.luck_entry's), not the procedure
    **{
        f"static/log/{name}.js": ({"luck"}, "the log entry's field 'luck', a roll's luck at roll time")
        for name in ("log", "percentiles")
    },
}

# Files whose numbers are no rule's, by their job (they name no procedure either: checked below).
NO_RULES_HERE = {
    "static/dice/tray.js": "the canvas tray: pixels, angles, milliseconds (faces and marks come from the views)",
    "static/dice/draw.js": "how one die is drawn: pixels, angles, the pips' places on a face",
    "static/roll/landing.js": "the sound and pulse of dice landing: milliseconds, seconds, hertz, a clatter's knocks by a "
    "die's sides (its sound, no rule)",
    "static/engine/snapshot.js": "the Pyodide memory snapshot's binary layout (bytes, LEB128, wasm sections)",
    "static/engine/worker.js": "loading: progress fractions, milliseconds",
    "static/store/repr.js": "Python's repr of a JSON value: character codes, the widths of \\x \\u \\U escapes, "
    "a repr cut at 100 (f'{value!r:.100}')",
    "static/store/schema.js": "the checker of arbiter.api's declarations: a time's ranges as Date.parse reads one "
    "(months, days, 24:00, 60 minutes) and its groups; every limit is a declaration's",
    "static/share/qr.js": "a QR code's drawing: its bytes, modules, quiet zone and CSS pixels",
    "static/share/camera.js": "the camera: milliseconds between frames, a frame's pixels",
    "static/share/link.js": "a link's characters (a fragment's length, its '#')",
    "static/share/codes.js": "a table's bytes as QR codes: base45's 45 characters, bytes to characters (2 to 3), a "
    "code's characters (version 15 at M holds 600) and the codes a table goes in (8)",
    "static/share/cycle.js": "milliseconds each QR code stays on screen",
    "static/live/signal.js": "a live table's codes: bytes, lengths, address kinds, ports, hex and base64url, an SDP's "
    "priorities and SCTP port",
    "static/live/peers.js": "a live table's connections: players per Host, milliseconds, characters of a message and "
    "a name, data channel ids",
}

# Whole numbers in code elsewhere: (file, number) -> why it is not a rule's.
NUMBERS = {
    ("static/engine/client.js", 100): "the last 100 calls' timings kept, for the benchmark",
    ("static/roll/facepad.js", 20): "a die of up to 20 sides gets a button per face (the pad's layout, no rule)",
    ("static/roll/facepad.js", 10): "a d100 is typed as its two d10, tens then units: digits in base ten",
    ("static/roll/facepad.js", 2): "a d100's tens are shown with two digits (00 to 90)",
    ("static/roll/controller.js", 120): "milliseconds: a burst of key presses asks for odds once",
    (
        "static/roll/form-state.js",
        600,
    ): "milliseconds an outcome stays on screen before Roll takes a new roll (issue 29)",
    ("static/roll/reveal.js", 8): "CSS px between a revealed roll and the screen's edge",
    (
        "static/back.js",
        300,
    ): "milliseconds after Done closed a sheet in which a tap on its spot is the double tap's second",
    ("static/offline/offline.js", 60): "seconds and minutes: how often the offline copy looks for a new version",
    ("static/offline/offline.js", 1000): "milliseconds in a second",
    ("static/roll/controller.js", 1000): "milliseconds in a second (a shared roll's time is whole seconds)",
    ("static/log/log.js", 1000): "milliseconds in a second (a shared roll's time is whole seconds)",
    ("static/table/received.js", 1000): "milliseconds in a second (a shared roll's time is whole seconds)",
    ("static/dom.js", 2): "an event attribute's name after 'on' (onclick: click)",
    ("static/procedures/view-parts.js", 2): "the headline's third item, [key, p, exact]: its exact chance",
    ("static/procedures/view-parts.js", 3): "a bar's width to 3 decimals",
    ("static/procedures/ten_again/view.js", 12): "a successes table shows at most 12 rows",
    ("static/procedures/view-parts.js", 100): "percent",
    ("static/store/backends.js", 500): "records read from IndexedDB per batch",
    ("static/store/data.js", 40): "a value quoted in a message is cut at 40 characters",
    ("static/dom.js", 30_000): "milliseconds a download's object URL is kept",
    ("static/store/ids.js", 2): "two hex digits per random byte",
    ("static/store/ids.js", 8): "a log id's random part",
    ("static/store/ids.js", 9): "a log id's time part, base 36",
    ("static/store/ids.js", 16): "random bytes in an id; hexadecimal",
    ("static/store/ids.js", 36): "base 36",
    ("static/log/percentiles.js", 2): "the chart's dots: a diameter, a circle's 2π; half a label; the middle roll",
    ("static/log/percentiles.js", 4): "the chart's dashed line of average luck: a dash and a gap; an axis' tick, in px",
    ("static/log/percentiles.js", 12): "the chart's axes' numbers: their size in CSS px",
    ("static/log/percentiles.js", 20): "the room below the chart for the roll axis' numbers, in CSS px",
    ("static/log/percentiles.js", 32): "the room left of the chart for the luck axis' numbers, in CSS px",
    ("static/log/percentiles.js", 128): "the chart's height in CSS px",
    ("static/log/percentiles.js", 100): "a percentile in percent",
    ("static/log/fairness.js", 100): "a power (a chance) in percent",
    ("static/log/percentiles.js", 320): "the chart's width in CSS px",
    ("static/log/log.js", 10): "the date's 10 characters in a file name",
    ("static/log/log.js", 50): "log entries shown per page (loaded as the list's end nears, or by 'Show more')",
    ("static/store/file.js", 20): "an import's report lists at most 20 problems",
    ("static/store/migrations.js", 2): "the schema version the migration from schema 1 reaches",
    ("static/store/migrations.js", 3): "the schema version the migration from schema 2 reaches",
    ("static/store/migrations.js", 4): "the schema version the migration from schema 3 reaches",
    ("static/store/migrations.js", 5): "the schema version the migration from schema 4 reaches",
    ("static/store/migrations.js", 6): "the schema version the migration from schema 5 reaches",
    ("static/store/migrations.js", 7): "the schema version the migration from schema 6 reaches",
    ("static/store/migrations.js", 8): "the schema version the migration from schema 7 reaches",
    ("static/store/migrations.js", 9): "the table's schema version (SCHEMA) and the migration that reaches it",
    ("static/live/sync.js", 5): "the refusals and bad messages of a live table shown, newest first",
    ("static/live/sync.js", 1000): "milliseconds in a second (a shared roll's time is whole seconds)",
    ("static/store/repair.js", 8): "milliseconds of records checked per task while the store opens",
    ("static/store/store.js", 8): "compare-and-set: a write is computed again at most 8 times",
    ("static/store/store.js", 500): "records written per request when a whole table is replaced",
    ("static/store/store.js", 22): "an older WebKit's legacy code of a write refused for lack of space",
    ("static/table/save.js", 6): "the length of 'aside:' in a kept-aside record's id",
    ("static/table/keeping.js", 10): "the date's 10 characters in a backup's file name",
    ("static/store/backup.js", 86400000): "milliseconds in a day",
    ("static/procedures/ability_test/sheet.js", 2): "Significance moves from one Conviction to another: the controls "
    "show with two to choose from (the engine refuses fewer)",
    ("static/table/struggles.js", 250): "milliseconds: a burst of edits asks for the odds once",
}


# Comparisons of a face in code, anywhere in static/: (file, the comparison as faces_compared writes it) -> why.
FACES = {
    ("static/log/fairness.js", "includes(face)"): "the faces fairness_summary's words name (its 'named'), marked",
    ("static/dice/tray.js", "was.face !== d.face"): "a die tumbles again when its face changed (animation, no rule)",
    ("static/dice/draw.js", "d.face < 1"): "a die of show()'s list is checked: its face is one of its sides'",
    (
        "static/roll/facepad.js",
        "face <= this.batch().sides",
    ): "a d100's tens and units typed make a face of the die asked",
    ("static/dice/draw.js", "d.face > sides"): "a die of show()'s list is checked: its face is one of its sides'",
    ("static/log/log.js", "f >= min"): "a log entry keeps the faces its declaration allows (records.LOG's range)",
    ("static/log/log.js", "f <= max"): "a log entry keeps the faces its declaration allows (records.LOG's range)",
    ("static/dice/tray.js", "f >= 0"): "the die with the keyboard's focus (an index, -1 for none), not a face",
    ("static/dice/tray.js", "f < 0"): "the die with the keyboard's focus (an index, -1 for none), not a face",
    ("static/table/roll-as.js", "this.filled[system] !== f"): "a form's record of what a sheet filled, not a face",
}
# A face, or what a face is read against, as code names it: a name (or a property) that is one of these, or that
# names a threshold.
FACE_WORDS = {"face", "faces", "f", "die", "dice", "will_dice", "rerolls", "rolled", "result", "scheme_roll"}
COMPARISONS = ("===", "!==", "==", "!=", ">=", "<=", "<", ">")
# Methods that compare their argument with each item (a face looked up among the dice: `dice.indexOf(result)`).
SEEKING = {"indexOf", "lastIndexOf", "includes"}
# JavaScript's operators made of the characters of a comparison, longest first: `=>` and `>>` are none.
_OPERATORS = (">>>=", "===", "!==", ">>>", "<<=", ">>=", "==", "!=", ">=", "<=", "=>", "<<", ">>")


def rel(path: Path, root: Path = ROOT) -> str:
    return path.relative_to(root).as_posix()


def js_files(root: Path = ROOT) -> list[Path]:
    return sorted(p for p in (root / "static").rglob("*.js") if p.is_file())


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


def code_tokens(text: str) -> list[tuple[int, str, str]]:
    """(line, kind, text) of each token of code (no comments), runs of operator characters joined into operators."""
    out: list[tuple[int, str, str]] = []
    toks = [t for t in tokens(text) if t.kind != "comment"]
    i = 0
    while i < len(toks):
        tok = toks[i]
        if tok.kind == "punct" and tok.text in "=!<>":
            run, j = tok.text, i + 1
            while (
                j < len(toks)
                and toks[j].kind == "punct"
                and toks[j].text in "=!<>"
                and toks[j].offset == toks[j - 1].offset + 1
            ):
                run, j = run + toks[j].text, j + 1
            while run:
                op = next((o for o in _OPERATORS if run.startswith(o)), run[0])
                out.append((tok.line, "punct", op))
                run = run[len(op) :]
            i = j
            continue
        out.append((tok.line, tok.kind, tok.text))
        i += 1
    return out


def _group_end(toks: list, i: int) -> int:
    """The index just after the bracket that closes the one at `i`."""
    pairs, depth = {"(": ")", "[": "]", "{": "}"}, 0
    opener, closer = toks[i][2], pairs[toks[i][2]]
    for j in range(i, len(toks)):
        depth += (toks[j][2] == opener) - (toks[j][2] == closer) if toks[j][1] == "punct" else 0
        if depth == 0:
            return j + 1
    return len(toks)


def _group_start(toks: list, i: int) -> int:
    """The index of the bracket that opens the one closing at `i`."""
    pairs, depth = {")": "(", "]": "["}, 0
    closer, opener = toks[i][2], pairs[toks[i][2]]
    for j in range(i, -1, -1):
        depth += (toks[j][2] == closer) - (toks[j][2] == opener) if toks[j][1] == "punct" else 0
        if depth == 0:
            return j
    return 0


def _left(toks: list, k: int) -> int:
    """Where the operand just before index `k` starts: a name, number or string with its properties, indexes and
    calls (`roll.threats[t].die`, `list.find(…)`), or a parenthesised expression."""
    j = k - 1
    while j >= 0:
        if toks[j][1] == "punct" and toks[j][2] in ")]":
            j = _group_start(toks, j)
            if j > 0 and (toks[j - 1][1] == "name" or toks[j - 1][2] in ")]"):
                j -= 1
                continue
            return j
        if toks[j][1] in ("name", "number", "string"):
            if j > 0 and toks[j - 1][2] == ".":
                j -= 2 if j > 1 and toks[j - 2][2] == "?" else 1
                j -= 1
                continue
            return j
        return j + 1
    return 0


def _right(toks: list, k: int) -> int:
    """Where the operand just after index `k` ends (exclusive): unary signs, then a name, number, string or bracket
    with its properties, indexes and calls."""
    j = k + 1
    while j < len(toks) and toks[j][2] in ("!", "-", "+", "typeof"):
        j += 1
    if j < len(toks) and toks[j][2] in ("(", "["):
        j = _group_end(toks, j)
    elif j < len(toks) and toks[j][1] in ("name", "number", "string", "template"):
        j += 1
    while j < len(toks):
        if toks[j][2] == "?" and j + 1 < len(toks) and toks[j + 1][2] == ".":
            j += 1
        if toks[j][2] == "." and j + 1 < len(toks) and toks[j + 1][1] == "name":
            j += 2
        elif toks[j][2] in ("(", "["):
            j = _group_end(toks, j)
        else:
            break
    return j


def _face_word(word: str) -> bool:
    return word in FACE_WORDS or "threshold" in word.lower()


def _speaks_of_faces(part: list) -> bool:
    """Whether an operand is a face or a threshold: its last name is one (`d.face`, `roll.threats[t].die`,
    `extras.threshold`, `f`), or it indexes one (`roll.dice[d]`); not a call's result or another property
    (`faces.filter(…)`, `roll.dice.length`, `f.type`). In brackets, whatever it holds."""
    if not part:
        return False
    if part[0][2] == "(" and _group_end(part, 0) == len(part):
        return any(kind == "name" and _face_word(word) for _, kind, word in part)
    end = len(part)
    while end and part[end - 1][2] == "]":
        end = _group_start(part, end - 1)
    return end > 0 and part[end - 1][1] == "name" and _face_word(part[end - 1][2])


def _text(part: list) -> str:
    return "".join(word for _, _, word in part)


def faces_compared(text: str) -> list[tuple[int, str]]:
    """(line, comparison) of each face compared in code: a comparison, a `switch` or an `indexOf`/`includes`
    with a face (or a threshold) in it, unless it only asks whether there is one (`t.die === null`)."""
    toks = code_tokens(text)
    out = []
    for k, (line, kind, word) in enumerate(toks):
        if kind == "punct" and word in COMPARISONS:
            left, right = toks[_left(toks, k) : k], toks[k + 1 : _right(toks, k)]
            presence = {_text(left), _text(right)} & {"null", "undefined"}
            if not presence and (_speaks_of_faces(left) or _speaks_of_faces(right)):
                out.append((line, f"{_text(left)} {word} {_text(right)}"))
        elif kind == "name" and word in SEEKING | {"switch"} and k + 1 < len(toks) and toks[k + 1][2] == "(":
            seeking = toks[k + 1 : _group_end(toks, k + 1)]
            if _speaks_of_faces(seeking[1:-1]):
                out.append((line, f"{word}{_text(seeking)}"))
    return out


def named_problems(root: Path = ROOT) -> list[str]:
    found = []
    for path in js_files(root):
        name = rel(path, root)
        if in_view_map(name):
            continue
        allowed = NAMED_ELSEWHERE.get(name, (set(), ""))[0]
        found += [
            f"{name}:{line}: names the procedure {proc!r} outside the map of code by procedure "
            f"(move it into VIEW_MAP's files, or take it from the spec)"
            for line, proc in procedures_named(path.read_text(encoding="utf-8"))
            if proc not in allowed
        ]
    return found


def number_problems(root: Path = ROOT) -> list[str]:
    found = []
    for path in js_files(root):
        name = rel(path, root)
        if name in NO_RULES_HERE:
            continue
        found += [
            f"{name}:{line}: {value} — a number a rule may own: take it from arbiter.api, or list it in "
            f"NUMBERS with why it is none"
            for line, value in whole_numbers(path.read_text(encoding="utf-8"))
            if (name, value) not in NUMBERS
        ]
    return found


def face_problems(root: Path = ROOT) -> list[str]:
    found = []
    for path in js_files(root):
        name = rel(path, root)
        found += [
            f"{name}:{line}: {what} — the page compares no face: take the die's marks from the engine's roll "
            f"(or list it in FACES with why it is no rule)"
            for line, what in faces_compared(path.read_text(encoding="utf-8"))
            if (name, what) not in FACES
        ]
    return found


def test_no_procedure_is_named_outside_the_map_of_code_by_procedure():
    """No `system === 'ten_again'`-style branch: a procedure is named only in VIEW_MAP or where listed, with why."""
    found = named_problems()
    assert not found, "\n".join(found)


def test_no_number_a_rule_owns_is_written_in_javascript():
    """Every whole number in the page's code (but 0 and 1) is listed with the reason it is no rule's."""
    found = number_problems()
    assert not found, "\n".join(found)


def test_no_face_is_compared_in_javascript():
    """No view reads a die itself (`face >= threshold`, `face === 10`): every die's marks are the engine's, and any
    other comparison of a face is listed in FACES with why it is no rule's."""
    found = face_problems()
    assert not found, "\n".join(found)


def _engine_marks(value) -> set[str]:
    """Every mark in a roll's JSON: the lists of marks, one per die, under `marks`, `reroll_marks`, `scheme_marks`, and
    each die's own under `faces` (the dice the engine publishes to draw)."""
    if isinstance(value, list):
        return set().union(*map(_engine_marks, value)) if value else set()
    if not isinstance(value, dict):
        return set()
    found = set()
    for key, item in value.items():
        if key in ("marks", "reroll_marks"):
            found |= {m for die in item for m in die}
        elif key == "scheme_marks":
            found |= set(item or ())
        elif key == "faces":
            found |= {m for die in item for m in die["marks"]}
        else:
            found |= _engine_marks(item)
    return found


def test_every_mark_the_engine_gives_is_one_the_canvas_draws():
    """The engine's marks are the canvas's vocabulary (dice/draw.js MARKS), all of it but 'selected', the page's own
    pick (a die tapped to reroll or reassign)."""
    text = (STATIC / "dice" / "draw.js").read_text(encoding="utf-8")
    start = next(t.offset for t in tokens(text) if t.kind == "name" and t.text == "MARKS")
    drawn = {t.text[1:-1] for t in tokens(text[start : text.index(";", start)]) if t.kind == "string"}
    more = {"luck": {"dice": 3}, "threat": {"rating": 3}, "ten_again": {"will": True, "risky": True}}
    given = set()
    for system in sorted(PROCEDURES):
        request = {**next(s["defaults"] for s in api.systems() if s["id"] == system), **more.get(system, {})}
        for seed in range(60):
            given |= _engine_marks(api.roll(system, request, seed))
    assert given == drawn - {"selected"}, (sorted(given - drawn), sorted(drawn - given))


def test_files_without_rules_name_no_procedure():
    """A file whose numbers are exempt (NO_RULES_HERE) knows no procedure, so none of them can be a procedure's."""
    found = [
        f"{name}:{line}: {proc!r}"
        for name in NO_RULES_HERE
        if (ROOT / name).is_file()
        for line, proc in procedures_named((ROOT / name).read_text(encoding="utf-8"))
    ]
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
    compared = {(rel(p), what) for p in js_files() for _, what in faces_compared(p.read_text(encoding="utf-8"))}
    stale += [f"FACES: {name} no longer compares {what}" for name, what in FACES if (name, what) not in compared]
    assert not stale, "\n".join(stale)


@pytest.mark.parametrize(
    "source, named, numbers",
    [
        ("if (system === 'ten_again') n = 8;", [(1, "ten_again")], [(1, 8)]),
        ("const t = page.procs.threat?.form; // luck 6", [(1, "threat")], []),
        ("switch (s) { case 'luck': return 30; }", [(1, "luck")], [(1, 30)]),
        ("const w = `${x.ability_test} of 'two_dice' 99`;", [(1, "ability_test")], []),
        ("f(0, 1, 0.5, 1.0, 2.0, 1e3, 0x10);", [], [(1, 2), (1, 1000), (1, 16)]),
        ("const arbitrations = 'an arbitration';", [], []),
    ],
)
def test_the_scans_see_code_only(source, named, numbers):
    """Names and numbers are found in code, never in comments or words; fractions are not limits."""
    assert procedures_named(source) == named
    assert whole_numbers(source) == numbers


@pytest.mark.parametrize(
    "source, compared",
    [
        ("if (face === 6) marks.push('kept');", [(1, "face === 6")]),
        ("const hit = f >= threshold;", [(1, "f >= threshold")]),
        (
            "x = 10 == die.face || side.rerolls[k] > extras.initiative_threshold;",
            [(1, "10 == die.face"), (1, "side.rerolls[k] > extras.initiative_threshold")],
        ),
        ("const keep = roll.dice.indexOf(roll.result);", [(1, "indexOf(roll.result)")]),
        ("const n = roll.assignment[t].find((d) => roll.dice[d] === face) === i;", [(1, "roll.dice[d] === face")]),
        ("switch (face) { case 6: return 'kept'; }", [(1, "switch(face)")]),
        ("if (t.die === null || roll.scheme_roll !== null) return;", []),
        ("const f = (x) => x.count >= 2 && side.fumble_dice?.includes(i); // face === 6", []),
        ("const label = `face === 6`; const w = 'face >= 8';", []),
        ("if (f.type === 'int' && this.dice.length === 1 && faces.filter(ok).length > 2) return;", []),
        ("const x = (face ?? 0) >= 6;", [(1, "(face??0) >= 6")]),
    ],
)
def test_the_face_scan_sees_comparisons_of_faces(source, compared):
    """A face or a threshold compared (by an operator, a switch, indexOf or includes) is found; a check for a die's
    presence, words and comments are not comparisons."""
    assert faces_compared(source) == compared


@pytest.mark.parametrize(
    "file, planted",
    [
        ("static/procedures/ten_again/view.js", "if (face === 6) marks.push('kept');"),
        ("static/procedures/view-parts.js", "const kept = (f) => f >= spec.extras.threshold;"),
        ("static/procedures/generic-view.js", "const keep = roll.dice.indexOf(roll.result);"),
        ("static/dice/tray.js", "if (d.face >= 8) d.marks.add('kept');"),
        ("static/log/log.js", "const botch = roll.dice.filter((f) => f === 1);"),
    ],
)
def test_a_rule_planted_in_a_copy_of_static_is_caught(tmp_path, file, planted):
    """A face read by the page, planted in a copy of static/ (the views, the canvas, the table), fails the checks
    and is named by file and line; the copy without it passes."""
    shutil.copytree(STATIC, tmp_path / "static")
    assert face_problems(tmp_path) == []
    target = tmp_path / file
    text = target.read_text(encoding="utf-8")
    line = text.count("\n") + 1
    target.write_text(text + planted + "\n", encoding="utf-8")
    found = face_problems(tmp_path)
    assert found and all(f.startswith(f"{file}:{line}: ") for f in found), found


def test_a_number_planted_in_the_views_is_caught(tmp_path):
    """The views write no face's number at all: `face === 6` planted in a procedure's view fails the number check too."""
    shutil.copytree(STATIC, tmp_path / "static")
    target = tmp_path / "static/procedures/threat/view.js"
    target.write_text(target.read_text(encoding="utf-8") + "if (face === 6) marks.push('kept');\n", encoding="utf-8")
    assert [f.split(": ")[1] for f in number_problems(tmp_path)] == ["6 — a number a rule may own"]
