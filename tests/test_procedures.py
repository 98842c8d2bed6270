"""procedures.py: one registry, and a procedure lives in one place
(docs/contributing.md#variation-by-protocol-not-by-name).

Every registered procedure implements the protocol shared code asks of it; and the shared modules of py/arbiter
(every module that is not a procedure's) never ask a procedure's id what to do. The scan reads their syntax trees (no
docstring or comment counts) for a comparison with a procedure's id (`m.ID == "threat"`, `system == "luck"`,
`m.ID in ("luck", ...)`, a `case` of one), an id or `system` compared with any literal, a dict keyed by procedure
ids, the registry indexed by one, and a procedure module imported by name compared or asked its ID (`m is threat`,
`threat.ID`)."""

from __future__ import annotations

import ast
import inspect
import shutil
from fractions import Fraction
from pathlib import Path

import pytest

from arbiter import chances, fields, procedures
from arbiter.dice import source
from arbiter.procedures import PROCEDURES, PROTOCOL

PACKAGE = Path(procedures.__file__).resolve().parent
IDS = set(PROCEDURES)
MODULE_NAMES = {m.__name__.rsplit(".", 1)[-1] for m in PROCEDURES.values()}
ARITY = {"standing": 1, "odds_after": 2, "luck": 1, "headline": 1}
OPTIONAL_ARITY = {
    "choice_odds": 2,
    "what_if": 1,
    "note": 3,
    "request_from_sheet": 2,
    "costs": 2,
    "follows": 2,
    "earned": 1,
    "did": 3,
    "shared_action": 3,
    "faces": 1,
}


def _procedure_paths() -> set[Path]:
    """Each procedure's module file, or its package's folder."""
    out = set()
    for m in PROCEDURES.values():
        path = Path(m.__file__).resolve()
        out.add(path.parent if path.name == "__init__.py" else path)
    return out


def shared_modules() -> list[Path]:
    """Every module of py/arbiter that is not a procedure's (nor inside a procedure's package)."""
    own = _procedure_paths()
    return sorted(p for p in PACKAGE.rglob("*.py") if p not in own and not any(d in own for d in p.parents))


def _ids_in(node: ast.AST) -> list[str]:
    """The procedure ids a literal holds: a string, or a tuple, list or set of them."""
    if isinstance(node, ast.Constant) and node.value in IDS:
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [i for e in node.elts for i in _ids_in(e)]
    return []


def _is_literal(node: ast.AST) -> bool:
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return all(_is_literal(e) for e in node.elts)
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _names_a_procedure(node: ast.AST) -> bool:
    """`ID`, `m.ID` or `system`: a procedure's id."""
    return (isinstance(node, ast.Name) and node.id in ("ID", "system")) or (
        isinstance(node, ast.Attribute) and node.attr == "ID"
    )


def _registry(node: ast.AST) -> bool:
    """`PROCEDURES`, `KINDS` or `procedures.PROCEDURES`: the registry."""
    name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
    return name in ("PROCEDURES", "KINDS")


def _imported_procedures(tree: ast.AST) -> set[str]:
    """The names a module binds to procedure modules (`from . import threat`, `from arbiter import luck as lk`,
    `import arbiter.threat as t`)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "arbiter") == "arbiter":
            out |= {a.asname or a.name for a in node.names if a.name in MODULE_NAMES}
        elif isinstance(node, ast.Import):
            out |= {a.asname for a in node.names if a.asname and a.name.split(".")[-1] in MODULE_NAMES}
    return out


def by_name(source_text: str, filename: str = "<shared>") -> list[str]:
    """Each place `source_text` knows a procedure by its name, as "file:line: what"."""
    tree = ast.parse(source_text, filename)
    modules = _imported_procedures(tree)
    found = []

    def hit(node: ast.AST, what: str) -> None:
        found.append(f"{filename}:{node.lineno}: {what}")

    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            ids = [i for o in operands for i in _ids_in(o)]
            if ids:
                hit(node, f"compared with the procedure id {ids[0]!r}")
            elif any(map(_names_a_procedure, operands)) and any(map(_is_literal, operands)):
                hit(node, "a procedure's id (ID, system) compared with a literal")
            elif any(isinstance(o, ast.Name) and o.id in modules for o in operands):
                hit(node, "compared with a procedure module imported by name")
        elif isinstance(node, ast.Dict):
            ids = [i for k in node.keys if k is not None for i in _ids_in(k)]
            if ids:
                hit(node, f"a dict keyed by the procedure id {ids[0]!r}")
        elif isinstance(node, ast.Subscript) and _ids_in(node.slice) and _registry(node.value):
            hit(node, f"the registry indexed by the procedure id {_ids_in(node.slice)[0]!r}")
        elif isinstance(node, ast.MatchValue) and _ids_in(node.value):
            hit(node.value, f"a case of the procedure id {_ids_in(node.value)[0]!r}")
        elif (
            isinstance(node, ast.Attribute)
            and node.attr == "ID"
            and isinstance(node.value, ast.Name)
            and node.value.id in modules
        ):
            hit(node, f"{node.value.id}.ID: a procedure's id by its module's name")
        elif isinstance(node, ast.keyword) and node.arg in IDS:
            hit(node.value, f"the procedure id {node.arg!r} as a keyword (dict(threat=...))")
    return found


def scan(path: Path) -> list[str]:
    """Each place the module at `path` knows a procedure by its name."""
    return by_name(path.read_text(encoding="utf-8"), path.name)


def test_the_shared_modules_are_the_ones_expected():
    """The scan reads every shared module (the door, chances, headline, records, the registry...) and no procedure's."""
    names = {p.relative_to(PACKAGE).as_posix() for p in shared_modules()}
    assert {
        "api.py",
        "engine.py",
        "tap.py",
        "links.py",
        "receive.py",
        "chances.py",
        "headline.py",
        "records.py",
        "fields.py",
        "stored.py",
        "tally.py",
        "dice.py",
        "tone.py",
        "errors.py",
        "procedures.py",
    } <= names
    assert not names & {"threat.py", "luck.py", "arbitration.py", "two_dice.py"}
    assert not any(n.startswith(("ten_again/", "ability_test/")) for n in names)


@pytest.mark.parametrize("path", shared_modules(), ids=lambda p: p.relative_to(PACKAGE).as_posix())
def test_no_shared_module_knows_a_procedure_by_name(path):
    """A shared module asks the procedure's protocol, never its id (no `if m.ID == ...`, no per-id table)."""
    assert scan(path) == []


PLANTED = [
    'if m.ID == "threat":\n    pass\n',
    'if roll["outcome"] and system == "luck":\n    pass\n',
    'if ID != "arbitration":\n    pass\n',
    'if m.ID in ("luck", "threat"):\n    pass\n',
    'if "two_dice" == m.ID:\n    pass\n',
    'if m.ID == "thret":  # a typo is still a name\n    pass\n',
    '_WIN = {"two_dice": "Actor wins", "ten_again": "Actor has successes left"}\n',
    '_NOT = dict(arbitration=("failure", "fumble"))\n',
    'm = PROCEDURES["ten_again"]\n',
    'match system:\n    case "ability_test":\n        pass\n',
    "from . import threat\nif m is threat:\n    pass\n",
    "from . import threat as t\nx = t.ID\n",
    "from arbiter import luck\nif luck == m:\n    pass\n",
]


@pytest.mark.parametrize("module", ["chances.py", "headline.py", "api.py", "tally.py"])
@pytest.mark.parametrize("planted", PLANTED)
def test_the_scan_catches_a_comparison_planted_in_a_copy(tmp_path, module, planted):
    """The guard can fail: a copy of a shared module with a procedure known by name in it is caught, the copy
    without it is not."""
    copy = tmp_path / module
    shutil.copy(PACKAGE / module, copy)
    assert scan(copy) == []
    lines = len(copy.read_text(encoding="utf-8").splitlines())
    copy.write_text(copy.read_text(encoding="utf-8") + "\n\n" + planted, encoding="utf-8")
    assert any(int(hit.split(":")[1]) > lines for hit in scan(copy))


def test_the_scan_leaves_words_and_fields_alone():
    """Docstrings, a field named like a procedure (the log's "luck") and a procedure's own id compared with a roll's
    "system" are not a procedure known by name."""
    text = (
        '"""luck: compare with "threat"."""\n'
        "def f(m, roll, entry):\n"
        '    """If system == "luck" ..."""\n'
        '    if roll.get("system") != m.ID:\n'
        '        return entry.get("luck"), {**entry, "note": "threat"}\n'
    )
    assert by_name(text) == []


# --- the protocol: every procedure declares what shared code needs ------------------------------------------------


def test_one_registry():
    """engine and records use the one registry, and no other shared module imports a procedure (no second registry;
    records.py gathers the procedures' own RECORDS)."""
    from arbiter import engine, records

    for path in shared_modules():
        if path.name != "procedures.py":
            assert _imported_procedures(ast.parse(path.read_text(encoding="utf-8"))) == set(), path.name
    assert engine.PROCEDURES is PROCEDURES and records.PROCEDURES is PROCEDURES
    own = [i for i, m in PROCEDURES.items() if not m.__name__.startswith(procedures.MORE)]  # not --procedures'
    assert own == ["arbitration", "two_dice", "threat", "luck", "ten_again", "ability_test"]
    assert procedures.kind(PROCEDURES["luck"]) is PROCEDURES["threat"]
    assert [i for i in records.KINDS if i in own] == [i for i in own if i != "luck"]


@pytest.mark.parametrize("system", list(PROCEDURES))
def test_every_procedure_implements_the_protocol(system):
    """Each procedure's module has every function of the protocol, and through the adapter every optional one too
    (its own or the default), each taking the arguments shared code passes."""
    m = PROCEDURES[system]
    assert set(PROTOCOL) == set(ARITY)
    assert set(OPTIONAL_ARITY) == {n for n in procedures.OPTIONAL if n.islower()}
    for name, arity in {**ARITY, **OPTIONAL_ARITY}.items():
        fn = vars(m.module).get(name) if name in ARITY else vars(m)[name]
        assert callable(fn), f"{system} has no {name}()"
        params = [p for p in inspect.signature(fn).parameters.values() if p.default is inspect.Parameter.empty]
        assert len(params) == arity, f"{system}.{name} takes {len(params)} arguments"


@pytest.mark.parametrize("system", list(PROCEDURES))
def test_every_procedure_answers_through_the_protocol(system):
    """For a roll of its form's defaults, each procedure's answers have the protocol's shapes: the standing in its
    odds' shape with a certain outcome, a luck with its order and chances, one headline chance, a list of what-ifs."""
    m = PROCEDURES[system]
    req = fields.parse(m.FIELDS, fields.defaults(m.FIELDS))
    roll = m.roll(req, source(7))
    exact = m.odds(req)
    standing = chances.standing(m, roll)
    assert standing.keys() <= exact.keys()
    leaves = standing.get("outcomes") or standing["threats"][0]
    assert sorted(leaves.values()) == [0] * (len(leaves) - 1) + [1]
    luck = chances.luck(m, roll)
    assert {"order", "outcome", "rank", "p_worse", "p_same", "p_outcome", "p_success", "success"} <= luck.keys()
    assert 0 <= luck["p_worse"] + luck["p_same"] <= 1
    [(label, p)] = m.headline(exact).items()
    assert isinstance(label, str) and label and isinstance(p, Fraction) and 0 <= p <= 1
    assert isinstance(chances.what_if(m, req), list)
    assert all(isinstance(e, dict) for _, e in chances.choice_odds(m, roll))
