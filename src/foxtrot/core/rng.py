"""Foxtrot's own random stream: SplitMix64, with the shuffle and the draws written out here.

Everything the project seeds (the deals of tournaments, studies, simulations, the research
environments, the expert's search) draws from ``SplitMix64``, so that a seed gives the same
deals and the same analyses on every Python and in the compiled kernel (``fast._random`` is
this module's twin, held equal by ``tests/test_fast_kernel.py``).  Python's ``random.Random``
would not do: Python promises the same ``random()`` from a seed, but ``shuffle`` and
``randrange`` are details of CPython's ``random.py`` that may change, and a compiled twin of
them would copy an interpreter's internals.

The algorithm is Steele, Lea and Flood's SplitMix64 (*Fast splittable pseudorandom number
generators*, OOPSLA 2014; the same generator seeds Java's ``SplittableRandom`` and the xoshiro
family): a 64-bit state that advances by the golden gamma, each output a mix of it.  It passes
BigCrush, its period is 2**64, and its state is one word, so a new stream per sample costs
nothing.  Every draw is defined from the 64-bit outputs ``next()``:

- ``random()``: the top 53 bits of one output, times 2**-53, a float in [0, 1);
- ``getrandbits(k)``: for k <= 64 the top k bits of one output; above, ``ceil(k / 64)``
  outputs, the first the least significant, the last cut to its top bits;
- ``below(n)``: rejection: the top ``n.bit_length()`` bits of outputs until one is below n
  (every n equally likely, no modulo bias); ``randrange``, ``choice`` and ``sample`` use it;
- ``shuffle(x)``: Fisher-Yates from the end: for i from ``len(x) - 1`` down to 1, swap
  ``x[i]`` with ``x[below(i + 1)]``.

Seeds: an ``int`` is taken modulo 2**64; a ``str`` (its UTF-8 bytes) or ``bytes`` seeds with
the first 8 bytes of its SHA-256, big-endian; ``None`` with 8 bytes of ``os.urandom``.  The
stream is a ``random.Random``, so it goes wherever the engine takes one (``State.deal``);
the methods not listed above (``gauss``, ``uniform``, ...) are Python's, built on ``random()``.

>>> rng = SplitMix64(1234567)
>>> rng.next()
6457827717110365317
>>> rng.next()
3203168211198807973
>>> SplitMix64("foxtrot").shuffle(deck := list(range(8))) or deck
[4, 7, 5, 0, 2, 1, 6, 3]
"""

from __future__ import annotations

import hashlib
import os
import random
from collections.abc import MutableSequence
from typing import Any

__all__ = ["STREAM", "SplitMix64"]

STREAM = "splitmix64/1"
"""The name of this stream, stored with results made from seeds (``getstate()[0]``): runs
made with another stream deal other cards from the same seeds."""

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB


class SplitMix64(random.Random):
    """A seeded random stream, reproducible everywhere (see the module's text)."""

    state: int
    """The 64-bit state: the stream's whole future (``getstate()`` also keeps ``gauss``'s)."""

    def seed(self, a: Any = None, version: int = 2) -> None:
        """Start the stream from ``a``: an int (modulo 2**64), a str or bytes (SHA-256), or
        None (the operating system's randomness)."""
        if a is None:
            a = os.urandom(8)
        if isinstance(a, str):
            a = a.encode("utf-8")
        if isinstance(a, bytes | bytearray):
            self.state = int.from_bytes(hashlib.sha256(a).digest()[:8], "big")
        elif isinstance(a, int):
            self.state = a & _MASK
        else:
            raise TypeError(f"seed: expected an int, str or bytes, got {type(a).__name__}")
        self.gauss_next = None

    def next(self) -> int:
        """The next 64-bit output."""
        s = self.state = (self.state + _GAMMA) & _MASK
        z = ((s ^ (s >> 30)) * _MIX1) & _MASK
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK
        return z ^ (z >> 31)

    def random(self) -> float:
        """A float in [0, 1): the top 53 bits of one output."""
        s = self.state = (self.state + _GAMMA) & _MASK  # next(), inlined: the hot draw
        z = ((s ^ (s >> 30)) * _MIX1) & _MASK
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK
        return ((z ^ (z >> 31)) >> 11) * (1.0 / 9007199254740992.0)

    def getrandbits(self, k: int) -> int:
        """``k`` random bits (the top bits of the outputs; the first output least significant)."""
        if k < 0:
            raise ValueError(f"getrandbits: number of bits must be non-negative, got {k}")
        if k <= 64:
            return self.next() >> (64 - k) if k else 0
        value, shift = 0, 0
        while k > 64:
            value |= self.next() << shift
            shift += 64
            k -= 64
        return value | (self.next() >> (64 - k)) << shift

    def below(self, n: int) -> int:
        """A whole number in ``[0, n)``, each equally likely (rejection, no modulo bias)."""
        if n <= 0:
            raise ValueError(f"below: n must be positive, got {n}")
        k = n.bit_length()
        r = self.getrandbits(k)
        while r >= n:
            r = self.getrandbits(k)
        return r

    _randbelow = below  # randrange, choice, sample: ours, not CPython's

    def shuffle(self, x: MutableSequence[Any]) -> None:
        """Shuffle ``x`` in place: Fisher-Yates from the end, drawing with ``below``."""
        s = self.state  # below(i + 1) and next(), inlined: a deal's or a sample's hot loop
        for i in range(len(x) - 1, 0, -1):
            shift = 64 - (i + 1).bit_length()
            while True:
                s = (s + _GAMMA) & _MASK
                z = ((s ^ (s >> 30)) * _MIX1) & _MASK
                z = ((z ^ (z >> 27)) * _MIX2) & _MASK
                j = (z ^ (z >> 31)) >> shift
                if j <= i:
                    break
            x[i], x[j] = x[j], x[i]
        self.state = s

    def getstate(self) -> tuple[Any, ...]:
        """``(STREAM, state, gauss_next)``: restore it with ``setstate``."""
        return (STREAM, self.state, self.gauss_next)

    def setstate(self, state: tuple[Any, ...]) -> None:
        """Go back to a state from ``getstate``."""
        if not (isinstance(state, tuple) and len(state) == 3 and state[0] == STREAM):
            raise ValueError(f"setstate: expected a state of {STREAM}, got {state!r:.60}")
        if not isinstance(state[1], int) or not 0 <= state[1] <= _MASK:
            raise ValueError(f"setstate: the state must be a 64-bit whole number, got {state[1]!r}")
        self.state, self.gauss_next = state[1], state[2]
