"""``foxtrot tournament --ratings``: the computers rated with the server's model.

The ratings printed are checked against ``openskill`` called directly on the same matches
in the same order (a known answer computed independently of ``foxtrot.skill``), the anchor
sits at mu 25, and a tournament in which a bot meets itself is refused before it is played.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from foxtrot.cli.main import main
from foxtrot.cli.tournament import tournament_ratings
from foxtrot.core import TableOptions
from foxtrot.research import TournamentConfig, parse_bots, run_tournament
from foxtrot.skill import Finish, places, rate_entrants

TINY = TableOptions(players=2, target=30)


def ahead(finish: Finish, other: int, seat: int) -> bool:
    """Whether ``other`` finished strictly before ``seat``: the winner first, then by total."""
    if seat in (other, finish.winner):
        return False
    return other == finish.winner or finish.totals[other] > finish.totals[seat]


def by_hand(
    labels: list[str], finishes: list[Finish], anchor: str
) -> dict[str, tuple[float, float]]:
    """openskill directly: every bot from the defaults, one rate() per match, then the shift."""
    model = PlackettLuce()
    ratings = {label: model.rating() for label in labels}
    for finish in finishes:
        names = [labels[e] for e in finish.seats]
        ranks = [
            1.0 + sum(ahead(finish, o, s) for o in range(len(names))) for s in range(len(names))
        ]
        rated = model.rate([[ratings[name]] for name in names], ranks=ranks)
        for name, team in zip(names, rated, strict=True):
            ratings[name] = team[0]
    shift = 25.0 - ratings[anchor].mu
    return {name: (r.mu + shift, r.sigma) for name, r in ratings.items()}


def test_two_matches_known_answer() -> None:
    # three bots: greedy wins the first match, expert then beats random head to head
    labels = ["random", "greedy", "expert"]
    finishes = [
        Finish((0, 1, 2), winner=1, totals=(40, 210, 90)),
        Finish((2, 0), winner=0, totals=(205, 120)),
    ]
    found = {r.label: (r.mu, r.sigma, r.matches) for r in rate_entrants(labels, finishes, "greedy")}
    # the first match: greedy, expert, random; openskill's own numbers for three new players
    model = PlackettLuce()
    first = model.rate([[model.rating()] for _ in range(3)], ranks=[3.0, 1.0, 2.0])
    second = model.rate([[first[2][0]], [first[0][0]]], ranks=[1.0, 2.0])
    shift = 25.0 - first[1][0].mu
    assert found["greedy"] == pytest.approx((25.0, first[1][0].sigma, 1))
    assert found["expert"] == pytest.approx((second[0][0].mu + shift, second[0][0].sigma, 2))
    assert found["random"] == pytest.approx((second[1][0].mu + shift, second[1][0].sigma, 2))
    assert found["greedy"][0] > found["random"][0] and found["expert"][0] > found["random"][0]


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.permutations(range(4)).map(lambda p: tuple(p[:3])),
            st.integers(0, 2),
            st.lists(st.integers(0, 250), min_size=3, max_size=3),
        ),
        min_size=1,
        max_size=12,
    )
)
def test_rate_entrants_is_openskill_match_by_match(
    matches: list[tuple[tuple[int, ...], int, list[int]]],
) -> None:
    labels = ["a", "b", "c", "d"]
    finishes = [Finish(seats, winner, tuple(totals)) for seats, winner, totals in matches]
    for finish in finishes:  # the hand-made ranks agree with the server's places
        assert by_hand(labels, [finish], "a") == pytest.approx(
            {r.label: (r.mu, r.sigma) for r in rate_entrants(labels, [finish], "a")}
        )
        assert places(finish.totals, finish.winner)[finish.winner] == 1
    expected = by_hand(labels, finishes, "b")
    for rated in rate_entrants(labels, finishes, "b"):
        assert (rated.mu, rated.sigma) == pytest.approx(expected[rated.label])
        assert rated.ordinal == pytest.approx(rated.mu - 3 * rated.sigma)


def test_a_bot_in_two_seats_and_an_unknown_anchor_are_refused() -> None:
    with pytest.raises(ValueError, match="two seats"):
        rate_entrants(["a", "b"], [Finish((0, 0), 0, (200, 10))], "a")
    with pytest.raises(ValueError, match="anchor"):
        rate_entrants(["a", "b"], [], "z")


def test_a_tiny_tournament_rates_each_match_once_in_rounds() -> None:
    config = TournamentConfig(
        parse_bots("easy,medium,greedy"), TINY, matches=2, seed=7, duplicate=True
    )
    results = run_tournament(config)
    rated = tournament_ratings(results, "medium")
    assert [r.label for r in rated] == ["easy", "medium", "greedy"]
    assert [r.matches for r in rated] == [8, 8, 8]  # 3 lineups x 2 sequences x 2 rotations
    assert next(r for r in rated if r.label == "medium").mu == pytest.approx(25.0)
    games = sorted(results.games, key=lambda g: (g.match, g.rotation, g.lineup))
    finishes = [Finish(g.seats, g.winner, g.totals) for g in games]
    expected = by_hand(results.labels, finishes, "medium")
    for r in rated:
        assert (r.mu, r.sigma) == pytest.approx(expected[r.label])


def test_cli_prints_the_ratings(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["tournament", "--bots", "easy,medium", "--matches", "2", "--duplicate"]
    argv += ["--target", "30", "--seed", "3", "--ratings"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "openskill ratings" in out and "medium sits at 25" in out
    out = out[out.index("openskill ratings") :]
    rows = {
        m.group(1): [float(x) for x in m.group(2, 3, 4)] + [int(m.group(5))]
        for m in re.finditer(
            r"^\W*(easy|medium)\s+(-?[\d.]+)\s+([\d.]+)\s+(-?[\d.]+)\s+(\d+)", out, re.M
        )
    }
    assert rows["medium"][0] == 25.0 and rows["easy"][3] == rows["medium"][3] == 4
    for mu, sigma, shown, _n in rows.values():
        assert shown == pytest.approx(mu - 3 * sigma, abs=0.011)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bots", "easy,medium", "--players", "3", "--ratings"], "as many bots as seats"),
        (["--bots", "easy,medium", "--ratings", "--ratings-anchor", "hard"], "not one of the bots"),
        (["--bots", "easy,medium", "--ratings-anchor", "easy"], "needs --ratings"),
    ],
)
def test_cli_refuses_what_it_cannot_rate_before_playing(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tournament", "--matches", "1", *argv]) == 2
    assert message in capsys.readouterr().err


def test_the_script_rates_saved_reports_as_the_option_rates_the_tournament(
    tmp_path: Path,
) -> None:
    config = TournamentConfig(parse_bots("easy,medium"), TINY, matches=2, seed=5, duplicate=True)
    results = run_tournament(config)
    saved = tmp_path / "report.json"
    saved.write_text(json.dumps(results.to_json()), encoding="utf-8")
    script = Path(__file__).resolve().parent.parent / "benchmarks" / "rate_tournaments.py"
    done = subprocess.run(
        [sys.executable, str(script), str(saved), "--same", "easy=random"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        env=os.environ | {"PYTHONPATH": str(script.parents[1] / "src")},
    )
    rows = {line.split()[0]: line.split()[1:] for line in done.stdout.splitlines()[1:]}
    assert set(rows) == {"random", "medium"}  # easy counted as random
    for rated in tournament_ratings(results, "medium"):
        name = "random" if rated.label == "easy" else rated.label
        assert rows[name] == [
            f"{rated.mu:.2f}",
            f"{rated.sigma:.2f}",
            f"{rated.ordinal:.2f}",
            str(rated.matches),
        ]


def test_the_script_rates_a_bot_that_sits_twice_as_two_entrants_with_split(
    tmp_path: Path,
) -> None:
    options = dataclasses.replace(TINY, players=4)
    config = TournamentConfig(parse_bots("easy,medium"), options, matches=1, seed=5, duplicate=True)
    saved = tmp_path / "report.json"
    saved.write_text(json.dumps(run_tournament(config).to_json()), encoding="utf-8")
    script = Path(__file__).resolve().parent.parent / "benchmarks" / "rate_tournaments.py"
    env = os.environ | {"PYTHONPATH": str(script.parents[1] / "src")}
    refused = subprocess.run(
        [sys.executable, str(script), str(saved)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=env,
    )
    assert refused.returncode == 2 and "rate_tournaments:" in refused.stderr
    done = subprocess.run(
        [sys.executable, str(script), "--split", str(saved)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        env=env,
    )
    lines = done.stdout.splitlines()
    rows = {line.split()[0]: float(line.split()[1]) for line in lines[1:5]}
    assert set(rows) == {"easy", "easy#2", "medium", "medium#2"} and rows["medium"] == 25.0
    means = dict(line.split(": mean mu of its seats ") for line in lines[5:])
    assert float(means["easy"]) == pytest.approx((rows["easy"] + rows["easy#2"]) / 2, abs=0.01)
