"""The terminal game: whole matches driven by keys, hot-seat cover,
save and resume, setup, the replay viewer, wrong keys, a small terminal.

Every app runs headless through Textual's ``run_test`` and ``Pilot``; the
bots move with no delay; ``FOXTROT_HOME`` points into ``tmp_path``.
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import pytest
from textual.widgets import Input, Select

from foxtrot.cli.main import build_parser, main
from foxtrot.core import FoxtrotError, Phase, TableOptions, dumps, loads
from foxtrot.i18n import card_text, computer_name
from foxtrot.storage import load
from foxtrot.tui.app import PlayApp
from foxtrot.tui.replay import ReplayApp
from foxtrot.tui.screens import CoverScreen, HintScreen, InfoScreen, MatchEndScreen
from foxtrot.tui.session import Match, Seat, autosave_dir, newest_autosave, parse_seats
from foxtrot.tui.setup import SetupScreen
from foxtrot.tui.table import TableScreen
from tui_support import (
    bot_match,
    finished_record,
    hot_seat_match,
    play_app,
    press_action,
    screen_text,
    settle,
    tap,
    write_record,
)

SUITS = set("♠♥♦♣")


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("FOXTROT_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def test_a_whole_match_against_a_bot_driven_by_keys() -> None:
    match = bot_match(seed=11, target=30)
    app = play_app(match)
    rng = random.Random(1)
    sheets = 0

    async def scenario() -> None:
        nonlocal sheets
        async with app.run_test(size=(100, 32)) as pilot:
            for _ in range(2000):
                await settle(pilot)
                screen = app.screen
                if isinstance(screen, MatchEndScreen):
                    break
                if isinstance(screen, InfoScreen):  # the score sheet after a deal
                    text = screen_text(app)
                    assert "Card" in text and "points" in text and "Ann" in text and "Bot1" in text
                    assert "P1" not in text and "P4" not in text  # names, not rule ids
                    sheets += 1
                    await tap(pilot, "enter")
                    continue
                assert isinstance(screen, TableScreen)
                assert app.waiting_for == 0
                if rng.random() < 0.1:  # a key that is no move here changes nothing
                    before = dumps(match.state)
                    keys = ["x", "f5", "left", "*", "Ж"]
                    if len(match.state.hand(0)) < 9:  # "9" is no card of this hand
                        keys.append("9")
                    if not any(a.card is None for a in match.state.legal_actions()):
                        keys.append("t")  # no take now
                    await tap(pilot, rng.choice(keys))
                    assert dumps(match.state) == before
                    assert app.waiting_for == 0 and isinstance(app.screen, TableScreen)
                await press_action(pilot, match, rng)
            else:
                raise AssertionError("the match did not end")
            text = screen_text(app)
            assert "wins the match" in text and "Review the moves of Ann" in text
            await pilot.press("tab")  # one person: nobody else to review
            assert "Review the moves of Ann" in screen_text(app)
            await pilot.press("n")  # a new match: back to the setup screen
            await settle(pilot)
            assert isinstance(app.screen, SetupScreen)
            await pilot.press("escape")

    asyncio.run(scenario())
    state = match.state
    assert state.phase is Phase.OVER and sheets == state.deal_number
    saved = json.loads(match.path.read_text(encoding="utf-8"))
    assert saved["seats"] == [{"kind": "human"}, {"kind": "bot", "level": "greedy"}]
    assert dumps(load(match.path)) == dumps(state)
    assert match.path.parent == autosave_dir()


def test_hot_seat_cover_hides_the_table_between_turns() -> None:
    match = hot_seat_match(seed=5)
    app = play_app(match)
    rng = random.Random(2)
    covers = 0

    async def scenario() -> None:
        nonlocal covers
        async with app.run_test(size=(90, 28)) as pilot:
            for _ in range(14):
                await settle(pilot)
                seat = match.state.to_move
                assert seat is not None
                name = match.state.names[seat]
                assert isinstance(app.screen, CoverScreen)
                text = screen_text(app)
                assert f"Pass to {name} — press Enter" in text
                assert not SUITS & set(text), "a card shows through the cover"
                covers += 1
                await tap(pilot, "x")  # only Enter lifts the cover
                assert isinstance(app.screen, CoverScreen)
                await tap(pilot, "enter")
                text = screen_text(app)
                assert f"{name}, your turn" in text
                hand = match.state.observation(seat).hand
                assert card_text(hand[0], "en") in text
                await press_action(pilot, match, rng)
            await pilot.press("ctrl+c")

    asyncio.run(scenario())
    assert covers == 14
    assert dumps(load(match.path)) == dumps(match.state)


def test_resume_after_an_interruption_gives_the_identical_state() -> None:
    match = bot_match(seed=21, target=200, level="random")
    app = play_app(match)
    rng = random.Random(3)

    async def interrupted() -> None:
        async with app.run_test(size=(100, 32)) as pilot:
            for _ in range(9):
                await settle(pilot)
                await press_action(pilot, match, rng)
            await settle(pilot)
            await pilot.press("ctrl+c")  # saves and exits cleanly

    asyncio.run(interrupted())
    assert app.return_code == 0
    before = dumps(match.state)
    hand = match.state.observation(0).hand
    assert newest_autosave() == match.path
    again = Match.resume(match.path)
    assert dumps(again.state) == before
    assert [seat.is_bot for seat in again.seats] == [False, True]
    resumed = play_app(again)

    async def resume() -> None:
        async with resumed.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            assert dumps(again.state) == before  # nothing moved on its own
            text = screen_text(resumed)
            assert resumed.history[0].startswith("The match goes on from")
            assert resumed.history[-1] in text  # the deal so far, told again
            assert all(card_text(card, "en") in text for card in hand)
            await press_action(pilot, again, rng)
            await settle(pilot)
            await pilot.press("q")

    asyncio.run(resume())
    assert dumps(loads(again.path.read_text(encoding="utf-8"))) == dumps(again.state)
    assert len(again.state.deal_logs()[-1].actions) > len(
        json.loads(before)["deals"][-1]["actions"]
    )


def test_a_small_terminal_says_so_and_the_table_comes_back() -> None:
    app = play_app(bot_match(seed=4))

    async def scenario() -> None:
        async with app.run_test(size=(60, 20)) as pilot:
            await settle(pilot)
            text = screen_text(app)
            assert "too small" in text and "80 × 24" in text
            assert not SUITS & set(text)
            before = dumps(app.match.state)  # type: ignore[union-attr]
            for key in ("1", "2", "3", "t"):  # keys do nothing while the table is hidden
                await pilot.press(key)
            assert dumps(app.match.state) == before  # type: ignore[union-attr]
            await pilot.resize_terminal(100, 30)
            await settle(pilot)
            text = screen_text(app)
            assert "too small" not in text and "Pile" in text
            await pilot.press("q")

    asyncio.run(scenario())


def test_setup_screen_starts_the_chosen_match() -> None:
    app = play_app(None)

    async def scenario() -> None:
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, SetupScreen)
            text = screen_text(app)
            assert "a new match" in text and "Players" in text
            screen = app.screen
            screen.query_one("#players", Select).value = 3
            screen.query_one("#kind-1", Select).value = "easy"
            screen.query_one("#kind-2", Select).value = "human"
            screen.query_one("#name-0", Input).value = "Ann"
            screen.query_one("#name-2", Input).value = "Cleo"
            screen.query_one("#target", Select).value = 0
            await pilot.pause()
            screen.query_one("#custom-target", Input).value = "-5"
            await pilot.press("f2")
            assert "positive whole number" in screen_text(app)
            screen.query_one("#custom-target", Input).value = "75"
            screen.query_one("#name-2", Input).value = "\u200b"  # invisible: no letter in it
            await pilot.press("f2")
            assert "The name at seat 3 needs a letter, digit or symbol" in screen_text(app)
            screen.query_one("#name-2", Input).value = "Cleo"
            await pilot.press("f2")
            await settle(pilot)
            assert not isinstance(app.screen, SetupScreen)
            await pilot.press("ctrl+c")

    asyncio.run(scenario())
    match = app.match
    assert match is not None
    assert match.state.names == ("Ann", "Computer (easy)", "Cleo")
    assert match.state.options.target == 75 and match.state.players == 3
    assert [seat.is_bot for seat in match.seats] == [False, True, False]
    assert match.state.lot is not None  # the first dealer by lot (D1)


def test_setup_switches_language_and_quits() -> None:
    app = play_app(None)

    async def scenario() -> None:
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.pause()
            app.screen.query_one("#lang", Select).value = "uk"
            await pilot.pause()
            await pilot.pause()
            assert "новий матч" in screen_text(app)
            await pilot.press("escape")

    asyncio.run(scenario())
    assert app.match is None


def test_play_flags_make_the_seats() -> None:
    args = build_parser().parse_args(["play", "--players", "3", "--bots", "hard,medium"])
    assert args.command == "play" and args.resume is None
    players, seats, names = parse_seats(args.players, args.bots, args.humans, args.names, "en")
    assert players == 3
    assert seats == [Seat(), Seat.bot("hard"), Seat.bot("medium")]
    assert names == ["Player 1", "Computer 1 (hard)", "Computer 2 (medium)"]
    assert parse_seats(None, "easy", "Ann,Bob", None, "ru")[2] == [
        "Ann",
        "Bob",
        "Компьютер (лёгкий)",
    ]
    assert parse_seats(None, "hard", None, "Zoe,Max", "en")[2] == ["Zoe", "Max"]
    with pytest.raises(FoxtrotError):
        parse_seats(2, "hard,hard", None, None, "en")  # nobody left to play
    with pytest.raises(FoxtrotError):
        parse_seats(None, "genius", None, None, "en")
    assert build_parser().parse_args(["play", "--resume"]).resume == ""
    assert build_parser().parse_args(["play", "--resume", "x.json"]).resume == "x.json"


def test_resume_without_a_save_or_of_a_finished_match_is_refused(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", "--resume", "--lang", "en"]) == 1
    assert "no saved match" in capsys.readouterr().err
    path = write_record(finished_record(), home / "done.json")
    assert main(["play", "--resume", str(path), "--lang", "en"]) == 1
    assert "is over" in capsys.readouterr().err
    assert main(["play", "--resume", str(home / "nothing.json")]) == 1
    assert "cannot read" in capsys.readouterr().err


def test_replay_viewer_steps_and_jumps(tmp_path: Path) -> None:
    record = finished_record(seed=7, target=150)
    assert len(record["deals"]) >= 2
    app = ReplayApp(record, "en")

    async def scenario() -> None:
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            assert "Deal 1 of" in screen_text(app) and "step 0 of" in screen_text(app)
            await pilot.press("right", "n", "n")
            assert "step 3 of" in screen_text(app)
            await pilot.press("left")
            assert "step 2 of" in screen_text(app)
            await pilot.press("pagedown")
            assert "Deal 2 of" in screen_text(app)
            await pilot.press("d")
            await pilot.pause()
            await pilot.press("9", "9", "enter")
            assert "Type a number" in screen_text(app)
            app.screen.query_one(Input).value = ""
            await pilot.press("1", "enter")
            await pilot.pause()
            assert "Deal 1 of" in screen_text(app)
            names = record["names"]
            hidden = screen_text(app)
            await pilot.press("a")  # every hand and the stock
            shown = screen_text(app)
            assert sum(ch in SUITS for ch in shown) > sum(ch in SUITS for ch in hidden) + 8
            await pilot.press("end")
            winner = names[record["winner"]]
            assert f"{winner} wins the match" in screen_text(app)
            await pilot.press("home", "x", "f9", "q")

    asyncio.run(scenario())


def test_replay_names_a_servers_computers_in_the_viewers_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A server's record keeps its computers' English names (foxtrot.i18n.computer_name).
    record = finished_record(seed=2)
    record["names"] = [computer_name(0, "hard"), "Ann"]
    path = write_record(record, tmp_path / "server.json")
    assert main(["replay", str(path), "--print", "--lang", "ru"]) == 0
    printed = capsys.readouterr().out
    assert "Компьютер 1 (сильный)" in printed and "Computer" not in printed
    app = ReplayApp(record, "uk")

    async def scenario() -> None:
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.press("end")
            shown = screen_text(app)
            assert "Комп'ютер 1 (сильний)" in shown and "Computer" not in shown
            assert "Ann" in shown
            await pilot.press("q")

    asyncio.run(scenario())
    assert record["names"][0] == "Computer 1 (hard)"  # the record itself is left as it was


def test_replay_prints_when_not_a_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_record(finished_record(seed=2), tmp_path / "m.json")
    assert main(["replay", str(path), "--lang", "en"]) == 0
    assert "Deal 1:" in capsys.readouterr().out
    assert main(["replay", str(path), "--print", "--lang", "uk"]) == 0
    assert "Роздача 1:" in capsys.readouterr().out


def test_hint_shows_a_reason_and_enter_plays_it() -> None:
    match = bot_match(seed=31, level="random")
    app = play_app(match)

    async def scenario() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)
            before = len(match.state.deal_logs()[-1].actions)
            await pilot.press("h")
            assert isinstance(app.screen, HintScreen)
            await app.workers.wait_for_complete()
            await settle(pilot)
            hint = app.screen
            assert isinstance(hint, HintScreen) and hint.action is not None
            text = screen_text(app)
            if hint.action.card is None:  # a hint to take reads as a hint to take
                assert "Take the pile (key t)." in text and "Play take" not in text
            else:
                assert f"Play {card_text(hint.action.card, 'en')} (key " in text
            await pilot.press("enter")
            await settle(pilot)
            actions = match.state.deal_logs()[-1].actions
            assert len(actions) > before
            assert actions[before] & 63 == hint.action.code  # the hinted move was played
            await pilot.press("q")

    asyncio.run(scenario())


def test_hot_seat_with_a_computer_covers_only_before_people() -> None:
    match = Match.new(
        TableOptions(players=3),
        [Seat(), Seat.bot("random"), Seat()],
        ["Ann", "Robo", "Cleo"],
        seed=17,
    )
    app = play_app(match)
    rng = random.Random(4)
    seen: list[str] = []

    async def scenario() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            for _ in range(8):
                await settle(pilot)
                assert isinstance(app.screen, CoverScreen)
                seat = match.state.to_move
                assert seat is not None and not match.is_bot(seat)
                seen.append(match.state.names[seat])
                await tap(pilot, "enter")
                await press_action(pilot, match, rng)
            await pilot.press("ctrl+q")

    asyncio.run(scenario())
    assert set(seen) == {"Ann", "Cleo"}


def test_play_command_starts_at_once_and_saves_on_an_interrupt(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    started: list[PlayApp] = []

    def run(app: PlayApp) -> None:  # the terminal is not ours in a test: stand in for it
        started.append(app)
        match = app.match
        if match is not None and len(started) > 1:  # the person makes one move, then Ctrl-C
            if not match.state.deal_logs():
                match.deal()
            rng = random.Random(0)
            while match.is_bot(match.state.to_move or 0):
                match.apply(rng.choice(match.state.legal_actions()), match.state.to_move or 0)
            match.apply(match.state.legal_actions()[0], match.state.to_move or 0)
        raise KeyboardInterrupt  # Ctrl-C arrives as a signal

    monkeypatch.setattr(PlayApp, "run", run)
    flags = ["--players", "3", "--bots", "hard,medium", "--lang", "en", "--target", "150"]
    assert main(["play", *flags, "--seed", "4"]) == 0
    abandoned = started.pop()  # left before any move of the person: not kept
    assert abandoned.match is not None and not abandoned.match.path.exists()
    assert "the match is not kept" in capsys.readouterr().out
    started.append(abandoned)
    assert main(["play", *flags, "--seed", "4"]) == 0
    app = started[1]
    assert app.match is not None and app.match.state.options.target == 150
    assert [seat.level for seat in app.match.seats] == ["", "hard", "medium"]
    out = capsys.readouterr().out
    assert "The match is saved in" in out and "--resume" in out
    saved = json.loads(app.match.path.read_text(encoding="utf-8"))
    assert saved["seats"][1] == {"kind": "bot", "level": "hard"}
    assert saved["names"] == ["Player 1", "Computer 1 (hard)", "Computer 2 (medium)"]
    assert saved["settings"] == {"lang": "en"}
    assert main(["play", "--resume", "--lang", "ru"]) == 0  # the only autosave, in English
    assert started[2].match is not None and started[2].match.path == app.match.path
    assert started[2].lang == "en" and started[2].match.lang == "en"
    assert main(["play", "--lang", "ru", "--names", "Аня"]) == 0  # no flags: the setup screen
    assert started[3].match is None and started[3].setup_values.names[0] == "Аня"
