"""Pictures of a tournament: the deal scores of every bot, and the ratings with intervals.

Drawn with matplotlib's object interface on an Agg canvas (``Figure`` and
``FigureCanvasAgg``, never ``pyplot``): no display is needed, no global figure
state is touched, and it works the same in a worker, a test or a server.
matplotlib is imported only here, so the rest of the command line starts fast.
"""

from __future__ import annotations

from pathlib import Path

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from .results import TournamentResults


def figure(results: TournamentResults) -> Figure:
    """Two panels: box plots of the deal scores per bot, and Elo ratings with 95 % intervals."""
    labels = results.labels
    fig = Figure(figsize=(11, 4.8), layout="constrained")
    FigureCanvasAgg(fig)
    scores_ax, elo_ax = fig.subplots(1, 2, width_ratios=(3, 2))

    scores = [results.deal_scores(i) for i in range(len(labels))]
    scores_ax.boxplot(scores, tick_labels=labels, showmeans=True)
    scores_ax.axhline(0, color="0.8", linewidth=0.8, zorder=0)
    scores_ax.set_title("Deal scores (box: quartiles, triangle: mean)")
    scores_ax.set_ylabel("points in a deal")

    positions = list(range(len(labels)))
    ratings = [s.elo for s in results.summaries]
    below = [s.elo - s.elo_low for s in results.summaries]
    above = [s.elo_high - s.elo for s in results.summaries]
    elo_ax.errorbar(positions, ratings, yerr=[below, above], fmt="o", capsize=6)
    elo_ax.axhline(1500, color="0.8", linewidth=0.8, zorder=0)
    elo_ax.set_xticks(positions, labels)
    elo_ax.set_xlim(-0.5, len(labels) - 0.5)
    elo_ax.set_title("Elo, 95% interval (bots' mean = 1500)")
    elo_ax.set_ylabel("Elo")

    opts = results.options
    kind = "duplicate, " if results.duplicate else ""
    fig.suptitle(
        f"{len(results.games)} matches ({kind}{opts.players} players, take = "
        f"{opts.take.value}, target {opts.target}, seed {results.seed})"
    )
    return fig


def save_plot(results: TournamentResults, path: str | Path) -> Path:
    """Draw ``figure(results)`` into a PNG file (or any format matplotlib knows by suffix)."""
    target = Path(path)
    figure(results).savefig(target, dpi=100)
    return target


__all__ = ["figure", "save_plot"]
