"""Shared by the ten_again tests: requests and scripted rolls, and an independent, straightforward reading of the
text (every face enumerated) to check the rules and the exact odds against."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import strategies
from arbiter import fields, ten_again
from scripted import ScriptedDice

TAIL = Fraction(1, 10**15)
LARGEST = {
    "pool": 30,
    "modifier": 10,
    "will": True,
    "unskilled": False,
    "risky": True,
    "initiative": False,
    "required": 20,
}
LARGEST_OPPOSED = dict(LARGEST, opposed={k: v for k, v in LARGEST.items() if k != "required"})


def parse(**request) -> dict:
    return fields.parse(ten_again.FIELDS, request)


def roll(faces, **request) -> dict:
    """Roll `request` with scripted faces, checking that every scripted face was used."""
    dice = ScriptedDice(*faces)
    result = ten_again.roll(parse(**request), dice)
    assert dice.left == []
    return result


def act(result, action, faces) -> dict:
    dice = ScriptedDice(*faces)
    out = ten_again.act(result, action, dice)
    assert dice.left == []
    return out


# --- an independent, straightforward reading of the text --------------------------------------------------


def evaluate(faces, rerolls, threshold, eats):
    """Successes, 1s left and 10s left: count, let 1s eat 10s first and then other successes, add re-rolls."""
    ones, tens = faces.count(1), faces.count(10)
    others = sum(1 for f in faces if threshold <= f < 10)
    if eats:
        eat_tens = min(ones, tens)
        ones, tens = ones - eat_tens, tens - eat_tens
        eat_others = min(ones, others)
        ones, others = ones - eat_others, others - eat_others
    return tens + others + sum(1 for f in rerolls if f >= threshold), ones, tens


def chain_law(threshold, depth):
    """P(a 10's chain of extra dice adds j successes), exact for j <= depth."""
    miss, hit, ten = Fraction(threshold - 1, 10), Fraction(10 - threshold, 10), Fraction(1, 10)
    return [miss] + [ten ** (j - 1) * hit + ten**j * miss for j in range(1, depth + 1)]


def brute_law(n, threshold, eats, depth=30):
    """Successes and botch by enumerating every face of n d10 (re-roll chains in closed form)."""
    ways = Counter()
    botch = Fraction(0)
    for faces in itertools.product(range(1, 11), repeat=n):
        successes, ones_left, tens_left = evaluate(list(faces), [], threshold, eats)
        ways[successes, tens_left] += 1
        botch += Fraction(successes == 0 and ones_left > 0, 10**n)
    chain = chain_law(threshold, depth)
    dist = [Fraction(0)] * (depth + 1)
    for (successes, tens_left), w in ways.items():
        part = [Fraction(1)] + [Fraction(0)] * depth
        for _ in range(tens_left):
            part = [sum(part[i] * chain[j - i] for i in range(j + 1)) for j in range(depth + 1)]
        for j in range(depth + 1 - successes):
            dist[j + successes] += Fraction(w, 10**n) * part[j]
    return dist, botch


requests = strategies.ten_again_request()
"""Any request (Hypothesis)."""
