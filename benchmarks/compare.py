"""Compare a benchmark on two source trees in the same run: alternating slices, median ratios.

Run: ``python benchmarks/compare.py --base /tmp/base/src --new src --slices 5 --
benchmarks/bench_engine.py --seconds 0.5``.

Machine speed drifts (up to 2x between runs, and other jobs share the cores), so two trees
are only compared in one run: the benchmark is run alternately with ``PYTHONPATH`` set to
each tree, ``--slices`` times each, and for every number of its output (the same line, the
same position in the line) the median over the slices is printed for both trees, with the
median of the per-slice ratios new / base.  Figures where larger is better (actions/s) give
ratios above 1 for a faster new tree; times (µs, ms) give ratios below 1.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys

_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")


def numbers(line: str) -> list[float]:
    """The numbers of a line of output, thousands separators removed."""
    return [float(text.replace(",", "")) for text in _NUMBER.findall(line)]


def run(tree: str, command: list[str]) -> list[str]:
    """The output lines of ``command`` run with ``tree`` first on the path."""
    env = dict(os.environ, PYTHONPATH=os.path.abspath(tree))
    done = subprocess.run(
        [sys.executable, *command], env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.splitlines()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="source tree of the reference")
    parser.add_argument("--new", required=True, help="source tree measured against it")
    parser.add_argument("--slices", type=int, default=5)
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the benchmark and its options")
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    outputs: dict[str, list[list[str]]] = {"base": [], "new": []}
    for index in range(args.slices):
        order = ("base", "new") if index % 2 == 0 else ("new", "base")
        for name in order:
            outputs[name].append(run(getattr(args, name), command))
        print(f"slice {index + 1}/{args.slices} done", file=sys.stderr)
    for row, line in enumerate(outputs["base"][0]):
        base = [numbers(out[row]) for out in outputs["base"]]
        new = [numbers(out[row]) for out in outputs["new"]]
        width = min(len(n) for n in base + new)
        if width == 0 or line.startswith("Python"):
            print(line)
            continue
        print(line)
        cells = []
        for i in range(width):
            ratios = [n[i] / b[i] for b, n in zip(base, new, strict=True) if b[i]]
            ratio = f"{statistics.median(ratios):.3f}" if ratios else "-"
            cells.append(
                f"{statistics.median(b[i] for b in base):g} -> "
                f"{statistics.median(n[i] for n in new):g} (x{ratio})"
            )
        print("    " + " | ".join(cells))


if __name__ == "__main__":
    main()
