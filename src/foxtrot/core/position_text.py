"""The position text: a ``Snapshot`` on one line, as FEN is a chess position (``State.text``).

Sixteen fields separated by single spaces, in this order (``docs/library/position.md`` has
the grammar with examples).  A list of cards is the cards' texts (rule C4) written together,
``QS10H2C``; ``-`` stands for an empty list or for no value; lists by seat are separated by
``/``, seat 0 first.

==========  ==========================================================================
options     ``players:take:forced_foxtrot:leftover_pile:most_cards_tie:target``, such as
            ``2:match:no:discard:none:200``
names       ``-`` for the default names (Player 1, ...), else the names separated by ``,``,
            with ``%``, ``,``, spaces and invisible characters written ``%XX`` (UTF-8)
phase       ``awaiting_deal``, ``playing`` or ``over``
dealer      the dealer's seat
turn        the seat to move (between deals: the seat after the last to move)
hands       each seat's hand, sorted, by seat
pile        the pile, bottom card first
stock       the stock, top card first (after a deal: the undealt cards)
taken       each seat's cards taken this deal, in the order taken, by seat
foxtrots    each seat's foxtrot cards this deal, by seat
upturned    the card turned up at the start of the deal, or ``-``
last_taker  the seat that took last this deal, or ``-``
history     the deal's actions in order, a card or ``x`` for a take (the seats follow
            from the turn: each action is by the seat after the one before)
totals      the match totals, by seat, separated by ``,``
scores      each finished deal's score lines, deals separated by ``/``, seats by ``,`` and
            a line's six numbers by ``:`` (foxtrots, double foxtrots, cards, card points,
            most cards, total), or ``-`` before the first deal ends
winner      the winner's seat once the match is over, else ``-``
==========  ==========================================================================

``format_position`` writes the one canonical text of a snapshot; ``parse_position`` reads
it back, equal, and refuses anything else with a ``PositionTextError`` that names the field
and the token at fault.

>>> from foxtrot.core import State, TableOptions
>>> print(format_position(State(TableOptions(), dealer=1).snapshot()))
2:match:no:discard:none:200 - awaiting_deal 1 0 -/- - - -/- -/- - - - 0,0 - -
>>> parse_position("2:match:no:discard:none:200 - playing 1 0 QS/QX - - -/- -/- - - - 0,0 - -")
... # doctest: +ELLIPSIS
Traceback (most recent call last):
...
foxtrot.core.errors.PositionTextError: position text, hands[1]: 'QX' is not a card (a rank ...
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import Any, Final, NoReturn
from urllib.parse import unquote

from .actions import TAKE_CODE
from .cards import CARDS
from .errors import FoxtrotError, OptionsError, PositionTextError
from .options import TableOptions, check_names, default_names
from .outcome import Phase
from .scoring import ScoreLine
from .snapshot import Snapshot

__all__ = ["FIELDS", "format_position", "parse_position"]

#: The fields of a position text, in order.
FIELDS: Final = (
    "options",
    "names",
    "phase",
    "dealer",
    "turn",
    "hands",
    "pile",
    "stock",
    "taken",
    "foxtrots",
    "upturned",
    "last_taker",
    "history",
    "totals",
    "scores",
    "winner",
)
NONE: Final = "-"
TAKE_TEXT: Final = "x"
_CARD: Final = re.compile(r"(10|[2-9JQKA])[SHDC]")
_ACTION: Final = re.compile(r"(10|[2-9JQKA])[SHDC]|x")
_SEAT: Final = re.compile(r"0|[1-9][0-9]*")
_INT: Final = re.compile(r"-?(0|[1-9][0-9]*)")
_CARD_ID: Final = {str(card): card.id for card in CARDS}
_PHASES: Final = {phase.name.lower(): phase for phase in Phase}
_YES_NO: Final = {"yes": True, "no": False}


# ------------------------------------------------------------------ writing


def _cards(ids: Sequence[int]) -> str:
    return "".join(str(CARDS[card]) for card in ids) or NONE


def _by_seat(lists: Sequence[Sequence[int]]) -> str:
    return "/".join(_cards(ids) for ids in lists)


def _optional(value: int | None) -> str:
    return NONE if value is None else str(value)


def _name(name: str) -> str:
    """A name with ``%``, ``,`` and anything invisible or spacing written ``%XX``."""
    return "".join(
        ch
        if ch.isprintable() and not ch.isspace() and ch not in "%,"
        else "".join(f"%{byte:02X}" for byte in ch.encode("utf-8", "surrogatepass"))
        for ch in name
    )


def format_position(snap: Snapshot) -> str:
    """The canonical text of ``snap`` (see the module for the fields).

    The text holds the real game's options only: a mini game's position (a shrunk pack,
    ``TableOptions.is_mini``) is refused rather than written as another game's.
    """
    o = snap.options
    if o.is_mini:
        raise OptionsError(
            "position: a mini game (packs, ranks, suits, hand_size) has no position text;"
            " save its record instead"
        )
    options = ":".join(
        (
            str(o.players),
            o.take.value,
            "yes" if o.forced_foxtrot else "no",
            o.leftover_pile.value,
            o.most_cards_tie.value,
            str(o.target) if type(o.target) is int else repr(o.target),
        )
    )
    names = (
        NONE
        if snap.names == default_names(o.players)
        else ",".join(_name(name) for name in snap.names)
    )
    history = "".join(
        TAKE_TEXT if action & 63 == TAKE_CODE else str(CARDS[action & 63])
        for action in snap.actions
    )
    scores = "/".join(
        ",".join(
            ":".join(
                str(n)
                for n in (
                    line.foxtrots,
                    line.double_foxtrots,
                    line.cards,
                    line.card_points,
                    line.most_cards,
                    line.total,
                )
            )
            for line in lines
        )
        for lines in snap.deal_scores
    )
    return " ".join(
        (
            options,
            names,
            snap.phase.name.lower(),
            str(snap.dealer),
            str(snap.to_move),
            _by_seat(snap.hands),
            _cards(snap.pile),
            _cards(snap.stock[::-1]),  # top card first
            _by_seat(snap.taken),
            _by_seat(snap.foxtrots),
            NONE if snap.upturned is None else str(CARDS[snap.upturned]),
            _optional(snap.last_taker),
            history or NONE,
            ",".join(map(str, snap.totals)),
            scores or NONE,
            _optional(snap.winner),
        )
    )


# ------------------------------------------------------------------ reading


class _Reader:
    """Reads the fields of one text; every refusal names the field, the token and the text."""

    def __init__(self, text: str) -> None:
        self.text = text

    def fail(self, field: str, token: str, reason: str) -> NoReturn:
        raise PositionTextError(field, token, reason, self.text)

    def seat(self, field: str, token: str, players: int) -> int:
        if not _SEAT.fullmatch(token) or int(token) >= players:
            self.fail(field, token, f"is not a seat (0 to {players - 1})")
        return int(token)

    def optional_seat(self, field: str, token: str, players: int) -> int | None:
        return None if token == NONE else self.seat(field, token, players)

    def number(self, field: str, token: str) -> int:
        if not _INT.fullmatch(token):
            self.fail(field, token, "is not a whole number")
        return int(token)

    def cards(self, field: str, token: str) -> tuple[int, ...]:
        if token == NONE:
            return ()
        ids = []
        at = 0
        while at < len(token):
            found = _CARD.match(token, at)
            if found is None:
                self.fail(
                    field,
                    token[at : at + 3],
                    "is not a card (a rank 2-10, J, Q, K or A, then a suit S, H, D or C)",
                )
            ids.append(_CARD_ID[found.group()])
            at = found.end()
        return tuple(ids)

    def by_seat(self, field: str, token: str, players: int) -> tuple[tuple[int, ...], ...]:
        groups = token.split("/")
        if len(groups) != players:
            self.fail(field, token, f"has {len(groups)} lists for {players} seats")
        return tuple(self.cards(f"{field}[{seat}]", group) for seat, group in enumerate(groups))

    def options(self, token: str) -> TableOptions:
        parts = token.split(":")
        if len(parts) != 6:
            self.fail("options", token, "is not players:take:forced:leftover:tie:target")
        players, take, forced, leftover, tie, target = parts
        if forced not in _YES_NO:
            self.fail("options", forced, "is not yes or no (forced_foxtrot)")
        number: float = int(target) if target.isascii() and target.isdigit() else self.real(target)
        chosen: dict[str, Any] = {  # the strings are checked and converted by TableOptions
            "players": self.number("options", players),
            "take": take,
            "forced_foxtrot": _YES_NO[forced],
            "leftover_pile": leftover,
            "most_cards_tie": tie,
            "target": number,
        }
        try:
            return TableOptions(**chosen)
        except FoxtrotError as error:
            self.fail("options", token, f"is not a table: {error}")

    def real(self, token: str) -> float:
        try:
            return float(token)
        except ValueError:
            self.fail("options", token, "is not a number (target)")

    def names(self, token: str, players: int) -> tuple[str, ...]:
        if token == NONE:
            return default_names(players)
        try:
            names = [unquote(name, errors="strict") for name in token.split(",")]
            return check_names(names, players)
        except (FoxtrotError, UnicodeDecodeError) as error:
            self.fail("names", token, f"are not names: {error}")

    def history(self, token: str) -> list[int]:
        if token == NONE:
            return []
        codes = []
        at = 0
        while at < len(token):
            found = _ACTION.match(token, at)
            if found is None:
                self.fail("history", token[at : at + 3], "is not a card or x (a take)")
            text = found.group()
            codes.append(TAKE_CODE if text == TAKE_TEXT else _CARD_ID[text])
            at = found.end()
        return codes

    def scores(self, token: str, players: int) -> tuple[tuple[ScoreLine, ...], ...]:
        if token == NONE:
            return ()
        deals = []
        for deal in token.split("/"):
            lines = deal.split(",")
            if len(lines) != players:
                self.fail("scores", deal, f"has {len(lines)} score lines for {players} seats")
            parsed = []
            for line in lines:
                parts = line.split(":")
                if len(parts) != 6:
                    self.fail("scores", line, "is not six numbers separated by ':'")
                parsed.append(ScoreLine(*(self.number("scores", part) for part in parts)))
            deals.append(tuple(parsed))
        return tuple(deals)


def parse_position(text: object) -> Snapshot:
    """The snapshot ``text`` writes: the inverse of ``format_position``.

    Raises ``PositionTextError`` for text that is not a position: a field missing or
    malformed, a seat out of range, more copies of a card than the packs hold, a foxtrot
    card its seat did not take, a winner without the match being over or the other way.
    """
    if not isinstance(text, str):
        raise PositionTextError("text", repr(text)[:40], "is not text", repr(text)[:200])
    read = _Reader(text)
    fields = text.split(" ")
    if len(fields) != len(FIELDS):
        read.fail(
            "text",
            f"{len(fields)} fields",
            f"are not the {len(FIELDS)} fields of a position ({', '.join(FIELDS)})"
            " separated by single spaces",
        )
    field = dict(zip(FIELDS, fields, strict=True))
    options = read.options(field["options"])
    n = options.players
    names = read.names(field["names"], n)
    if field["phase"] not in _PHASES:
        read.fail("phase", field["phase"], f"is not a phase ({', '.join(_PHASES)})")
    phase = _PHASES[field["phase"]]
    dealer = read.seat("dealer", field["dealer"], n)
    turn = read.seat("turn", field["turn"], n)
    hands = tuple(tuple(sorted(hand)) for hand in read.by_seat("hands", field["hands"], n))
    pile = read.cards("pile", field["pile"])
    stock = read.cards("stock", field["stock"])[::-1]  # top card last, as the engine keeps it
    taken = read.by_seat("taken", field["taken"], n)
    foxtrots = read.by_seat("foxtrots", field["foxtrots"], n)
    upturned = read.cards("upturned", field["upturned"])
    if len(upturned) > 1:
        read.fail("upturned", field["upturned"], "is more than one card")
    last_taker = read.optional_seat("last_taker", field["last_taker"], n)
    codes = read.history(field["history"])
    first = turn - len(codes)
    actions = tuple((first + i) % n << 6 | code for i, code in enumerate(codes))
    totals = tuple(read.number("totals", token) for token in field["totals"].split(","))
    if len(totals) != n:
        read.fail("totals", field["totals"], f"has {len(totals)} totals for {n} seats")
    scores = read.scores(field["scores"], n)
    winner = read.optional_seat("winner", field["winner"], n)
    if (winner is not None) != (phase is Phase.OVER):
        read.fail("winner", field["winner"], f"does not agree with the phase {field['phase']}")
    count = Counter([*pile, *stock, *(c for cards in (*hands, *taken) for c in cards)])
    in_pack = options.copies  # a mini game's pack leaves some cards out
    for card, copies in count.items():
        if copies > in_pack[card]:
            read.fail(
                "cards", str(CARDS[card]), f"is here {copies} times: the pack has {in_pack[card]}"
            )
    for seat in range(n):
        if Counter(foxtrots[seat]) - Counter(taken[seat]):
            read.fail(f"foxtrots[{seat}]", fields[9].split("/")[seat], "are not all taken")
    return Snapshot(
        options=options,
        names=names,
        phase=phase,
        dealer=dealer,
        to_move=turn,
        hands=hands,
        pile=pile,
        stock=stock,
        taken=taken,
        foxtrots=foxtrots,
        last_taker=last_taker,
        upturned=upturned[0] if upturned else None,
        actions=actions,
        deal_scores=scores,
        totals=totals,
        winner=winner,
    )
