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

from typing import Final

import numpy as np
import numpy.typing as npt

from ..bots.rollout import move_values
from ..core import TableOptions, TakeRule
from ..core.kernel import CARD_POINTS, RANKS
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


#: The features of one action (``action_features``), in order.
ACTION_FEATURES: Final = (
    "value",  # the default policy's value of the move, / 20 points
    "regret",  # that value minus the best legal move's, / 20 points
    *(f"rank_{rank}" for rank in range(RANKS)),  # the card's rank, one-hot (0 for taking)
    "take",  # taking the pile without playing
    "points",  # the card's points / 10
    "tops",  # the card's rank is the top card's
    "pile",  # cards in the pile / 20
    "lone",  # the pile is a lone card
    "hand",  # cards in the mover's hand / 20
    "next_hand",  # cards in the next player's hand / 20
    "stock",  # cards in the stock / 100
    "unseen",  # cards of this rank the mover has not seen / 8
    "held",  # cards of this rank in the mover's hand / 4
    "choices",  # legal moves / 20
    "worth",  # points in the pile / 20
)


def action_features(
    arrays: Floats, masks: npt.NDArray[np.int8], options: TableOptions
) -> tuple[Floats, Floats]:
    """Per row and action, the ``ACTION_FEATURES`` (shape rows × 53 × features), and the
    default policy's move values (rows × 53): what a network shared by every action reads."""
    rows = np.atleast_2d(arrays)
    masks = np.atleast_2d(masks)
    blocks = {block.name: block for block in layout(options)}
    moves = move_features(rows, options)

    def block(name: str) -> Floats:
        found = blocks[name]
        return rows[:, found.start : found.stop]

    hand, pile, top, seen = block("hand"), block("pile"), block("top"), block("seen")
    count = len(rows)
    out = np.zeros((count, N_ACTIONS, len(ACTION_FEATURES)), dtype=np.float32)
    legal = masks == 1
    best = np.where(legal, moves, -np.inf).max(axis=1, keepdims=True)
    best = np.where(np.isfinite(best), best, 0.0)
    out[:, :, 0] = moves / 20.0
    out[:, :, 1] = np.where(legal, moves - best, 0.0) / 20.0
    ranks = np.arange(CARD_KINDS) >> 2
    out[:, np.arange(CARD_KINDS), 2 + ranks] = 1.0
    column = 2 + RANKS
    out[:, CARD_KINDS, column] = 1.0
    out[:, :CARD_KINDS, column + 1] = np.array(CARD_POINTS, dtype=np.float32) / 10.0
    top_rank = np.where(top.any(axis=1), top.argmax(axis=1) >> 2, -1)
    out[:, :CARD_KINDS, column + 2] = ranks[None, :] == top_rank[:, None]
    pile_size = block("pile_size")[:, 0]
    sizes = block("hand_sizes")
    out[:, :, column + 3] = (pile_size / 20.0)[:, None]
    out[:, :, column + 4] = (pile_size == 1)[:, None]
    out[:, :, column + 5] = (sizes[:, 0] / 20.0)[:, None]
    out[:, :, column + 6] = (sizes[:, 1 % options.players] / 20.0)[:, None]
    out[:, :, column + 7] = (block("stock")[:, 0] / 100.0)[:, None]
    copies = np.array(options.copies, dtype=np.float32)
    unseen = np.maximum(copies[None, :] - seen - hand, 0.0)
    by_rank = unseen.reshape(count, RANKS, 4).sum(axis=2)
    held = hand.reshape(count, RANKS, 4).sum(axis=2)
    out[:, :CARD_KINDS, column + 8] = by_rank[:, ranks] / 8.0
    out[:, :CARD_KINDS, column + 9] = held[:, ranks] / 4.0
    out[:, :, column + 10] = (legal.sum(axis=1) / 20.0)[:, None]
    worth = pile @ np.array(CARD_POINTS, dtype=np.float32)
    out[:, :, column + 11] = (worth / 20.0)[:, None]
    return out, moves


__all__ = ["ACTION_FEATURES", "action_features", "move_features"]
