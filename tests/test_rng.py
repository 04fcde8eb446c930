"""``core.rng.SplitMix64``: the project's random stream, against its definition.

The outputs are checked against the published reference (Vigna's ``splitmix64.c``, seed
1234567), the draws against the definitions in the module's text, and a frozen deal against
the vector in docs/library/random.md: a seed must deal the same cards on every Python and in
every later version of the project.
"""

from __future__ import annotations

import copy
import hashlib
import pickle
from collections import Counter
from itertools import permutations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from foxtrot import STREAM, SplitMix64, State, TableOptions, format_cards
from foxtrot.core.cards import CARDS
from foxtrot.core.dealing import shuffled_deck

#: splitmix64.c (Sebastiano Vigna, public domain), seeded with 1234567: its first outputs.
REFERENCE = [
    6457827717110365317,
    3203168211198807973,
    9817491932198370423,
    4593380528125082431,
    16408922859458223821,
]


def test_the_outputs_are_the_reference_splitmix64s() -> None:
    rng = SplitMix64(1234567)
    assert [rng.next() for _ in REFERENCE] == REFERENCE


def test_D3_a_seed_deals_the_documented_deck() -> None:
    """The known-answer deal of docs/library/random.md (the top eight cards of a two-deck pack
    shuffled from seed 2026, and seat 1's hand of a two-player deal from seed "foxtrot")."""
    deck = shuffled_deck(2, SplitMix64(2026))
    assert format_cards([CARDS[c] for c in deck[:8]]) == "7D 5S 10H 5C KH AC AD 10S"
    state = State(TableOptions(players=2), dealer=0)
    state.deal(SplitMix64("foxtrot"))
    assert format_cards(state.observation(1).hand) == "3H 3D 4H 5H 5H 8C 9C AD"


def test_random_takes_the_top_53_bits() -> None:
    rng, twin = SplitMix64(99), SplitMix64(99)
    for _ in range(100):
        assert rng.random() == (twin.next() >> 11) / 2**53


@given(st.integers(0, 200))
def test_getrandbits_is_the_top_bits_first_output_lowest(k: int) -> None:
    rng, twin = SplitMix64(k), SplitMix64(k)
    words = [twin.next() for _ in range(max(1, -(-k // 64)))]
    expected = 0
    for i, word in enumerate(words[:-1]):
        expected |= word << (64 * i)
    last_bits = k - 64 * (len(words) - 1)
    expected |= (words[-1] >> (64 - last_bits) if last_bits else 0) << (64 * (len(words) - 1))
    assert rng.getrandbits(k) == (expected if k else 0)
    assert 0 <= rng.getrandbits(k) < 2**k or k == 0


@given(st.integers(0, 2**64 - 1), st.integers(1, 2**70))
def test_below_stays_below(seed: int, n: int) -> None:
    rng = SplitMix64(seed)
    assert all(0 <= rng.below(n) < n for _ in range(20))
    assert 0 <= rng.randrange(n) < n


def test_below_has_no_modulo_bias() -> None:
    """Three outcomes from two bits each: modulo would give one of them half the draws."""
    rng = SplitMix64(7)
    counts = Counter(rng.below(3) for _ in range(30_000))
    assert all(9_400 < counts[v] < 10_600 for v in range(3)), counts


@given(st.integers(0, 2**64 - 1), st.lists(st.integers(), max_size=120))
def test_D3_a_shuffle_is_a_permutation(seed: int, cards: list[int]) -> None:
    shuffled = cards[:]
    SplitMix64(seed).shuffle(shuffled)
    assert sorted(shuffled) == sorted(cards)


def test_D3_every_order_is_equally_likely() -> None:
    rng = SplitMix64(11)
    counts: Counter[tuple[int, ...]] = Counter()
    for _ in range(24_000):
        four = [0, 1, 2, 3]
        rng.shuffle(four)
        counts[tuple(four)] += 1
    assert set(counts) == set(permutations(range(4)))
    assert all(850 < c < 1_150 for c in counts.values()), counts


def test_seeds_by_their_documented_rule() -> None:
    assert SplitMix64(5).state == 5
    assert SplitMix64(2**64 + 5).state == 5
    assert SplitMix64(-1).state == 2**64 - 1
    digest = hashlib.sha256("фокстрот".encode()).digest()
    assert SplitMix64("фокстрот").state == int.from_bytes(digest[:8], "big")
    assert SplitMix64(b"x").state == int.from_bytes(hashlib.sha256(b"x").digest()[:8], "big")
    assert SplitMix64(None).state != SplitMix64(None).state  # the system's randomness
    with pytest.raises(TypeError, match="seed: expected an int, str or bytes, got float"):
        SplitMix64(1.5)


def test_the_state_comes_back() -> None:
    rng = SplitMix64("state")
    rng.gauss(0, 1)
    saved = rng.getstate()
    assert saved[0] == STREAM
    ahead = [rng.random() for _ in range(5)], rng.gauss(0, 1)
    rng.setstate(saved)
    assert ([rng.random() for _ in range(5)], rng.gauss(0, 1)) == ahead
    twins = [pickle.loads(pickle.dumps(rng)), copy.deepcopy(rng)]
    expected = rng.random()
    for twin in twins:
        assert type(twin) is SplitMix64
        assert twin.random() == expected
    with pytest.raises(ValueError, match="setstate: expected a state of splitmix64/1"):
        rng.setstate((3, tuple(range(625)), None))
    with pytest.raises(ValueError, match="must be a 64-bit whole number, got -1"):
        rng.setstate((STREAM, -1, None))
    with pytest.raises(ValueError, match="below: n must be positive, got 0"):
        rng.below(0)
    with pytest.raises(ValueError, match="number of bits must be non-negative, got -1"):
        rng.getrandbits(-1)
