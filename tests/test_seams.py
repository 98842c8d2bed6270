"""The seams between py/arbiter's modules (issue 31): no module hands itself to another (`sys.modules[__name__]`:
the door api.py once passed itself to tap, links and receive, which called back into it), and no module reaches
into another's private (underscore) names (in py/, build.py and the tests' helpers: a test itself may test one);
nothing asks a procedure whether it has a member, and no procedure writes a default out; the shared modules name no
procedure (no id, no import of one, and tap.py and receive.py none of a procedure's records or words: what differs,
the procedure declares). Each scan shown to catch what it forbids, planted in a copy."""

import ast
import re
from pathlib import Path

import pytest

from arbiter import procedures

PACKAGE = Path(procedures.__file__).resolve().parent
MODULES = sorted(PACKAGE.rglob("*.py"))
ROOT = PACKAGE.parent.parent
TESTS = ROOT / "tests"
# Modules of ours beside the package's: the build's rooms, the command line, the tests' helpers (the modules of tests/
# that are not tests: what tests import from each other).
HELPERS = sorted(p for p in TESTS.rglob("*.py") if not p.name.startswith("test_") and "procedures" not in p.parts)
OTHERS = sorted((ROOT / "py" / "tools").rglob("*.py")) + [ROOT / "build.py"] + HELPERS
OURS = ("arbiter", "tools", "build", procedures.MORE, *(p.stem for p in HELPERS))


def _own_modules(tree: ast.AST) -> set[str]:
    """The names a module binds to modules of ours (`from . import tap`, `from arbiter import fields as f`,
    `import arbiter.tap as t`, `from tools import fetch`, `import page_helpers`)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").split(".")[0] in OURS):
            out |= {a.asname or a.name for a in node.names}
        elif isinstance(node, ast.Import):
            out |= {a.asname or a.name for a in node.names if a.name.split(".")[0] in OURS}
    return out


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def seams(source_text: str, filename: str = "<module>") -> list[str]:
    """Each place `source_text` passes a module itself, or reaches into another module's private name."""
    tree = ast.parse(source_text, filename)
    modules = _own_modules(tree)
    found = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Subscript)
            and isinstance(node.slice, ast.Name)
            and node.slice.id == "__name__"
            and isinstance(node.value, ast.Attribute)
            and node.value.attr == "modules"
            and isinstance(node.value.value, ast.Name)
            and node.value.value.id == "sys"
        ):
            found.append(f"{filename}:{node.lineno}: sys.modules[__name__]: the module itself, to pass it")
        elif isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").split(".")[0] in OURS):
            for a in node.names:
                if _private(a.name):
                    found.append(f"{filename}:{node.lineno}: imports the private name {a.name} of another module")
        elif (
            isinstance(node, ast.Attribute)
            and _private(node.attr)
            and isinstance(node.value, ast.Name)
            and node.value.id in modules
        ):
            found.append(f"{filename}:{node.lineno}: {node.value.id}.{node.attr}: another module's private name")
    return found


@pytest.mark.parametrize("path", MODULES + OTHERS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_module_passes_itself_or_reaches_into_anothers_private_names(path):
    assert seams(path.read_text(encoding="utf-8"), path.name) == []


@pytest.mark.parametrize(
    "planted",
    [
        "import sys\nfrom . import tap\ntap.turn(sys.modules[__name__], 'x', {})\n",
        "from . import tap\nstate = tap._read_table(None)\n",
        "from .fields import _join, parse\n",
        "from arbiter.fields import _where\n",
        "import arbiter.tap as t\nt._read_table(None)\n",
    ],
)
def test_the_seam_scan_catches_what_is_planted(planted):
    """Each forbidden seam, planted at the end of a copy of tap.py, is found; the copy itself is clean."""
    text = (PACKAGE / "tap.py").read_text(encoding="utf-8")
    assert seams(text, "tap.py") == []
    assert seams(text + "\n" + planted, "tap.py")


@pytest.mark.parametrize(
    "planted",
    [
        "from tools import fetch\nfetch._sha256(b'')\n",
        "from . import fetch\nfetch._sha256(b'')\n",
        "import page_helpers\npage_helpers._ready(None)\n",
        "from table_helpers import _store\n",
    ],
)
def test_the_seam_scan_catches_a_build_room_or_a_tests_helper_reaching_in(planted):
    """Beyond the package: a build room reaching into another's private name, or a tests' helper into another
    helper's, planted in a copy of page_helpers.py, is found."""
    text = (TESTS / "browser" / "page_helpers.py").read_text(encoding="utf-8")
    assert seams(text, "page_helpers.py") == []
    assert seams(text + "\n" + planted, "page_helpers.py")


def test_the_private_names_of_a_module_itself_are_its_own():
    """A module's own underscore names, and other objects' (self._x), are not flagged."""
    assert seams("def _f():\n    pass\n\n\nclass A:\n    def g(self):\n        return self._x, _f()\n") == []


# --- the protocol's defaults: asked of the one adapter, never written out by a procedure ---------------------------

MEMBERS = set(procedures.REQUIRED) | set(procedures.OPTIONAL)


def _outside_the_adapter(tree: ast.Module) -> ast.Module:
    tree.body = [n for n in tree.body if not (isinstance(n, ast.ClassDef) and n.name == "Adapted")]
    return tree


def asks_whether(source_text: str, filename: str = "<module>") -> list[str]:
    """Each hasattr/getattr (or vars(...)) that asks a procedure for a member of the protocol: by its name, or by a
    name not written out (which could be one)."""
    found = []
    for node in ast.walk(_outside_the_adapter(ast.parse(source_text, filename))):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            continue
        if node.func.id in ("hasattr", "getattr") and len(node.args) >= 2:
            name = node.args[1]
            if not isinstance(name, ast.Constant) or name.value in MEMBERS:
                found.append(f"{filename}:{node.lineno}: {node.func.id}(..., {ast.unparse(name)})")
        elif node.func.id == "vars":
            found.append(f"{filename}:{node.lineno}: vars(...): a module's members read by name")
    return found


def _default(node: ast.AST) -> bool:
    """An expression that is what the adapter fills anyway: None, False, (), [], {}, ([], None), (x, None)."""
    if isinstance(node, ast.Constant):
        return node.value in (None, False)
    if isinstance(node, (ast.List, ast.Dict)):
        return not (node.elts if isinstance(node, ast.List) else node.keys)
    if isinstance(node, ast.Tuple):
        return not node.elts or (len(node.elts) == 2 and _default(node.elts[1]) and _default(node.elts[0]) is not None)
    return False


def _the_default(name: str, value: ast.expr) -> bool:
    """`value` is the very value the adapter gives `name` (its default words: LEFT_OUT's), where it is a constant."""
    try:
        default = procedures.OPTIONAL[name](None)
        return not callable(default) and ast.literal_eval(value) == default
    except (AttributeError, TypeError, ValueError, SyntaxError):
        return False  # a default read from the procedure (KIND: its ID), or a value that is no literal


def writes_a_default(source_text: str, filename: str = "<procedure>") -> list[str]:
    """Each optional member of the protocol a procedure's module writes out as its default: a function that only
    returns it, or a name bound to it."""
    found = []
    for node in ast.parse(source_text, filename).body:
        if isinstance(node, ast.FunctionDef) and node.name in procedures.OPTIONAL:
            body = [s for s in node.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
            if (
                len(body) == 1
                and isinstance(body[0], ast.Return)
                and (body[0].value is None or _default(body[0].value))
            ):
                found.append(f"{filename}:{node.lineno}: {node.name}() only returns the adapter's default")
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            named = [t.id for t in targets if isinstance(t, ast.Name) and t.id in procedures.OPTIONAL]
            if named and (_default(node.value) or _the_default(named[0], node.value)):
                found.append(f"{filename}:{node.lineno}: {named[0]} is the adapter's default, written out")
    return found


def _procedure_files() -> list[Path]:
    out = set()
    for m in procedures.PROCEDURES.values():
        path = Path(m.__file__).resolve()
        out |= set(path.parent.rglob("*.py")) if path.name == "__init__.py" else {path}
    return sorted(out)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(PACKAGE).as_posix())
def test_no_module_asks_a_procedure_whether_it_has_a_member(path):
    """Outside the adapter (procedures.Adapted), nothing asks hasattr/getattr of a protocol member: the adapter has
    every one."""
    assert asks_whether(path.read_text(encoding="utf-8"), path.name) == []


@pytest.mark.parametrize(
    "path", _procedure_files(), ids=lambda p: p.name if p.parent == PACKAGE else f"{p.parent.name}/{p.name}"
)
def test_no_procedure_writes_out_a_default(path):
    assert writes_a_default(path.read_text(encoding="utf-8"), path.name) == []


@pytest.mark.parametrize(
    "planted",
    [
        "def f(m):\n    return m.note(1, 2, 3) if hasattr(m, 'note') else None\n",
        "def f(m):\n    return getattr(m, 'CHOICES', ())\n",
        "def f(m, name):\n    return getattr(m, name)\n",
        "def f(m):\n    return vars(m).get('SEED')\n",
    ],
)
def test_the_member_scan_catches_what_is_planted(planted):
    text = (PACKAGE / "engine.py").read_text(encoding="utf-8")
    assert asks_whether(text, "engine.py") == []
    assert asks_whether(text + "\n\n" + planted, "engine.py")


@pytest.mark.parametrize(
    "planted",
    [
        'def choice_odds(roll, choice):\n    """No suggestion."""\n    return None\n',
        "def what_if(req):\n    return []\n",
        "def follows(roll, earned):\n    return [], None\n",
        "def shared_action(action, who, marked):\n    return action, None\n",
        "def request_from_sheet(sheet, choices):\n    return\n",
        "CHOICES: tuple = ()\n",
        "TABLE = {}\n",
        "PAYERS = ()\n",
        "LEFT_OUT = 'Left out on this table'\n",
    ],
)
def test_the_default_scan_catches_what_is_planted(planted):
    text = (PACKAGE / "two_dice" / "sheet.py").read_text(encoding="utf-8")
    assert writes_a_default(text, "sheet.py") == []
    assert writes_a_default(text + "\n\n" + planted, "sheet.py")


# --- the shared modules name no procedure: what differs, the procedure declares --------------------------------------

SHARED = ("tap", "receive", "records", "engine", "links", "api", "chances")
IDS = set(procedures.PROCEDURES)
PACKAGES = {m.__name__ for m in procedures.PROCEDURES.values()}
# A procedure's own records (its RECORDS: the Scheme, the Price's marks, a struggle), which the table's tap and a
# shared roll's replay word nowhere: the payers a procedure declares (stored.Payer) carry their words.
RECORD_NAMES = {r.name for m in procedures.PROCEDURES.values() for r in m.RECORDS}


def _docstrings(tree: ast.AST) -> set[int]:
    return {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }


def _imported(node: ast.AST, package: str = "arbiter") -> list[str]:
    """The modules an import statement of a module of `package` names, in full (`from . import threat` names
    arbiter.threat; `from .threat.price import X`, arbiter.threat.price and arbiter.threat.price.X)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    base = ".".join([package] * (node.level > 0) + ([node.module] if node.module else []))
    return [base] + [f"{base}.{a.name}" for a in node.names]


def names_a_procedure(source_text: str, filename: str = "<module>", words: set[str] = frozenset()) -> list[str]:
    """Each place a shared module names a procedure: an import of a procedure's module or package, a string (not a
    docstring) holding a procedure's id as a word (an id that is also a member of the protocol, `luck`, only where
    it is compared or looked up: the protocol's and the log's "luck" are not the procedure), or one of `words` (a
    procedure's records) as a word."""
    tree = ast.parse(source_text, filename)
    docs = _docstrings(tree)
    plain = {i for i in IDS if i not in MEMBERS}
    asked: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            asked |= {id(n) for n in [node.left, *node.comparators]}
            asked |= {id(e) for n in node.comparators if isinstance(n, (ast.Tuple, ast.List, ast.Set)) for e in n.elts}
        elif isinstance(node, ast.Subscript):
            asked.add(id(node.slice))
    found = []
    for node in ast.walk(tree):
        for name in _imported(node):
            if any(name == p or name.startswith(p + ".") for p in PACKAGES):
                found.append(f"{filename}:{node.lineno}: imports the procedure {name}")
                break
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            said = set(re.findall(r"[a-z0-9_]+", node.value.lower()))
            named = said & plain or (said & IDS if id(node) in asked and node.value in IDS else set()) or said & words
            if named:
                found.append(f"{filename}:{node.lineno}: {node.value[:60]!r} names {', '.join(sorted(named))}")
    return found


@pytest.mark.parametrize("name", SHARED)
def test_no_shared_module_names_a_procedure(name):
    """The shared modules hold no procedure's id and import no procedure (procedures.py, the registry, is where
    they are listed); the table's tap and a shared roll's replay also name none of a procedure's records: the
    Scheme's words are ability_test's PAYERS, the Price's threat's LEFT_OUT and shared_action."""
    words = RECORD_NAMES if name in ("tap", "receive") else set()
    assert names_a_procedure((PACKAGE / f"{name}.py").read_text(encoding="utf-8"), f"{name}.py", words) == []


@pytest.mark.parametrize(
    "planted",
    [
        "from . import threat\n",
        "from .ability_test.table import SCHEME\n",
        "import arbiter.ten_again\n",
        "def f(system):\n    return system == 'two_dice'\n",
        "def f(m):\n    return m.ID in ('arbitration',)\n",
        "def f():\n    return procedures.PROCEDURES['luck']\n",
        "WORDS = 'a Threat Roll: see threat-18'\n",
        "HOLDER = 'The Scheme'\n",
        "LEFT = 'Price refused: pick again'\n",
    ],
)
def test_the_procedure_scan_catches_what_is_planted(planted):
    """Each way of naming a procedure, planted at the end of a copy of tap.py, is found; the copy itself is clean,
    and the log's own "luck" field (records.py) is not the procedure."""
    text = (PACKAGE / "tap.py").read_text(encoding="utf-8")
    assert names_a_procedure(text, "tap.py", RECORD_NAMES) == []
    assert names_a_procedure(text + "\n\n" + planted, "tap.py", RECORD_NAMES)
    assert names_a_procedure((PACKAGE / "records.py").read_text(encoding="utf-8"), "records.py") == []
