"""A position as one immutable value: what ``State.__eq__`` compares and its text writes.

A ``State`` is mutable and built for speed (lists of card ids, changed in place by every
move); a ``Snapshot`` is the same position frozen into tuples, so that two states compare by
comparing their snapshots, and the position text (``position_text``) is a snapshot written
out.  It holds every fact that future play, the scores or a seat's observation can tell
apart:

- the table: ``options`` and ``names``;
- where the match stands: ``phase``, ``dealer``, ``to_move``, ``totals``, ``winner`` and the
  scores of every finished deal (``deal_scores``, whose length is the deal number);
- the deal: ``hands``, ``pile`` (bottom first), ``stock`` (top **last**, as
  ``State.stock_ids``), ``taken``, ``foxtrots``, ``last_taker``, ``upturned``;
- the deal's actions so far (``actions``, each ``seat << 6 | code``), which observations show.

It leaves out what only a record keeps (as FEN leaves out the moves a PGN keeps): the
drawing of lots for the first dealer, the deck of each deal and the actions of the finished
deals.  ``State.from_snapshot`` rebuilds a state without them; ``foxtrot.core.dumps`` keeps
a whole match.

>>> from foxtrot.core import State, TableOptions
>>> state = State(TableOptions(), dealer=0)
>>> snap = state.snapshot()
>>> snap.phase.name, snap.dealer, snap.to_move, snap.totals
('AWAITING_DEAL', 0, 1, (0, 0))
>>> State.from_snapshot(snap) == state
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .options import TableOptions, default_names
from .outcome import Phase
from .scoring import ScoreLine

__all__ = ["Snapshot", "in_play"]


class Snapshot(NamedTuple):
    """Every fact of a position that play, scores or observations can tell apart (see the
    module).  Cards are ids (``Card.id``); seats are indexes; ``None`` means none."""

    options: TableOptions
    names: tuple[str, ...]
    phase: Phase
    dealer: int
    to_move: int
    hands: tuple[tuple[int, ...], ...]
    pile: tuple[int, ...]
    stock: tuple[int, ...]
    taken: tuple[tuple[int, ...], ...]
    foxtrots: tuple[tuple[int, ...], ...]
    last_taker: int | None
    upturned: int | None
    actions: tuple[int, ...]
    deal_scores: tuple[tuple[ScoreLine, ...], ...]
    totals: tuple[int, ...]
    winner: int | None

    @property
    def deal_number(self) -> int:
        """0-based index of the deal in progress (or of the next one, between deals)."""
        return len(self.deal_scores)


def in_play(
    options: TableOptions,
    *,
    dealer: int,
    turn: int,
    hands: Sequence[Sequence[int]],
    pile: Sequence[int],
    stock: Sequence[int] = (),
) -> Snapshot:
    """A deal in progress at this position, given as card ids (``State.at_position``):
    nothing taken yet, no history, the default names, no scores."""
    n = options.players
    return Snapshot(
        options=options,
        names=default_names(n),
        phase=Phase.PLAYING,
        dealer=dealer,
        to_move=turn,
        hands=tuple(tuple(sorted(hand)) for hand in hands),
        pile=tuple(pile),
        stock=tuple(stock),
        taken=((),) * n,
        foxtrots=((),) * n,
        last_taker=None,
        upturned=None,
        actions=(),
        deal_scores=(),
        totals=(0,) * n,
        winner=None,
    )
