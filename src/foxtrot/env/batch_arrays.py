"""What the two engines of ``BatchedGames`` share: the arrays they fill and the matches' seeds.

``env.batch`` (the batch and its Python engine) and ``env.batch_compiled`` (its compiled
engine) both read this module and neither reads the other's: the batch chooses an engine,
an engine fills a batch's arrays, named here by what they hold (``BatchArrays``).

>>> match_seed(0, 0) == match_seed(0, 0) != match_seed(0, 1)
True
"""

from __future__ import annotations

from typing import Protocol

import numpy as np
import numpy.typing as npt

from ..core import SplitMix64, TableOptions

__all__ = ["BatchArrays", "Ints", "match_seed"]

Ints = npt.NDArray[np.int64]


def match_seed(seed: int, started: int) -> int:
    """The seed of the ``started``-th match a batch starts after ``reset(seed)``: the first 63
    bits of a ``SplitMix64`` seeded with both (``core.rng``: the same on every Python)."""
    return SplitMix64(f"foxtrot-batch:{seed}:{started}").getrandbits(63)


class BatchArrays(Protocol):
    """A batch as its engines see it: its table, its reward and the arrays they fill (the
    fields of ``BatchedGames``, described there)."""

    options: TableOptions
    reward: str
    obs: npt.NDArray[np.float32]
    mask: npt.NDArray[np.int8]
    to_move: Ints
    rewards: npt.NDArray[np.float32]
    done: npt.NDArray[np.bool_]
    deal_ended: npt.NDArray[np.bool_]
    scores: Ints
    winner: Ints
    final_totals: Ints
    final: npt.NDArray[np.float32]

    def __len__(self) -> int: ...
