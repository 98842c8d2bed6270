"""How lucky the table has been: the roll log's luck (each entry's `luck`, api.luck's answer kept at roll time)
summed up per character and per procedure, for the Table's luck view. The page only draws what this returns.

Per group, oldest roll first: the number of rolls, the mean percentile (½ is average luck), the expected number of
successes (the sum of each roll's chance of success) against the actual number, how many rolls were luckier than
average and how many less lucky, where the mean stands against its band, and each roll's point for the chart: its
percentile, the running mean, and the band that chance alone keeps the running mean in about 9 times in 10.

The band: by the central limit theorem the mean of k independent percentiles is close to normal with mean ½ (each
roll's percentile has mean exactly ½, chances.luck) and variance σ²/k. A roll's percentile (P(worse) + ½ P(same))
has variance (1 − Σ p³)/12 over its ranks' chances p, at most 1/12 (a continuous uniform); the band uses 1/12, so it
is never narrower than the 90% band of the roll's own law: ½ ± z·√(1/(12k)), z the normal's 95% point, cut to [0, 1].
The sums (mean, expected successes) are exact over the floats kept, and given also as "p/q".
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from statistics import NormalDist
from typing import Any

from .errors import RulesError

NINE_IN_TEN = NormalDist().inv_cdf(0.95)  # the band holds the middle 90%: 5% below, 5% above
VARIANCE_MAX = Fraction(1, 12)  # the largest variance of a percentile, a continuous uniform's
AVERAGE = Fraction(1, 2)  # every roll's percentile has mean ½ (chances.luck)


def band(k: int) -> tuple[float, float]:
    """The running mean's band after `k` rolls: what chance alone gives about 9 times in 10."""
    half = NINE_IN_TEN * math.sqrt(VARIANCE_MAX / k)
    return max(0.0, 0.5 - half), min(1.0, 0.5 + half)


def _chance(value: Any, path: str) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise RulesError(f"{path} must be a chance from 0 to 1, got {value!r:.100}")
    return Fraction(value)


def _who(value: Any, path: str) -> dict | None:
    if value is None:
        return None
    if not isinstance(value, dict) or not isinstance(value.get("id"), str) or not isinstance(value.get("name"), str):
        raise RulesError(f"{path} must be null or a character {{id, name}}, got {json.dumps(value)[:100]}")
    return {"id": value["id"], "name": value["name"]}


SOURCES = ("app", "table")  # whose dice a log entry's faces were (records.LOG's "source")


def _source(value: Any, path: str) -> str:
    if value is None:
        return "app"  # an entry kept before the log said whose dice
    if value not in SOURCES:
        raise RulesError(f"{path} must be one of {', '.join(SOURCES)}, got {value!r:.100}")
    return value


def summary(entries: Any, systems: dict[str, str], most: int) -> dict:
    """{"groups": [...]} from log entries (oldest first), one group per character (null: nobody), procedure and dice
    source ("app", or "table": the group's own dice typed in; an entry without one is the app's), in the order each
    first rolled; an entry without "luck" (a follow-up, a note, one kept before luck was) is left out.
    `systems`: procedure id -> title; `most`: the most entries read."""
    if not isinstance(entries, list) or len(entries) > most:
        raise RulesError(f"'entries' must be a list of at most {most} log entries")
    groups: dict[tuple, dict] = {}
    for i, e in enumerate(entries):
        path = f"'entries[{i}]"
        if not isinstance(e, dict):
            raise RulesError(f"{path}' must be a log entry (an object)")
        luck = e.get("luck")
        if luck is None:
            continue
        if e.get("system") not in systems:
            raise RulesError(f"{path}.system' must be one of {', '.join(systems)}, got {e.get('system')!r:.100}")
        if not isinstance(luck, dict) or not isinstance(luck.get("success"), bool):
            raise RulesError(f"{path}.luck' must be api.luck's answer (percentile, p_success, success…)")
        who = _who(e.get("character"), f"{path}.character'")
        percentile = _chance(luck.get("percentile"), f"{path}.luck.percentile'")
        p_success = _chance(luck.get("p_success"), f"{path}.luck.p_success'")
        source = _source(e.get("source"), f"{path}.source'")
        key = (who and who["id"], e["system"], source)
        g = groups.setdefault(
            key,
            {
                "character": who,
                "system": e["system"],
                "title": systems[e["system"]],
                "source": source,
                "sum": Fraction(0),
                "expected": Fraction(0),
                "successes": 0,
                "luckier": 0,
                "unluckier": 0,
                "points": [],
            },
        )
        if who:
            g["character"] = who  # its latest name
        g["sum"] += percentile
        g["expected"] += p_success
        g["successes"] += luck["success"]
        g["luckier"] += percentile > AVERAGE
        g["unluckier"] += percentile < AVERAGE
        k = len(g["points"]) + 1
        low, high = band(k)
        g["points"].append(
            {
                "time": e.get("time"),
                "percentile": float(percentile),
                "mean": float(g["sum"] / k),
                "low": low,
                "high": high,
            }
        )
    out = []
    for g in groups.values():
        n = len(g["points"])
        mean = g.pop("sum") / n
        expected = g.pop("expected")
        low, high = band(n)
        out.append(
            {
                **g,
                "rolls": n,
                "mean_percentile": float(mean),
                "expected_successes": float(expected),
                "band": [low, high],
                "standing": "below" if mean < low else "above" if mean > high else "within",
                "exact": {"mean_percentile": _str(mean), "expected_successes": _str(expected)},
            }
        )
    return {"groups": out}


def _str(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def table_faces(entries: Any, sides: dict[str, int], most: int) -> list[dict]:
    """The table dice of the log (entries oldest first), the roller's own faces ("own": not a contest's other side's,
    not the Narrator's Scheme die) of each entry whose dice were the table's ("source": "table"), gathered per
    character (null: nobody) and die kind, in the order each first rolled: [{"character", "sides", "faces"}].
    `sides`: procedure id -> the die it rolls; `most`: the most entries read."""
    if not isinstance(entries, list) or len(entries) > most:
        raise RulesError(f"'entries' must be a list of at most {most} log entries")
    groups: dict[tuple, dict] = {}
    for i, e in enumerate(entries):
        path = f"'entries[{i}]"
        if not isinstance(e, dict):
            raise RulesError(f"{path}' must be a log entry (an object)")
        if _source(e.get("source"), f"{path}.source'") != "table" or not e.get("own"):
            continue
        if e.get("system") not in sides:
            raise RulesError(f"{path}.system' must be one of {', '.join(sides)}, got {e.get('system')!r:.100}")
        faces = e["own"]
        if not isinstance(faces, list) or not all(type(f) is int for f in faces):
            raise RulesError(f"{path}.own' must be a list of faces (whole numbers)")
        who = _who(e.get("character"), f"{path}.character'")
        g = groups.setdefault((who and who["id"], sides[e["system"]]), {"character": who, "sides": sides[e["system"]]})
        if who:
            g["character"] = who  # its latest name
        g.setdefault("faces", []).extend(faces)
    return list(groups.values())
