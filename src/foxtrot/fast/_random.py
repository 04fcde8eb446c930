"""Python's own random numbers, compiled: ``random.Random`` (MT19937) step for step.

The compiled search must draw exactly the numbers the pure-Python search draws, so that
both give the same analysis for the same generator: the caller's ``random.Random`` state
(``getstate()``) is handed in as an array, advanced here, and handed back (``setstate``).
``random()``, ``getrandbits(k)`` (k <= 32, and 64 as two words, low word first),
``Random(seed)`` for a whole-number seed and ``shuffle`` follow CPython's
``_randommodule.c`` and ``random.py`` (a differential test checks every one against the
interpreter's).  The generator's state, ``words``, is an ``int64`` array of 625 entries: the
624 words (CPython's ``mt``), then the index of the next word.

Why CPython's stream and not a generator of our own: every seeded deal (the strength tables'
duplicate deal sequences, ``BatchedGames``' seeds, the analyses' digests) would change, and
the fair deal (``fx/v1``) has its own generator anyway.  CPython guarantees ``random()`` from a
seed, not ``shuffle``; if it ever changes, the differential test fails on that interpreter
(docs/library/fast.md, "The random stream").

This module imports numba: it is loaded only when the compiled kernel is used.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ._compile import hot

_N = 624
_M = 397
_MATRIX_A = 0x9908B0DF
_UPPER = 0x80000000
_LOWER = 0x7FFFFFFF
_WORD = 0xFFFFFFFF

Words = NDArray[np.int64]


@hot
def _twist(words: Words) -> None:
    for kk in range(_N - _M):
        y = (words[kk] & _UPPER) | (words[kk + 1] & _LOWER)
        words[kk] = words[kk + _M] ^ (y >> 1) ^ (_MATRIX_A if y & 1 else 0)
    for kk in range(_N - _M, _N - 1):
        y = (words[kk] & _UPPER) | (words[kk + 1] & _LOWER)
        words[kk] = words[kk + _M - _N] ^ (y >> 1) ^ (_MATRIX_A if y & 1 else 0)
    y = (words[_N - 1] & _UPPER) | (words[0] & _LOWER)
    words[_N - 1] = words[_M - 1] ^ (y >> 1) ^ (_MATRIX_A if y & 1 else 0)
    words[_N] = 0


def _genrand_init(seed: int) -> Words:
    """``init_genrand(seed)``: the start of every ``Random(seed)`` (computed once)."""
    words = np.zeros(_N + 1, np.int64)
    words[0] = seed
    for i in range(1, _N):
        prev = int(words[i - 1])
        words[i] = (1812433253 * (prev ^ (prev >> 30)) + i) & _WORD
    return words


_INIT = _genrand_init(19650218)


@hot
def next_word(words: Words) -> int:
    """``genrand_uint32``: the next 32 random bits."""
    if words[_N] >= _N:
        _twist(words)
    y = words[words[_N]]
    words[_N] += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return int(y & _WORD)


@hot
def uniform(words: Words) -> float:
    """``random()``: a float in [0, 1) from 53 random bits."""
    a = next_word(words) >> 5
    b = next_word(words) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


@hot
def below(words: Words, n: int) -> int:
    """``_randbelow_with_getrandbits(n)`` for 0 < n < 2**32: rejection from ``n.bit_length()``
    random bits."""
    k = 0
    while (n >> k) > 0:
        k += 1
    r = next_word(words) >> (32 - k)
    while r >= n:
        r = next_word(words) >> (32 - k)
    return r


@hot
def shuffle(words: Words, cards: NDArray[np.int64], count: int) -> None:
    """``shuffle`` of the first ``count`` entries of ``cards``."""
    for i in range(count - 1, 0, -1):
        j = below(words, i + 1)
        cards[i], cards[j] = cards[j], cards[i]


@hot
def seeded(words: Words, low: int, high: int) -> None:
    """``Random(seed)`` for ``seed = high << 32 | low`` (``init_by_array`` over the seed's
    32-bit words, least significant first; one word if ``high`` is 0), then the first twist
    done at once so that copies of the state can be used without it."""
    for i in range(_N):
        words[i] = _INIT[i]
    length = 2 if high != 0 else 1
    i = 1
    j = 0
    for _ in range(max(_N, length)):
        prev = words[i - 1]
        words[i] = (
            (words[i] ^ (((prev ^ (prev >> 30)) * 1664525) & _WORD)) + (low if j == 0 else high) + j
        ) & _WORD
        i += 1
        j += 1
        if i >= _N:
            words[0] = words[_N - 1]
            i = 1
        if j >= length:
            j = 0
    for _ in range(_N - 1):
        prev = words[i - 1]
        words[i] = ((words[i] ^ (((prev ^ (prev >> 30)) * 1566083941) & _WORD)) - i) & _WORD
        i += 1
        if i >= _N:
            words[0] = words[_N - 1]
            i = 1
    words[0] = 0x80000000
    _twist(words)


def state_of(rng_state: tuple[int, ...]) -> Words:
    """The array for ``random.Random.getstate()[1]`` (624 words and the index)."""
    return np.array(rng_state, dtype=np.int64)
