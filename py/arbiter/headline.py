"""The one chance a player reads beside Roll: each procedure's main outcome, from its exact odds (api.odds puts it
in as "headline": {label: p}, one entry, so that its exact "p/q" mirrors the float like every other chance). The page
shows it as given; the full table of odds stays below it.

Each procedure declares its own (`headline(odds)`, procedures.py); most are the chance of the outcomes it counts as
its main one, built here from what it declares: the label and those outcomes.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Iterable


def chance_of(label: str, outcomes: dict[str, Fraction], main: Iterable[str]) -> dict:
    """{label: p}: the chance of any of the `main` outcomes (a success, the actor's win, a threat not coming to
    pass)."""
    main = set(main)
    return {label: sum((p for k, p in outcomes.items() if k in main), Fraction(0))}
