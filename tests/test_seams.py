"""The seams between py/arbiter's modules (issue 31): no module hands itself to another (`sys.modules[__name__]`:
the door api.py once passed itself to tap, links and receive, which called back into it), and no module reaches
into another's private (underscore) names; each scan shown to catch what it forbids, planted in a copy."""

import ast
from pathlib import Path

import pytest

from arbiter import procedures

PACKAGE = Path(procedures.__file__).resolve().parent
MODULES = sorted(PACKAGE.rglob("*.py"))


def _own_modules(tree: ast.AST) -> set[str]:
    """The names a module binds to modules of arbiter (`from . import tap`, `from arbiter import fields as f`,
    `import arbiter.tap as t`)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").split(".")[0] == "arbiter"):
            out |= {a.asname or a.name for a in node.names}
        elif isinstance(node, ast.Import):
            out |= {a.asname or a.name for a in node.names if a.name.split(".")[0] == "arbiter"}
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
        elif isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("arbiter")):
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


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(PACKAGE).as_posix())
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


def test_the_private_names_of_a_module_itself_are_its_own():
    """A module's own underscore names, and other objects' (self._x), are not flagged."""
    assert seams("def _f():\n    pass\n\n\nclass A:\n    def g(self):\n        return self._x, _f()\n") == []
