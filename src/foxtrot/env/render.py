"""The table from one seat's observation: a few lines of text (``render_mode="ansi"``) or an
image (``render_mode="rgb_array"``)."""

from __future__ import annotations

from typing import Any

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


#: Suit symbols and whether the suit is red, by the suit's name.
_SUITS = {
    "SPADES": ("♠", False),
    "HEARTS": ("♥", True),
    "DIAMONDS": ("♦", True),
    "CLUBS": ("♣", False),
}
#: The render modes of every environment, and the frames a second a viewer should show.
RENDER_MODES = ("ansi", "rgb_array")
RENDER_FPS = 2


def check_render_mode(mode: str | None) -> str | None:
    """``mode`` if an environment can render it (None: no rendering); else ``ValueError``."""
    if mode is not None and mode not in RENDER_MODES:
        raise ValueError(f"render_mode: {mode!r} is not allowed (expected ansi or rgb_array)")
    return mode


def render(obs: Observation, mode: str | None) -> Any:
    """The frame of ``mode`` for what ``obs.seat`` sees (None: no rendering)."""
    if mode is None:
        return None
    return render_text(obs) if mode == "ansi" else render_image(obs)


def render_image(obs: Observation, width: int = 640, height: int = 400) -> Any:
    """What ``obs.seat`` sees, as an RGB array (``render_mode="rgb_array"``): the pile's top
    cards on the felt, the stock's count, each seat's counts and total, the seat's own hand
    face up.  Drawn with matplotlib (the ``plot`` extra) off screen; ``(height, width, 3)``
    ``uint8``, as Gymnasium's video recorders take it."""
    import numpy as np  # noqa: PLC0415 (the plot extra, only for this render mode)
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: PLC0415
    from matplotlib.figure import Figure  # noqa: PLC0415
    from matplotlib.patches import FancyBboxPatch  # noqa: PLC0415

    dpi = 100
    figure = Figure(figsize=(width / dpi, height / dpi), dpi=dpi, facecolor="#1f5f3a")
    axes = figure.add_axes((0, 0, 1, 1))
    axes.set_xlim(0, width)
    axes.set_ylim(0, height)
    axes.axis("off")

    def card(x: float, y: float, text: str, red: bool) -> None:
        axes.add_patch(
            FancyBboxPatch(
                (x, y), 44, 64, boxstyle="round,pad=2", facecolor="white", edgecolor="#333333"
            )
        )
        colour = "#c0392b" if red else "#111111"
        axes.text(x + 22, y + 32, text, ha="center", va="center", fontsize=13, color=colour)

    def face(c: Any) -> tuple[str, bool]:
        text = format_cards([c])
        symbol, red = _SUITS[c.suit.name]
        return text[:-1] + symbol, red

    axes.text(
        12,
        height - 22,
        f"deal {obs.deal + 1}   stock {obs.stock}   pile {len(obs.pile)}   "
        + ("to move: -" if obs.to_move is None else f"to move: seat {obs.to_move}"),
        color="white",
        fontsize=11,
    )
    for i, c in enumerate(obs.pile[-6:]):  # the pile's top cards, the top one last
        card(width / 2 - 150 + 50 * i, height / 2 - 10, *face(c))
    for seat in range(obs.players):
        axes.text(
            12,
            height - 50 - 18 * seat,
            f"seat {seat}{' (you)' if seat == obs.seat else ''}: {obs.hand_sizes[seat]} in hand,"
            f" {len(obs.taken[seat])} taken, {len(obs.foxtrots[seat])} foxtrots,"
            f" total {obs.totals[seat]}",
            color="white",
            fontsize=9,
        )
    for i, c in enumerate(obs.hand):
        card(20 + 52 * i, 14, *face(c))
    canvas = FigureCanvasAgg(figure)  # off screen, whatever backend pyplot would pick
    canvas.draw()  # type: ignore[no-untyped-call]
    rgba = np.asarray(canvas.buffer_rgba())  # type: ignore[no-untyped-call]
    return rgba[:, :, :3].copy()


__all__ = [
    "RENDER_FPS",
    "RENDER_MODES",
    "check_render_mode",
    "render",
    "render_image",
    "render_text",
]
