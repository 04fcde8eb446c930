"""Events in words, for the command line and the terminal game (rule V1: public only).

A line shows its cards in short (``Д♠``) for the screen, or, with ``words=True``, in words in
the case its sentence needs, as a screen reader says it ("Аня кладёт даму пик"): the page's
live region and ``foxtrot replay --print --words``.
"""

from __future__ import annotations

from collections.abc import Sequence

from .core import (
    Card,
    CardPlayed,
    DealEnded,
    DealStarted,
    Event,
    MatchEnded,
    PileTaken,
    PlayResult,
    Redealt,
)
from .i18n import card_slots, catalog, seat_name


def narrate(
    event: Event, names: Sequence[str], lang: str = "en", *, words: bool = False
) -> list[str]:
    """The lines that tell ``event``: one for a move, a few for the end of a deal.

    ``words``: the cards in words, each in its sentence's case, instead of in short.
    """
    cat = catalog(lang)

    def card(value: Card) -> dict[str, str]:
        return card_slots(value, lang, words=words)

    names = [seat_name(name, lang) for name in names]  # a computer seat in this language
    match event:
        case DealStarted():
            return [
                cat.text(
                    "deal_started",
                    deal=event.deal + 1,
                    dealer=names[event.dealer],
                    **card(event.upturned),
                    first=names[event.first],
                )
            ]
        case CardPlayed(result=PlayResult.LAID):
            return [cat.text("plays", name=names[event.seat], **card(event.card))]
        case CardPlayed(result=PlayResult.TOOK):
            return [
                cat.text(
                    "plays_and_takes",
                    name=names[event.seat],
                    **card(event.card),
                    cards=cat.count("cards", len(event.taken)),
                )
            ]
        case CardPlayed():
            return [cat.text(event.result.value, name=names[event.seat], **card(event.card))]
        case PileTaken():
            return [
                cat.text(
                    "takes_pile", name=names[event.seat], cards=cat.count("cards", len(event.taken))
                )
            ]
        case Redealt():
            return [
                cat.count("redealt", event.cards_each, stock=cat.count("stock_left", event.stock))
            ]
        case DealEnded():
            lines = [cat.text("deal_ended", deal=event.deal + 1)]
            if event.leftover:
                pile = cat.count("cards", len(event.leftover))
                lines.append(
                    cat.text("pile_discarded", cards=pile)
                    if event.leftover_to is None
                    else cat.text("pile_to_last_taker", name=names[event.leftover_to], cards=pile)
                )
            if event.undealt:
                lines.append(cat.text("undealt", cards=cat.count("cards", event.undealt)))
            for seat, line in enumerate(event.scores):
                lines.append(
                    cat.text(
                        "score_line",
                        name=names[seat],
                        total=line.total,
                        foxtrots=line.foxtrots,
                        double_foxtrots=line.double_foxtrots,
                        cards=cat.count("cards", line.cards),
                        card_points=line.card_points,
                        most_cards=line.most_cards,
                        match_total=event.totals[seat],
                    )
                )
            return lines
        case MatchEnded():
            return [
                cat.text(
                    "match_won",
                    name=names[event.winner],
                    total=cat.count("points", event.totals[event.winner]),
                )
            ]
    raise TypeError(f"not an event: {event!r}")
