"""What a player sees of ``python_foxtrot``: OpenSpiel's observer (strings and tensors).

Two kinds, as OpenSpiel asks (``IIGObservationType``):

- **observation** (``perfect_recall=False``): the seat's view now.  The tensor is the
  research environments' array (``foxtrot.env.encode``, laid out index by index in
  docs/env.md): own hand, pile, top card, sizes, taken cards, foxtrots, totals, the cards
  seen this deal, whose turn, the dealer.  The string says the same in words.
- **information state** (``perfect_recall=True``): everything the seat has seen since the
  episode began.  The string is the whole record as the seat knows it: every deal's
  dealer and upturned card, the cards the seat was dealt in each dealing round, every
  move of every seat, every deal's scores.  The tensor is the observation tensor, then
  the current deal's moves in order (one-hot of 53 per move: the mover of move ``i`` is
  known, seats move in turn), then the cards the seat was dealt in each dealing round
  of the deal (counts per card kind).  Earlier deals enter the tensor through the totals
  only: a new deal is a fresh shuffle, independent of the last one.

With ``private_info=NONE`` (a public observer) the own hand and the dealt cards are left
out (zeros).  Nothing here reads another seat's hand or the stock: the strings and
tensors are built from ``State.observation(seat)`` and the seat's own dealt cards
(tests/test_openspiel.py swaps hidden cards and checks that nothing changes).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, Final

import numpy as np
import numpy.typing as npt
import pyspiel

from ..core import ACTIONS, CARDS, Observation, Phase, TableOptions, format_cards
from ..core.kernel import is_double
from ..env.encoding import N_ACTIONS, encode, observation_size
from .track import Episode, max_rounds

Array = npt.NDArray[np.float32]

#: How many tensors an observer keeps, by the state's history and the player: an algorithm
#: that asks again for a position it saw (CFR's passes, a search revisiting its root) gets a
#: copy instead of a recomputation.  At most about 12 MB for the largest tensors.
CACHED: Final = 256


def moves_cap(options: TableOptions) -> int:
    """The most moves a deal can have: every card played, and a take after each (T4)."""
    return 2 * options.deck_size


class FoxtrotObserver:
    """OpenSpiel's ``PyObserver`` for ``python_foxtrot`` (see the module doc)."""

    def __init__(
        self, options: TableOptions, iig_obs_type: Any, params: dict[str, Any] | None
    ) -> None:
        if params:
            raise ValueError(f"python_foxtrot observer: no parameters are taken, got {params}")
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("python_foxtrot observer: no observer sees every player's cards")
        self.options = options
        self.private = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.public = bool(iig_obs_type.public_info)
        self.recall = bool(iig_obs_type.perfect_recall)
        pieces: list[tuple[str, tuple[int, ...]]] = [("observation", (observation_size(options),))]
        if self.recall:
            pieces.append(("moves", (moves_cap(options), N_ACTIONS)))
            pieces.append(("dealt", (max_rounds(options), 52)))
        size = sum(int(np.prod(shape)) for _, shape in pieces)
        self.tensor: Array = np.zeros(size, np.float32)
        self._recent: OrderedDict[tuple[tuple[int, ...], int], Array] = OrderedDict()
        self.dict: dict[str, Array] = {}
        at = 0
        for name, shape in pieces:
            width = int(np.prod(shape))
            self.dict[name] = self.tensor[at : at + width].reshape(shape)
            at += width

    def _observation(self, state: Episode, player: int) -> Observation | None:
        core = state.core
        if core is None:
            return None
        return core.observation(player)

    def set_from(self, state: Episode, player: int) -> None:
        """Fill ``tensor`` with ``state`` as ``player`` sees it (a copy of the cached tensor
        when this observer filled it for the same history and player lately)."""
        history = getattr(state, "history", None)
        key = (tuple(history()), player) if history is not None else None
        if key is not None and (found := self._recent.get(key)) is not None:
            self._recent.move_to_end(key)
            np.copyto(self.tensor, found)
            return
        self._fill(state, player)
        if key is not None:
            self._recent[key] = self.tensor.copy()
            if len(self._recent) > CACHED:
                self._recent.popitem(last=False)

    def _fill(self, state: Episode, player: int) -> None:
        self.tensor.fill(0)
        obs = self._observation(state, player)
        if obs is None:
            return
        if self.public:
            encode(obs, self.dict["observation"])
            if not self.private:
                self.dict["observation"][:52] = 0  # the hand block (docs/env.md)
        elif self.private:
            self.dict["observation"][:52] = encode(obs)[:52]
        if not self.recall or obs.phase is not Phase.PLAYING:
            return
        track = state.tracks[-1]
        if self.public:  # scalar writes through memoryviews: a third of numpy's cost each
            moves = self.dict["moves"].reshape(-1).data
            for i, move in enumerate(track.moves):
                moves[i * N_ACTIONS + move.code] = 1
        if self.private:
            dealt = self.dict["dealt"].reshape(-1).data
            for rnd, cards in enumerate(track.received[player]):
                for card in cards:
                    dealt[rnd * 52 + card] += 1

    def string_from(self, state: Episode, player: int) -> str:
        """``state`` as ``player`` sees it, in words (see the module doc)."""
        if self.recall:
            return self._record(state, player)
        obs = self._observation(state, player)
        if obs is None:
            return f"seat {player}; dealer not drawn"
        return self._view(obs)

    def _view(self, obs: Observation) -> str:
        parts = [f"seat {obs.seat}; deal {obs.deal}; dealer {obs.dealer}"]
        parts.append(f"to move {'-' if obs.to_move is None else obs.to_move}")
        if self.private:
            parts.append(f"hand {format_cards(obs.hand) or '-'}")
        if self.public:
            parts.append(f"pile {format_cards(obs.pile) or '-'}; stock {obs.stock}")
            for seat in range(obs.players):
                doubles = sum(1 for card in obs.foxtrots[seat] if is_double(card.id))
                parts.append(
                    f"p{seat}: {obs.hand_sizes[seat]} held, {len(obs.taken[seat])} taken,"
                    f" foxtrots {len(obs.foxtrots[seat]) - doubles}+{doubles},"
                    f" total {obs.totals[seat]}"
                )
            seen = sorted(obs.seen_cards().elements(), key=lambda card: card.id)
            parts.append(f"seen {format_cards(seen) or '-'}")
        return "; ".join(parts)

    def _record(self, state: Episode, player: int) -> str:
        lines = [f"seat {player}"]
        if state.core is None:
            return lines[0]
        if self.public:
            dealt = state.tracks and state.tracks[0].rounds
            lines.append(f"first dealer {state.tracks[0].dealer if dealt else state.core.dealer}")
        for number, track in enumerate(state.tracks):
            if not track.rounds:
                lines.append(f"deal {number}: shuffling")
                continue
            if self.public:
                upturned = CARDS[track.upturned]
                lines.append(f"deal {number}: dealer {track.dealer}, upturned {upturned}")
            at = 0
            for rnd, each in enumerate(track.rounds):
                line = f"round {rnd}: {each} each" if self.public else f"round {rnd}:"
                if self.private:
                    line += " | you " + " ".join(str(CARDS[c]) for c in track.received[player][rnd])
                lines.append(line)
                moves = []
                while at < len(track.moves) and track.moves[at].round == rnd:
                    move = track.moves[at]
                    moves.append(f"{move.seat}:{ACTIONS[move.code]}")
                    at += 1
                if self.public and moves:
                    lines.append(" ".join(moves))
            if self.public and track.scores is not None:
                lines.append("scores " + " ".join(map(str, track.scores)))
        return "\n".join(lines)


__all__ = ["CACHED", "FoxtrotObserver", "moves_cap"]
