"""Goodness of fit for `roll` against `odds`: a chi-square test at a fixed seed, so it cannot flake."""

from __future__ import annotations

import math
from collections import Counter
from typing import Hashable, Mapping

# Reject at p < 0.001 only: with a fixed seed the verdict is fixed; a wrong engine misses by far more.
_Z = 3.090232306167813  # upper 0.001 quantile of the standard normal


def critical(df: int) -> float:
    """Wilson–Hilferty approximation of the chi-square 0.999 quantile."""
    a = 2.0 / (9.0 * df)
    return df * (1.0 - a + _Z * math.sqrt(a)) ** 3


def chi_square(observed: Counter, probs: Mapping[Hashable, float], n: int) -> tuple[float, int]:
    """The statistic and degrees of freedom, pooling bins expected below 5 into one."""
    unknown = set(observed) - {k for k, p in probs.items() if p > 0}
    assert not unknown, f"rolled outcomes that odds() gives probability 0: {unknown}"
    bins, pooled_o, pooled_e = [], 0, 0.0
    for key, p in probs.items():
        e = p * n
        if e < 5:
            pooled_o += observed.get(key, 0)
            pooled_e += e
        else:
            bins.append((observed.get(key, 0), e))
    if pooled_e > 0:
        bins.append((pooled_o, pooled_e))
    stat = sum((o - e) ** 2 / e for o, e in bins)
    return stat, max(1, len(bins) - 1)


def assert_fits(observed: Counter, probs: Mapping[Hashable, float], n: int) -> None:
    """Fail when `observed` (n rolls) is implausible under `probs` at the 0.001 level."""
    assert abs(sum(probs.values()) - 1) < 1e-9
    assert sum(observed.values()) == n
    stat, df = chi_square(observed, probs, n)
    assert stat < critical(df), f"chi-square {stat:.1f} on {df} df exceeds {critical(df):.1f}: {observed} vs {probs}"
