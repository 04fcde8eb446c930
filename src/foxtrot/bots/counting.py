"""Card counting for the coach: what one seat can know about the cards it has not seen.

Everything here is computed from the seat's ``Observation`` alone (rules V1, V2):
the pack, the cards seen face up this deal (the upturned card and every card
played) and the seat's own hand.  Nothing reads another hand or the stock, so
a summary can be shown to a player without telling him anything he could not
work out with a pencil.

The lone-card risk is the chance that the next player holds at least one card
of a rank: a foxtrot needs only one.  From the seat's side the unseen cards
are spread at random over the other hands and the stock, so the next hand is
a random draw of its size from them: the hypergeometric distribution,
``1 - C(pool - k, h) / C(pool, h)`` for ``k`` unseen cards of the rank in a
pool of ``pool`` unseen cards and a hand of ``h``.  It is the one formula of
the project (``core.kernel.holds_chance``), which ``greedy.Odds`` and the
default policy of search use too; the count adds one thing: if the next
player's hand is empty, the stock is dealt again the moment this seat has
moved (rule R1), so his hand is the ``kernel.redeal_size`` cards he is about
to get (none when the deal ends, R2).  ``Odds`` would call every rank safe there.

The same formula with the unseen cards of several ranks counted together gives the chance
that he holds any of them (``holds_any``): the chance that he can take a pile of two cards or
more under take = match, with a Jack or a card of the top card's rank (T3a, T3d).

Examples:
    >>> import random
    >>> from foxtrot.core import State, TableOptions
    >>> state = State(TableOptions(players=2), dealer=0)
    >>> _ = state.deal(random.Random(3))
    >>> count = card_count(state.observation(1))
    >>> count.stock, count.next_seat, count.next_hand
    (87, 0, 8)
    >>> count.lines("en")[1]
    'Stock: 87 cards'
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable
from typing import Final

from ..core import Card, Observation, Rank, Suit
from ..core.kernel import RANKS, holds_chance, redeal_size
from ..i18n import catalog, rank_text, seat_name

QUEEN_OF_SPADES: Final = Card(Rank.QUEEN, Suit.SPADES)


def rank_display(rank: Rank, lang: str) -> str:
    """A rank as the cards show it (``10``, ``J``; ``В``, ``Д``, ``К``, ``Т`` in ru/uk)."""
    return rank_text(rank, lang)


def percent(chance: float) -> int:
    """A chance as a whole percentage; never 0 or 100 unless it is certain."""
    if chance <= 0.0:
        return 0
    if chance >= 1.0:
        return 100
    return min(99, max(1, round(chance * 100)))


def next_hand_size(obs: Observation) -> int:
    """The size of the hand the next player will hold when his turn comes after this seat's.

    His hand as it is now; but an empty hand gets the redeal of rule R1 first
    (or nothing, if the stock is too small and the deal ends, R2).
    """
    n = obs.players
    nxt = (obs.seat + 1) % n
    size = obs.hand_sizes[nxt]
    if size == 0:
        size = redeal_size(obs.stock, n, obs.options.hand_size)
    return size


@dataclasses.dataclass(frozen=True, slots=True)
class CardCount:
    """A seat's count of the cards it has not seen (they are in other hands or the stock).

    ``lone_card_risk`` maps every rank to the chance that the next player
    holds at least one card of it; ``hand_ranks`` are the ranks in the seat's
    own hand, the lone cards it could lay.
    """

    unseen_tens: int
    unseen_jacks: int
    unseen_aces: int
    unseen_queens_of_spades: int
    stock: int
    next_seat: int
    lone_card_risk: dict[Rank, float] = dataclasses.field(hash=False)
    next_hand: int = 0
    next_name: str = ""
    hand_ranks: tuple[Rank, ...] = ()

    def lines(self, lang: str = "en") -> list[str]:
        """A short summary for the screen: unseen key cards, the stock, lone-card risks."""
        cat = catalog(lang)
        unseen = ", ".join(
            (
                cat.count("coach_unseen_tens", self.unseen_tens),
                cat.count("coach_unseen_jacks", self.unseen_jacks),
                cat.count("coach_unseen_aces", self.unseen_aces),
                cat.count("coach_unseen_queens", self.unseen_queens_of_spades),
            )
        )
        found = [cat.text("coach_unseen", items=unseen), cat.count("coach_stock", self.stock)]
        if self.hand_ranks:
            ranks = sorted(self.hand_ranks, key=lambda rank: (self.lone_card_risk[rank], rank))
            items = ", ".join(
                cat.text(
                    "coach_risk_item",
                    rank=rank_display(rank, lang),
                    pct=percent(self.lone_card_risk[rank]),
                )
                for rank in ranks
            )
            name = seat_name(self.next_name, lang)  # a computer seat named in this language
            found.append(cat.text("coach_risk", name=name, items=items))
        return found


def holds_any(obs: Observation, ranks: Iterable[Rank]) -> float:
    """The chance that the next player holds at least one card of any of ``ranks``.

    One hypergeometric draw over the unseen cards of all those ranks together (not the
    product of each rank's chance: the ranks compete for the same hand), with the next hand's
    size as ``next_hand_size`` gives it: ``kernel.holds_chance``'s formula, which caches
    one rank's copies only.  For one rank it is ``CardCount.lone_card_risk``.
    """
    wanted = set(ranks)
    unseen = obs.unseen_cards()
    pool = sum(unseen.values())
    copies = sum(n for card, n in unseen.items() if card.rank in wanted)
    hand = min(next_hand_size(obs), pool)
    if copies <= 0 or hand <= 0:
        return 0.0
    return 1.0 - math.comb(pool - copies, hand) / math.comb(pool, hand)


def card_count(obs: Observation) -> CardCount:
    """Count what ``obs.seat`` has not seen, and the next player's chance to match a lone card.

    Only the observation is read (pack minus seen cards minus the own hand),
    so the count is exactly what the player could count himself.
    """
    unseen = obs.unseen_cards()
    by_rank = [0] * RANKS
    for card, copies in unseen.items():
        by_rank[card.rank] += copies
    pool = sum(by_rank)
    hand = next_hand_size(obs)
    nxt = (obs.seat + 1) % obs.players
    return CardCount(
        unseen_tens=by_rank[Rank.TEN],
        unseen_jacks=by_rank[Rank.JACK],
        unseen_aces=by_rank[Rank.ACE],
        unseen_queens_of_spades=unseen[QUEEN_OF_SPADES],
        stock=obs.stock,
        next_seat=nxt,
        lone_card_risk={rank: holds_chance(by_rank[rank], pool, hand) for rank in Rank},
        next_hand=hand,
        next_name=obs.names[nxt],
        hand_ranks=tuple(sorted({card.rank for card in obs.hand})),
    )


__all__ = [
    "QUEEN_OF_SPADES",
    "CardCount",
    "card_count",
    "holds_any",
    "holds_chance",
    "next_hand_size",
    "percent",
    "rank_display",
]
