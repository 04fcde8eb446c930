"""The position, read-only: as card ids for search and compiled code, as cards for people,
as one value that prints, reads and compares itself.

``PositionIds``, ``PositionCards`` and ``PositionValue`` are the bases ``State`` shows its
position through; they read the state's own fields and write none.  They form one line of
single inheritance (``PositionIds`` <- ``PositionCards`` <- ``PositionValue`` <-
``refusals.Legality`` <- ``State``), not mixins side by side, so that the same classes compile
ahead of time (mypyc, whose native classes have one base; see docs/library/engine.md).

The position as card ids: the public integer API of ``State`` for search and compiled code.

Bots' playouts, the compiled kernel, the environments and the tests read a position in the
engine's own terms — card ids (``Card.id``: ``rank * 4 + suit``), the pile bottom first, the
stock top last — and move with ``State.apply_code_unchecked(code)``.  This base class is that
API, read-only, in the way of python-chess's bitboards and pokerkit's state lists: no copy,
so a playout pays nothing for it.

The sequences are **live views** of the engine's own lists.  They follow every move (a new
deal, or the pile going to the last taker at the deal's end, makes new ones: read them again
after those) and must not be changed: they are typed read-only (``Sequence``); copy them to
keep or change them.  Changing one would corrupt the state, as an illegal
``apply_code_unchecked`` does.  They show hidden information (every hand, the stock): for
code allowed to see it — a search on its own sampled deal, a test — never for a seat's bot,
which gets an ``Observation``.

>>> import random
>>> from foxtrot.core import State, TableOptions
>>> state = State(TableOptions(players=2), dealer=0)
>>> _ = state.deal(random.Random(1))
>>> seat, hand = state.turn, state.hand_ids[state.turn]
>>> code = hand[0]  # a card the player to move holds: a legal code (rule T3)
>>> result = state.apply_code_unchecked(code)
>>> code in state.hand_ids[seat], len(hand)
(False, 7)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

from .cards import CARDS, Card
from .options import TableOptions
from .outcome import Phase
from .position_text import format_position, parse_position
from .snapshot import Snapshot

__all__ = ["PositionCards", "PositionIds", "PositionValue"]

_card = CARDS.__getitem__


class PositionIds:
    """The position as card ids (a base of ``State``; live, read-only views, see the module)."""

    __slots__ = ()

    _hands: list[list[int]]
    _actions: list[int]
    _pile: list[int]
    _stock: list[int]
    _taken: list[list[int]]
    _foxtrots: list[list[int]]
    _to_move: int
    _match: bool
    _forced: bool
    _last_taker: int
    _upturned: int

    @property
    def hand_ids(self) -> Sequence[Sequence[int]]:
        """Every seat's hand, by seat, each sorted (a live view; hidden information)."""
        return self._hands

    @property
    def pile_ids(self) -> Sequence[int]:
        """The pile, bottom card first (a live view)."""
        return self._pile

    @property
    def stock_ids(self) -> Sequence[int]:
        """The stock, top card **last** (the order the engine pops it; ``stock`` is top
        first): a live view, hidden information."""
        return self._stock

    @property
    def taken_ids(self) -> Sequence[Sequence[int]]:
        """Per seat, every card taken this deal, foxtrots included (a live view)."""
        return self._taken

    @property
    def foxtrot_ids(self) -> Sequence[Sequence[int]]:
        """Per seat, one card per foxtrot made this deal (a live view)."""
        return self._foxtrots

    @property
    def action_ids(self) -> Sequence[int]:
        """The deal's actions so far, each ``seat << 6 | code`` (a live view; after the deal,
        the last deal's): what an observation's ``history`` shows."""
        return self._actions

    @property
    def turn(self) -> int:
        """The seat to move, as a plain ``int``: ``to_move`` without its phase check, for
        loops that check ``phase`` themselves (meaningless unless a deal is in progress)."""
        return self._to_move

    @property
    def take_match(self) -> bool:
        """True under ``take = match`` (rule T4): ``options.take is TakeRule.MATCH``, cached."""
        return self._match

    @property
    def last_taker(self) -> int | None:
        """The seat that took cards last this deal (the leftover pile's taker, X5), if any."""
        return self._last_taker if self._last_taker >= 0 else None

    @property
    def upturned(self) -> Card | None:
        """The card turned up at the start of this deal (or the last one), if any (D3)."""
        return CARDS[self._upturned] if self._upturned >= 0 else None


class PositionCards(PositionIds):
    """The position as ``Card`` values, copied: what front ends and tests read (a base of
    ``State``).

    >>> import random
    >>> from foxtrot.core import State, TableOptions
    >>> state = State(TableOptions(players=2), dealer=0)
    >>> _ = state.deal(random.Random(1))
    >>> state.players, state.to_move, state.is_over, len(state.hand(1)), len(state.pile)
    (2, 1, False, 8, 1)
    >>> len(state.stock), state.taken(0), state.foxtrots(0)
    (87, (), ())
    """

    __slots__ = ()

    options: TableOptions
    phase: Phase

    @property
    def is_over(self) -> bool:
        """True once somebody has won the match (M2)."""
        return self.phase is Phase.OVER

    @property
    def to_move(self) -> int | None:
        """The seat whose turn it is, or ``None`` between deals and after the match."""
        return self._to_move if self.phase is Phase.PLAYING else None

    @property
    def players(self) -> int:
        """Number of players."""
        return self.options.players

    def hand(self, seat: int) -> tuple[Card, ...]:
        """A seat's hand, sorted (hidden information: not for other seats)."""
        return tuple(map(_card, self._hands[seat]))

    def taken(self, seat: int) -> tuple[Card, ...]:
        """Every card a seat took in this deal, foxtrots included."""
        return tuple(map(_card, self._taken[seat]))

    def foxtrots(self, seat: int) -> tuple[Card, ...]:
        """One card per foxtrot the seat made this deal (its rank tells single or double)."""
        return tuple(map(_card, self._foxtrots[seat]))

    @property
    def pile(self) -> tuple[Card, ...]:
        """The pile, bottom card first."""
        return tuple(map(_card, self._pile))

    @property
    def stock(self) -> tuple[Card, ...]:
        """The stock, top card first (hidden information); after the deal, the undealt cards."""
        return tuple(CARDS[card] for card in reversed(self._stock))


class PositionValue(PositionCards):  # noqa: PLW1641 - unhashable on purpose (below)
    """The position as a value (a base of ``State``): its canonical text, read back by
    ``from_text``; ``==`` on positions; a ``repr`` that is the text.  It is built on the
    state's ``snapshot()`` and ``from_snapshot()`` alone (see ``snapshot``)."""

    __slots__ = ()

    def snapshot(self) -> Snapshot:
        """The position as one immutable value (the state's own)."""
        raise NotImplementedError

    @classmethod
    def from_snapshot(cls, snap: Snapshot) -> Self:
        """A state at the position ``snap`` (the state's own)."""
        raise NotImplementedError

    def text(self) -> str:
        """The position in one line, canonical: ``from_text`` reads it back equal.

        Sixteen fields, described in ``position_text`` (like FEN, it holds the position,
        not the record of how it was reached).  It shows hidden information: every hand
        and the stock.
        """
        return format_position(self.snapshot())

    @classmethod
    def from_text(cls, text: object) -> Self:
        """The state ``text`` describes; ``PositionTextError`` names the field at fault (or
        says that ``text`` is not a ``str``: typed ``object``, as it is checked here)."""
        return cls.from_snapshot(parse_position(text))

    def __eq__(self, other: object) -> bool:
        """Same position: every field of ``snapshot()`` equal (see ``snapshot``).

        Not compared: the record-only history (the lot, the decks and the finished deals'
        actions) and the caches.
        """
        if not isinstance(other, PositionValue):
            return NotImplemented
        return self is other or self.snapshot() == other.snapshot()

    # A state changes in place, so it has no hash (as python-chess's ``Board``): key a dict
    # by ``state.text()`` or ``state.snapshot()`` instead.  Defining ``__eq__`` alone makes
    # Python set ``__hash__`` to None; the compiled build would read ``__hash__ = None``
    # written here as a field of every instance.

    def __repr__(self) -> str:
        snap = self.snapshot()
        if snap.options.is_mini:  # no position text for a shrunk pack (``format_position``)
            return f"<{type(self).__name__} of a mini game, {snap.options}>"
        return f"{type(self).__name__}.from_text({self.text()!r})"
