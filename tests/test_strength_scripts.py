"""The strength screens run and say something true (they are benchmarks: slow at full size,
so each runs here on one small deal)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"


def _script(name: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / name), *args],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        cwd=BENCHMARKS,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_judged_screen_gives_the_same_bot_the_same_score() -> None:
    out = _script(
        "strength_judged.py",
        "--players=2",
        "--deals=1",
        "--jobs=1",
        "--judge=20",
        "--variant=a:iterations=20",
        "--variant=same:iterations=20",
        "--variant=pooled:iterations=20,pool=2",
    )
    decisions = int(re.search(r"(\d+) decisions", out).group(1))  # type: ignore[union-attr]
    assert decisions > 5
    assert "same - a: +0.000 ± 0.000 a decision (paired)" in out  # the same search, same numbers
    ceiling = float(re.search(r"best move: ([+-][\d.]+)", out).group(1))  # type: ignore[union-attr]
    gains = [float(x) for x in re.findall(r"\}: ([+-][\d.]+) ± [\d.]+ a decision over greedy", out)]
    assert len(gains) == 3
    assert all(gain <= ceiling for gain in gains)  # nobody beats the judge's own best move


def test_margin_share_grows_with_the_margin_and_starts_even() -> None:
    out = _script(
        "strength_margin_share.py",
        str(ROOT / "benchmarks" / "results" / "hard-150"),
        "--players=4",
        "--matches=1500",
        "--margins=0,20",
    )
    shares = [float(x) for x in re.findall(r"wins ([\d.]+)% of the matches", out)]
    assert len(shares) == 2
    assert 40 < shares[0] < 60  # the recorded deals with their own margin taken out
    assert shares[1] > shares[0] + 25
