"""Shared dice helpers: injected randomness and exact count polynomials."""

import itertools
import random
import re
from collections import Counter
from fractions import Fraction

import pytest

from arbiter import RulesError, dice
from scripted import ScriptedDice


def test_roll_uses_the_given_source():
    """Dice come from the injected source, in order."""
    src = ScriptedDice(4, 1, 6)
    assert dice.roll(src, 3) == (4, 1, 6)
    assert src.left == []


def test_seeded_source_repeats_and_unseeded_is_system_random():
    """A seed gives a reproducible source; no seed gives the operating system's random source."""
    assert dice.roll(dice.source(7), 10) == dice.roll(dice.source(7), 10)
    assert isinstance(dice.source(None), random.SystemRandom)


@pytest.mark.parametrize("seed", [-1, 2**63, True, 1.5, "7"])
def test_bad_seed_is_refused(seed):
    """A seed must be a whole number in range."""
    with pytest.raises(RulesError, match="'seed'"):
        dice.source(seed)


def test_a_thrower_is_handed_each_batch_whole_with_its_reason():
    """A source with throw() gets each batch whole, with why it is rolled; a batch of no dice is not thrown."""
    src = ScriptedDice(4, 1, 6)
    assert dice.roll(src, 2, 6, "the pool") == (4, 1)
    assert dice.roll(src, 0, 6, "nothing") == ()
    assert dice.roll(src, 1, 10) == (6,)
    assert src.batches == [(2, 6, "the pool"), (1, 10, dice.ROLLED)]


def test_recorded_keeps_every_face_drawn_in_order():
    """Recorded passes the draws on to its source, batch or single die, and keeps each face in draw order."""
    rec = dice.Recorded(ScriptedDice(3, 5, 2, 10))
    assert dice.roll(rec, 2, 6, "a") == (3, 5)
    assert rec.randint(1, 6) == 2
    assert dice.roll(rec, 1, 10, "b") == (10,)
    assert rec.drawn == [3, 5, 2, 10] and rec.dice.batches == [(2, 6, "a"), (1, 10, "b")]
    seeded = dice.Recorded(dice.source(7))
    assert list(dice.roll(seeded, 5, 6)) == seeded.drawn == list(dice.roll(dice.source(7), 5, 6))


def test_table_faces_are_handed_out_in_order_and_say_what_is_missing():
    """The table's faces come in the order given; a batch they cannot fill raises NeedMore with how many more, of
    which die and why, and hands out nothing."""
    table = dice.TableFaces([2, 6, 10])
    assert dice.roll(table, 2, 6, "the pool") == (2, 6)
    with pytest.raises(dice.NeedMore) as more:
        dice.roll(table, 3, 10, "the 10s roll again")
    assert (more.value.n, more.value.sides, more.value.why) == (2, 10, "the 10s roll again")
    assert str(more.value) == "'dice' needs 2 more d10: the 10s roll again" and isinstance(more.value, RulesError)
    assert (table.drawn, table.left) == ([2, 6], [10])
    assert table.randint(1, 10) == 10 and table.left == []
    table.all_drawn("this roll")


@pytest.mark.parametrize(
    "faces, n, sides, words",
    [
        ([7], 1, 6, r"^'dice' face 7 is not on a d6 \(the 1st face, for the pool\)$"),
        ([1, 0], 3, 6, r"face 0 is not on a d6 \(the 2nd face"),  # a face off the die before the faces missing
        ([5, 5, 11], 3, 10, r"face 11 is not on a d10 \(the 3rd face"),
    ],
)
def test_a_face_the_die_does_not_have_is_refused(faces, n, sides, words):
    """A face off the die is named, with its place and what it was rolled for."""
    with pytest.raises(RulesError, match=words):
        dice.roll(dice.TableFaces(faces), n, sides, "the pool")


@pytest.mark.parametrize(
    "faces, words",
    [
        ((1, 2), "must be a list of faces"),
        (None, "must be a list of faces"),
        ([1, False], "whole numbers: the 2nd face is False"),
        ([1.5], "whole numbers: the 1st face is 1.5"),
        (["6"], "whole numbers: the 1st face is '6'"),
        ([None], "whole numbers: the 1st face is None"),
        ([1] * (dice.MAX_FACES + 1), f"at most {dice.MAX_FACES} faces"),
    ],
)
def test_table_faces_must_be_a_list_of_whole_numbers(faces, words):
    """The table's faces are a list of whole numbers (no true/false, no 1.5, no "6"), and not endless."""
    with pytest.raises(RulesError, match=re.escape(words)):
        dice.TableFaces(faces)


def test_faces_left_over_are_refused():
    """Faces left once the roll has drawn all it draws are refused, naming them and how many it drew."""
    table = dice.TableFaces([3, 4, 5])
    dice.roll(table, 1, 6, "the pool")
    with pytest.raises(RulesError, match=r"^'dice' has 2 faces too many \(4 5\): this roll draws 1$"):
        table.all_drawn("this roll")


@pytest.mark.parametrize(
    "i, said",
    [
        (1, "1st"),
        (2, "2nd"),
        (3, "3rd"),
        (4, "4th"),
        (11, "11th"),
        (12, "12th"),
        (13, "13th"),
        (21, "21st"),
        (22, "22nd"),
        (111, "111th"),
    ],
)
def test_places_are_said_in_words(i, said):
    """A face's place reads as a player says it."""
    assert dice._nth(i) == said


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4])
def test_sum_ways_matches_brute_force(n):
    """The count polynomial of n d6 equals enumeration."""
    brute = Counter(sum(f) for f in itertools.product(range(1, 7), repeat=n))
    ways = dice.sum_ways(n)
    assert {t: w for t, w in enumerate(ways) if w} == dict(brute)


@pytest.mark.parametrize("n,k", [(1, 1), (3, 1), (3, 2), (3, 3), (4, 2)])
def test_order_statistic_matches_brute_force(n, k):
    """P(k-th highest of n d6 = v) equals enumeration."""
    brute = Counter(sorted(f, reverse=True)[k - 1] for f in itertools.product(range(1, 7), repeat=n))
    got = dice.order_statistic(n, k)
    assert got == {v: Fraction(brute.get(v, 0), 6**n) for v in range(1, 7)}


def test_exact_str_always_has_a_denominator():
    """Exact probabilities print as p/q."""
    assert dice.exact_str(Fraction(1)) == "1/1"
    assert dice.exact_str(Fraction(0)) == "0/1"
    assert dice.exact_str(Fraction(2, 6)) == "1/3"


def test_middle_product_matches_the_plain_sums():
    """The Karatsuba middle product gives c[i] = sum_j a[i + j] b[j] for every length, odd and even."""
    rng = random.Random(5)
    for n in range(1, 40):
        a = [rng.randint(-(10**30), 10**30) for _ in range(2 * n - 1)]
        b = [rng.randint(-(10**30), 10**30) for _ in range(n)]
        assert dice.middle_product(a, b) == [sum(a[i + j] * b[j] for j in range(n)) for i in range(n)]


@pytest.mark.parametrize("c0, c1", [(1, 1), (7, -3), (-10, 10), (0, 5), (4, 0)])
def test_binomial_poly_is_the_power_of_the_binomial(c0, c1):
    """binomial_poly(c0, c1, m) are the coefficients of (c0 + c1 v)**m, as repeated products give them."""
    for m in range(0, 9):
        assert dice.binomial_poly(c0, c1, m) == dice.poly_pow([c0, c1], m)
