"""The cards behind each deal's card points, for the match-end screen's sheet by category.

A deal's score line says how many card points a player took (rule P2) but not which
cards made them; the match-end screen shows them apart: tens, aces, jacks and queens of
spades.  Every card taken was seen face up (rule V1), so the counts are public; they are
read from the match's record, replayed deal by deal, once the match is over.

>>> import random
>>> from foxtrot.core import State, TableOptions
>>> state = State(TableOptions(players=2), dealer=0)
>>> _ = state.deal(random.Random(1))
>>> while state.deal_number == 0 and state.legal_codes():
...     _ = state.apply_code_unchecked(state.legal_codes()[0])
>>> [sorted(seat) for seat in match_parts(state)[0]]
[['aces', 'jacks', 'queens', 'tens'], ['aces', 'jacks', 'queens', 'tens']]
>>> sum(seat["tens"] for seat in match_parts(state)[0])  # two decks: eight tens, all taken
8
"""

from __future__ import annotations

from typing import Final

from ...core import Phase, RecordError, State, replay, to_record
from ...core.cards import CARDS, Rank, Suit

__all__ = ["PARTS", "match_parts"]

#: The categories of card points, in the order the sheet shows them.
PARTS: Final = ("tens", "aces", "jacks", "queens")


def _part(card_id: int) -> str | None:
    card = CARDS[card_id]
    if card.rank is Rank.TEN:
        return "tens"
    if card.rank is Rank.ACE:
        return "aces"
    if card.rank is Rank.JACK:
        return "jacks"
    if card.rank is Rank.QUEEN and card.suit is Suit.SPADES:
        return "queens"
    return None


#: The last state asked about and its parts: an ended match's state no longer changes, and
#: every seat's and spectator's view of it asks again (one replay, not one per connection).
_last: list[tuple[State, int, list[list[dict[str, int]]]]] = []


def match_parts(state: State) -> list[list[dict[str, int]]]:
    """Per ended deal, per seat: how many tens, aces, jacks and queens of spades it took.

    Empty when the state has no record to replay (a state sampled from an observation).
    """
    deals = state.deal_number
    if _last and _last[0][0] is state and _last[0][1] == deals:
        return _last[0][2]
    parts = _replayed(state)
    _last[:] = [(state, deals, parts)]
    return parts


def _replayed(state: State) -> list[list[dict[str, int]]]:
    try:
        record = to_record(state)
        parts: list[list[dict[str, int]]] = []
        for step in replay(record):
            if step.action is None or step.state.phase is Phase.PLAYING:
                continue
            obs = step.state.observation(0)
            deal = []
            for cards in obs.taken:
                counts = dict.fromkeys(PARTS, 0)
                for card in cards:
                    part = _part(card.id)
                    if part is not None:
                        counts[part] += 1
                deal.append(counts)
            parts.append(deal)
    except RecordError:
        return []
    return parts
