"""static/ in rooms by feature (issue 31, docs/contributing.md#one-job-per-file): a few loose modules at its top (at
most LOOSE_MAX), every folder with a README.md saying what it holds and what it may import, and no circle in the
import graph of its modules (static imports, `export … from` and `import('…')` of a literal path, read in the code by
tests/js_scanner.py: no comment counts)."""

from __future__ import annotations

import shutil
from pathlib import Path, PurePosixPath

from js_scanner import tokens

ROOT = Path(__file__).resolve().parent.parent
LOOSE_MAX = 8


def modules(root: Path = ROOT) -> list[Path]:
    return sorted(p for p in (root / "static").rglob("*.js") if p.is_file())


def rel(path: Path, root: Path = ROOT) -> str:
    return path.relative_to(root).as_posix()


def specifiers(text: str) -> list[str]:
    """The module paths `text` imports: `import … from 'x'`, `export … from 'x'`, `import 'x'`, `import('x')`."""
    toks = [t for t in tokens(text) if t.kind != "comment"]
    found = []
    for i, tok in enumerate(toks[:-1]):
        after = toks[i + 1]
        if tok.kind == "name" and tok.text in ("from", "import") and after.kind == "string":
            found.append(after.text[1:-1])
        elif tok.text == "import" and after.text == "(" and i + 2 < len(toks) and toks[i + 2].kind == "string":
            if i + 3 < len(toks) and toks[i + 3].text == ")":
                found.append(toks[i + 2].text[1:-1])
    return found


def graph(root: Path = ROOT) -> dict[str, list[str]]:
    """Each module of static/ → the modules of static/ it imports (paths relative to `root`); an import out of
    static/ (the worker's Pyodide) is left out, one of a file that is not there kept, to be named."""
    edges = {}
    for path in modules(root):
        name = rel(path, root)
        targets = []
        for spec in specifiers(path.read_text(encoding="utf-8")):
            if not spec.startswith("."):
                continue
            target = PurePosixPath(name).parent.joinpath(spec.split("?")[0]).as_posix()
            parts: list[str] = []
            for part in target.split("/"):
                if part == "..":
                    parts.pop()
                elif part != ".":
                    parts.append(part)
            target = "/".join(parts)
            if target.startswith("static/"):
                targets.append(target)
        edges[name] = targets
    return edges


def circles(edges: dict[str, list[str]]) -> list[list[str]]:
    """The import graph's circles: each strongly connected group of more than one module (or a module importing
    itself), as the modules in it, sorted."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node: str) -> None:  # Tarjan's strongly connected components
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in edges.get(node, []):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1 or node in edges.get(node, []):
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return sorted(found)


def loose(root: Path = ROOT) -> list[str]:
    return sorted(p.name for p in (root / "static").glob("*.js"))


def folders_without_readme(root: Path = ROOT) -> list[str]:
    folders = [root / "static", *(p for p in (root / "static").rglob("*") if p.is_dir())]
    return sorted(rel(f, root) for f in folders if not (f / "README.md").is_file())


def test_static_keeps_few_loose_modules():
    """At most LOOSE_MAX modules sit loose in static/; the rest are in its rooms."""
    assert len(loose()) <= LOOSE_MAX, loose()


def test_every_folder_of_static_has_a_readme():
    """Each folder of static/ says in its README.md what it holds and what it may import."""
    assert folders_without_readme() == []
    for readme in (ROOT / "static").rglob("README.md"):
        text = readme.read_text(encoding="utf-8")
        assert "may import" in text.lower(), f"{rel(readme)} does not say what its modules may import"


def test_every_import_is_a_module_of_static():
    """Every relative import in static/ names a file that is there (the scan reads what the bundler reads)."""
    edges = graph()
    missing = [
        f"{name} imports {target}" for name, targets in edges.items() for target in targets if target not in edges
    ]
    assert missing == []
    assert "static/procedures/index.js" in edges["static/roll/controller.js"]  # the scan sees imports
    assert "static/table/index.js" in edges["static/main.js"]  # and a dynamic import()


def test_the_import_graph_has_no_circle():
    """No module of static/ imports, through any chain, a module that imports it."""
    assert circles(graph()) == []


def test_a_planted_circle_is_found(tmp_path):
    """A circle planted in a copy of static/ (the generic view importing the map that imports it) is named."""
    shutil.copytree(ROOT / "static", tmp_path / "static")
    assert circles(graph(tmp_path)) == []
    generic = tmp_path / "static" / "procedures" / "generic-view.js"
    generic.write_text("import { PROCEDURE_VIEWS } from './index.js';\n" + generic.read_text(encoding="utf-8"))
    assert circles(graph(tmp_path)) == [["static/procedures/generic-view.js", "static/procedures/index.js"]]


def test_the_scan_reads_code_not_comments():
    """An import in a comment or a string is no edge; a side-effect import, `export … from` and `import()` are."""
    text = """// import './a.js';
const s = "import './b.js'";
import './c.js';
export { x } from './d.js';
const later = () => import('./e.js');
import { y } from "./f.js";
"""
    assert specifiers(text) == ["./c.js", "./d.js", "./e.js", "./f.js"]


def test_a_ninth_loose_module_or_a_folder_without_readme_is_caught(tmp_path):
    """The checks fail on a copy of static/ with one loose module too many, or a new folder with no README.md."""
    shutil.copytree(ROOT / "static", tmp_path / "static")
    for i in range(LOOSE_MAX + 1 - len(loose(tmp_path))):
        (tmp_path / "static" / f"planted-{i}.js").write_text("export {};\n")
    assert len(loose(tmp_path)) == LOOSE_MAX + 1
    (tmp_path / "static" / "planted").mkdir()
    (tmp_path / "static" / "planted" / "a.js").write_text("export {};\n")
    assert folders_without_readme(tmp_path) == ["static/planted"]
