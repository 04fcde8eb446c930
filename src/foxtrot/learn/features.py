"""The move values of search's default policy, read from observation arrays.

Why: a small network learns more from a few thousand labelled decisions when it starts from
a sound judgement of every move and learns only where to depart from it.  The default
policy of the search (``bots.rollout.move_values``: what a move takes now minus what it
offers the next player, by the odds of the next hand) is that judgement, at a few
microseconds a move.  It is computed here from the observation array alone (the same array
the network reads: ``foxtrot.env.encode``), so that training, on a dataset's arrays, and
play, on the seat's observation, go through one function.  Only the pile's size and top card
matter to it (``kernel.outcomes``), and the array holds both.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..bots.rollout import move_values
from ..core import TableOptions, TakeRule
from ..core.kernel import RANKS
from ..env.encoding import CARD_KINDS, N_ACTIONS, layout

Floats = npt.NDArray[np.float32]


def move_features(arrays: Floats, options: TableOptions) -> Floats:
    """``move_values`` of every action for each row of ``arrays`` (unscaled observation arrays
    at ``options``), 0 where the action is not one of the hand's cards or taking."""
    blocks = {block.name: block for block in layout(options)}
    rows = np.atleast_2d(arrays)
    copies = options.copies
    take_any = options.take is TakeRule.ANY
    out = np.zeros((len(rows), N_ACTIONS), dtype=np.float32)
    hb, pb, tb = blocks["hand"].start, blocks["pile"].start, blocks["top"].start
    sb, zb = blocks["seen"].start, blocks["hand_sizes"].start
    kinds = range(CARD_KINDS)
    for index, values_row in enumerate(rows.tolist()):  # plain lists: a row is small
        hand_counts = values_row[hb : hb + CARD_KINDS]
        pile_counts = values_row[pb : pb + CARD_KINDS]
        seen = values_row[sb : sb + CARD_KINDS]
        tops = values_row[tb : tb + CARD_KINDS]
        hand = [card for card in kinds for _ in range(int(hand_counts[card]))]
        pile = [card for card in kinds for _ in range(int(pile_counts[card]))]
        if pile and 1.0 in tops:
            top = tops.index(1.0)
            pile.remove(top)
            pile.append(top)
        unseen = [0] * RANKS
        for card in kinds:
            left = copies[card] - int(seen[card]) - int(hand_counts[card])
            if left > 0:
                unseen[card >> 2] += left
        next_size = int(values_row[zb + 1 if options.players > 1 else zb])
        for code, value in move_values(hand, pile, take_any, unseen, next_size).items():
            out[index, code] = value
    return out


__all__ = ["move_features"]
