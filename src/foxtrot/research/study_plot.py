"""Pictures of a rule-variant study: one panel per figure, each variant with its 95 % interval.

matplotlib's object interface on an Agg canvas, as in ``plot`` (no pyplot, no
display, no global state); imported only when a plot is asked for.
"""

from __future__ import annotations

import math
from pathlib import Path

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from .study import METRICS, StudyResults


def study_figure(results: StudyResults) -> Figure:
    """A grid of panels: per figure of ``METRICS``, a point and interval per variant."""
    labels = [label for label, _ in results.config.variants]
    shown = [(key, title) for key, title in METRICS if key in results.figures[0]]
    columns = 4
    rows = math.ceil(len(shown) / columns)
    fig = Figure(figsize=(4 * columns, 3.2 * rows), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(rows, columns, squeeze=False).ravel()
    positions = list(range(len(labels)))
    for ax, (key, title) in zip(axes, shown, strict=False):
        values = [figures[key].value for figures in results.figures]
        below = [figures[key].value - figures[key].low for figures in results.figures]
        above = [figures[key].high - figures[key].value for figures in results.figures]
        ax.errorbar(positions, values, yerr=[below, above], fmt="o", capsize=5)
        ax.set_xticks(positions, labels, rotation=15, fontsize=8)
        ax.set_xlim(-0.5, len(labels) - 0.5)
        ax.set_title(title, fontsize=9)
    for ax in axes[len(shown) :]:
        ax.set_visible(False)
    config = results.config
    fig.suptitle(
        f"{config.matches} matches of {','.join(config.bots)} per variant,"
        f" {config.skill_matches} of greedy vs random; seed {config.seed}; 95% intervals"
    )
    return fig


def save_study_plot(results: StudyResults, path: str | Path) -> Path:
    """Draw ``study_figure(results)`` into a PNG (or any format matplotlib knows by suffix)."""
    target = Path(path)
    study_figure(results).savefig(target, dpi=100)
    return target


__all__ = ["save_study_plot", "study_figure"]
