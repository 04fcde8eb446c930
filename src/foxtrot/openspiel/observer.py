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
from typing import Any, Final, NamedTuple

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
#: copy instead of a recomputation.  About 1 KB each (``Parts``).
CACHED: Final = 256


def moves_cap(options: TableOptions) -> int:
    """The most moves a deal can have: every card played, and a take after each (T4)."""
    return 2 * options.deck_size


class Parts(NamedTuple):
    """A tensor as an observer keeps it (about 1 KB, not the tensor's 46): the observation
    part, where the moves block holds a 1 (a new array, or none), the dealt counts (or none)."""

    observation: Array
    slots: npt.NDArray[np.int64] | None
    dealt: Array | None


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
        self._rounds = max_rounds(options)
        self._row_starts = np.arange(moves_cap(options)) * N_ACTIONS  # move i's first index
        self._recent: OrderedDict[tuple[bytes, int], Parts] = OrderedDict()
        self.dict: dict[str, Array] = {}
        at = 0
        for name, shape in pieces:
            width = int(np.prod(shape))
            self.dict[name] = self.tensor[at : at + width].reshape(shape)
            at += width
        self._observed_part = self.dict["observation"]
        self._moves = self.dict["moves"].reshape(-1) if self.recall else self.tensor[:0]
        self._dealt = self.dict["dealt"].reshape(-1) if self.recall else self.tensor[:0]
        # the tensor's bytes: zeroed as bytes, twice as fast as numpy's float fill
        self._bytes = self.tensor.view(np.uint8)

    def _observation(self, state: Episode, player: int) -> Observation | None:
        core = state.core
        if core is None:
            return None
        return core.observation(player)

    def set_from(self, state: Episode, player: int) -> None:
        """Fill ``tensor`` with ``state`` as ``player`` sees it (from the cached parts when
        this observer filled it for the same history and player lately)."""
        key = (state.trail, player)  # the history as bytes: its hash is computed once
        self._bytes.fill(0)
        recent = self._recent
        found = recent.get(key)
        if found is not None:
            recent.move_to_end(key)
            self._observed_part[:] = found.observation
        else:
            found = recent[key] = self._parts(state, player)
            if len(recent) > CACHED:
                recent.popitem(last=False)
        if found.slots is not None:
            self._moves[found.slots] = 1
        if found.dealt is not None:
            self._dealt[:] = found.dealt

    def _parts(self, state: Episode, player: int) -> Parts:
        """Encode ``state`` for ``player`` into the tensor's observation part (zeroed), in
        place, and return what the cache keeps of it."""
        observation = self._observed_part
        core = state.core
        if core is None:
            return Parts(observation.copy(), None, None)
        obs = core.observation(player)
        # the deal's move codes at once (``DealTrack.codes``): the moves block, and the cards
        # seen (the upturned card and every card played, as ``obs.seen_counts()`` counts them)
        track = state.tracks[-1] if obs.phase is Phase.PLAYING else None
        codes = None if track is None else np.frombuffer(track.codes, np.uint8)
        if self.public:
            seen = None
            if codes is not None and obs.upturned is not None:
                seen = np.bincount(codes, minlength=N_ACTIONS)
                seen[obs.upturned.id] += 1
            encode(obs, observation, seen=None if seen is None else seen[:52])
            if not self.private:
                observation[:52] = 0  # the hand block (docs/env.md)
        elif self.private:
            for card in obs.hand:
                observation[card.id] += 1
        if not self.recall or track is None or codes is None:
            return Parts(observation.copy(), None, None)
        slots = self._row_starts[: len(codes)] + codes if self.public else None
        dealt = track.dealt_counts(player, self._rounds) if self.private else None
        return Parts(observation.copy(), slots, dealt)

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


__all__ = ["CACHED", "FoxtrotObserver", "Parts", "moves_cap"]
