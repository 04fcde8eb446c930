"""A computer seat that fails is never silent.

When a bot raises, or gives back something that is not a legal move, the
terminal game tells it on the screen and in the last actions, logs it
(logger ``foxtrot.tui``, with no card of any hand in the line), saves the
match, and plays a random legal move for that seat this once; the bot plays
its next move again.
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
from collections.abc import Sequence
from pathlib import Path

import pytest

from foxtrot.core import CARDS, Action, Observation, loads
from foxtrot.storage import load
from foxtrot.tui.session import Match
from tui_support import bot_match, play_app, screen_text, settle

CARD_TEXT = re.compile(r"(?<![A-Za-z0-9])(10|[2-9JQKA])[SHDC](?![A-Za-z])")


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("FOXTROT_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


class Broken:
    """A bot that fails on its first ``failures`` moves, then plays the first legal move."""

    name = "broken"

    def __init__(self, answer: object = None, failures: int = 1) -> None:
        self.answer = answer
        self.failures = failures
        self.calls = 0

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        self.calls += 1
        if self.calls <= self.failures:
            if self.answer is None:
                raise RuntimeError(f"boom: my hand is {obs.hand}")  # hidden: must not be logged
            return self.answer  # type: ignore[return-value]
        return legal[0]


def _bot_to_move(match: Match) -> int:
    """Deal, and let the person play until the bot is to move."""
    state = match.state
    if state.to_move is None:
        match.deal()
    seat = state.to_move
    assert seat is not None
    if not match.is_bot(seat):
        match.apply(state.legal_actions()[0], seat)
    seat = state.to_move
    assert seat is not None and match.is_bot(seat)
    return seat


def _not_in_hand(match: Match, seat: int) -> Action:
    """A play of a card the seat does not hold (illegal, rule T3)."""
    hand = set(match.state.hand(seat))
    return next(Action.play(card) for card in CARDS if card not in hand)


@pytest.mark.parametrize("kind", ["raises", "illegal", "not an action"])
def test_a_failing_bot_is_logged_saved_and_replaced_for_one_move(
    kind: str, caplog: pytest.LogCaptureFixture
) -> None:
    match = bot_match(seed=4)
    seat = _bot_to_move(match)
    state = match.state
    error: BaseException | None = None
    result: object = None
    if kind == "raises":
        try:
            raise RuntimeError(f"boom: {state.hand(seat)}")
        except RuntimeError as caught:
            error = caught
    elif kind == "illegal":
        result = _not_in_hand(match, seat)
    else:
        result = "QS"
    # a legal move is played as it is, silently
    legal = state.legal_actions()[-1]
    assert match.bot_result(seat, legal) == (legal, None)
    before = match.record()
    with caplog.at_level(logging.WARNING, logger="foxtrot.tui"):
        action, failure = match.bot_result(seat, result, error)
    assert failure is not None and failure.seat == seat and failure.level == "greedy"
    assert failure.raised is (kind == "raises")
    assert state.is_legal(action, seat)
    assert match.record() == before  # nothing played yet: the caller applies the move
    assert load(match.path).observation(seat) == state.observation(seat)  # saved
    (line,) = [r.getMessage() for r in caplog.records if r.name == "foxtrot.tui"]
    assert f"computer seat {seat} (greedy)" in line and "random legal move" in line
    assert str(match.path) in line
    expected = {
        "raises": "raised RuntimeError at test_tui_bot_failure.py:",
        "illegal": "returned an illegal move",
        "not an action": "returned str, not a move",
    }[kind]
    assert expected in line, line
    assert not CARD_TEXT.search(line.replace(str(match.path), "")), line  # no card, no hand
    assert "boom" not in line


def test_the_fallback_is_reproducible_and_the_bot_plays_again_next_time() -> None:
    moves = []
    for _ in range(2):
        match = bot_match(seed=9)
        seat = _bot_to_move(match)
        action, failure = match.bot_result(seat, None, RuntimeError("x"))
        assert failure is not None
        moves.append(action)
    assert moves[0] == moves[1]


def _run_app(match: Match, bot: Broken) -> tuple[str, list[str]]:
    seat = next(index for index in range(match.state.players) if match.is_bot(index))
    match.bots[seat] = bot
    app = play_app(match)
    shown: list[str] = []

    async def scenario() -> None:
        async with app.run_test(size=(110, 34)) as pilot:
            await settle(pilot)
            shown.append(screen_text(app))

    asyncio.run(scenario())
    return shown[0], [str(line) for line in app.history]


@pytest.mark.parametrize(
    ("answer", "words"),
    [
        (None, "Bot1 ran into an error and could not choose a move: it plays a random move"),
        ("QS", "Bot1 chose a move that is not allowed: it plays a random move instead"),
    ],
)
def test_the_screen_tells_the_failure_and_the_game_goes_on(
    answer: object, words: str, caplog: pytest.LogCaptureFixture
) -> None:
    match = bot_match(seed=3, level="greedy")
    bot = Broken(answer)
    with caplog.at_level(logging.WARNING, logger="foxtrot.tui"):
        screen, history = _run_app(match, bot)
    assert bot.calls >= 1
    assert any(words in line and "The match is saved in" in line for line in history), history
    flat = " ".join(screen.split())
    assert "Bot1" in flat and ("ran into an error" in flat or "not allowed" in flat), screen
    assert any(r.name == "foxtrot.tui" for r in caplog.records)
    # the bot's move was made, the match goes on and is saved as it stands
    state = match.state
    assert state.to_move is not None and not match.is_bot(state.to_move)
    assert len(state.deal_logs()[-1].actions) >= 1
    assert loads(match.path.read_text(encoding="utf-8")).observation(0) == state.observation(0)
