"""The table in a few lines of text, from one seat's observation (``render_mode="ansi"``)."""

from __future__ import annotations

from ..core import Observation, format_cards


def render_text(obs: Observation) -> str:
    """What ``obs.seat`` sees: the pile, the stock, every seat's counts, its own hand."""
    lines = [
        f"deal {obs.deal + 1}, dealer seat {obs.dealer}, to move: "
        + ("-" if obs.to_move is None else f"seat {obs.to_move}"),
        f"pile ({len(obs.pile)}): {format_cards(obs.pile) or '-'}   stock: {obs.stock}",
    ]
    for seat in range(obs.players):
        lines.append(
            f"seat {seat}: {obs.hand_sizes[seat]} in hand, {len(obs.taken[seat])} taken,"
            f" {len(obs.foxtrots[seat])} foxtrots, total {obs.totals[seat]}"
        )
    lines.append(f"hand of seat {obs.seat}: {format_cards(obs.hand) or '-'}")
    return "\n".join(lines)


__all__ = ["render_text"]
