"""A newcomer's first match: the setup by keyboard, a whole match against hard on the
default table and its review, undo against the computer, resume in the language of the match,
the list of saved matches, the table's messages (wrong keys, stale messages, forced foxtrot),
the key help, the hot-seat pause, the score sheet's names, the texts in every language.

Every app runs headless through Textual's ``run_test``; ``FOXTROT_HOME`` points into
``tmp_path``; the bots move with no delay.
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import OptionList, Select, Static

from foxtrot.bots.coach import review
from foxtrot.cli.main import main
from foxtrot.core import (
    Action,
    DealEnded,
    MatchEnded,
    Phase,
    Redealt,
    ScoreLine,
    TableOptions,
    TakeRule,
    dumps,
)
from foxtrot.i18n import card_text, catalog
from foxtrot.narrate import narrate
from foxtrot.tui.app import PlayApp
from foxtrot.tui.resume import ResumeScreen
from foxtrot.tui.screens import (
    CoverScreen,
    InfoScreen,
    MatchEndScreen,
    ReviewScreen,
    keys_help,
    score_sheet,
)
from foxtrot.tui.session import Match, Seat, UndoError, for_player, saved_matches
from foxtrot.tui.setup import SetupScreen
from foxtrot.tui.table import TableScreen, table_keys
from tui_support import bot_match, hot_seat_match, key_for, play_app, screen_text, settle, tap

LANGS = ("en", "ru", "uk")


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("FOXTROT_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def status(app: PlayApp) -> str:
    """The one-line message of the table."""
    assert app.table is not None
    return str(app.table.query_one("#status", Static).render())


# ------------------------------------------------------------------ the newcomer's path


@pytest.mark.slow
def test_newcomer_sets_up_hard_by_keyboard_plays_a_whole_match_and_reviews_it() -> None:
    app = play_app(None, "en", seed=21)
    rng = random.Random(5)
    sheets = 0

    async def scenario() -> None:
        nonlocal sheets
        async with app.run_test(size=(100, 32)) as pilot:
            await settle(pilot)
            assert isinstance(app.screen, SetupScreen)
            assert app.focused is not None and app.focused.id == "kind-1"  # not Start
            await tap(pilot, "enter")  # open the opponent's list
            assert isinstance(app.focused, OptionList)
            for _ in range(5):  # past the end: the list stops at "hard", it does not wrap
                await tap(pilot, "down")
            await tap(pilot, "enter")
            assert app.screen.query_one("#kind-1", Select).value == "hard"
            await tap(pilot, "f2")
            match = app.match
            assert match is not None and match.seats[1] == Seat.bot("hard")
            assert match.state.options == TableOptions()  # the default table
            for _ in range(3000):
                await settle(pilot)
                screen = app.screen
                if isinstance(screen, MatchEndScreen):
                    break
                if isinstance(screen, InfoScreen):
                    sheets += 1
                    await tap(pilot, "enter")
                    continue
                assert isinstance(screen, TableScreen) and app.waiting_for == 0
                action = rng.choice(match.state.legal_actions())
                await tap(pilot, key_for(match.state, 0, action))
            assert isinstance(app.screen, MatchEndScreen)
            assert sheets == len(match.state.deal_logs()) > 1  # more than one deal
            assert "wins the match with" in screen_text(app)
            assert "points points" not in screen_text(app)
            await tap(pilot, "v")
            assert isinstance(app.screen, ReviewScreen)
            for _ in range(600):
                await app.workers.wait_for_complete()
                await settle(pilot)
                if "Deal 1, move" in screen_text(app):
                    break
            assert "Deal 1, move" in screen_text(app)  # the review is on the screen
            shown = screen_text(app)
            assert "Deal 1 won: " in shown or "Deal 1 lost: " in shown  # the deal's verdict
            items = review(match.record(), 0, "en", iterations=5, seconds=None)
            told = [item.text("en") for item in items]
            lost = [text for text in told if " — inaccuracy, " in text or " — mistake, " in text]
            assert all("better" in text for text in lost), lost  # a loss names an alternative
            await pilot.press("escape")
            await settle(pilot)
            await pilot.press("q")

    asyncio.run(scenario())


def test_the_default_table_lasts_more_than_one_deal_on_most_seeds() -> None:
    """Between a newcomer (random moves) and the medium opponent, to 200 on the default table."""
    long = 0
    for seed in range(12):
        match = Match.new(TableOptions(), [Seat(), Seat.bot("medium")], ["A", "B"], seed=seed)
        rng = random.Random(seed)
        match.state.deal(rng)
        while match.state.phase is not Phase.OVER:
            if match.state.phase is Phase.AWAITING_DEAL:
                match.state.deal(rng)
                continue
            seat = match.state.to_move
            assert seat is not None
            move = (
                match.bot_move(match.state, seat)
                if match.is_bot(seat)
                else rng.choice(match.state.legal_actions())
            )
            match.state.apply(move, seat)
        long += len(match.state.deal_logs()) > 1
    assert long >= 9, long


# ------------------------------------------------------------------ undo


def _play_until(match: Match, rng: random.Random, stop: Any) -> None:
    """Play (the person at random, the bot as itself) until ``stop(events)`` is true."""
    for _ in range(500):
        seat = match.state.to_move
        assert seat is not None
        move = (
            match.bot_move(match.state, seat)
            if match.is_bot(seat)
            else rng.choice(match.state.legal_actions())
        )
        if stop(match.apply(move, seat)):
            return
    raise AssertionError("never stopped")


def test_undo_takes_back_the_move_and_the_replies_and_refuses_after_a_redeal() -> None:
    match = bot_match(seed=4, target=200, level="greedy", take="match")
    match.deal()
    rng = random.Random(1)
    _play_until(match, rng, lambda events: match.state.to_move == 0)
    before = dumps(match.state)
    moves = len(match.state.deal_logs()[-1].actions)
    _play_until(match, rng, lambda events: match.state.to_move == 0)  # my move, the reply
    assert match.undo(0) == 2
    assert dumps(match.state) == before  # exactly the state before my move
    saved = json.loads(match.path.read_text(encoding="utf-8"))
    assert len(saved["deals"][-1]["actions"]) == moves  # the record keeps the moves that stand
    # after a redeal (hidden cards revealed) the move before it is not taken back
    _play_until(match, rng, lambda events: any(isinstance(e, Redealt) for e in events) or False)
    _play_until(match, rng, lambda events: match.state.to_move == 0)
    again = dumps(match.state)
    with pytest.raises(UndoError) as refused:
        while True:  # take back the moves since the redeal, then the one before it is refused
            match.undo(0)
    assert refused.value.code in ("revealed", "none")
    assert match.state.phase is Phase.PLAYING and len(dumps(match.state)) <= len(again)


def test_undo_is_refused_in_hot_seat_and_after_a_new_deal() -> None:
    people = hot_seat_match(seed=5)
    people.deal()
    seat = people.state.to_move
    assert seat is not None
    people.apply(people.state.legal_actions()[0], seat)
    with pytest.raises(UndoError) as refused:
        people.undo(seat)
    assert refused.value.code == "hot_seat"
    match = bot_match(seed=2, target=500, level="random", take="match")
    match.deal()
    rng = random.Random(3)
    _play_until(match, rng, lambda events: any(isinstance(e, DealEnded) for e in events))
    match.deal()
    if match.state.to_move != 0:
        _play_until(match, rng, lambda events: match.state.to_move == 0)
    if not any(action >> 6 == 0 for action in match.state.deal_logs()[-1].actions):
        with pytest.raises(UndoError) as refused:
            match.undo(0)
        assert refused.value.code == "none"  # my moves of the last deal are gone for good


def test_undo_key_at_the_table() -> None:
    match = bot_match(seed=9, target=200, level="greedy", take="match")
    app = play_app(match)

    async def scenario() -> None:
        async with app.run_test(size=(100, 32)) as pilot:
            await settle(pilot)
            before = dumps(match.state)
            action = match.state.legal_actions()[0]
            await tap(pilot, key_for(match.state, 0, action))
            assert dumps(match.state) != before
            await tap(pilot, "u")
            assert dumps(match.state) == before
            assert "taken back" in status(app)
            assert "u undo" in screen_text(app)
            await tap(pilot, "u")  # nothing of mine is left in this deal
            assert dumps(match.state) == before and "no move of yours" in status(app)
            await pilot.press("q")

    asyncio.run(scenario())


# ------------------------------------------------------------------ the table's messages


def test_a_wrong_key_says_so_and_an_old_message_goes_at_the_next_move() -> None:
    match = bot_match(seed=11, target=200, level="greedy")
    app = play_app(match)

    async def scenario() -> None:
        async with app.run_test(size=(100, 32)) as pilot:
            await settle(pilot)
            for key, shown in (("p", "p"), ("%", "%"), ("?", "?"), ("f5", "F5")):
                before = dumps(match.state)
                await tap(pilot, key)
                assert f"The key {shown} does nothing here" in status(app), key
                assert dumps(match.state) == before
            action = match.state.legal_actions()[0]
            await tap(pilot, key_for(match.state, 0, action))
            assert status(app).strip() == ""  # the message went with the move
            assert "Last move:" in screen_text(app)
            await pilot.press("q")

    asyncio.run(scenario())


def _forced_match() -> tuple[Match, Action]:
    """A match with forced foxtrots where the person can make one, and a card that does not."""
    for seed in range(200):
        options = TableOptions(target=200, forced_foxtrot=True)
        match = Match.new(options, [Seat(), Seat.bot("greedy")], ["Ann", "Bot"], seed=seed)
        match.deal()
        state = match.state
        if state.to_move != 0 or len(state.pile) != 1:
            continue
        legal = state.legal_actions()
        others = [Action.play(card) for card in state.hand(0) if Action.play(card) not in legal]
        if others:
            return match, others[0]
    raise AssertionError("no seed with a forced foxtrot")


def test_the_forced_foxtrot_refusal_names_the_card() -> None:
    match, wrong = _forced_match()
    app = play_app(match)
    card = match.state.pile[-1]

    async def scenario() -> None:
        async with app.run_test(size=(100, 32)) as pilot:
            await settle(pilot)
            await tap(pilot, key_for(match.state, 0, wrong))
            text = status(app)
            assert "make a foxtrot with" in text and card_text(card, "en")[:-1] in text
            await pilot.press("q")

    asyncio.run(scenario())


@pytest.mark.parametrize("lang", LANGS)
def test_key_help_shows_take_only_where_it_exists_and_fits_120_columns(lang: str) -> None:
    cat = catalog(lang)
    every = keys_help(cat, table_keys(True, True)).plain
    assert len(every) <= 118, (lang, len(every), every)  # one line at 120 columns
    assert "t " in every and "u " in every
    plain = keys_help(cat, table_keys(False, False)).plain
    assert " t " not in f" {plain}" and " u " not in f" {plain}"


def test_take_is_in_the_key_help_only_under_take_any() -> None:
    for take, shown in ((TakeRule.ANY, True), (TakeRule.MATCH, False)):
        match = bot_match(seed=3, target=200, take=take.value)
        app = play_app(match)

        async def scenario(shown: bool = shown, app: PlayApp = app) -> None:
            async with app.run_test(size=(120, 36)) as pilot:
                await settle(pilot)
                assert ("t take" in screen_text(app)) is shown
                await pilot.press("q")

        asyncio.run(scenario())


def test_hot_seat_cover_comes_after_the_mover_has_seen_his_move() -> None:
    match = hot_seat_match(seed=5)
    app = play_app(match, cover_delay=60)

    async def scenario() -> None:
        async with app.run_test(size=(100, 32)) as pilot:
            await settle(pilot)
            assert isinstance(app.screen, CoverScreen)
            await tap(pilot, "enter")
            seat = match.state.to_move
            assert seat is not None
            action = match.state.legal_actions()[0]
            await tap(pilot, key_for(match.state, seat, action))
            assert isinstance(app.screen, TableScreen)  # not covered at once
            assert "Press any key" in status(app)
            assert match.state.names[seat] in screen_text(app)  # his own hand still shown
            await tap(pilot, "x")
            assert isinstance(app.screen, CoverScreen)
            await pilot.press("ctrl+c")

    asyncio.run(scenario())


def test_the_log_follows_a_resize() -> None:
    names = ["Anastasia Konstantinovna", "Computer (medium) of the long name"]
    match = Match.new(TableOptions(), [Seat(), Seat.bot("medium")], names, seed=11)
    app = play_app(match)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            narrow = [line for line in screen_text(app).splitlines() if "Deal 1:" in line]
            await pilot.resize_terminal(140, 40)
            await settle(pilot)
            await pilot.pause(0.1)
            wide = [line for line in screen_text(app).splitlines() if "Deal 1:" in line]
            assert narrow and wide
            assert "plays first." in wide[0] and "plays first." not in narrow[0]
            await pilot.press("q")

    asyncio.run(scenario())


# ------------------------------------------------------------------ resume


def test_resume_keeps_the_language(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[PlayApp] = []

    def run(app: PlayApp) -> None:
        started.append(app)

    monkeypatch.setattr(PlayApp, "run", run)
    match = bot_match(seed=3, lang="ru", target=200)
    match.lang = "ru"
    match.deal()
    match.apply(match.state.legal_actions()[0], match.state.to_move or 0)
    assert main(["play", "--resume", str(match.path), "--lang", "en"]) == 0
    assert started[0].lang == "ru" and started[0].match is not None
    assert started[0].match.lang == "ru"
    assert Match.resume(match.path, lang="uk").lang == "ru"


def test_resume_with_several_saved_matches_offers_a_list(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for seed, (lang, people) in enumerate((("uk", "Оля"), ("en", "Ann"))):
        match = Match.new(
            TableOptions(), [Seat(), Seat.bot("easy")], [people, "Bot"], seed=seed, lang=lang
        )
        match.deal()
        match.save()
    found = saved_matches()
    assert len(found) == 2 and {saved.names[0] for saved in found} == {"Оля", "Ann"}
    started: list[PlayApp] = []

    def run(app: PlayApp) -> None:
        started.append(app)

    monkeypatch.setattr(PlayApp, "run", run)
    assert main(["play", "--resume", "--lang", "en"]) == 0
    assert started[0].match is None and len(started[0].saved) == 2
    app = play_app(None, "en", saved=found)

    async def scenario() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)
            assert isinstance(app.screen, ResumeScreen)
            text = screen_text(app)
            assert "Оля, Bot" in text and "Ann, Bot" in text and "0 : 0" in text
            choice = found[0]
            await tap(pilot, "enter")
            assert app.match is not None and app.match.path == choice.path
            assert app.lang == app.match.lang
            await pilot.press("q")

    asyncio.run(scenario())


def test_a_record_error_for_a_player_has_no_rule_ids(home: Path) -> None:
    assert for_player("a record is JSON text, not a number (rule G2)") == (
        "a record is JSON text, not a number"
    )
    assert for_player("bad (rules C3, M1) here") == "bad here"
    bad = home / "bad.json"
    bad.parent.mkdir(parents=True, exist_ok=True)
    bad.write_text('{"format": "foxtrot-record/1", "names": ["a"', encoding="utf-8")
    assert main(["play", "--resume", str(bad), "--lang", "en"]) == 1


# ------------------------------------------------------------------ texts


@pytest.mark.parametrize("lang", LANGS)
def test_texts_of_issue_8_in_every_language(lang: str) -> None:
    cat = catalog(lang)
    won = narrate(MatchEnded(0, (354, 120)), ["A", "B"], lang)[0]
    assert won.count(cat.count("points", 354).split()[1]) == 1  # not "points points"
    assert "матч" in won or "match" in won
    assert cat.text("tui_hint_take") != cat.text("tui_hint_play", card_acc="X", shortcut="1")
    assert "(t" in cat.text("tui_hint_take") or "t)" in cat.text("tui_hint_take")
    for key in ("tui_deal", "tui_score_title"):
        text = cat.text(key, deal=1)
        assert not any(word in text for word in ("Игра", "Гра ", "Партия"))
    if lang == "ru":
        assert cat.count("stock_left", 71) == "в запасе осталась 71 карта"
        assert cat.count("stock_left", 72) == "в запасе остались 72 карты"
        assert cat.count("stock_left", 75) == "в запасе осталось 75 карт"
        assert cat.text("tui_deal", deal=1) == "Раздача 1"
        assert cat.text("tui_target", target=200) == "матч до 200"
    if lang == "uk":
        assert cat.count("stock_left", 71) == "у запасі залишилася 71 карта"
        assert cat.text("tui_deal", deal=1) == "Роздача 1"
    marks = cat.text("tui_marks", marks=", ".join([cat.text("tui_you_mark"), "x"]))
    assert marks.count("(") == 1
    for key in ("tui_col_foxtrots_n", "tui_col_p2", "tui_col_p3", "tui_col_p4"):
        assert not cat.text(key).startswith("P"), key
    # the option by its command-line name in English, in words in Russian and Ukrainian
    assert ("take = any" in cat.text("tui_explain_take_any")) is (lang == "en")


def test_names_carry_one_pair_of_brackets_on_the_table() -> None:
    match = bot_match(seed=3, target=200)
    app = play_app(match)

    async def scenario() -> None:
        async with app.run_test(size=(100, 32)) as pilot:
            await settle(pilot)
            text = screen_text(app)
            assert "(you, dealer)" in text or "(you)" in text
            assert ") (" not in text
            await pilot.press("q")

    asyncio.run(scenario())


def test_setup_explains_each_rule_option_and_shows_the_default() -> None:
    app = play_app(None, "en")

    async def scenario() -> None:
        async with app.run_test(size=(120, 36)) as pilot:
            await settle(pilot)
            screen = app.screen
            assert screen.query_one("#take", Select).value == TableOptions().take.value
            text = screen_text(app)
            assert "take = match: a Jack" in text, text
            screen.query_one("#take", Select).value = "any"
            await settle(pilot)
            assert "take = any: you may take the whole pile" in screen_text(app)
            await pilot.press("escape")

    asyncio.run(scenario())


def test_score_sheet_fits_80_columns_with_names_not_rule_ids() -> None:
    lines = [ScoreLine(1, 0, 25, 16, 5, 31), ScoreLine(0, 1, 39, 5, 0, 25)]
    for lang in LANGS:
        match = bot_match(seed=1, target=200, lang=lang)
        app = play_app(match, lang)

        async def scenario(app: PlayApp = app, lang: str = lang) -> None:
            async with app.run_test(size=(80, 24)) as pilot:
                await settle(pilot)
                app.push_screen(
                    score_sheet(
                        lang,
                        names=["Ann", "Bob"],
                        deal=0,
                        scores=lines,
                        totals=[31, 25],
                        target=200,
                        winner=None,
                        width=66,
                    )
                )
                await settle(pilot)
                text = screen_text(app)
                cat = catalog(lang)
                assert cat.text("tui_col_total") in text and "P4" not in text
                assert " 31 " in text or " 31█" in text.replace(" ", " ")
                await pilot.press("escape")
                await pilot.press("q")

        asyncio.run(scenario())


@pytest.mark.parametrize("lang", LANGS)
def test_setup_labels_and_values_fit_their_boxes(lang: str) -> None:
    app = play_app(None, lang)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            shown = [s for s in app.screen.query(Select) if s.region.width]
            assert len(shown) >= 8
            for select in shown:  # the longest value and the ▼ fit
                longest = max(len(str(prompt)) for prompt, _ in select._options)
                assert select.region.width >= longest + 4, (select.id, select.region.width)
            for label in app.screen.query(".row .label"):
                if label.region.width:
                    assert label.region.width > len(str(label.render())), label.render()
            await pilot.press("escape")

    asyncio.run(scenario())
