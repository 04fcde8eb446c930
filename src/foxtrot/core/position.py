"""The position as card ids: the public integer API of ``State`` for search and compiled code.

Bots' playouts, the compiled kernel, the environments and the tests read a position in the
engine's own terms — card ids (``Card.id``: ``rank * 4 + suit``), the pile bottom first, the
stock top last — and move with ``State.apply_code_unchecked(code)``.  This mixin is that
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
from typing import TYPE_CHECKING

from .cards import CARDS, Card
from .outcome import Phase

if TYPE_CHECKING:
    from .options import TableOptions
    from .state import State

__all__ = ["PositionIds"]


class PositionIds:
    """The position as card ids (a mixin of ``State``; live, read-only views, see the module)."""

    __slots__ = ()

    _hands: list[list[int]]
    _pile: list[int]
    _stock: list[int]
    _taken: list[list[int]]
    _foxtrots: list[list[int]]
    _to_move: int
    _match: bool
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

    @staticmethod
    def at_position(
        options: TableOptions,
        *,
        dealer: int,
        turn: int,
        hands: Sequence[Sequence[int]],
        pile: Sequence[int],
        stock: Sequence[int] = (),
    ) -> State:
        """A ``State`` with a deal in progress at this position, given as card ids (``hands``
        by seat, ``pile`` bottom first, ``stock`` top last): for code that keeps positions as
        arrays and asks the engine about one (why an action is illegal, say).

        Nothing is taken yet and the history is empty; it has no known deck, so it cannot be
        saved as a record.  The ids are not checked against the pack.
        """
        from .state import State  # noqa: PLC0415 - State is built on this mixin

        state = State(options, dealer=dealer)
        state.phase = Phase.PLAYING
        state._to_move = turn
        state._hands = [sorted(hand) for hand in hands]
        state._pile = list(pile)
        state._stock = list(stock)
        return state
