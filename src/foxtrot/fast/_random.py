"""``core.rng.SplitMix64``, compiled: the project's random stream, step for step.

**Written twice, and why**: numba cannot call the Python generator, and the compiled search
and batch must draw exactly the numbers the pure paths draw.  The stream's whole state is one
64-bit word, held as a one-entry ``uint64`` array (``Words``) so that the functions can
advance it in place: a ``SplitMix64``'s ``state`` is handed in and its new value handed back.
``next_word``, ``uniform`` (``random()``), ``below``, ``shuffle`` and ``seeded`` (a new stream
from a seed) follow ``core.rng``'s definitions; ``tests/test_fast_kernel.py``
(``test_D3_the_compiled_stream_is_splitmix64``) holds them equal to the reference.

All arithmetic is on ``uint64`` (numba's wraps modulo 2**64, as the reference masks);
constants and shift counts are ``uint64`` too, because numba turns ``uint64`` mixed with
``int64`` into a float.

This module imports numba: it is loaded only when the compiled kernel is used.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ._compile import hot

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_11 = np.uint64(11)
_27 = np.uint64(27)
_30 = np.uint64(30)
_31 = np.uint64(31)
_64 = np.uint64(64)

Words = NDArray[np.uint64]
"""A stream: ``words[0]`` is its state."""


def words_of(state: int) -> Words:
    """The array for a ``SplitMix64``'s ``state``."""
    return np.array([state], np.uint64)


@hot
def next_word(words: Words) -> np.uint64:
    """``SplitMix64.next``: the next 64-bit output."""
    s = words[0] + _GAMMA
    words[0] = s
    z = (s ^ (s >> _30)) * _MIX1
    z = (z ^ (z >> _27)) * _MIX2
    return np.uint64(z ^ (z >> _31))


@hot
def uniform(words: Words) -> float:
    """``random()``: a float in [0, 1) from the top 53 bits of one output."""
    return float(next_word(words) >> _11) * (1.0 / 9007199254740992.0)


@hot
def below(words: Words, n: int) -> int:
    """``below(n)`` for 0 < n < 2**63: rejection from the top ``n.bit_length()`` bits."""
    k = 0
    while (n >> k) > 0:
        k += 1
    shift = _64 - np.uint64(k)
    r = np.int64(next_word(words) >> shift)
    while r >= n:
        r = np.int64(next_word(words) >> shift)
    return int(r)


@hot
def shuffle(words: Words, cards: NDArray[np.int64], count: int) -> None:
    """``shuffle`` of the first ``count`` entries of ``cards``: Fisher-Yates from the end."""
    for i in range(count - 1, 0, -1):
        j = below(words, i + 1)
        cards[i], cards[j] = cards[j], cards[i]


@hot
def seeded(words: Words, seed: np.uint64) -> None:
    """``SplitMix64(seed)`` for a 64-bit ``seed`` (an int seed is taken modulo 2**64)."""
    words[0] = seed
