"""py/tools/page.py: the tabs as systems() groups them, the page's generated parts, and its first script started
from the top of the page under a Content-Security-Policy that allows it by its hash."""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re

import pytest

from arbiter import api
from tools import BuildError
from tools import ROOT
from tools.page import (
    BOOT,
    BOOT_SCRIPT,
    CLIENT_FIRST,
    inline_script,
    new_row_value,
    render_field,
    render_forms,
    render_page,
    render_row,
    boot_first,
    tabs,
)


def list_fields():
    """(system, path, declaration) of every list field of every form, groups' included."""

    def walk(system, fields, prefix):
        for f in fields:
            path = f"{prefix}{f['name']}"
            if f["type"] in ("int_list", "records"):
                yield system, path, f
            elif f["type"] == "group":
                yield from walk(system, f["fields"], f"{path}.")

    return [found for spec in api.systems() for found in walk(spec["id"], spec["fields"], "")]


def test_each_tab_holds_the_procedures_systems_puts_there():
    """One tab per "tab" of systems(), in its order, each panel holding its form (one procedure each: one Roll bar);
    the first panel shows, the others wait hidden, unbuilt."""
    systems = api.systems()
    want: dict[str, list[str]] = {}
    for spec in systems:
        want.setdefault(spec["tab"], []).append(spec["id"])
    forms = render_forms(systems)
    panels = re.findall(r'<section class="panel" [^>]*data-panel="([a-z_]+)"( hidden)?>(.*?)</section>', forms, re.S)
    assert {tab: re.findall(r'<form data-system="([a-z_]+)"', body) for tab, _, body in panels} == want
    assert [tab for tab, _, _ in panels] == list(want) == re.findall(r'<a class="tab" [^>]*data-tab="([a-z_]+)"', forms)
    assert [bool(hidden) for _, hidden, _ in panels] == [False] + [True] * (len(want) - 1)
    # a hidden panel is text until it is first shown: all of it in one <script type="text/html"> (static/roll/tabs.js
    # builds it), which nothing in it ends early
    later = '<script type="text/html" data-later>'
    assert [
        body.startswith(later) and body.endswith("</script>") and body.lower().count("</script") == 1
        for _, _, body in panels
    ] == [False] + [True] * (len(want) - 1)
    assert (want["threat"], want["luck"]) == (["threat"], ["luck"])
    assert '<span class="tab-name">Luck</span>' in forms


def test_each_tab_shows_its_procedures_label_hint_and_description():
    """A newcomer reads, with no tooltip: "Pick your game's procedure" above the tabs, each tab's name over its hint
    and, in each panel, the one-line description, all as systems() declares them (Luck's beside Threat's)."""
    systems = api.systems()
    forms = render_forms(systems)
    assert forms.index("Pick your game&#x27;s procedure") < forms.index('<nav class="tabs"')
    assert "title=" not in forms.split("</nav>")[0]
    shown = re.findall(
        r'data-tab="([a-z_]+)"><span class="tab-name">([^<]+)</span> <span class="tab-hint">([^<]+)<', forms
    )
    described = dict(
        re.findall(
            r'data-panel="([a-z_]+)"[^>]*>(?:<script type="text/html" data-later>)?<p class="tab-description">'
            r"([^<]+)</p>",
            forms,
        )
    )
    for tab, name, hint in shown:
        specs = [s for s in systems if s["tab"] == tab]
        assert html.unescape(name) == " & ".join(s["label"] for s in specs)
        assert html.unescape(hint) == " · ".join(s["hint"] for s in specs)
        assert html.unescape(described[tab]) == " ".join(s["description"] for s in specs)
    assert [tab for tab, _, _ in shown] == list(described) == list(dict.fromkeys(s["tab"] for s in systems))
    assert all(s["label"] and s["hint"] and s["description"] for s in systems)


def test_a_tab_must_be_named_after_its_first_procedure():
    """A tab the page cannot show (no name, or not its first procedure's id, which main.js opens) stops the build."""
    systems = api.systems()
    with pytest.raises(BuildError, match="'dice'"):
        tabs([{**systems[0], "tab": "dice"}])
    with pytest.raises(BuildError, match="'threat'"):
        tabs([{s["id"]: s for s in systems}["luck"] | {"tab": "threat"}])


@pytest.mark.parametrize("system, path, f", list_fields(), ids=lambda v: v if isinstance(v, str) else "")
def test_a_lists_new_row_is_the_row_the_build_writes(system, path, f):
    """A list's row <template>, its placeholders put in every attribute as roll/forms.js puts them, is the row the build
    writes at that index (paths, ids, labels, start values), and no placeholder is left outside an attribute."""
    field = render_field(system, f, path)
    found = re.findall(r'<template data-index="([a-z]+)" data-number="([a-z]+)">(.*?)</template>', field, re.S)
    assert len(found) == 1
    index, number, template = found[0]
    assert index in template
    for i in (0, 1, f["max_len"] - 1):
        row = re.sub(
            r'="([^"]*)"', lambda m: '="' + m[1].replace(index, str(i)).replace(number, str(i + 1)) + '"', template
        )
        assert row == render_row(system, f, path, i, new_row_value(f))
        assert index not in row and number not in row


def test_forms_js_builds_no_markup():
    """The forms' markup is written in one place, the build: roll/forms.js copies templates and creates no element."""
    source = (ROOT / "static" / "roll" / "forms.js").read_text(encoding="utf-8")
    assert "template" in source
    assert not re.search(r"createElement|innerHTML|outerHTML|insertAdjacentHTML", source)


def test_the_page_needs_each_generated_part_once():
    """index.html must hold each marker of a generated part exactly once."""
    systems, table = api.systems(), api.table_spec()
    page = render_page(
        "<main><!-- forms --></main><!-- rulings --><script><!-- systems --></script><script><!-- table --></script>",
        systems,
        "# R\n",
        table,
    )
    assert '<form data-system="arbitration"' in page and '"luck":{' in page and "<!--" not in page
    assert '<script>{"kinds":["arbitration",' in page
    with pytest.raises(BuildError, match="exactly one <!-- rulings -->"):
        render_page("<!-- forms --><!-- systems --><!-- table -->", systems, "", table)
    with pytest.raises(BuildError, match="exactly one <!-- table -->"):
        render_page("<!-- forms --><!-- rulings --><!-- systems -->", systems, "", table)


def test_the_page_holds_the_table_declarations(dist):
    """The built page holds table_spec() as JSON in a script element the browser does not run, next to systems()."""
    page = (dist / "index.html").read_text(encoding="utf-8")
    found = re.search(r'<script type="application/json" id="arbiter-table">(.*?)</script>', page, re.S)
    assert found and json.loads(found.group(1)) == api.table_spec()


def test_the_page_holds_systems_but_what_only_the_tests_read():
    """The page's systems() JSON is api.systems() by id, without each procedure's roll declaration and example
    requests (the tests and tools read those from Python; the page never does)."""
    systems, table = api.systems(), api.table_spec()
    page = render_page(
        "<!-- forms --><!-- rulings --><script><!-- systems --></script><!-- table -->", systems, "", table
    )
    shown = json.loads(re.search(r"<script>(.*?)</script>", page, re.S).group(1))
    assert set(shown) == {s["id"] for s in systems}
    for s in systems:
        assert {"roll", "example_requests"} <= set(s) and shown[s["id"]] == {
            k: v for k, v in s.items() if k not in ("roll", "example_requests")
        }


def test_the_pyodide_client_starts_from_the_top_of_the_page(dist):
    """The built page's first script comes right after its Content-Security-Policy, which allows that inline script
    by its sha256 and nothing else inline; then the Pyodide client as an async module, once, before any stylesheet or
    the page's own modules; the first script starts no worker (the client does, once the first screen is drawn)."""
    page = (dist / "index.html").read_text(encoding="utf-8")
    csp = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', page)
    digest = base64.b64encode(hashlib.sha256(BOOT_SCRIPT.encode()).digest()).decode()
    script_src = next(d for d in csp.group(1).split(";") if d.strip().startswith("script-src")).split()
    assert script_src == ["script-src", "'self'", f"'sha256-{digest}'", "'wasm-unsafe-eval'"]
    assert page.count("<script>") == 1 and f"<script>{BOOT_SCRIPT}</script>" in page and "Worker" not in BOOT_SCRIPT
    assert csp.end() < page.index("<script>") < page.index(CLIENT_FIRST) < page.index('rel="stylesheet"')
    assert page.count("static/engine/client.js") == 1
    assert page.index(CLIENT_FIRST) < page.index('src="static/main.js"')
    assert boot_first("<p>no head</p>") == "<p>no head</p>"


def test_the_first_script_is_static_boot_js_inline(dist):
    """The page's first script is static/boot.js, a file the formatter formats: its code lines as written, its comment
    lines left out; inline only, so dist/ holds no copy of it."""
    code = [line for line in BOOT.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert BOOT_SCRIPT.splitlines() == [line for line in code if not line.lstrip().startswith("//")]
    assert "self.arbiterEarlyRolls = [];" in BOOT_SCRIPT and "self.arbiterErrors = [];" in BOOT_SCRIPT
    assert not (dist / "static" / "boot.js").exists()


def test_an_inline_script_that_would_end_its_element_is_refused(tmp_path):
    """A first script holding "</script" would end the inline element early: the build refuses it, naming the file."""
    script = tmp_path / "boot.js"
    script.write_text("// a comment\nconst s = '</SCRIPT>';\n", encoding="utf-8")
    with pytest.raises(BuildError, match="boot.js holds '</script'"):
        inline_script(script)
    script.write_text("// a comment\n\nconst s = 1;\n", encoding="utf-8")
    assert inline_script(script) == "const s = 1;"


def test_the_forms_take_procedures_from_outside_when_asked():
    """engine_systems with build.py --procedures' folders asks systems() in a CPython that registers them: the toy
    coin gets its own tab and form, after the package's own; without them the systems are this CPython's."""
    from tools.page import engine_systems

    with_toy = engine_systems([ROOT / "tests" / "procedures"])
    toys = sorted(p.name for p in (ROOT / "tests" / "procedures").iterdir() if (p / "__init__.py").exists())
    assert "coin" in toys
    assert [s["id"] for s in with_toy] == [*(s["id"] for s in api.systems() if s["id"] not in toys), *toys]
    html_ = render_forms(with_toy)
    assert 'data-tab="coin"' in html_ and 'data-system="coin"' in html_
    assert engine_systems() == api.systems()
