"""The analysis board (``foxtrot.analysis``) and ``foxtrot analyse`` / ``foxtrot hint``."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foxtrot.analysis import PLAYED, Board, LineError, coach_values
from foxtrot.bots.coach import action_text, suggest
from foxtrot.cli.main import main
from foxtrot.core import (
    Phase,
    PositionTextError,
    SplitMix64,
    State,
    TableOptions,
    state_at,
    to_record,
)
from foxtrot.core import replay as replay_steps

SAMPLES = 12  # the coach's samples in these tests: the values only have to agree


def played_record(seed: int, *, target: int = 1, deals: int | None = None) -> dict[str, Any]:
    """A match of random legal moves: to its end, or only ``deals`` deals of it."""
    rng = SplitMix64(seed)
    state = State(TableOptions(players=2, target=target), dealer=0)
    while state.phase is not Phase.OVER and (deals is None or state.deal_number < deals):
        if state.phase is Phase.AWAITING_DEAL:
            state.deal(rng)
            continue
        seat = state.to_move
        assert seat is not None
        state.apply(rng.choice(state.observation(seat).legal_actions))
    return to_record(state)


@pytest.fixture(scope="module")
def finished() -> dict[str, Any]:
    return played_record(11)


@pytest.fixture(scope="module")
def unfinished() -> dict[str, Any]:
    return played_record(12, target=10_000, deals=1)


def test_a_board_opens_the_position_before_the_move(finished: dict[str, Any]) -> None:
    board = Board.from_record(finished, deal=1, move=4)
    assert board.start == state_at(finished, 0, 2)  # after the third action
    assert board.seat == board.start.to_move
    assert board.open  # the match is over
    moves = [s.move for s in replay_steps(finished) if s.deal == 0 and s.move is not None]
    assert board.recorded == tuple(moves[3:])
    frame = board.at([PLAYED, PLAYED])
    assert frame.line == tuple(moves[3:5])
    assert frame.state == state_at(finished, 0, 4)
    assert frame.recorded == moves[5]


def test_leaving_the_record_forgets_the_move_made(finished: dict[str, Any]) -> None:
    board = Board.from_record(finished, deal=1, move=1)
    legal = board.start.observation(board.seat).legal_actions
    other = next(action for action in legal if action != board.recorded[0])
    frame = board.at([str(other)])
    assert frame.recorded is None
    with pytest.raises(LineError, match="move 2 of the line: 'played' follows the record"):
        board.at([str(other), PLAYED])


def test_two_tried_moves_get_the_hints_values(finished: dict[str, Any]) -> None:
    """From a reviewed position, two moves tried: at each position the analysis's values of
    the coach's move and of the next best are the hint's (the same search, the same samples)."""
    board = Board.from_record(finished, deal=1, move=2)
    line: list[str] = []
    for _ in range(2):
        frame = board.at(line)
        mover = frame.mover
        assert mover is not None and frame.choosable
        obs = frame.state.observation(mover)
        values, _ = frame.values(SAMPLES)
        assert sorted(str(v.action) for v in values) == sorted(map(str, obs.legal_actions))
        hint = suggest(obs, iterations=SAMPLES, seconds=None)
        by_action = {v.action: v.value for v in values}
        best = next(v for v in values if v.best)
        if len(values) > 1:
            assert best.action == hint.action
            assert by_action[hint.action] == hint.value
            assert hint.alternative is not None
            assert by_action[hint.alternative] == hint.alternative_value
        # try the worst move, not the one played: a line of its own
        line.append(str(values[-1].action))


def test_a_hidden_seat_can_only_make_its_move(unfinished: dict[str, Any]) -> None:
    board = Board.from_record(unfinished, deal=1, move=1)
    assert not board.open
    frame = board.at([PLAYED])
    mover = frame.mover
    assert mover is not None and mover != board.seat
    assert not frame.choosable
    assert frame.values(SAMPLES) == ([], 0)  # nothing computed from a hidden hand
    recorded = frame.recorded
    assert recorded is not None
    assert board.at([PLAYED, str(recorded)]).line[-1] == recorded
    legal = frame.state.observation(mover).legal_actions
    other = next(action for action in legal if action != recorded)
    with pytest.raises(LineError, match="cards are hidden until the match is over"):
        board.at([PLAYED, str(other)])


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (["7X"], "move 1 of the line: bad action '7X'"),
        (["played", "AS", "AS", "AS", "AS", "AS"], "is not a legal move of Player"),
        (["x"] * 401, "a line has at most 400 moves"),
    ],
)
def test_a_bad_move_is_refused_by_name(
    finished: dict[str, Any], line: list[str], message: str
) -> None:
    board = Board.from_record(finished, deal=1, move=1)
    with pytest.raises(LineError, match=re.escape(message)):
        board.at(line)


def test_bad_places_and_texts_are_refused(finished: dict[str, Any]) -> None:
    with pytest.raises(LineError, match="deal 9: the record has"):
        Board.from_record(finished, deal=9)
    with pytest.raises(LineError, match=r"move 999: deal 1 has \d+ moves"):
        Board.from_record(finished, deal=1, move=999)
    with pytest.raises(LineError, match="seat 5 is not a seat"):
        Board.from_record(finished, deal=1, seat=5)
    with pytest.raises(PositionTextError, match="not the 16 fields"):
        Board.from_text("9x:match:no:discard:none:200 - playing 0 1 2SKH/3S 4S 6S5S")


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.lists(st.integers(0, 40), max_size=30))
def test_every_line_of_legal_moves_is_the_engine_s(seed: int, picks: list[int]) -> None:
    """Any line of legal moves from a position text gives the engine's state after them."""
    state = State(TableOptions(players=3), dealer=0)
    state.deal(SplitMix64(seed))
    board = Board.from_text(state.text())
    line: list[str] = []
    for pick in picks:
        if state.phase is not Phase.PLAYING:
            break
        seat = state.to_move
        assert seat is not None
        legal = state.observation(seat).legal_actions
        action = legal[pick % len(legal)]
        state.apply(action)
        line.append(str(action))
    frame = board.at(line)
    assert frame.state == state
    assert frame.choosable == (state.phase is Phase.PLAYING)  # a position text is open


def test_a_single_legal_move_has_no_value() -> None:
    board = Board.from_text(
        "2:match:no:discard:none:200 - playing 0 1 2SKH/3S 4S 6S5S -/- -/- - - - 0,0 - -"
    )
    values, solved = coach_values(board.start.observation(1))
    assert [(str(v.action), v.value) for v in values] == [("3S", None)]
    assert solved == 0


# ------------------------------------------------------------------ the command line


@pytest.fixture()
def record_file(tmp_path: Path, finished: dict[str, Any]) -> Path:
    path = tmp_path / "match.json"
    path.write_text(json.dumps(finished), encoding="utf-8")
    return path


def _values(text: str) -> dict[str, float]:
    found = re.findall(r"^  (\S+)\s+([+-]\d+\.\d)", text, re.MULTILINE)
    return {move: float(value) for move, value in found}


def test_the_command_prints_the_hints_values(
    record_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    where = [str(record_file), "--deal", "1", "--move", "2", "--iterations", str(SAMPLES)]
    assert main(["analyse", *where, "--lang", "en"]) == 0
    shown = capsys.readouterr().out
    assert "Deal 1, before move 2" in shown
    assert "🂠" in shown  # the other hand face down until asked
    values = _values(shown)
    assert len(values) > 1
    assert main(["hint", *where, "--lang", "en"]) == 0
    hint = capsys.readouterr().out
    said = re.search(r"The coach plays (\S+) \(([+-]\d+\.\d)\)", hint)
    after = re.search(r"Next best: (\S+) \(([+-]\d+\.\d)\)", hint)
    assert said is not None and after is not None
    assert values[said[1]] == float(said[2]) == max(values.values())
    assert values[after[1]] == float(after[2])
    assert main(["analyse", *where, "--hands", "--try", "played", "--lang", "uk"]) == 0
    shown = capsys.readouterr().out
    assert "🂠" not in shown and "Лінія:" in shown


def test_the_command_refuses_bad_input_clearly(
    tmp_path: Path, record_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["analyse", str(record_file), "--deal", "1", "--try", "7X"]) == 1
    err = capsys.readouterr().err
    assert "foxtrot analyse: move 1 of the line: bad action '7X'" in err
    assert "Traceback" not in err
    assert main(["analyse", str(record_file)]) == 1
    assert "--deal N" in capsys.readouterr().err
    assert main(["analyse", "--position", "nonsense"]) == 1
    assert "foxtrot analyse:" in capsys.readouterr().err
    assert main(["analyse", str(record_file), "--deal", "1", "--seat", "3"]) == 1
    assert "--seat 3: the table's seats are 1 to 2" in capsys.readouterr().err
    partial = tmp_path / "partial.json"
    partial.write_text(json.dumps(played_record(12, target=10_000, deals=1)), encoding="utf-8")
    assert main(["analyse", str(partial), "--deal", "1", "--hands"]) == 1
    assert "the other hands stay hidden" in capsys.readouterr().err


def test_the_interactive_prompt_tries_and_takes_back(
    record_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    answers = iter(["played", "QQ", "back", "quit"])
    monkeypatch.setattr("builtins.input", lambda _prompt: next(answers))
    where = [str(record_file), "--deal", "1", "--iterations", "4", "--lang", "en"]
    assert main(["analyse", *where, "--interactive"]) == 0
    captured = capsys.readouterr()
    assert captured.out.count("Analysis board") == 3  # the start, after "played", after "back"
    assert "bad action 'QQ'" in captured.err


def test_action_text_names_the_take() -> None:
    from foxtrot.core import TAKE  # noqa: PLC0415

    assert action_text(TAKE, "en") == "take the pile"
