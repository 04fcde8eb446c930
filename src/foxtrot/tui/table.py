"""The table screen: the hand of the seat at the screen, the pile, the players, the last actions.

It shows what it is given and passes every key to the app; the app decides
what a key means.  It never reads the state: ``show`` takes an observation.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.widgets import RichLog, Static

from ..core import Observation
from . import view
from .screens import FoxScreen, keys_help

#: The keys of the table and their messages, in the order the help line shows them.
TABLE_KEYS: Final = (
    ("1-9 0 a…", "tui_key_play"),
    ("←→ ↵", "tui_key_select"),
    ("t", "tui_key_take"),
    ("h", "tui_key_hint"),
    ("c", "tui_key_count"),
    ("r", "tui_key_rules"),
    ("s", "tui_key_scores"),
    ("q", "tui_key_quit"),
)
#: The same command keys on a Russian or Ukrainian keyboard layout.
LAYOUT_ALIASES: Final = {"е": "t", "р": "h", "с": "c", "к": "r", "ы": "s", "і": "s", "й": "q"}


class TableScreen(FoxScreen[None]):
    """The table as the seat at the screen sees it."""

    ready = False

    def on_mount(self) -> None:
        self.ready = True
        hook: Any = getattr(self.app, "table_ready", None)
        if hook is not None:
            hook()

    def body(self) -> ComposeResult:
        yield Static(id="header")
        yield Static(id="players")
        yield Static(id="pile")
        yield RichLog(id="log", wrap=True, min_width=20, max_lines=200)
        yield Static(id="hand-title")
        yield Static(id="hand")
        yield Static(keys_help(self.cat, TABLE_KEYS), classes="keys")
        yield Static(id="status")

    def show(self, obs: Observation, you: int | None, selected: int) -> None:
        """Draw the table from ``obs``; the hand only if ``you`` is the observing seat."""
        cat, lang = self.cat, self.lang
        self.query_one("#header", Static).update(view.header_text(obs, cat))
        self.query_one("#players", Static).update(view.players_table(obs, cat, lang, you=you))
        self.query_one("#pile", Static).update(view.pile_text(obs.pile, cat, lang))
        title = self.query_one("#hand-title", Static)
        hand = self.query_one("#hand", Static)
        if you is None or you != obs.seat:
            title.update(Text(cat.text("tui_hand_hidden"), style="dim"))
            hand.update("")
            return
        mine = obs.to_move == you
        label = "tui_your_hand_turn" if mine else "tui_your_hand"
        title.update(
            Text(
                cat.text(label, name=obs.names[you], cards=cat.count("cards", len(obs.hand))),
                style="bold",
            )
        )
        hand.update(view.hand_text(obs.hand, obs.legal_actions, selected if mine else -1, lang))

    def log_lines(self, lines: Sequence[str]) -> None:
        """Add lines to the last actions."""
        log = self.query_one("#log", RichLog)
        for line in lines:
            log.write(Text(line))

    def status(self, text: str, *, warn: bool = False) -> None:
        """A one-line message under the keys."""
        self.query_one("#status", Static).update(Text(text, style="bold red" if warn else "italic"))

    def on_key(self, event: events.Key) -> None:
        """Every key goes to the app; an unknown key does nothing."""
        key = event.key
        char = event.character or ""
        char = LAYOUT_ALIASES.get(char, char)
        handler: Any = getattr(self.app, "table_key", None)
        if handler is not None and handler(key, char):
            event.stop()
            event.prevent_default()
