"""index.html with its generated parts: a real HTML form for every procedure of arbiter.api.systems() (the one
place the forms' markup is written: roll/forms.js clones each list's row <template> and never builds markup of its
own), the tabs that group them, the rulings from docs/rulings.md, systems() and table_spec() as JSON for the page's
JS (the table's declarations: what each stored record may hold), and the page's first script (BOOT_SCRIPT), allowed by its hash in the Content-Security-Policy."""

from __future__ import annotations

import base64
import hashlib
import html
import json
import os
import re
import subprocess
import sys
from pathlib import Path

from . import PROCEDURES_ENV, ROOT, BuildError

# The line above the tabs, for a newcomer who does not know the procedures' names yet.
PICK = "Pick your game's procedure"
# A list's row <template> is rendered for this index (and this 1-based number): roll/forms.js puts the new row's own in
# every attribute of the copy. Lowercase letters only, so that an id made from a path keeps them as they are.
ROW_INDEX, ROW_NUMBER = "rowindex", "rownumber"


def esc(text) -> str:
    return html.escape(str(text), quote=True)


def attrs(**kw) -> str:
    """HTML attributes, escaped: `data_path=` writes data-path, True writes the bare name, None and False nothing."""
    out = []
    for k, v in kw.items():
        k = k.rstrip("_").replace("_", "-")
        if v is True:
            out.append(k)
        elif v is not None and v is not False:
            out.append(f'{k}="{esc(v)}"')
    return " ".join(out)


def field_id(system: str, path: str) -> str:
    """The id of the control for request path `path` ("threats[1].name") of `system`'s form."""
    return f"{system}-{re.sub(r'[^a-z0-9]+', '-', path.lower()).strip('-')}"


def _help(f, fid):
    return f'<small class="help" id="{fid}-help">{esc(f["help"])}</small>' if f.get("help") else ""


def _error(fid):
    return f'<output class="field-error" id="{fid}-error" for="{fid}" hidden></output>'


def _describedby(f, fid):
    return f"{fid}-help {fid}-error" if f.get("help") else f"{fid}-error"


def render_field(system: str, f: dict, path: str, value=None) -> str:
    """One field of a form as real HTML; `path` is the request path the engine names in its errors."""
    fid = field_id(system, path)
    value = f["default"] if value is None else value
    t = f["type"]
    if t == "int":
        inp = attrs(
            id=fid,
            type="number",
            inputmode="numeric",
            step=1,
            min=f["min"],
            max=f["max"],
            value=value,
            data_path=path,
            aria_describedby=_describedby(f, fid),
        )
        return (
            f'<div class="field int"><label for="{fid}">{esc(f["label"])}</label><input {inp}>'
            f"{_help(f, fid)}{_error(fid)}</div>"
        )
    if t == "bool":
        inp = attrs(id=fid, type="checkbox", checked=bool(value), data_path=path, aria_describedby=_describedby(f, fid))
        return (
            f'<div class="field bool"><input {inp}><label for="{fid}">{esc(f["label"])}</label>'
            f"{_help(f, fid)}{_error(fid)}</div>"
        )
    if t == "choice":
        opts = "".join(
            f"<option {attrs(value=o['value'], selected=o['value'] == value)}>{esc(o['label'])}</option>"
            for o in f["options"]
        )
        return (
            f'<div class="field choice"><label for="{fid}">{esc(f["label"])}</label>'
            f"<select {attrs(id=fid, data_path=path, aria_describedby=_describedby(f, fid))}>{opts}</select>"
            f"{_help(f, fid)}{_error(fid)}</div>"
        )
    if t == "int_or_word":
        values = [*range(f["max"], f["min"] - 1, -1), *f["words"]]
        opts = "".join(f"<option {attrs(value=v, selected=v == value)}>{esc(_signed(v))}</option>" for v in values)
        return (
            f'<div class="field choice"><label for="{fid}">{esc(f["label"])}</label>'
            f"<select {attrs(id=fid, data_path=path, data_type='int_or_word', aria_describedby=_describedby(f, fid))}>"
            f"{opts}</select>{_help(f, fid)}{_error(fid)}</div>"
        )
    if t == "text":
        inp = attrs(
            id=fid,
            type="text",
            maxlength=f["max_len"],
            value=value,
            data_path=path,
            aria_describedby=_describedby(f, fid),
            autocomplete="off",
        )
        return (
            f'<div class="field text"><label for="{fid}">{esc(f["label"])}</label><input {inp}>'
            f"{_help(f, fid)}{_error(fid)}</div>"
        )
    if t in ("int_list", "records"):
        return _list(system, f, path, value, fid)
    if t == "group":
        inner = "".join(render_field(system, g, f"{path}.{g['name']}") for g in f["fields"])
        toggle = attrs(type="checkbox", id=f"{fid}-on", data_toggle=path, aria_controls=f"{fid}-body")
        return (
            f'<fieldset class="field group" {attrs(data_path=path, data_group=path)}>'
            f'<legend><input {toggle}><label for="{fid}-on">{esc(f["label"])}</label></legend>'
            f'{_help(f, fid)}<div class="group-body" id="{fid}-body" hidden>{inner}</div>{_error(fid)}</fieldset>'
        )
    raise ValueError(f"unknown field type {t}")


def new_row_value(f: dict):
    """What a row added to the list field `f` holds: a number starts at the least allowed (0 if allowed), a record at
    its fields' defaults."""
    return max(0, f["min"]) if f["type"] == "int_list" else {g["name"]: g["default"] for g in f["fields"]}


def _list(system, f, path, value, fid):
    """A list of whole numbers or of records: its rows, the <template> of a new row (the Add button's), and the
    Add and Remove buttons."""
    kind = "int" if f["type"] == "int_list" else "records"
    if any(g["type"] in ("int_list", "records") for g in f.get("fields", [])):
        raise ValueError(f"{path}: a list inside a list's row would share the row template's placeholders")
    rows = "".join(render_row(system, f, path, i, v) for i, v in enumerate(value))
    template = render_row(system, f, path, ROW_INDEX, new_row_value(f))
    described = _describedby(f, fid) if kind == "int" else None
    fieldset = attrs(
        data_path=path, data_list=kind, data_min_len=f["min_len"], data_max_len=f["max_len"], aria_describedby=described
    )
    return (
        f'<fieldset class="field {"list" if kind == "int" else "records"}" {fieldset}>'
        f'<legend>{esc(f["label"])}</legend><ol class="items">{rows}</ol>'
        f"<template {attrs(data_index=ROW_INDEX, data_number=ROW_NUMBER)}>{template}</template>"
        f'<div class="list-buttons"><button type="button" data-add>+ Add</button>'
        f'<button type="button" data-remove>− Remove</button></div>{_help(f, fid)}{_error(fid)}</fieldset>'
    )


def render_row(system: str, f: dict, path: str, i, value) -> str:
    """Row `i` of the list field `f` (an int_list or records) holding `value`; `i` is ROW_INDEX in the template."""
    number = i + 1 if isinstance(i, int) else ROW_NUMBER
    if f["type"] == "int_list":
        inp = attrs(
            type="number",
            inputmode="numeric",
            step=1,
            min=f["min"],
            max=f["max"],
            value=value,
            data_path=f"{path}[{i}]",
            aria_label=f"{f['label']} {number}",
        )
        return f"<li><input {inp}></li>"
    inner = "".join(render_field(system, g, f"{path}[{i}].{g['name']}", value.get(g["name"])) for g in f["fields"])
    return f'<li class="record">{inner}</li>'


def _signed(v):
    return f"+{v}" if isinstance(v, int) and v > 0 else str(v)


# By the dice, sound and vibration as they land (static/roll/landing.js: off until the player turns it on, kept on the
# device):
# a speaker, with waves when pressed and crossed out when not (style.css shows one), and the word.
SOUND_BUTTON = (
    '<button type="button" class="sound" data-sound aria-pressed="false" title="Sound and vibration as the dice land">'
    '<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">'
    '<path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor"/>'
    '<path class="on" d="M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12" fill="none" stroke="currentColor" stroke-width="2"'
    ' stroke-linecap="round"/>'
    '<path class="off" d="M16 9l6 6M22 9l-6 6" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>'
    "</svg> Sound</button>"
)


def render_form(spec: dict) -> str:
    """One procedure's form: its fields, then the places the page fills: the odds (folded on a phone), the dice (in a
    tray that grows to show them all, never scrolling within itself: tray.js), the result, the choices, and last the bar with Roll
    and the headline odds, which a phone keeps at the bottom of the screen, above the views' navigation (style.css),
    so Roll is under the thumb and the dice land above it."""
    s = spec["id"]
    fields_html = "".join(render_field(s, f, f["name"]) for f in spec["fields"])
    examples = spec["extras"].get("examples")
    if examples:  # the text's example threats as suggestions for the names (their outcome texts show after a roll)
        fields_html = fields_html.replace('type="text"', f'type="text" list="{s}-examples"')
        fields_html += (
            f'<datalist id="{s}-examples">'
            + "".join(f'<option value="{esc(name)}"></option>' for name in examples)
            + "</datalist>"
        )
    # The form's own error line: for a message that names no field.
    fields_html += '<output class="field-error" hidden></output>'
    return f'''<form data-system="{s}" class="procedure-form" novalidate aria-labelledby="{s}-title">
<h2 id="{s}-title">{esc(spec["title"])}</h2>
<div class="fields">{fields_html}</div>
{SOUND_BUTTON}
<details class="odds" data-odds aria-live="off"><summary>Odds before you roll</summary><div class="odds-body" data-odds-body><p class="muted">Odds appear when the engine is ready.</p></div></details>
<div class="tray" data-tray><canvas class="dice" data-dice width="300" height="60" role="img" aria-label="No dice rolled yet" tabindex="0"></canvas></div>
<div class="result" data-result aria-live="polite"></div>
<div class="choices" data-choices></div>
<div class="roll-row" data-bar><span class="headline" data-headline><span class="muted" data-wait>Loading the rules…</span></span><button type="submit" class="roll" data-roll>Roll</button></div>
</form>'''


def tabs(systems: list[dict]) -> dict[str, list[dict]]:
    """Each tab's procedures, in systems() order, by their "tab"; a tab is named after its first procedure."""
    out: dict[str, list[dict]] = {}
    for spec in systems:
        out.setdefault(spec["tab"], []).append(spec)
    for tab, specs in out.items():
        if tab != specs[0]["id"]:
            raise BuildError(f"tab {tab!r} must be the id of its first procedure")
    return out


def render_tab(tab: str, specs: list[dict]) -> str:
    """A tab of the picker: its procedures' labels over their hints, both visible (a phone shows no tooltip)."""
    name, hint = " & ".join(s["label"] for s in specs), " · ".join(s["hint"] for s in specs)
    return (
        f'<a class="tab" role="tab" href="#{tab}" id="tab-{tab}" aria-controls="panel-{tab}" data-tab="{tab}">'
        f'<span class="tab-name">{esc(name)}</span> <span class="tab-hint">{esc(hint)}</span></a>'
    )


def render_forms(systems: list[dict]) -> str:
    """ "Pick your game's procedure", the tabs, and in each tab's panel its one-line description above a real HTML
    form for each of its procedures, with limits taken from systems(). Every panel but the first is hidden, its
    content the text of a <script type="text/html" data-later> that roll/tabs.js parses and builds when it is first
    needed: the page's first parse (which reads that text without making a node of it), style and autofill scan cover
    one tab's forms, not six."""
    grouped = tabs(systems)
    first = next(iter(grouped))
    nav = "".join(render_tab(tab, specs) for tab, specs in grouped.items())

    def panel(tab: str, specs: list[dict]) -> str:
        body = f'<p class="tab-description">{esc(" ".join(s["description"] for s in specs))}</p>' + "".join(
            render_form(s) for s in specs
        )
        later = tab != first  # hidden, and kept as text until shown (static/roll/tabs.js builds it)
        if later and ("</script" in body.lower() or "<!--" in body):
            raise BuildError(f"panel {tab}: its forms would end the <script> that carries them as text")
        return (
            f'<section class="panel" id="panel-{tab}" role="tabpanel" aria-labelledby="tab-{tab}" data-panel="{tab}"'
            + (f' hidden><script type="text/html" data-later>{body}</script>' if later else f">{body}")
            + "</section>"
        )

    panels = "".join(panel(tab, specs) for tab, specs in grouped.items())
    return (
        f'<p class="pick" id="pick">{esc(PICK)}</p>'
        f'<nav class="tabs" role="tablist" aria-labelledby="pick">{nav}</nav>{panels}'
    )


def render_rulings(markdown: str) -> str:
    """docs/rulings.md as HTML: headings, quotes and paragraphs (all text escaped, so it can sit as the text of
    index.html's <script type="text/html">: no "</script" in it)."""
    out, para = [], []

    def flush():
        if para:
            out.append(f"<p>{_inline(' '.join(para))}</p>")
            para.clear()

    for line in markdown.splitlines():
        if line.startswith("#"):
            flush()
            level = len(line) - len(line.lstrip("#"))
            text = line[level:].strip()
            if level == 1:
                continue
            out.append(f"<h{level + 1}>{_inline(text)}</h{level + 1}>")
        elif line.startswith(">"):
            flush()
            out.append(f"<blockquote>{_inline(line[1:].strip())}</blockquote>")
        elif not line.strip():
            flush()
        else:
            para.append(line.strip())
    flush()
    return "\n".join(out)


def _inline(text: str) -> str:
    text = esc(text)
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", text)


def _script_json(value) -> str:
    """`value` as JSON to sit inside a <script type="application/json"> element (no "</" to end it early)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")


# What systems() publishes for the tests and tools, not the page: each procedure's roll JSON declared and its example
# requests (about 25 kB the page never reads, left out of every first visit).
NOT_FOR_THE_PAGE = ("roll", "example_requests")


def _for_the_page(system: dict) -> dict:
    return {k: v for k, v in system.items() if k not in NOT_FOR_THE_PAGE}


def render_page(template: str, systems: list[dict], rulings_md: str, table_spec: dict) -> str:
    """index.html with its generated parts: the forms, the rulings, and the declarations for the page's JS (each
    procedure's fields and sheet; the table's records)."""
    parts = {
        "<!-- forms -->": render_forms(systems),
        "<!-- rulings -->": render_rulings(rulings_md),
        "<!-- systems -->": _script_json({s["id"]: _for_the_page(s) for s in systems}),
        "<!-- table -->": _script_json(table_spec),
    }
    for marker, html_ in parts.items():
        if template.count(marker) != 1:
            raise BuildError(f"index.html must hold exactly one {marker}")
        template = template.replace(marker, html_)
    return template


CLIENT_PRELOAD = '<link rel="modulepreload" href="static/engine/client.js">'
CLIENT_FIRST = '<script type="module" async src="static/engine/client.js"></script>'
# The page's first script (static/boot.js: it keeps the page's errors and the Roll taps made before main.js runs, and
# splits the first paint in two), inline, allowed by its hash; dist/ holds no copy of the file.
BOOT = ROOT / "static" / "boot.js"


def inline_script(path: Path) -> str:
    """The script of `path` as the page inlines it: its lines but the comment lines, with no blank line nor final
    newline (the bytes the Content-Security-Policy's sha256 is taken of). Refuses a script that would end the
    <script> element."""
    lines = path.read_text(encoding="utf-8").splitlines()
    text = "\n".join(line for line in lines if line.strip() and not line.lstrip().startswith("//"))
    if "</script" in text.lower():
        raise BuildError(f"{path.name} holds '</script', which would end the inline <script> early")
    return text


BOOT_SCRIPT = inline_script(BOOT)


def boot_first(page: str) -> str:
    """The page's first script (BOOT_SCRIPT) inline right after the Content-Security-Policy (which allows exactly that
    script, by its sha256), then the Pyodide client as an async module in place of its modulepreload. (The client
    starts the Python worker once main.js has drawn the first screen: `arbiter.go()`.)"""
    csp = re.search(r'<meta http-equiv="Content-Security-Policy"[^>]*>\n?', page)
    if CLIENT_PRELOAD not in page or not csp or "script-src 'self'" not in csp.group(0):
        return page
    digest = base64.b64encode(hashlib.sha256(BOOT_SCRIPT.encode("utf-8")).digest()).decode()
    meta = csp.group(0).replace("script-src 'self'", f"script-src 'self' 'sha256-{digest}'", 1)
    page = page.replace(CLIENT_PRELOAD + "\n", "").replace(CLIENT_PRELOAD, "")
    csp = re.search(r'<meta http-equiv="Content-Security-Policy"[^>]*>\n?', page)
    return page[: csp.start()] + meta + f"<script>{BOOT_SCRIPT}</script>\n" + CLIENT_FIRST + "\n" + page[csp.end() :]


def _engine(door: str, procedures: list[Path] = ()):
    """arbiter.api.`door`() from py/ in this CPython; with procedures from outside arbiter (build.py --procedures),
    in a CPython of its own that registers them (the registry is made once, when arbiter is first imported)."""
    if procedures:
        env = {**os.environ, "PYTHONPATH": str(ROOT / "py"), PROCEDURES_ENV: os.pathsep.join(map(str, procedures))}
        code = f"import json; from arbiter import api; print(json.dumps(api.{door}()))"
        result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
        if result.returncode:
            raise BuildError(
                f"arbiter.api.{door}() with the procedures of {', '.join(map(str, procedures))} "
                f"failed:\n{result.stderr[-3000:]}"
            )
        return json.loads(result.stdout)
    sys.path.insert(0, str(ROOT / "py"))
    try:
        from arbiter import api

        return getattr(api, door)()
    finally:
        sys.path.remove(str(ROOT / "py"))


def engine_systems(procedures: list[Path] = ()) -> list[dict]:
    """arbiter.api.systems() from py/ (and `procedures`, build.py --procedures): the one source of every field's
    limits."""
    return _engine("systems", procedures)


def engine_table_spec(procedures: list[Path] = ()) -> dict:
    """arbiter.api.table_spec() from py/ (and `procedures`): the one source of what the table may store."""
    return _engine("table_spec", procedures)


def write_page(site, systems: list[dict], table_spec: dict) -> None:
    """`site`/index.html: the page with its generated parts and its first script."""
    page = render_page(
        (ROOT / "index.html").read_text(encoding="utf-8"),
        systems,
        (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8"),
        table_spec,
    )
    (site / "index.html").write_text(boot_first(page), encoding="utf-8")
