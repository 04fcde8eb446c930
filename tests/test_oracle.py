"""The oracle sees every card: it is a different type, and no path that seats an opponent for
a person can take it; tournaments, which use it as a yardstick, hand it a clone."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from foxtrot import State, TableOptions
from foxtrot.bots import Bot, CheatingBot, OracleBot, decide, decide_oracle, make_bot, make_oracle
from foxtrot.research import TournamentConfig, parse_bots, run_tournament
from foxtrot.research.tournament import play_match
from foxtrot.tui.session import Seat, parse_seats


def _state() -> State:
    state = State(TableOptions(players=2), dealer=0)
    state.deal(random.Random(3))
    return state


def test_the_oracle_and_the_honest_bots_are_different_types() -> None:
    oracle = make_oracle(iterations=5, seconds=None)
    assert isinstance(oracle, CheatingBot) and not isinstance(oracle, Bot)
    for name in ("easy", "medium", "hard", "random", "greedy", "expert"):
        bot = make_bot(name)
        assert isinstance(bot, Bot) and not isinstance(bot, CheatingBot)


def test_make_bot_refuses_the_oracle() -> None:
    with pytest.raises(ValueError, match="sees every card"):
        make_bot("oracle")


def test_decide_refuses_the_oracle_and_decide_oracle_refuses_honest_bots() -> None:
    state = _state()
    with pytest.raises(ValueError, match="not an honest bot"):
        decide(OracleBot(iterations=5, seconds=None), state, random.Random(1))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="is not the oracle"):
        decide_oracle(make_bot("medium"), state, random.Random(1))  # type: ignore[arg-type]


def test_no_seat_of_the_terminal_game_can_hold_the_oracle() -> None:
    with pytest.raises(ValueError, match="not a seat"):
        Seat("bot", "oracle")
    with pytest.raises(ValueError, match="unknown level"):
        Seat.bot("oracle")
    with pytest.raises(ValueError, match="unknown level"):
        parse_seats(2, "oracle", None, None, "en")


def test_foxtrot_play_refuses_the_oracle() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "foxtrot", "play", "--bots", "oracle"],
        capture_output=True,
        text=True,
        check=False,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert done.returncode != 0
    assert "oracle" in done.stderr and "Traceback" not in done.stderr


class _Spy:
    """An oracle that records the state object it was handed."""

    name = "oracle"

    def __init__(self) -> None:
        self.seen: list[State] = []

    def choose_with_state(self, state: State, rng: random.Random) -> object:
        self.seen.append(state)
        return state.legal_actions()[0]


def test_tournaments_hand_the_oracle_a_clone_and_still_measure_it() -> None:
    spy = _Spy()
    deals = random.Random(5)
    state, _ = play_match(
        TableOptions(players=2, target=30),
        [spy, make_bot("random")],  # type: ignore[list-item]
        deals,
        [random.Random(1), random.Random(2)],
    )
    assert spy.seen and state.is_over
    assert all(seen is not state for seen in spy.seen)
    results = run_tournament(
        TournamentConfig(
            parse_bots("oracle,random", iterations=3, seconds=0),
            TableOptions(players=2, target=50),
            matches=2,
        ),
        jobs=1,
    )
    assert sum(s.matches for s in results.summaries) == 4
