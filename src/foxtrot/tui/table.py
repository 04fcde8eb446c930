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

from ..core import Observation, TakeRule
from . import view
from .screens import FoxScreen, keys_help

#: The keys of the table and their messages, in the order the help line shows them.
TABLE_KEYS: Final = (
    ("1-9 0 a…", "tui_key_play"),
    ("←→ ↵", "tui_key_select"),
    ("t", "tui_key_take"),
    ("u", "tui_key_undo"),
    ("h", "tui_key_hint"),
    ("c", "tui_key_count"),
    ("r", "tui_key_rules"),
    ("s", "tui_key_scores"),
    ("q", "tui_key_quit"),
)
#: The same command keys on a Russian or Ukrainian keyboard layout.
LAYOUT_ALIASES: Final = {
    "е": "t",
    "г": "u",
    "р": "h",
    "с": "c",
    "к": "r",
    "ы": "s",
    "і": "s",
    "й": "q",
}
#: Rows the card faces need more than the text of the hand and the pile; the table draws
#: faces when the screen has this many rows beyond those of the players.
FACE_ROWS: Final = 20


def table_keys(take: bool, undo: bool) -> tuple[tuple[str, str], ...]:
    """The keys of this table: ``t`` only where taking exists (take = any), ``u`` only where
    undo does (against the computer)."""
    return tuple(
        (key, message)
        for key, message in TABLE_KEYS
        if (key != "t" or take) and (key != "u" or undo)
    )


class ActionLog(RichLog):
    """The last actions; wrapped again to its width whenever that changes (a resize)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(wrap=True, min_width=20, max_lines=200, **kwargs)
        self.told: list[str] = []
        self.wrapped_at = 0

    def add(self, lines: Sequence[str]) -> None:
        """Write ``lines`` and keep them for the next resize."""
        self.told = (self.told + list(lines))[-200:]
        for line in lines:
            self.write(Text(line), width=self._width())

    def _width(self) -> int | None:
        """The width to wrap at: the log's own (the console's may lag behind a resize)."""
        width = self.scrollable_content_region.width
        return max(width, self.min_width) if width > 0 else None

    def on_resize(self, event: events.Resize) -> None:
        super().on_resize(event)  # RichLog writes what waited for its size
        if event.size.width == self.wrapped_at:
            return
        first = self.wrapped_at == 0
        self.wrapped_at = event.size.width
        if not first:
            self.call_after_refresh(self._rewrap)

    def _rewrap(self) -> None:
        self.clear()
        for line in self.told:
            self.write(Text(line), width=self._width())


class TableScreen(FoxScreen[None]):
    """The table as the seat at the screen sees it."""

    ready = False

    def __init__(self, lang: str) -> None:
        super().__init__(lang)
        self.drawn: tuple[Observation, int | None, int, str, bool] | None = None

    def on_mount(self) -> None:
        self.ready = True
        hook: Any = getattr(self.app, "table_ready", None)
        if hook is not None:
            hook()

    def body(self) -> ComposeResult:
        yield Static(id="header")
        yield Static(id="players")
        yield Static(id="pile")
        yield Static(id="last")
        yield ActionLog(id="log")
        yield Static(id="hand-title")
        yield Static(id="hand")
        yield Static(keys_help(self.cat, TABLE_KEYS), id="keys", classes="keys")
        yield Static(id="status")

    def faces(self, obs: Observation) -> bool:
        """Draw the cards as faces: the screen is high enough (else the text of the cards)."""
        return self.app.size.height >= FACE_ROWS + obs.players

    def show(
        self,
        obs: Observation,
        you: int | None,
        selected: int,
        *,
        last: str = "",
        undo: bool = False,
    ) -> None:
        """Draw the table from ``obs``; the hand only if ``you`` is the observing seat.

        ``last`` tells the last move (highlighted); ``undo``: the key ``u`` exists here.
        """
        self.drawn = (obs, you, selected, last, undo)
        cat, lang = self.cat, self.lang
        width = max(self.app.size.width - 2, 20)
        faces = self.faces(obs)
        self.query_one("#header", Static).update(view.header_text(obs, cat))
        self.query_one("#players", Static).update(view.players_table(obs, cat, lang, you=you))
        fresh = bool(last) and bool(obs.pile) and obs.pile[-1] is not None
        pile = view.pile_faces(obs.pile, cat, lang, width, fresh=fresh) if faces else None
        self.query_one("#pile", Static).update(pile or view.pile_text(obs.pile, cat, lang))
        self.query_one("#last", Static).update(
            Text(cat.text("tui_last_move", text=last), style="bold yellow") if last else ""
        )
        self.query_one("#last", Static).display = bool(last)
        take = obs.options.take is TakeRule.ANY
        self.query_one("#keys", Static).update(keys_help(cat, table_keys(take, undo)))
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
        chosen = selected if mine else -1
        drawn = view.hand_faces(obs.hand, obs.legal_actions, chosen, lang, width) if faces else None
        hand.update(drawn or view.hand_text(obs.hand, obs.legal_actions, chosen, lang))

    def log_lines(self, lines: Sequence[str]) -> None:
        """Add lines to the last actions."""
        self.query_one("#log", ActionLog).add(lines)

    def on_resize(self, event: events.Resize) -> None:
        """Redraw the cards to fit the new size (the log wraps itself again)."""
        self.call_after_refresh(self._redraw)

    def _redraw(self) -> None:
        if self.ready and self.drawn is not None:
            obs, you, selected, last, undo = self.drawn
            self.show(obs, you, selected, last=last, undo=undo)

    def status(self, text: str, *, warn: bool = False) -> None:
        """A one-line message under the keys."""
        self.query_one("#status", Static).update(Text(text, style="bold red" if warn else "italic"))

    def on_key(self, event: events.Key) -> None:
        """Every key goes to the app; it says so when a key means nothing here."""
        key = event.key
        char = event.character or ""
        char = LAYOUT_ALIASES.get(char, char)
        handler: Any = getattr(self.app, "table_key", None)
        if handler is not None and handler(key, char):
            event.stop()
            event.prevent_default()
