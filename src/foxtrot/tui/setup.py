"""The setup screen: players, who is a person and who a computer, the table options, the target,
the language.  The first dealer is drawn by lot when the match starts (rule D1).
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar, Final

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Input, Label, OptionList, Select, Static

from ..core import LeftoverPile, MostCardsTie, OptionsError, TableOptions, TakeRule
from ..core.options import name_problem
from ..i18n import LANGUAGES, catalog
from .screens import FoxScreen
from .session import BOT_LEVELS, Seat, default_names

TARGETS: Final = (150, 200, 300, 400)
CUSTOM: Final = 0
MAX_SEATS: Final = 9
#: The rule options, by the id of their list: the message prefixes of their values' lines.
EXPLAINED: Final = {
    "take": "tui_explain_take_",
    "forced": "tui_explain_forced_",
    "leftover": "tui_explain_leftover_",
    "tie": "tui_explain_tie_",
}
#: The labels of the setup screen (their column is as wide as the longest in the language).
LABELS: Final = (
    "tui_setup_players",
    "tui_setup_language",
    "tui_setup_seat",
    "tui_setup_take",
    "tui_setup_forced",
    "tui_setup_leftover",
    "tui_setup_tie",
    "tui_setup_target",
)


@dataclasses.dataclass(slots=True)
class SetupValues:
    """What the setup screen holds; also its result."""

    options: TableOptions = dataclasses.field(default_factory=TableOptions)
    seats: list[Seat] = dataclasses.field(
        default_factory=lambda: [Seat()] + [Seat.bot("medium")] * (MAX_SEATS - 1)
    )
    names: list[str] = dataclasses.field(default_factory=lambda: [""] * MAX_SEATS)
    lang: str = "en"

    def chosen_names(self) -> list[str]:
        """The names typed, the default names for the seats left blank."""
        n = self.options.players
        defaults = default_names(self.seats[:n], self.lang)
        return [self.names[i].strip() or defaults[i] for i in range(n)]


class SetupScreen(FoxScreen[SetupValues | None]):
    """Choose the table; Start (or Enter in a field) begins the match, Esc quits."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "quit_setup", show=False),
        Binding("f2", "start", show=False),
    ]

    def __init__(self, values: SetupValues) -> None:
        super().__init__(values.lang)
        self.values = values
        self._widths: list[tuple[Select[Any], int]] = []  # each list and its longest prompt

    def body(self) -> ComposeResult:
        self._widths.clear()
        cat, v = self.cat, self.values
        opts = v.options
        yield Static(cat.text("tui_setup_title"), classes="title")
        with VerticalScroll(id="form"):
            yield self._row(
                "tui_setup_players",
                self._list(
                    [(str(n), n) for n in range(2, MAX_SEATS + 1)],
                    value=opts.players,
                    allow_blank=False,
                    compact=True,
                    id="players",
                ),
            )
            yield self._row(
                "tui_setup_language",
                self._list(
                    [(cat.text(f"tui_lang_{lang}"), lang) for lang in LANGUAGES],
                    value=v.lang,
                    allow_blank=False,
                    compact=True,
                    id="lang",
                ),
            )
            kinds = [(cat.text("tui_seat_human"), "human")] + [
                (cat.text("tui_seat_bot", level=cat.text(f"tui_level_{level}")), level)
                for level in BOT_LEVELS
            ]
            for i in range(MAX_SEATS):
                seat = v.seats[i]
                value = (
                    seat.level
                    if seat.is_bot and seat.level in BOT_LEVELS
                    else ("hard" if seat.is_bot else "human")
                )
                row = Horizontal(
                    Label(Text(cat.text("tui_setup_seat", n=i + 1)), classes="label"),
                    self._list(kinds, value=value, allow_blank=False, compact=True, id=f"kind-{i}"),
                    Input(
                        v.names[i],
                        placeholder=cat.text("tui_setup_name_placeholder"),
                        compact=True,
                        id=f"name-{i}",
                        max_length=24,
                    ),
                    classes="row seat",
                    id=f"seat-{i}",
                )
                row.display = i < opts.players
                yield row
            yield self._row(
                "tui_setup_take",
                self._list(
                    [(cat.text(f"tui_take_{rule.value}"), rule.value) for rule in TakeRule],
                    value=opts.take.value,
                    allow_blank=False,
                    compact=True,
                    id="take",
                ),
            )
            yield Static(id="explain-take", classes="explain")
            yield self._row(
                "tui_setup_forced",
                self._list(
                    [(cat.text("tui_no"), False), (cat.text("tui_yes"), True)],
                    value=opts.forced_foxtrot,
                    allow_blank=False,
                    compact=True,
                    id="forced",
                ),
            )
            yield Static(id="explain-forced", classes="explain")
            yield self._row(
                "tui_setup_leftover",
                self._list(
                    [(cat.text(f"tui_leftover_{rule.value}"), rule.value) for rule in LeftoverPile],
                    value=opts.leftover_pile.value,
                    allow_blank=False,
                    compact=True,
                    id="leftover",
                ),
            )
            yield Static(id="explain-leftover", classes="explain")
            yield self._row(
                "tui_setup_tie",
                self._list(
                    [(cat.text(f"tui_tie_{rule.value}"), rule.value) for rule in MostCardsTie],
                    value=opts.most_cards_tie.value,
                    allow_blank=False,
                    compact=True,
                    id="tie",
                ),
            )
            yield Static(id="explain-tie", classes="explain")
            custom = opts.target not in TARGETS
            yield Horizontal(
                Label(Text(cat.text("tui_setup_target")), classes="label"),
                self._list(
                    [(str(t), t) for t in TARGETS] + [(cat.text("tui_target_custom"), CUSTOM)],
                    value=CUSTOM if custom else opts.target,
                    allow_blank=False,
                    compact=True,
                    id="target",
                ),
                Input(
                    str(opts.target) if custom else "",
                    type="integer",
                    compact=True,
                    placeholder=cat.text("tui_target_placeholder"),
                    id="custom-target",
                ),
                classes="row",
            )
            yield Static(id="explain-target", classes="explain")
            yield Static(Text(cat.text("tui_setup_dealer")), classes="note")
        yield Static("", id="error", classes="error")
        with Horizontal(id="buttons"):
            yield Button(
                Text(cat.text("tui_setup_start")), id="start", variant="primary", compact=True
            )
            yield Button(Text(cat.text("tui_setup_quit")), id="quit", compact=True)
        yield Static(Text(cat.text("tui_keys_setup")), classes="keys")

    def _list(self, options: list[tuple[str, Any]], **kwargs: Any) -> Select[Any]:
        """A list remembered with its longest prompt: ``on_mount`` makes it that wide."""
        select: Select[Any] = Select(options, **kwargs)
        self._widths.append((select, max((len(str(p)) for p, _ in options), default=10)))
        return select

    def _row(self, label: str, widget: Any) -> Horizontal:
        return Horizontal(Label(Text(self.cat.text(label)), classes="label"), widget, classes="row")

    def _explanation(self, name: str) -> str:
        """The one line that says what the chosen value of a rule option does."""
        if name == "target":
            return self.cat.text("tui_explain_target")
        value = self.query_one(f"#{name}", Select).value
        word = ("yes" if value is True else "no") if name == "forced" else str(value)
        return self.cat.text(f"{EXPLAINED[name]}{word}")

    def on_mount(self) -> None:
        self.query_one("#custom-target").display = self.query_one("#target", Select).value == CUSTOM
        cat = self.cat
        # every label and every list as wide as its longest text in this language
        label_width = max(len(cat.text(key, n=MAX_SEATS)) for key in LABELS) + 2
        for label in self.query(".row .label"):
            label.styles.width = label_width
        for select, longest in self._widths:
            select.styles.width = longest + 5
        for name in (*EXPLAINED, "target"):
            self.query_one(f"#explain-{name}", Static).update(Text(self._explanation(name)))
        # the first choice a newcomer makes is the opponent (not Start: Enter would start at once)
        self.query_one("#kind-1", Select).focus()

    def on_key(self, event: events.Key) -> None:
        """An open list stops at its first and last value (it does not wrap around)."""
        focused = self.focused
        if not isinstance(focused, OptionList) or event.key not in ("up", "down"):
            return
        last = focused.option_count - 1
        at = focused.highlighted
        if at is not None and (
            (event.key == "up" and at == 0) or (event.key == "down" and at == last)
        ):
            event.stop()
            event.prevent_default()

    # ------------------------------------------------------------- reading

    def _select(self, name: str) -> Any:
        return self.query_one(f"#{name}", Select).value

    def collect(self) -> bool:
        """Read the values on the screen into ``values``; False if the target is not valid."""
        players = int(self._select("players"))
        seats = []
        names = []
        for i in range(MAX_SEATS):
            kind = self._select(f"kind-{i}")
            seats.append(Seat() if kind == "human" else Seat.bot(str(kind)))
            names.append(self.query_one(f"#name-{i}", Input).value)
        target = int(self._select("target"))
        if target == CUSTOM:
            text = self.query_one("#custom-target", Input).value.strip()
            target = int(text) if text.lstrip("-").isdigit() else -1
        ok = True
        try:
            options = TableOptions(
                players=players,
                take=self._select("take"),
                forced_foxtrot=bool(self._select("forced")),
                leftover_pile=self._select("leftover"),
                most_cards_tie=self._select("tie"),
                target=target,
            )
        except OptionsError:
            options = self.values.options.replace(players=players)
            ok = False
        self.values = SetupValues(options, seats, names, str(self._select("lang")))
        return ok

    # ------------------------------------------------------------- events

    async def on_select_changed(self, event: Select.Changed) -> None:
        """Show the seats in play; switch the language of the screen."""
        name = event.select.id or ""
        if name in EXPLAINED:
            self.query_one(f"#explain-{name}", Static).update(Text(self._explanation(name)))
        if name == "players":
            for i in range(MAX_SEATS):
                self.query_one(f"#seat-{i}").display = i < int(str(event.value))
        elif name == "target":
            self.query_one("#custom-target").display = event.value == CUSTOM
        elif name == "lang" and event.value != self.lang:
            self.collect()
            self.values.lang = str(event.value)
            self.lang = self.values.lang
            self.cat = catalog(self.lang)
            await self.recompose()
            self.on_mount()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()
        elif event.button.id == "quit":
            self.action_quit_setup()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_start()

    def action_start(self) -> None:
        """Start the match, or say what is wrong."""
        error = self.query_one("#error", Static)
        if not self.collect():
            error.update(Text(self.cat.text("tui_setup_bad_target"), style="bold red"))
            return
        values = self.values
        if all(seat.is_bot for seat in values.seats[: values.options.players]):
            error.update(Text(self.cat.text("tui_setup_no_human"), style="bold red"))
            return
        for seat, name in enumerate(values.chosen_names()):
            if name_problem(name) is not None:  # the record's rule: refused here, not later
                error.update(
                    Text(self.cat.text("tui_setup_bad_name", n=seat + 1), style="bold red")
                )
                return
        self.dismiss(values)

    def action_quit_setup(self) -> None:
        """Leave without starting a match."""
        self.dismiss(None)
