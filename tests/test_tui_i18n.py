"""Every screen of the terminal game renders in every language, with no missing message and,
in Russian and Ukrainian, no English left in the words the catalog gives.

Screens: setup, table, hint, card count, rules, scores, score sheet, cover, match end,
review, replay viewer, jump dialog, too small.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from foxtrot.core import TableOptions, loads
from foxtrot.i18n import catalog
from foxtrot.tui.replay import ReplayApp
from foxtrot.tui.screens import (
    CountingScreen,
    CoverScreen,
    HintScreen,
    JumpDialog,
    MatchEndScreen,
    ReviewScreen,
    RulesScreen,
    score_sheet,
)
from foxtrot.tui.session import Match, Seat, default_names
from foxtrot.tui.setup import SetupScreen
from tui_support import (
    finished_record,
    latin_words,
    partial_record,
    play_app,
    screen_text,
    settle,
    tap,
    write_record,
)

LANGS = ("en", "ru", "uk")


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("FOXTROT_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


class Screens:
    """The text of each screen seen, by name."""

    def __init__(self, lang: str, allowed: frozenset[str]) -> None:
        self.lang = lang
        self.allowed = allowed
        self.seen: dict[str, str] = {}

    def check(self, name: str, app: Any, *must: str) -> None:
        text = screen_text(app)
        self.seen[name] = text
        assert "KeyError" not in text and "Traceback" not in text, (name, text)
        for words in must:
            assert words in text, (self.lang, name, words, text)
        if self.lang != "en":  # no English: the options and the rules are in words too
            assert not latin_words(text, self.allowed), (self.lang, name, text)


def local_record(lang: str, *, players: int, target: int, seed: int) -> dict[str, Any]:
    record = finished_record(seed=seed, target=target, players=players)
    seats = [Seat()] + [Seat.bot("easy")] * (players - 1)
    record["names"] = default_names(seats, lang)
    return record


async def wait_text(pilot: Any, app: Any, text: str) -> None:
    for _ in range(400):
        await settle(pilot)
        if text in screen_text(app):
            return
        await app.workers.wait_for_complete()
    raise AssertionError(text)


@pytest.mark.parametrize("lang", LANGS)
def test_every_screen_in_every_language(lang: str, tmp_path: Path) -> None:
    cat = catalog(lang)
    allowed = frozenset(latin_words(str(tmp_path / "home" / "autosave" / "done.json")))
    screens = Screens(lang, allowed)
    seats = [Seat(), Seat.bot("random"), Seat.bot("greedy")]
    match = Match.new(TableOptions(players=3, target=40), seats, default_names(seats, lang), seed=8)
    app = play_app(None, lang, seed=8)
    finished = local_record(lang, players=9, target=1, seed=4)
    finished_path = write_record(finished, tmp_path / "home" / "autosave" / "done.json")

    async def playing() -> None:
        async with app.run_test(size=(100, 34)) as pilot:
            await settle(pilot)
            assert isinstance(app.screen, SetupScreen)
            screens.check("setup", app, cat.text("tui_setup_title"), cat.text("tui_setup_start"))
            app.match = match
            app.start_table(resumed=False)
            await settle(pilot)
            screens.check(
                "table",
                app,
                cat.text("tui_col_player"),
                cat.count("tui_pile", len(match.state.pile)),
            )
            for key, kind, title, name in (
                ("h", HintScreen, "tui_hint_title", "hint"),
                ("c", CountingScreen, "tui_counting_title", "counting"),
                ("r", RulesScreen, "tui_rules_title", "rules"),
                ("s", None, "tui_scores_title", "scores"),
            ):
                if app.waiting_for is None:
                    await settle(pilot)
                await tap(pilot, key)
                if kind is HintScreen:
                    await wait_text(pilot, app, cat.text("tui_keys_hint").split()[0])
                    await app.workers.wait_for_complete()
                    await settle(pilot)
                    assert cat.text("tui_thinking") not in screen_text(app)
                assert kind is None or isinstance(app.screen, kind)
                screens.check(name, app, cat.text(title))
                await tap(pilot, "escape")
            state = loads(finished_path.read_bytes())
            logs = state.deal_logs()
            scores = logs[-1].scores
            assert scores is not None
            app.push_screen(
                score_sheet(
                    lang,
                    names=state.names,
                    deal=0,
                    scores=scores,
                    totals=state.totals,
                    target=1,
                    winner=state.winner,
                )
            )
            await settle(pilot)
            screens.check(
                "score sheet",
                app,
                cat.text("tui_col_p2").split("\n")[-1],
                cat.text("tui_col_p4"),
                cat.text("tui_col_foxtrots_n"),
            )
            assert "P1" not in screens.seen["score sheet"]  # column names, not rule ids
            await tap(pilot, "enter")
            app.push_screen(CoverScreen(lang, state.names[1]))
            await settle(pilot)
            screens.check("cover", app, cat.text("tui_cover", name=state.names[1]))
            await tap(pilot, "enter")
            assert state.winner is not None
            app.push_screen(
                MatchEndScreen(
                    lang,
                    names=state.names,
                    totals=state.totals,
                    winner=state.winner,
                    people=[0],
                    path=str(finished_path),
                )
            )
            await settle(pilot)
            screens.check("match end", app, cat.text("tui_match_over"))
            app.pop_screen()
            short = partial_record()
            short["names"] = default_names([Seat(), Seat.bot("easy")], lang)
            app.push_screen(ReviewScreen(lang, short, 0, (5, None)))
            await wait_text(pilot, app, cat.text("tui_keys_close"))
            await app.workers.wait_for_complete()
            await settle(pilot)
            screens.check(
                "review",
                app,
                cat.text("tui_review_title", name=short["names"][0]),
                cat.text("coach_grade_good").split()[0][:4],
            )
            assert cat.text("tui_thinking") not in screens.seen["review"]
            await pilot.resize_terminal(70, 20)
            await settle(pilot)
            screens.check(
                "too small", app, cat.text("tui_too_small", width=80, height=24).split("\n")[0]
            )
            await pilot.press("ctrl+c")

    asyncio.run(playing())

    viewer = ReplayApp(local_record(lang, players=3, target=30, seed=2), lang, hands=True)

    async def replaying() -> None:
        async with viewer.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            screens.check("replay", viewer, cat.text("tui_key_jump"))
            await pilot.press("n", "d")
            assert isinstance(viewer.screen, JumpDialog)
            screens.check("jump", viewer, cat.text("tui_keys_jump"))
            await pilot.press("escape", "q")

    asyncio.run(replaying())
    assert len(screens.seen) == 13
