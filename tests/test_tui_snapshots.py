"""Snapshots of the main screens of the terminal game (pytest-textual-snapshot).

Seeds are fixed and the bots are deterministic, so each screen is the same on
every run.  After an intended change of a screen, look at the new pictures and
update them with ``pytest tests/test_tui_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from foxtrot.core import from_record
from foxtrot.tui import view
from foxtrot.tui.replay import ReplayApp
from foxtrot.tui.screens import score_sheet
from foxtrot.tui.session import Seat, default_names
from tui_support import bot_match, finished_record, hot_seat_match, play_app, settle

SnapCompare = Any


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("FOXTROT_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def test_setup_screen(snap_compare: SnapCompare) -> None:
    assert snap_compare(play_app(None, "en"), terminal_size=(80, 24), run_before=settle)


def test_table_with_two_computers(snap_compare: SnapCompare) -> None:
    match = bot_match(seed=12, players=3, level="greedy")
    assert snap_compare(play_app(match, "en"), terminal_size=(100, 30), run_before=settle)


def test_table_in_russian_after_some_moves(snap_compare: SnapCompare) -> None:
    match = bot_match(seed=13, lang="ru", level="random")

    async def moves(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        for key in ("1", "left", "enter"):
            await pilot.press(key)
            await settle(pilot)

    assert snap_compare(play_app(match, "ru"), terminal_size=(80, 24), run_before=moves)


def test_cover_between_two_people(snap_compare: SnapCompare) -> None:
    match = hot_seat_match(seed=5, names=("Анна", "Богдан"))
    assert snap_compare(play_app(match, "uk"), terminal_size=(80, 24), run_before=settle)


def test_score_sheet(snap_compare: SnapCompare) -> None:
    record = finished_record(seed=4, target=1, players=4)
    record["names"] = default_names([Seat()] + [Seat.bot("hard")] * 3, "ru")
    state = from_record(record)
    scores = state.deal_logs()[-1].scores
    app = play_app(bot_match(seed=1), "ru")

    async def sheet(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        app.push_screen(
            score_sheet(
                "ru",
                names=state.names,
                deal=0,
                scores=scores or (),
                totals=state.totals,
                target=1,
                winner=state.winner,
            )
        )
        await settle(pilot)

    assert snap_compare(app, terminal_size=(100, 30), run_before=sheet)


def test_replay_viewer_with_every_hand(snap_compare: SnapCompare) -> None:
    viewer = ReplayApp(finished_record(seed=9, target=40, players=3), "en", hands=True)
    assert snap_compare(viewer, terminal_size=(100, 30), press=["n", "n", "n", "n"])


def test_too_small(snap_compare: SnapCompare) -> None:
    assert snap_compare(
        play_app(bot_match(seed=2), "en"), terminal_size=(60, 18), run_before=settle
    )


def test_table_with_card_faces_a_pile_and_the_last_move(snap_compare: SnapCompare) -> None:
    match = bot_match(seed=13, level="random", target=200, take="match")

    async def moves(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        for _ in range(3):  # the person plays his first card three times; the bot answers
            state = match.state
            card = next(a.card for a in state.legal_actions() if a.card is not None)
            await pilot.press(view.CARD_KEYS[state.observation(0).hand.index(card)])
            await settle(pilot)

    assert snap_compare(play_app(match, "en"), terminal_size=(100, 30), run_before=moves)


def test_setup_screen_in_ukrainian_at_120_columns(snap_compare: SnapCompare) -> None:
    assert snap_compare(play_app(None, "uk"), terminal_size=(120, 36), run_before=settle)
