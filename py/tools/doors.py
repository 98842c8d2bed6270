"""arbiter.api's doors (api.DOORS) written into the built worker and its client, as squoosh generates its worker's
method list: static/engine/worker.js passes on only these methods, and static/engine/client.js offers each as a
method of
`arbiter` (camelCased: odds_after as arbiter.oddsAfter). Each file holds one `/* DOORS */ [] /* DOORS */`, filled in
dist/ only; the list is written nowhere else."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from . import ROOT, BuildError

FILES = ("static/engine/worker.js", "static/engine/client.js")
MARKER = re.compile(r"/\* DOORS \*/.*?/\* DOORS \*/", re.DOTALL)


def engine_doors() -> list[str]:
    """arbiter.api.DOORS from py/ in this CPython."""
    sys.path.insert(0, str(ROOT / "py"))
    try:
        from arbiter import api

        return list(api.DOORS)
    finally:
        sys.path.remove(str(ROOT / "py"))


def write_doors(site: Path, doors: list[str]) -> None:
    """Fill the DOORS marker of `site`'s worker and client with `doors`."""
    written = f"/* DOORS */ {json.dumps(doors)} /* DOORS */"
    for name in FILES:
        path = site / name
        text = path.read_text(encoding="utf-8")
        if len(MARKER.findall(text)) != 1:
            raise BuildError(f"{name} must hold exactly one /* DOORS */ … /* DOORS */")
        path.write_text(MARKER.sub(lambda _: written, text), encoding="utf-8")
