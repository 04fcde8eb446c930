"""``foxtrot replay FILE`` in a terminal: a recorded match step by step.

Keys: → or n next, ← or p previous, PgDn / PgUp next or previous deal, Home / End,
d jump to a deal, a show or hide every hand (the record is the user's own file),
r rules, q quit.  Every step is replayed through the checked engine once, when
the viewer opens.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, ClassVar, Final

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import RichLog, Static

from ..core import State
from ..core import replay as replay_steps
from ..i18n import catalog, seat_name
from ..narrate import narrate
from . import view
from .screens import MIN_HEIGHT, MIN_WIDTH, FoxScreen, JumpDialog, RulesScreen, keys_help
from .style import CSS

REPLAY_KEYS: Final = (
    ("→ n", "tui_key_next"),
    ("← p", "tui_key_previous"),
    ("PgDn PgUp", "tui_key_deal"),
    ("Home End", "tui_key_ends"),
    ("d", "tui_key_jump"),
    ("a", "tui_key_hands"),
    ("r", "tui_key_rules"),
    ("q", "tui_key_close_viewer"),
)


@dataclasses.dataclass(frozen=True, slots=True)
class Step:
    """One step of the record: after dealing (``action`` is ``None``) or after an action."""

    deal: int
    action: int | None
    state: State
    lines: tuple[str, ...]


def record_steps(record: Mapping[str, Any], lang: str) -> list[Step]:
    """Every step of a (checked) record, each with its state and its lines in words."""
    names = record["names"]
    return [
        Step(
            step.deal,
            step.action,
            step.state.clone(),
            tuple(line for event in step.events for line in narrate(event, names, lang)),
        )
        for step in replay_steps(record)
    ]


class ReplayScreen(FoxScreen[None]):
    """The viewer: the table at one step of the record, and the lines of the deal so far."""

    def body(self) -> ComposeResult:
        yield Static(id="header")
        yield Static(id="players")
        yield Static(id="pile")
        yield Static(id="stock")
        yield RichLog(id="log", wrap=True, min_width=20)
        yield Static(keys_help(self.cat, REPLAY_KEYS), classes="keys")

    ready = False

    def on_mount(self) -> None:
        self.ready = True
        app = self.app
        if isinstance(app, ReplayApp):
            app.draw()

    def on_key(self, event: events.Key) -> None:
        app = self.app
        if isinstance(app, ReplayApp) and app.replay_key(event.key, event.character or ""):
            event.stop()


class ReplayApp(App[None]):
    """The step-by-step viewer of a record."""

    CSS = CSS
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "quit", show=False, priority=True),
    ]

    def __init__(
        self, record: Mapping[str, Any], lang: str, *, deal: int | None = None, hands: bool = False
    ) -> None:
        super().__init__()
        self.lang = lang
        self.cat = catalog(lang)
        # a server's record names its computers in English: shown in the viewer's language
        self.record = {**record, "names": [seat_name(name, lang) for name in record["names"]]}
        self.steps = record_steps(self.record, lang)
        self.show_hands = hands
        self.index = 0
        if deal is not None:
            self.index = self.deal_start(deal - 1)
        self.viewer = ReplayScreen(lang)

    def on_mount(self) -> None:
        self.title = self.cat.text("tui_title")
        self.set_class(self.size.width < MIN_WIDTH or self.size.height < MIN_HEIGHT, "-too-small")
        self.push_screen(self.viewer)

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.width < MIN_WIDTH or event.size.height < MIN_HEIGHT, "-too-small")

    @property
    def deals(self) -> int:
        """How many deals the record holds."""
        return self.steps[-1].deal + 1 if self.steps else 0

    def deal_start(self, deal: int) -> int:
        """The index of the first step of ``deal`` (clamped to the record)."""
        deal = max(0, min(deal, self.deals - 1))
        for index, step in enumerate(self.steps):
            if step.deal == deal:
                return index
        return 0

    def go(self, index: int) -> None:
        """Show step ``index`` (clamped)."""
        self.index = max(0, min(index, len(self.steps) - 1))
        self.draw()

    def replay_key(self, key: str, char: str) -> bool:
        """A key of the viewer; True if it meant something."""
        if self.has_class("-too-small"):
            return False
        step = self.steps[self.index] if self.steps else None
        moves = {
            "right": self.index + 1,
            "n": self.index + 1,
            "left": self.index - 1,
            "p": self.index - 1,
            "home": 0,
            "end": len(self.steps) - 1,
        }
        name = key if key in moves else char
        if name in moves:
            self.go(moves[name])
        elif key in ("pagedown", "pageup") and step is not None:
            self.go(self.deal_start(step.deal + (1 if key == "pagedown" else -1)))
        elif char == "d" and self.steps:
            self.push_screen(JumpDialog(self.lang, self.deals), self._jump)
        elif char == "a":
            self.show_hands = not self.show_hands
            self.draw()
        elif char == "r":
            self.push_screen(RulesScreen(self.lang))
        elif char == "q" or key == "escape":
            self.exit(None)
        else:
            return False
        return True

    def _jump(self, deal: int | None) -> None:
        if deal is not None:
            self.go(self.deal_start(deal - 1))

    def draw(self) -> None:
        """Draw the current step."""
        cat, lang, screen = self.cat, self.lang, self.viewer
        if not screen.ready:
            return
        log = screen.query_one("#log", RichLog)
        log.clear()
        if not self.steps:
            screen.query_one("#header", Static).update(Text(cat.text("no_deals")))
            return
        step = self.steps[self.index]
        state = step.state
        obs = state.observation(0)
        in_deal = [s for s in self.steps if s.deal == step.deal]
        position = in_deal.index(step)
        header = Text(
            cat.text(
                "tui_replay_header",
                deal=step.deal + 1,
                deals=self.deals,
                step=position,
                steps=len(in_deal) - 1,
            ),
            style="bold",
        )
        header.append(" · ")
        header.append_text(view.header_text(obs, cat, deal=False))
        screen.query_one("#header", Static).update(header)
        hands = (
            {seat: state.hand(seat) for seat in range(state.players)} if self.show_hands else None
        )
        screen.query_one("#players", Static).update(view.players_table(obs, cat, lang, hands=hands))
        screen.query_one("#pile", Static).update(view.pile_text(obs.pile, cat, lang))
        stock = Text(cat.count("tui_stock", obs.stock), style="bold")
        if self.show_hands and obs.stock:
            stock.append(": ")
            stock.append_text(view.cards_text(state.stock, lang))
        screen.query_one("#stock", Static).update(stock)
        for previous in in_deal[: position + 1]:
            for line in previous.lines:
                log.write(Text(line))
