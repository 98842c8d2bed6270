"""The docs stay true: every path docs/architecture.md and docs/contributing.md name exists, every link in the README
and docs/*.md leads somewhere (a file, and a heading for an #anchor), the README stays a short front door, and
architecture.md's "may import" column holds for the procedures and the shared modules of py/arbiter
(docs/contributing.md#docs-that-stay-true)."""

import ast
import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted((ROOT / "docs").glob("*.md"))
PATH_DOCS = [ROOT / "docs" / "architecture.md", ROOT / "docs" / "contributing.md", ROOT / "README.md"]
# Paths the docs name that are not in the repository on purpose: the build's output, where the wheel puts a folder's
# procedures, and the virtual environment the tests make.
ELSEWHERE = ("dist/", "arbiter_procedures/", ".venv")
EXTENSIONS = ("py", "js", "mjs", "md", "css", "html", "toml", "json", "yml", "png", "sh")
PATH_LIKE = re.compile(r"^[\w.\-/<>*+]+$")
SKIP_DIRS = {".git", ".venv", ".cache", "dist", "node_modules", "__pycache__"}


def _is_path(token: str) -> bool:
    """A backticked token is a path if it has a folder in it or ends in a file extension ("api.turn" is not)."""
    if not PATH_LIKE.match(token) or token.startswith(ELSEWHERE):
        return False
    return "/" in token.strip("/") or token.endswith("/") or token.rsplit(".", 1)[-1] in EXTENSIONS and "." in token


def _basenames() -> set[str]:
    """The name of every file and folder in the repository (the build's output and caches left out)."""
    names = set()
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS]
        names.update(dirs, files)
    return names


def _exists(token: str, bases: list[Path]) -> bool:
    """`token` names something under one of `bases`: `<id>` and `*` match any name; a module may leave out .js/.py."""
    pattern = re.sub(r"<[^>]*>", "*", token).rstrip("/")
    for base in bases:
        for suffix in ("", ".js", ".py"):
            if (
                any(True for _ in base.glob(pattern + suffix))
                if "*" in pattern
                else (base / (pattern + suffix)).exists()
            ):
                return True
    return False


def _folders(tokens: list[str]) -> list[Path]:
    """The folders the context's paths sit in (a relative one read in those before it), and their parents."""
    bases: list[Path] = []
    for token in tokens:
        parts = re.sub(r"<[^>]*>", "*", token).rstrip("/").split("/")
        for anchor in [ROOT, *bases]:
            for i in range(len(parts) - 1, 0, -1):
                folder = anchor.joinpath(*parts[:i])
                if folder.is_dir() and folder not in bases:
                    bases.append(folder)
    return [*bases, ROOT]


def _blocks(text: str) -> list[tuple[str, str]]:
    """Each table row (its first cell and the whole row) or paragraph, the unit a bare name is read in."""
    blocks = []
    for paragraph in re.split(r"\n\s*\n", text):
        rows = [line for line in paragraph.splitlines() if line.startswith("|")]
        if rows:
            blocks += [(row.split("|")[1], row) for row in rows]
        else:
            blocks.append(("", paragraph))
    return blocks


def _missing_paths(doc: Path) -> list[str]:
    """The paths `doc` names in backticks that exist nowhere they could mean."""
    names, missing = _basenames(), []
    for first_cell, block in _blocks(doc.read_text(encoding="utf-8")):
        tokens = [t for t in re.findall(r"`([^`\n]+)`", block) if _is_path(t)]
        rooted = [t for t in re.findall(r"`([^`\n]+)`", first_cell or block) if _is_path(t) and "/" in t.strip("/")]
        bases = _folders(rooted)
        for token in tokens:
            in_first_cell = f"`{token}`" in first_cell
            bare = "/" not in token.strip("/")
            if _exists(token, bases) or (bare and not in_first_cell and token in names):
                continue
            missing.append(f"{doc.name}: `{token}` in {block.strip()[:90]!r}")
    return missing


@pytest.mark.parametrize("doc", PATH_DOCS, ids=lambda p: p.name)
def test_every_path_named_exists(doc):
    """Every backticked path exists; a bare name in a table row's first cell is read in that row's folder."""
    assert _missing_paths(doc) == []


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def _anchors(doc: Path) -> set[str]:
    """The #anchors of a markdown file's headings (a repeated heading gets -1, -2, … as on GitHub)."""
    seen: dict[str, int] = {}
    anchors = set()
    in_code = False
    for line in doc.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_code = not in_code
        heading = re.match(r"#{1,6} (.+)", line)
        if heading and not in_code:
            slug = _slug(heading.group(1))
            anchors.add(slug if slug not in seen else f"{slug}-{seen[slug]}")
            seen[slug] = seen.get(slug, 0) + 1
    return anchors


def _broken_links(doc: Path) -> list[str]:
    """The links and image sources in `doc` whose file or heading does not exist."""
    text = doc.read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)\s]+)\)", text) + re.findall(r'<img src="([^"]+)"', text)
    broken = []
    for target in targets:
        if re.match(r"[a-z]+:", target):
            continue
        file, _, anchor = target.partition("#")
        path = (doc.parent / file).resolve() if file else doc
        if not path.exists():
            broken.append(f"{doc.name}: {target} (no file)")
        elif anchor and path.suffix == ".md" and anchor not in _anchors(path):
            broken.append(f"{doc.name}: {target} (no heading)")
    return broken


@pytest.mark.parametrize("doc", [ROOT / "README.md", *DOCS], ids=lambda p: p.name)
def test_every_link_leads_somewhere(doc):
    """Every relative link and image in the README and docs/ names a file that exists, and a heading for #anchor."""
    assert _broken_links(doc) == []


def test_readme_is_a_front_door():
    """The README stays short (figures and their commits live in docs/performance.md)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 110
    hashes = [h for h in re.findall(r"\b[0-9a-f]{7,40}\b", readme) if re.search(r"[a-f]", h) and re.search(r"\d", h)]
    assert hashes == [], "commit hashes belong in docs/performance.md"


def _procedure_modules() -> list[Path]:
    """The procedures' own modules: those procedures.py imports, each module of a package."""
    arbiter = ROOT / "py" / "arbiter"
    registry = ast.parse((arbiter / "procedures.py").read_text(encoding="utf-8"))
    ids = [a.name for node in registry.body if isinstance(node, ast.ImportFrom) and node.level == 1 for a in node.names]
    modules = []
    for name in ids:
        package = arbiter / name
        modules += sorted(package.glob("*.py")) if package.is_dir() else [arbiter / f"{name}.py"]
    return modules


def _may_import() -> set[str]:
    """The shared modules architecture.md's first row says a procedure may import."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    row = next(line for line in text.splitlines() if line.startswith("| `py/arbiter/<procedure>`"))
    return set(re.findall(r"`(\w+)`", row.split("|")[3]))


def _arbiter_imports(module: Path) -> set[str]:
    """The modules of arbiter outside its own package that `module` imports."""
    package = module.parent.name if module.parent.name != "arbiter" else None
    found = set()
    for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1 and package:  # from . import x: a sibling of the package
                continue
            if node.level == 2 or (node.level == 1 and not package) or node.module == "arbiter":
                found |= {node.module.split(".")[0]} if node.module else {a.name for a in node.names}
            elif node.module and node.module.startswith("arbiter."):
                found.add(node.module.split(".")[1])
    return found - {package}


def test_procedures_import_what_the_architecture_says():
    """A procedure imports only the shared modules architecture.md's "may import" column names for it."""
    modules = _procedure_modules()
    assert len(modules) >= 6
    allowed = _may_import()
    extra = {
        f"{m.relative_to(ROOT)}: {sorted(_arbiter_imports(m) - allowed)}"
        for m in modules
        if _arbiter_imports(m) - allowed
    }
    assert extra == set(), f"allowed: {sorted(allowed)}"


NUMBERS = {5: "five", 6: "six"}


@pytest.mark.parametrize(
    "where",
    ["README.md", "py/arbiter/__init__.py", "pyproject.toml", "index.html"],
)
def test_how_many_procedures_is_said_alike(where):
    """Each place that counts them says as many procedures as the registry holds, and as many texts as docs/seeds/."""
    registry = ast.parse((ROOT / "py" / "arbiter" / "procedures.py").read_text(encoding="utf-8"))
    procedures = [a.name for n in registry.body if isinstance(n, ast.ImportFrom) and n.level == 1 for a in n.names]
    texts = len(list((ROOT / "docs" / "seeds").glob("*.txt")))
    text = (ROOT / where).read_text(encoding="utf-8")
    said = re.findall(r"\b(\w+) (?:tabletop-RPG )?dice procedures", text)
    assert said and all(word == NUMBERS[len(procedures)] for word in said), said
    assert all(word == NUMBERS[texts] for word in re.findall(r"\b(\w+) rule texts", text))


def test_what_tests_cite_of_the_docs_exists():
    """A test that cites the docs ("docs/contributing.md#variation-by-protocol-not-by-name") cites a heading that
    exists, and no test cites a style guide from outside the repository."""
    cited, outside = [], []
    for test in sorted((ROOT / "tests").rglob("*.py")):
        text = test.read_text(encoding="utf-8")
        cited += [(test.name, doc, anchor) for doc, anchor in re.findall(r"docs/(\w+\.md)#([\w-]+)", text)]
        outside += [test.name for _ in re.findall(r"\bSTYLE\.md\b|\.\./shared/", text)]
    assert len(cited) >= 3
    assert [c for c in cited if c[2] not in _anchors(ROOT / "docs" / c[1])] == []
    assert outside == []


@pytest.mark.parametrize("doc", [ROOT / "README.md", *DOCS], ids=lambda p: p.name)
def test_docs_point_at_nothing_outside_the_repository(doc):
    """The README and docs/ send a reader to no folder beside the repository, which a clone does not have."""
    assert re.findall(r"\.\./shared/", doc.read_text(encoding="utf-8")) == []


# Rows left out of the import check while they are being rewritten (none now: issue 31's door and engine are done).
RESHAPED: tuple[str, ...] = ()


def _shared_rows() -> list[tuple[list[Path], set[str]]]:
    """architecture.md's rows for py/arbiter's own modules: the modules of the first cell, and the names the "may
    import" cell gives (a bare name in the first cell is read in the row's folder; "every procedure" names them all)."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    registry = ast.parse((ROOT / "py" / "arbiter" / "procedures.py").read_text(encoding="utf-8"))
    procedures = {a.name for n in registry.body if isinstance(n, ast.ImportFrom) and n.level == 1 for a in n.names}
    rows = []
    for line in text.splitlines():
        cells = line.split("|")
        names = re.findall(r"`([\w/]+\.py)`", cells[1]) if line.startswith("| `py/arbiter/") else []
        if not names or not names[0].startswith("py/arbiter/") or names[0].count("/") != 2:
            continue
        modules = [ROOT / (n if "/" in n else f"py/arbiter/{n}") for n in names if Path(n).name not in RESHAPED]
        allowed = {n.removesuffix(".py") for n in re.findall(r"`(\w+(?:\.py)?)`", cells[3])}
        rows.append((modules, allowed | (procedures if "every procedure" in cells[3] else set())))
    return rows


def test_shared_modules_import_what_the_architecture_says():
    """Each of py/arbiter's shared modules imports only what its row of architecture.md says it may."""
    rows = _shared_rows()
    assert len(rows) >= 10
    extra = {
        f"{m.name}: {sorted(_arbiter_imports(m) - allowed)}"
        for modules, allowed in rows
        for m in modules
        if _arbiter_imports(m) - allowed
    }
    assert extra == set()
