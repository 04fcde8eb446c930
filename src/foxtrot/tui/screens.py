"""The small screens of the terminal game: cover, score sheet, rules, hint, counting, review.

Every screen derives from ``FoxScreen``: it carries the "terminal too small"
message, shown instead of its body while the app has the ``-too-small`` class.
Keys a screen does not know are ignored.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Final, TypeVar

from rich.console import Group, RenderableType
from rich.markdown import Markdown as RichMarkdown
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, Static
from textual.worker import Worker, WorkerState

from ..bots.coach import card_count, review, suggest, summary
from ..bots.verdict import verdicts
from ..core import Action, Observation, ScoreLine
from ..i18n import Catalog, card_slots, catalog
from ..i18n.rules import rules_markdown
from . import view
from .session import for_player

MIN_WIDTH: Final = 80
MIN_HEIGHT: Final = 24
T = TypeVar("T")


def hint_text(action: Action, hand: Sequence[Any], cat: Catalog, lang: str) -> str:
    """The coach's suggestion with the key that makes it: "Play 10♥ (key 3)." or, a hint to
    take read as one, "Take the pile (key t)."
    """
    if action.card is None:
        return cat.text("tui_hint_take")
    index = list(hand).index(action.card)
    key = view.CARD_KEYS[index] if index < len(view.CARD_KEYS) else "↵"
    return cat.text("tui_hint_play", **card_slots(action.card, lang), shortcut=key)


class Plain(Static):
    """A static text shown as it is: names and paths may hold ``[``, never read as markup."""

    def __init__(self, content: RenderableType = "", **kwargs: Any) -> None:
        super().__init__(Text(content) if isinstance(content, str) else content, **kwargs)


class TooSmall(Static):
    """The message shown instead of a screen when the terminal is too small."""


def _framed(cat: Catalog, classes: str, body: ComposeResult) -> ComposeResult:
    """The too-small message, then the body in a container with ``classes``."""
    yield TooSmall(cat.text("tui_too_small", width=MIN_WIDTH, height=MIN_HEIGHT))
    with Vertical(classes=classes):
        yield from body


class FoxScreen(Screen[T]):
    """A full screen with the too-small message and a body."""

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang
        self.cat = catalog(lang)

    def compose(self) -> ComposeResult:
        yield from _framed(self.cat, "body", self.body())

    def body(self) -> ComposeResult:
        """The widgets of the screen."""
        yield from ()


class FoxModal(ModalScreen[T]):
    """A dialog over the table, with the too-small message and a body."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", show=False)]

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang
        self.cat = catalog(lang)

    def compose(self) -> ComposeResult:
        yield from _framed(self.cat, "body dialog", self.body())

    def body(self) -> ComposeResult:
        """The widgets of the dialog."""
        yield from ()

    def action_close(self) -> None:
        """Close the dialog."""
        self.dismiss(None)


class CoverScreen(FoxScreen[None]):
    """Hides the table between two people's turns: "Pass to Anna — press Enter"."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "go", show=False)]

    def __init__(self, lang: str, name: str) -> None:
        super().__init__(lang)
        self.player = name

    def body(self) -> ComposeResult:
        yield Plain(self.cat.text("tui_title"), classes="title")
        yield Plain(self.cat.text("tui_cover", name=self.player), id="cover")
        yield Plain(self.cat.text("tui_cover_note"), classes="keys")

    def action_go(self) -> None:
        """Show the table to the next person."""
        self.dismiss(None)


class InfoScreen(FoxModal[None]):
    """A dialog with a title, some content and a line of keys; Enter or Esc closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "close", show=False)]

    def __init__(
        self, lang: str, title: str, content: RenderableType, keys: str | None = None
    ) -> None:
        super().__init__(lang)
        self.title_text = title
        self.content = content
        self.keys_text = keys if keys is not None else self.cat.text("tui_keys_close")

    def body(self) -> ComposeResult:
        yield Plain(self.title_text, classes="title")
        with VerticalScroll():
            yield Plain(self.content, id="content")
        yield Plain(self.keys_text, classes="keys")


def score_sheet(
    lang: str,
    *,
    names: Sequence[str],
    deal: int,
    scores: Sequence[ScoreLine],
    totals: Sequence[int],
    target: float,
    winner: int | None,
    width: int | None = None,
) -> InfoScreen:
    """The score sheet after a deal: every P1-P4 part, the match totals, and the winner;
    ``width``: at most this many columns (the screen's width less the dialog's frame)."""
    cat = catalog(lang)
    parts: list[RenderableType] = [
        view.score_table(names, scores, totals, cat, width),
        Text(cat.text("tui_score_note", target=target), style="dim"),
    ]
    if winner is not None:
        parts.append(
            Text(
                cat.text(
                    "tui_winner", name=names[winner], points=cat.count("points", totals[winner])
                ),
                style="bold green",
            )
        )
    keys = cat.text("tui_keys_next_deal" if winner is None else "tui_keys_continue")
    return InfoScreen(lang, cat.text("tui_score_title", deal=deal + 1), Group(*parts), keys)


class RulesScreen(FoxModal[None]):
    """The rules for players, scrollable."""

    def body(self) -> ComposeResult:
        yield Plain(self.cat.text("tui_rules_title"), classes="title")
        with VerticalScroll(id="rules"):
            yield Plain(RichMarkdown(rules_markdown(self.lang)), id="rules-text")
        yield Plain(self.cat.text("tui_keys_rules"), classes="keys")

    def on_mount(self) -> None:
        self.query_one("#rules").focus()


class WorkScreen(FoxModal[T]):
    """A dialog that shows "thinking…" while a computation runs in a worker thread."""

    def __init__(self, lang: str, title: str, keys: str, waiting: str = "tui_thinking") -> None:
        super().__init__(lang)
        self.title_text = title
        self.keys_text = keys
        self.waiting = waiting

    def body(self) -> ComposeResult:
        yield Plain(Text(self.title_text), classes="title")
        with VerticalScroll():
            yield Plain(self.cat.text(self.waiting), id="content")
        yield Plain(self.keys_text, classes="keys")

    def on_mount(self) -> None:
        self.run_worker(self.produce, thread=True, exclusive=True, exit_on_error=False)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """Show the result, or why there is none: the game goes on whatever the helper does."""
        result = event.worker.result
        if event.state is WorkerState.SUCCESS and result is not None:
            self.show(result)
        elif event.state is WorkerState.ERROR:
            error = for_player(str(event.worker.error))  # no rule ids for a player
            self.show(Text(self.cat.text("tui_coach_failed", error=error)))

    def produce(self) -> RenderableType:
        """The result (runs in a worker thread)."""
        raise NotImplementedError

    def show(self, content: RenderableType) -> None:
        """Show the result."""
        if self.is_attached:
            self.query_one("#content", Static).update(content)


class HintScreen(WorkScreen[Action | None]):
    """The coach's suggestion for the seat to move, with its reason; Enter plays it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "play", show=False)]

    def __init__(self, lang: str, obs: Observation, budget: tuple[int, float | None]) -> None:
        cat = catalog(lang)
        super().__init__(lang, cat.text("tui_hint_title"), cat.text("tui_keys_hint"))
        self.obs = obs
        self.budget = budget
        self.action: Action | None = None

    def produce(self) -> RenderableType:
        hint = suggest(self.obs, self.lang, iterations=self.budget[0], seconds=self.budget[1])
        self.action = hint.action
        label = hint_text(hint.action, self.obs.hand, self.cat, self.lang)
        return Group(Text(label, style="bold"), Text(hint.reason))

    def action_play(self) -> None:
        """Play the suggested action (once it is known)."""
        self.dismiss(self.action)


class CountingScreen(FoxModal[None]):
    """The card-counting view: what has been seen and what is still out."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "close", show=False)]

    def __init__(self, lang: str, obs: Observation) -> None:
        super().__init__(lang)
        self.obs = obs

    def body(self) -> ComposeResult:
        content = view.lines_text(card_count(self.obs).lines(self.lang))
        yield Plain(self.cat.text("tui_counting_title"), classes="title")
        with VerticalScroll():
            yield Plain(content, id="content")
        yield Plain(self.cat.text("tui_keys_close"), classes="keys")


class ReviewScreen(WorkScreen[None]):
    """The review of a finished match for one seat: each questionable move, and a summary."""

    def __init__(
        self, lang: str, record: dict[str, Any], seat: int, budget: tuple[int, float | None]
    ) -> None:
        cat = catalog(lang)
        name = record["names"][seat]
        super().__init__(
            lang,
            cat.text("tui_review_title", name=name),
            cat.text("tui_keys_close"),
            "tui_reviewing",
        )
        self.record = record
        self.seat = seat
        self.budget = budget

    def produce(self) -> RenderableType:
        items = review(
            self.record, self.seat, self.lang, iterations=self.budget[0], seconds=self.budget[1]
        )
        lines = [Text(summary(items, self.lang), style="bold")]
        lines += [Text(v.text(self.lang)) for v in verdicts(self.record, self.seat, items)]
        lines += [Text(item.text(self.lang)) for item in items]
        if not items:
            lines.append(Text(self.cat.text("tui_review_empty")))
        return Group(*lines)


class MatchEndScreen(FoxScreen[str]):
    """The end of the match: the winner, the totals, and what next (review, new match, quit)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("v", "review", show=False),
        Binding("n", "new", show=False),
        Binding("q", "quit_game", show=False),
        Binding("escape", "quit_game", show=False),
        Binding("tab", "next_person", show=False),
    ]

    def __init__(
        self,
        lang: str,
        *,
        names: Sequence[str],
        totals: Sequence[int],
        winner: int,
        people: Sequence[int],
        path: str,
    ) -> None:
        super().__init__(lang)
        self.names = list(names)
        self.totals = list(totals)
        self.winner = winner
        self.people = list(people) or [winner]
        self.person = 0
        self.path = path

    def body(self) -> ComposeResult:
        cat = self.cat
        yield Plain(cat.text("tui_match_over"), classes="title")
        yield Plain(
            Text(
                cat.text(
                    "tui_winner",
                    name=self.names[self.winner],
                    points=cat.count("points", self.totals[self.winner]),
                ),
                style="bold green",
            ),
            id="winner",
        )
        lines = [
            cat.text("tui_total_line", name=name, points=cat.count("points", total))
            for name, total in zip(self.names, self.totals, strict=True)
        ]
        yield Plain(view.lines_text(lines), id="totals")
        yield Plain(cat.text("tui_saved_at", path=self.path), classes="dim")
        yield Plain(self._offer(), id="offer")
        yield Plain(cat.text("tui_keys_match_end"), classes="keys")

    def _offer(self) -> str:
        name = self.names[self.people[self.person]]
        return self.cat.text("tui_review_offer", name=name)

    def action_next_person(self) -> None:
        """Choose the next person to review (hot-seat)."""
        self.person = (self.person + 1) % len(self.people)
        self.query_one("#offer", Static).update(Text(self._offer()))

    def action_review(self) -> None:
        self.dismiss(f"review:{self.people[self.person]}")

    def action_new(self) -> None:
        self.dismiss("new")

    def action_quit_game(self) -> None:
        self.dismiss("quit")


class JumpDialog(FoxModal[int | None]):
    """Ask for a deal number (1 to ``deals``) to jump to."""

    def __init__(self, lang: str, deals: int) -> None:
        super().__init__(lang)
        self.deals = deals

    def body(self) -> ComposeResult:
        yield Plain(self.cat.text("tui_jump_title", deals=self.deals), classes="title")
        yield Input(
            placeholder=self.cat.text("tui_jump_placeholder", deals=self.deals),
            type="integer",
            id="deal",
        )
        yield Plain("", id="error", classes="error")
        yield Plain(self.cat.text("tui_keys_jump"), classes="keys")

    def on_mount(self) -> None:
        self.query_one("#deal", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        try:
            number = int(event.value)
        except ValueError:
            number = 0
        if 1 <= number <= self.deals:
            self.dismiss(number)
        else:
            self.query_one("#error", Static).update(
                Text(self.cat.text("tui_jump_bad", deals=self.deals))
            )


def keys_help(cat: Catalog, keys: Sequence[tuple[str, str]]) -> Text:
    """A line of ``key description`` pairs, the keys highlighted."""
    text = Text()
    for index, (key, message) in enumerate(keys):
        if index:
            text.append(" · ", style="dim")
        text.append(key, style="bold cyan")
        text.append(" " + cat.text(message))
    return text
