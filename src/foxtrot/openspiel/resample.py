"""``resample_from_infostate``: a state one player cannot tell from the real one.

Every deal of the episode gets a new deck that agrees with all the player knows: the
cards he was dealt in each dealing round sit where the deal put them, the upturned card
stays, and every card another seat played lies in that seat's hand dealt no later than
the round it was played in.  The cards nobody has seen (the others' hands now, the
stock, the undealt cards) are shuffled uniformly.  Per seat, the dealing rounds are
filled from the last to the first, each with cards drawn at random among those that
may lie there (a card played in round r was dealt in round r or before; a card still
held, in any round): this always fits when the real deal does.

The episode is then replayed on the new decks, every action checked.  An action can
only fail under ``forced_foxtrot`` (X4): a sampled hand that held the rank of a lone
pile card on a turn when its seat did not make the forced foxtrot; such a sample is
drawn again.  Every state returned is consistent; the draw is random over the
consistent deals but not exactly uniform over them (nor weighted by how the other
seats would have played: no sampler can know that).
"""

from __future__ import annotations

import random
from typing import Any, Final, Protocol, TypeVar

from ..core import SplitMix64, TableOptions
from .track import DealTrack, Episode, positions

TAKE: Final = 52
ATTEMPTS: Final = 1000


def sampled_stream(sampler: object) -> random.Random:
    """The random stream of one resample, from what ``resample_from_infostate`` is handed.

    OpenSpiel hands a probability sampler (``pyspiel.UniformProbabilitySampler``: each call
    a float in [0, 1) from its own seeded generator); one draw of it seeds a ``SplitMix64``,
    so the sampler's seed decides every resample.  A ``random.Random`` is used as it is.
    Anything else is refused: no resample draws from hidden, global randomness.
    """
    if isinstance(sampler, random.Random):
        return sampler
    if not callable(sampler):
        raise ValueError(
            f"resample_from_infostate: {type(sampler).__name__} is not a probability sampler"
            " (a callable returning a float in [0, 1), as OpenSpiel passes) nor a random.Random"
        )
    draw = sampler()
    if type(draw) not in (float, int) or not 0 <= draw <= 1:
        raise ValueError(f"resample_from_infostate: the sampler drew {draw!r}, not in [0, 1)")
    return SplitMix64(f"foxtrot-resample:{float(draw)!r}")


class Replayable(Episode, Protocol):
    """An episode that can be replayed from its game (``game.FoxtrotState``, pyspiel's API)."""

    def history(self) -> list[int]: ...
    def get_game(self) -> Any: ...
    def is_chance_node(self) -> bool: ...
    def legal_actions(self) -> list[int]: ...
    def apply_action(self, action: int) -> None: ...


E = TypeVar("E", bound=Replayable)


def resample_state(state: E, player: int, rng: random.Random) -> E:
    """A new state with the same information state for ``player`` (see the module doc)."""
    n = state.options.players
    if type(player) is not int or not 0 <= player < n:
        raise ValueError(f"resample_from_infostate: {player!r} is not a seat (0 to {n - 1})")
    history = state.history()
    game = state.get_game()
    for _ in range(ATTEMPTS):
        replaced: dict[int, int] = {}
        for track in state.tracks:
            deck = new_deck(state.options, track, player, rng)
            for index, card in enumerate(deck):
                replaced[track.start + index] = card
        fresh: E = game.new_initial_state()
        for index, action in enumerate(history):
            action = replaced.get(index, action)
            if not fresh.is_chance_node() and action not in fresh.legal_actions():
                break  # this sample contradicts a move (forced_foxtrot): draw again
            fresh.apply_action(action)
        else:
            return fresh
    raise ValueError(
        f"resample_from_infostate: no deal consistent with seat {player}'s information"
        f" in {ATTEMPTS} draws"
    )


def split_rounds(
    plays: list[tuple[int, int]], held: list[int], sizes: list[int], rng: random.Random
) -> list[list[int]]:
    """The cards a seat was dealt in each round, drawn at random: ``plays`` are (round,
    card) of the cards it played, ``held`` the cards it holds now, ``sizes`` how many it
    got in each round.  From the last round to the first, each round's cards are drawn
    among those that may lie there (played in that round or later, or still held)."""
    last = len(sizes) - 1
    items = plays + [(last, card) for card in held]
    out: list[list[int]] = [[] for _ in sizes]
    for rnd in range(last, -1, -1):
        eligible = [index for index, (deadline, _) in enumerate(items) if deadline >= rnd]
        if len(eligible) < sizes[rnd]:
            raise ValueError("resample_from_infostate: the deal's moves do not fit its rounds")
        chosen = set(rng.sample(eligible, sizes[rnd]))
        out[rnd] = sorted(items[index][1] for index in chosen)
        items = [item for index, item in enumerate(items) if index not in chosen]
    return out


def new_deck(options: TableOptions, track: DealTrack, player: int, rng: random.Random) -> list[int]:
    """A deck for ``track`` that agrees with what ``player`` knows of it (module doc)."""
    size = options.deck_size
    copies = options.copies  # a mini game's pack leaves some cards out
    pool = [kind for kind in range(52) for _ in range(copies[kind])]
    if not track.rounds:  # shuffling: nobody has seen a card of this deck yet
        rng.shuffle(pool)
        return pool[: len(track.deck)]
    n = options.players
    slots = positions(options, track.dealer, len(track.rounds))
    deck: list[int | None] = [None] * size
    unseen = list(copies)
    upturned_at = options.hand_size * n
    deck[upturned_at] = track.upturned
    unseen[track.upturned] -= 1
    for rnd, cards in enumerate(track.received[player]):
        places = slots[player][rnd][:]
        rng.shuffle(places)
        for place, card in zip(places, cards, strict=True):
            deck[place] = card
            unseen[card] -= 1
    plays: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for move in track.moves:
        if move.seat != player and move.code != TAKE:
            plays[move.seat].append((move.round, move.code))
            unseen[move.code] -= 1
    hidden = [kind for kind in range(52) for _ in range(unseen[kind])]
    rng.shuffle(hidden)
    for seat in range(n):
        if seat == player:
            continue
        held = sum(map(len, slots[seat])) - len(plays[seat])
        split = split_rounds(plays[seat], hidden[:held], [len(r) for r in slots[seat]], rng)
        del hidden[:held]
        for spots, cards in zip(slots[seat], split, strict=True):
            for place, card in zip(spots, cards, strict=True):
                deck[place] = card
    rest = [place for place in range(size) if deck[place] is None]
    if len(rest) != len(hidden):
        raise ValueError("resample_from_infostate: the unseen cards do not fit the deck")
    for place, card in zip(rest, hidden, strict=True):
        deck[place] = card
    return [card for card in deck if card is not None]


__all__ = ["ATTEMPTS", "new_deck", "resample_state", "split_rounds"]
