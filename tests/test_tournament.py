"""``foxtrot tournament`` and ``foxtrot.research``: statistics, seating, duplicate deals,
determinism, processes, and the command line.

Fast on purpose: random and greedy bots, a tiny expert budget, low targets.
"""

from __future__ import annotations

import csv
import json
import math
import multiprocessing
from collections import defaultdict
from pathlib import Path

import pytest

from foxtrot.bots import ExpertBot, OracleBot, RandomBot
from foxtrot.cli.main import main
from foxtrot.core import TableOptions
from foxtrot.research import (
    GameResult,
    TournamentConfig,
    elo_ratings,
    lineups,
    mean,
    parse_bots,
    percentile,
    run_tournament,
    wilson_interval,
)
from foxtrot.research.results import CSV_COLUMNS
from foxtrot.research.tournament import play_games, rotations, tasks

# ----------------------------------------------------------------- statistics


def test_wilson_interval_of_8_in_10() -> None:
    # z = 1.96, z² = 3.8416, p = 0.8, n = 10:
    #   denominator = 1 + z²/n = 1.38416
    #   centre = (p + z²/2n) / denominator = 0.99208 / 1.38416 = 0.716738
    #   half = z / denominator * sqrt(p(1-p)/n + z²/4n²)
    #        = 1.416021 * sqrt(0.016 + 0.009604) = 1.416021 * 0.160012 = 0.226581
    low, high = wilson_interval(8, 10)
    assert low == pytest.approx(0.490157, abs=1e-5)
    assert high == pytest.approx(0.943319, abs=1e-5)


def test_wilson_interval_of_0_in_5() -> None:
    # p = 0: centre = (z²/2n) / (1 + z²/n) = 0.38416 / 1.76832 = 0.217246
    #        half = z / 1.76832 * sqrt(z²/4n²) = 1.108396 * 0.196 = 0.217246: low is exactly 0
    low, high = wilson_interval(0, 5)
    assert low == 0.0
    assert high == pytest.approx(0.434491, abs=1e-5)


def test_wilson_interval_of_10_in_10() -> None:
    # p = 1: centre = (1 + 0.19208) / 1.38416 = 0.861229
    #        half = 1.416021 * sqrt(0.009604) = 0.138770: high is exactly 1
    low, high = wilson_interval(10, 10)
    assert low == pytest.approx(0.722459, abs=1e-5)
    assert high == 1.0


def test_wilson_interval_edges() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(50, 100)
    assert low + high == pytest.approx(1.0)  # symmetric around one half
    wider = wilson_interval(50, 100, z=2.576)
    assert wider[0] < low and wider[1] > high
    with pytest.raises(ValueError, match="wins"):
        wilson_interval(6, 5)


def test_elo_three_wins_in_four_is_about_400_log10_3() -> None:
    # Bradley-Terry: P(A beats B) = 3/4 at the maximum of the likelihood, so
    # R_A - R_B = 400 log10(3/1) = 190.85; the weak prior pulls it a few points toward 0.
    fit = elo_ratings([[0, 3], [1, 0]])
    difference = fit.ratings[0] - fit.ratings[1]
    expected = 400 * math.log10(3)
    assert expected - 10 < difference < expected
    assert mean(fit.ratings) == pytest.approx(1500)
    # More games at the same rate: the prior matters less.
    many = elo_ratings([[0, 300], [100, 0]])
    assert expected - 1 < many.ratings[0] - many.ratings[1] < expected
    assert many.errors[0] < fit.errors[0]


def test_elo_symmetric_results_give_equal_ratings() -> None:
    fit = elo_ratings([[0, 5, 2], [5, 0, 2], [2, 2, 0]])
    assert fit.ratings[0] == pytest.approx(fit.ratings[1])
    assert fit.ratings[2] == pytest.approx(1500)
    cycle = elo_ratings([[0, 4, 0], [0, 0, 4], [4, 0, 0]])  # A > B > C > A
    assert all(r == pytest.approx(1500) for r in cycle.ratings)


def test_elo_stays_finite_when_a_bot_wins_everything() -> None:
    fit = elo_ratings([[0, 500, 500], [0, 0, 10], [0, 10, 0]])
    assert all(map(math.isfinite, (*fit.ratings, *fit.errors)))
    assert fit.ratings[0] > fit.ratings[1] + 400
    assert fit.ratings[1] == pytest.approx(fit.ratings[2])
    low, high = fit.interval(0)
    assert low < fit.ratings[0] < high


def test_percentile_by_nearest_rank() -> None:
    values = [40, 15, 50, 35, 20]  # sorted: 15 20 35 40 50
    # rank = ceil(q/100 * n): 5 -> 1st, 30 -> 2nd (1.5), 40 -> 2nd, 50 -> 3rd (2.5), 100 -> 5th
    assert [percentile(values, q) for q in (0, 5, 30, 40, 50, 95, 100)] == [
        15,
        15,
        20,
        20,
        35,
        50,
        50,
    ]
    assert percentile(list(range(1, 21)), 95) == 19  # ceil(19.0) = 19th of 20
    assert percentile([0.5], 95) == 0.5
    with pytest.raises(ValueError):
        percentile([], 95)
    assert mean([1, 2, 6]) == 3
    assert math.isnan(mean([]))


# ------------------------------------------------------------------- seating


def test_lineups_round_robin_and_repeated_bots() -> None:
    assert lineups(3, 2) == [(0, 1), (0, 2), (1, 2)]
    assert lineups(2, 2) == [(0, 1)]
    assert lineups(2, 4) == [(0, 1, 0, 1)]
    assert len(lineups(5, 3)) == 10


def test_parse_bots_levels_labels_and_budget() -> None:
    specs = parse_bots("hard,greedy,random,random", iterations=20, seconds=0)
    assert [s.label for s in specs] == ["hard", "greedy", "random", "random#2"]
    assert [s.kind for s in specs] == ["expert", "greedy", "random", "random"]
    expert = specs[0].build()
    assert isinstance(expert, ExpertBot)
    assert (expert.iterations, expert.seconds) == (20, None)  # 0 seconds: no time limit
    assert isinstance(specs[2].build(), RandomBot)
    oracle = parse_bots("oracle", seconds=0.25)[0].build()
    assert isinstance(oracle, OracleBot) and oracle.seconds == 0.25
    with pytest.raises(ValueError, match="unknown bot 'nobody'"):
        parse_bots("greedy,nobody")
    with pytest.raises(ValueError, match="at least two"):
        TournamentConfig(parse_bots("greedy"))


def _config(
    bots: str,
    players: int,
    matches: int,
    *,
    seed: int = 1,
    duplicate: bool = False,
    target: int = 50,
) -> TournamentConfig:
    return TournamentConfig(
        parse_bots(bots),
        TableOptions(players=players, target=target),
        matches=matches,
        seed=seed,
        duplicate=duplicate,
    )


def test_duplicate_mode_replays_the_same_deals_with_the_seats_rotated() -> None:
    config = _config("greedy,random,random", 3, 2, seed=5, duplicate=True)
    results = run_tournament(config)
    assert len(results.games) == config.games == 2 * 3
    by_match: dict[int, list[GameResult]] = defaultdict(list)
    for game in results.games:
        by_match[game.match].append(game)
    first_decks = []
    for games in by_match.values():
        assert [g.rotation for g in games] == [0, 1, 2]
        # each bot sits in every seat once: the seatings are the rotations of the lineup
        assert len({g.seats for g in games}) == 3
        for seat in range(3):
            assert sorted(g.seats[seat] for g in games) == [0, 1, 2]
        # the same lot and the same decks in the same order, as far as every rotation went
        assert len({g.first_dealer for g in games}) == 1
        deals = min(len(g.decks) for g in games)
        assert deals >= 1
        for deal in range(deals):
            decks = {g.decks[deal] for g in games}
            assert len(decks) == 1 and len(next(iter(decks))) == 104
        first_decks.append(games[0].decks[0])
    assert first_decks[0] != first_decks[1]  # another deal sequence, other decks


def test_without_duplicate_every_match_has_its_own_decks_and_seats_rotate() -> None:
    results = run_tournament(_config("greedy,random", 2, 4, seed=2))
    assert [g.rotation for g in results.games] == [0, 1, 0, 1]
    assert [g.seats for g in results.games] == [(0, 1), (1, 0), (0, 1), (1, 0)]
    assert len({g.decks[0] for g in results.games}) == 4
    summary = {s.label: s for s in results.summaries}
    assert summary["greedy"].wins + summary["random"].wins == 4


def test_fewer_bots_than_seats_repeats_them() -> None:
    results = run_tournament(_config("greedy,random", 4, 2, seed=4))
    assert [g.seats for g in results.games] == [(0, 1, 0, 1), (1, 0, 1, 0)]
    assert all(s.matches == 4 for s in results.summaries)  # two seats in each of 2 matches
    assert sum(s.wins for s in results.summaries) == 2
    # seats of the same bot are not compared: each match gives 2 pairs (winner over 2 others)
    assert sum(map(sum, results.pairwise)) == 2 * 2


def test_duplicate_with_repeated_bots_plays_only_the_distinct_rotations() -> None:
    assert [rotations(lineup) for lineup in ((0, 1), (0, 1, 2), (0, 1, 0, 1), (0, 1, 2, 0))] == [
        2,
        3,
        2,
        4,
    ]
    config = _config("greedy,random", 4, 1, seed=4, duplicate=True)
    results = run_tournament(config)
    assert config.games == len(results.games) == 2
    assert [g.seats for g in results.games] == [(0, 1, 0, 1), (1, 0, 1, 0)]
    assert results.games[0].decks[0] == results.games[1].decks[0]


def test_round_robin_with_more_bots_than_seats() -> None:
    results = run_tournament(_config("greedy,random,easy", 2, 2, seed=6))
    assert [tuple(lineup) for lineup in results.lineups] == [(0, 1), (0, 2), (1, 2)]
    assert len(results.games) == 6
    assert all(s.matches == 4 for s in results.summaries)
    assert sum(map(sum, results.pairwise)) == 6


def test_same_seed_same_results_and_another_seed_other_results() -> None:
    config = _config("greedy,random", 2, 3, seed=11, duplicate=True)
    first = run_tournament(config).to_json(timings=False)
    again = run_tournament(config).to_json(timings=False)
    assert first == again
    assert json.dumps(first) == json.dumps(again)
    other = run_tournament(_config("greedy,random", 2, 3, seed=12, duplicate=True))
    assert other.to_json(timings=False)["games"] != first["games"]


def test_two_processes_give_the_same_results_as_one() -> None:
    config = _config("greedy,random,easy", 2, 2, seed=8, duplicate=True)
    seen: list[GameResult] = []
    one = run_tournament(config, jobs=1, progress=seen.append)
    two = run_tournament(config, jobs=2)
    assert len(seen) == config.games
    assert one.to_json(timings=False) == two.to_json(timings=False)
    assert one.to_csv(timings=False) == two.to_csv(timings=False)


def test_stopping_early_stops_the_worker_processes() -> None:
    # What Ctrl-C does: the matches not yet played are dropped and the workers end at once.
    played = play_games(tasks(_config("greedy,random", 2, 40, seed=1)), jobs=2)
    assert isinstance(next(played), GameResult)
    played.close()
    assert multiprocessing.active_children() == []


def test_expert_and_oracle_play_with_a_tiny_budget_and_are_timed() -> None:
    config = TournamentConfig(
        parse_bots("hard,oracle", iterations=10, seconds=0),
        TableOptions(target=30),
        matches=1,
        seed=3,
    )
    results = run_tournament(config)
    for index, summary in enumerate(results.summaries):
        times = sorted(results.decision_times(index))  # this bot's own decisions
        assert summary.decisions == len(times) > 0
        assert summary.time_mean == pytest.approx(sum(times) / len(times))
        assert summary.time_p95 == times[math.ceil(0.95 * len(times)) - 1]  # nearest rank
    assert results.to_json(timings=False) == run_tournament(config).to_json(timings=False)


# --------------------------------------------------------------- command line


def test_cli_end_to_end_with_csv_json_and_plot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    csv_path, json_path, png_path = tmp_path / "r.csv", tmp_path / "r.json", tmp_path / "r.png"
    code = main(
        [
            "tournament",
            "--bots",
            "greedy,random",
            "--players",
            "2",
            "--matches",
            "4",
            "--target",
            "60",
            "--duplicate",
            "--seed",
            "3",
            "--csv",
            str(csv_path),
            "--json",
            str(json_path),
            "--plot",
            str(png_path),
        ]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert "8 matches" in out and "duplicate" in out and "Elo" in out and "1500" in out
    with csv_path.open(encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    assert [row["bot"] for row in rows] == ["greedy", "random"]
    assert tuple(rows[0]) == CSV_COLUMNS
    assert sum(int(row["wins"]) for row in rows) == 8
    assert all(int(row["matches"]) == 8 for row in rows)
    data = json.loads(json_path.read_text(encoding="utf-8"))
    assert data["duplicate"] is True and data["seed"] == 3 and data["matches_played"] == 8
    assert data["options"]["target"] == 60
    assert [r["bot"] for r in data["results"]] == ["greedy", "random"]
    assert len(data["games"]) == 8
    assert png_path.read_bytes().startswith(b"\x89PNG")


def test_cli_unknown_bot_is_a_usage_error_without_traceback(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["tournament", "--bots", "greedy,grandmaster", "--matches", "1"]) == 2
    err = capsys.readouterr().err
    assert "unknown bot 'grandmaster'" in err and "greedy" in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("argv", "code", "message"),
    [
        (["--bots", "greedy", "--matches", "1"], 2, "at least two bots"),
        (["--bots", "greedy,random", "--matches", "0"], 2, "--matches must be at least 1"),
        (["--bots", "greedy,random", "--jobs", "-1"], 2, "--jobs"),
        (["--bots", "hard,random", "--expert-iterations", "0"], 2, "--expert-iterations"),
        (["--bots", "greedy,random", "--players", "12"], 1, "players: 12 is not allowed"),
    ],
)
def test_cli_refuses_bad_numbers(
    argv: list[str], code: int, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tournament", *argv]) == code
    assert message in capsys.readouterr().err


def test_cli_help_documents_the_seating(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["tournament", "--help"])
    assert exit_info.value.code == 0
    text = capsys.readouterr().out
    for phrase in (
        "every combination of bots",
        "--duplicate",
        "--expert-iterations",
        "--jobs",
        "--take",
        "--target",
        "1500",
    ):
        assert phrase in text, phrase


def test_cli_cannot_write_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "no" / "such" / "folder" / "r.csv"
    assert (
        main(
            [
                "tournament",
                "--bots",
                "greedy,random",
                "--matches",
                "1",
                "--target",
                "30",
                "--csv",
                str(missing),
            ]
        )
        == 1
    )
    assert "cannot write" in capsys.readouterr().err
