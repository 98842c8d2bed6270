"""The arbiter wheel: pure Python, written with zipfile, the same bytes from the same sources."""

from __future__ import annotations

import base64
import hashlib
import tomllib
import zipfile
from pathlib import Path

from . import PROCEDURES_NAMESPACE, ROOT

# Every wheel entry gets this timestamp, so the same sources always give the same bytes.
WHEEL_DATE = (1980, 1, 1, 0, 0, 0)


def record_hash(data: bytes) -> str:
    """A RECORD line's hash of `data`: "sha256=" and its urlsafe base64 without padding."""
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def package_files(src: Path) -> list[Path]:
    """The files of the package at `src`, sorted: no bytecode, no hidden files, no editor backups."""
    return sorted(
        p
        for p in src.rglob("*")
        if p.is_file()
        and "__pycache__" not in p.parts
        and p.suffix not in (".pyc", ".pyo")
        and not p.name.startswith(".")
        and not p.name.endswith("~")
    )


def procedure_files(folders: list[Path]) -> list[tuple[str, Path]]:
    """The wheel's entries for procedures from outside arbiter: each package (a folder with __init__.py) or module of
    `folders`, in the namespace arbiter.procedures looks in (a name in an earlier folder hides a later one's)."""
    out: dict[str, list[tuple[str, Path]]] = {}
    for folder in folders:
        for entry in sorted(folder.iterdir()):
            if entry.name.startswith(("_", ".")) or entry.stem in out:
                continue
            if (entry / "__init__.py").is_file():
                out[entry.stem] = [
                    (f"{PROCEDURES_NAMESPACE}/{entry.name}/{p.relative_to(entry).as_posix()}", p)
                    for p in package_files(entry)
                ]
            elif entry.suffix == ".py" and entry.is_file():
                out[entry.stem] = [(f"{PROCEDURES_NAMESPACE}/{entry.name}", entry)]
    return [item for name in sorted(out) for item in out[name]]


def build_wheel(
    out_dir: Path,
    src: Path = ROOT / "py" / "arbiter",
    pyproject: Path = ROOT / "pyproject.toml",
    procedures: list[Path] = (),
) -> Path:
    """Write the pure-Python wheel of `src` into `out_dir`, with the procedures of the folders `procedures` (build.py
    --procedures): same sources, same bytes."""
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    name, version = project["name"], project["version"]
    dist_info = f"{name}-{version}.dist-info"

    metadata = ["Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}"]
    if "description" in project:
        metadata.append(f"Summary: {project['description']}")
    if "requires-python" in project:
        metadata.append(f"Requires-Python: {project['requires-python']}")
    metadata += [f"Requires-Dist: {d}" for d in project.get("dependencies", [])]
    files: list[tuple[str, bytes]] = [
        (f"{src.name}/{p.relative_to(src).as_posix()}", p.read_bytes()) for p in package_files(src)
    ]
    files += [(name, p.read_bytes()) for name, p in procedure_files(list(procedures))]
    files.append((f"{dist_info}/METADATA", ("\n".join(metadata) + "\n").encode()))
    files.append(
        (
            f"{dist_info}/WHEEL",
            ("Wheel-Version: 1.0\nGenerator: arbiter build.py\nRoot-Is-Purelib: true\nTag: py3-none-any\n").encode(),
        )
    )
    scripts = project.get("scripts", {})
    if scripts:
        lines = ["[console_scripts]"] + [f"{k} = {v}" for k, v in sorted(scripts.items())]
        files.append((f"{dist_info}/entry_points.txt", ("\n".join(lines) + "\n").encode()))
    record = "".join(f"{path},{record_hash(data)},{len(data)}\n" for path, data in files)
    files.append((f"{dist_info}/RECORD", (record + f"{dist_info}/RECORD,,\n").encode()))

    out_dir.mkdir(parents=True, exist_ok=True)
    wheel = out_dir / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        for path, data in files:
            info = zipfile.ZipInfo(path, date_time=WHEEL_DATE)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, data, compresslevel=9)
    return wheel
