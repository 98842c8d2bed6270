"""Hypothesis strategies for requests, shared by the test modules (built from the published fields)."""

from __future__ import annotations

from hypothesis import strategies as st

from arbiter import fields


def for_field(f, small: bool = False):
    """A strategy for valid values of one field declaration (`small` keeps pools brute-forceable)."""
    if isinstance(f, fields.Int):
        hi = min(f.max, f.min + 4) if small else f.max
        return st.integers(f.min, hi)
    if isinstance(f, fields.IntOrWord):
        return st.one_of(st.integers(f.min, f.max), st.sampled_from(f.words))
    if isinstance(f, fields.Bool):
        return st.booleans()
    if isinstance(f, fields.Choice):
        return st.sampled_from([v for v, _ in f.options])
    if isinstance(f, fields.Text):
        return st.text(max_size=f.max_len)
    if isinstance(f, fields.IntList):
        hi = min(f.max, f.min + 4) if small else f.max
        return st.lists(st.integers(f.min, hi), min_size=f.min_len, max_size=min(f.max_len, 3) if small else f.max_len)
    if isinstance(f, fields.Group):
        inner = request(f.fields, small)
        return st.none() | inner if f.optional else inner
    if isinstance(f, fields.Records):
        return st.lists(
            request(f.fields, small), min_size=f.min_len, max_size=min(f.max_len, 3) if small else f.max_len
        )
    raise TypeError(f)


def request(field_decls: tuple, small: bool = False):
    """A strategy for whole valid requests with every field present."""
    return st.fixed_dictionaries({f.name: for_field(f, small) for f in field_decls})


def will_adds_dice(req: dict) -> dict:
    """A d10 pool request (or one side of it) as the rules take it: a Will ticked where it would add no dice
    (dots + modifier + 3 ≤ 0) is unticked, since such a request is refused (ten_again-7)."""
    for side in (req, req.get("opposed")):
        if side and side["will"] and side["pool"] + side["modifier"] + 3 <= 0:
            side["will"] = False
    return req


def ten_again_request(small: bool = False):
    """Whole valid d10 pool requests: every field present, no Will that adds no dice."""
    from arbiter import ten_again

    return request(ten_again.FIELDS, small).map(will_adds_dice)
