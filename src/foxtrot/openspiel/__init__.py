"""Foxtrot as an OpenSpiel game (extra ``[openspiel]``): ``python_foxtrot``.

Importing this package registers the game::

    import pyspiel
    import foxtrot.openspiel
    game = pyspiel.load_game("python_foxtrot", {"players": 4, "take": "any", "deals": 1})

Parameters (``game.DEFAULTS``): every rule option of ``TableOptions`` (``players`` 2-9,
``take`` match/any, ``forced_foxtrot``, ``leftover_pile`` discard/last_taker,
``most_cards_tie`` none/all, ``target``; for a mini game ``packs``, ``ranks`` as text such
as ``"10 J Q"``, ``suits``, ``hand_size``: docs/research/mini.md and ``mini``), ``deals``
(1: an episode is one deal, the default; k: k deals; 0: the whole match, until it is won, at
most ``MATCH_DEALS`` deals), ``dealer`` (-1: drawn by a chance node; a seat: fixed) and
``returns``: ``margin`` (zero-sum: each deal's score minus the mean of the others' scores,
paid when the deal ends), ``points`` (general-sum: the deal scores themselves), ``win``
(with ``deals=0``: +1 to the winner and -1/(n-1) to the others when the match is won).

Chance is explicit, as in OpenSpiel's card games: the dealer (when drawn), then the
deck one card at a time (each card kind with its share of the cards left), so every
algorithm that reads ``chance_outcomes`` works.  OpenSpiel's sampled-stochastic mode
is not available to a Python game: ``random_sim_test`` asks such a game for
``GetRNGState``, which Python cannot provide.  Player actions are 0-51 (play the card
with that id, ``rank * 4 + suit``) and 52 (take the pile).

Strings and tensors: ``observer`` (laid out in docs/env.md);
``resample_from_infostate``: ``resample``; an OpenSpiel bot in a tournament: ``bots``.
"""

from __future__ import annotations

import pyspiel

from .game import (
    DEFAULTS,
    GAME_TYPE,
    MATCH_DEALS,
    SHORT_NAME,
    FoxtrotGame,
    FoxtrotState,
)

if SHORT_NAME not in {game.short_name for game in pyspiel.registered_games()}:
    pyspiel.register_game(GAME_TYPE, FoxtrotGame)


def load(**params: object) -> FoxtrotGame:
    """``pyspiel.load_game("python_foxtrot", params)``, typed."""
    game: FoxtrotGame = pyspiel.load_game(SHORT_NAME, dict(params))
    return game


__all__ = ["DEFAULTS", "MATCH_DEALS", "SHORT_NAME", "FoxtrotGame", "FoxtrotState", "load"]
