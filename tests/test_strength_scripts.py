"""The strength screens run and say something true (they are benchmarks: slow at full size,
so each runs here on one small deal)."""

from __future__ import annotations

import json
import math
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

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
        "--variant=next:sees=next,iterations=20",
    )
    decisions = int(re.search(r"(\d+) decisions", out).group(1))  # type: ignore[union-attr]
    assert decisions > 5
    assert "same - a: +0.000 ± 0.000 a decision (paired)" in out  # the same search, same numbers
    ceiling = float(re.search(r"best move: ([+-][\d.]+)", out).group(1))  # type: ignore[union-attr]
    gains = [float(x) for x in re.findall(r"\}: ([+-][\d.]+) ± [\d.]+ a decision over greedy", out)]
    assert len(gains) == 4
    apart = float(re.search(r"chosen apart: ([+-][\d.]+)", out).group(1))  # type: ignore[union-attr]
    assert apart <= ceiling  # the same search's best, valued on playouts it did not choose by
    assert re.search(r"^  next: -?[\d.]+% of the oracle's gain", out, re.M)
    # Not "nobody beats the judge's best move", which holds by construction (the best of the
    # judge's values is at least the value of any move). These fail on a broken judge: one
    # that values every move alike (no move better than greedy's: ceiling 0), or that
    # judges a variant's move by its own best move (every gain the ceiling).
    assert ceiling > 0
    assert min(gains) < ceiling


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


def test_endgame_screen_starts_from_the_recorded_totals_and_pairs_the_variants() -> None:
    sys.path.insert(0, str(BENCHMARKS))
    try:
        from strength_endgame import scenarios  # noqa: PLC0415 - a script, found on its path
    finally:
        sys.path.remove(str(BENCHMARKS))
    folder = ROOT / "benchmarks" / "results" / "hard-150"
    games = json.loads((folder / "4p-match-hg-s2026.json").read_text())["games"]
    last = scenarios([folder], 4, "match", 1, math.inf)
    assert len(last) > len(games)  # one a match, in this file and the other chunks
    totals, mine, dealer = last[0]
    deals = games[0]["deal_scores"]
    assert [t + s for t, s in zip(totals, deals[-1], strict=True)] == games[0]["totals"]
    assert mine == [seat == "hard" for seat in games[0]["seats"]]
    assert dealer == (games[0]["first_dealer"] + len(deals) - 1) % 4
    close = scenarios([folder], 4, "match", 2, 10)
    assert all(abs(max(t[0::2]) - max(t[1::2])) <= 10 for t, _, _ in close)
    out = _script(
        "strength_endgame.py",
        str(folder),
        "--players=4",
        "--close=10",
        "--limit=2",
        "--variant=a:iterations=8",
        "--variant=same:iterations=8",
    )
    assert "2 scenarios" in out
    assert "won only by same: 0, only by a: 0" in out  # the same search on the same decks


#: Known answers for ``strength_tempo.py`` on the recorded matches of
#: ``benchmarks/results/hard-1500`` (frozen files): per take rule and whether hard moved
#: first in the first deal, (hard's wins, matches).  Counted once by hand from the JSON,
#: outside the script (2 players: the seat that is not ``first_dealer`` moves first, T1).
TEMPO_ROWS = {
    ("any", "no"): (32, 70),
    ("any", "yes"): (70, 70),
    ("match", "no"): (107, 130),
    ("match", "yes"): (106, 130),
}
#: And its part two, 12 greedy-vs-greedy deals from the fixed seeds "tempo:0".."tempo:11":
#: the second player wins 4; in 6 he never holds the Queen of spades on an empty pile, and
#: wins none of those.
TEMPO_DEALS = "the second player won 4 of 12 (33.3%, 95% CI 13.8%–60.9%); he never held a"
TEMPO_STUCK = "Queen of spades on a turn with an empty pile in 6 deals and won 0 of 6"


def test_tempo_screen_splits_every_two_player_match_by_who_moved_first() -> None:
    folder = BENCHMARKS / "results" / "hard-1500"
    out = _script("strength_tempo.py", str(folder), "--deals=12")
    rows = re.findall(r"^\| (match|any) \| (yes|no) \| (\d+) of (\d+) ", out, re.MULTILINE)
    assert {(t, first): (int(won), int(n)) for t, first, won, n in rows} == TEMPO_ROWS
    assert len(rows) == 4
    assert TEMPO_DEALS in out and TEMPO_STUCK in out, out


def _edge_module() -> Any:
    sys.path.insert(0, str(BENCHMARKS))
    try:
        import strength_edge  # noqa: PLC0415 - a script, found on its path
    finally:
        sys.path.remove(str(BENCHMARKS))
    return strength_edge


def test_edge_share_and_its_delta_interval_match_a_hand_computation() -> None:
    edge = _edge_module()
    # By hand: R = (2 + 4 + 6) / (4 + 8 + 8) = 0.6; residuals b - R o = -0.4, -0.8, +1.2, whose
    # sample variance is (0.16 + 0.64 + 1.44) / 2 = 1.12; se = sqrt(1.12) / (sqrt(3) * 20 / 3)
    # = sqrt(3.36) / 20 = 0.0916515; half-width 1.959964 * 0.0916515 = 0.179634.
    share, low, high = edge.ratio_interval([2.0, 4.0, 6.0], [4.0, 8.0, 8.0])
    assert share == pytest.approx(0.6)
    assert low == pytest.approx(0.6 - 0.179634, abs=1e-6)
    assert high == pytest.approx(0.6 + 0.179634, abs=1e-6)
    # A bot that gets exactly a third of the oracle's margin on every deck: no doubt at all,
    # however much the decks differ (the pairing), by either method.
    assert edge.ratio_interval([1.0, 10.0, -2.0], [3.0, 30.0, -6.0]) == pytest.approx(
        (1 / 3, 1 / 3, 1 / 3)
    )
    boot = edge.bootstrap_interval([1.0, 10.0, -2.0], [3.0, 30.0, -6.0], random.Random(1))
    assert boot == pytest.approx((1 / 3, 1 / 3))
    with pytest.raises(ValueError, match="no edge"):
        edge.ratio_interval([1.0, 2.0], [1.0, -1.0])


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_edge_seatings_split_the_seats_evenly(players: int) -> None:
    seatings = _edge_module().seatings(players)
    held = [sum(seats[seat] for seats in seatings) for seat in range(players)]
    assert held == [len(seatings) / 2] * players
    assert all(0 < sum(seats) < players for seats in seatings)


def test_edge_benchmark_plays_the_oracle_that_sees_part_of_the_cards() -> None:
    """``oracle:sees=all`` is the oracle itself: the same moves on the same numbers, so its share
    is exactly 100%; ``sees=hands`` is another player on the same decks."""
    args = ["--players=2", "--decks=2", "--oracle=40"]
    out = _script(
        "strength_edge.py",
        *args,
        "--bot=oracle:sees=all,iterations=40",
        "--bot=oracle:sees=hands,iterations=20",
    )
    rows = dict(re.findall(r"^\| 2 \| match \| ([^|]+?) \| 2 \|.*?\| ([+-]?[\d.]+)% \(", out, re.M))
    assert rows["oracle:sees=all,iterations=40"] == "100.0"
    assert "oracle:sees=hands,iterations=20" in rows


def test_edge_benchmark_prints_each_table_and_the_share_of_its_own_decks(tmp_path: Path) -> None:
    saved = tmp_path / "edge.json"
    args = ["--players=2,3", "--decks=2", "--samples=10", "--oracle=40", f"--json={saved}"]
    out = _script("strength_edge.py", *args, "--bot=hard", "--bot=medium")
    rows = re.findall(r"^\| (\d) \| match \| ([^|]+) \| 2 \| ([+-][\d.]+) ± [\d.]+ \|", out, re.M)
    assert [(p, bot.strip()) for p, bot, _ in rows] == [
        (p, bot) for p in "23" for bot in ("hard", "medium", "medium − hard")
    ]
    decks = json.loads(saved.read_text())["decks"]
    assert len(decks) == 4
    assert {d["key"] for d in decks} == {
        f"edge:27000:{p}:match:{n}" for p in (2, 3) for n in (0, 1)
    }
    for players in (2, 3):
        mine = [d for d in decks if d["players"] == players]
        assert all(d["bots"]["medium"] == 0 for d in mine)  # greedy against greedy, duplicate
        share = sum(d["bots"]["hard"] for d in mine) / sum(d["oracle"] for d in mine)
        row = re.search(rf"^\| {players} \| match \| hard \|.*\| ([+-]?[\d.]+)% \(", out, re.M)
        assert row is not None
        assert float(row.group(1)) == pytest.approx(100 * share, abs=0.051)
    again = _script("strength_edge.py", f"--load={saved}", "--bot=hard", "--bot=medium")
    assert again.splitlines() == out.splitlines()[1:]  # the same table from the file
    # a later run on some of the same decks pairs with the first (only those decks count)
    other = tmp_path / "easy.json"
    _script(
        "strength_edge.py",
        "--players=2",
        "--decks=2",
        "--oracle=40",
        "--bot=easy",
        f"--json={other}",
    )
    both = _script(
        "strength_edge.py", f"--load={saved}", f"--load={other}", "--bot=hard", "--bot=easy"
    )
    assert [line.split("|")[1:4] for line in both.splitlines()[2:]] == [
        [" 2 ", " match ", " hard "],
        [" 2 ", " match ", " easy "],
        [" 2 ", " match ", " easy − hard "],
    ]
    assert both.splitlines()[2] == out.splitlines()[3]  # hard's 2-player row, unchanged


def test_playout_screen_checks_the_peeking_policy_as_a_player() -> None:
    """``strength_playout.py --plain``: the peeking policy plays whole deals against greedy and
    its margin over greedy is a number."""
    out = _script("strength_playout.py", "--players=4", "--plain=2")
    found = re.search(r"4 players: peek as a player vs greedy ([+-]\d+\.\d+) ± (\d+\.\d+)", out)
    assert found, out
    assert math.isfinite(float(found.group(1)))
