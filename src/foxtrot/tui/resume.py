"""The list of saved matches that ``foxtrot play --resume`` offers when there are several."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from ..i18n import Catalog
from .screens import FoxScreen, Plain
from .session import SavedMatch


def saved_label(saved: SavedMatch, cat: Catalog) -> str:
    """One saved match in a line: the names, when it was saved, the deal, the score."""
    return cat.text(
        "tui_resume_item",
        names=", ".join(saved.names),
        date=time.strftime("%Y-%m-%d %H:%M", time.localtime(saved.saved)),
        deal=max(saved.deal, 1),
        score=" : ".join(str(total) for total in saved.totals),
    )


class ResumeScreen(FoxScreen[SavedMatch | None]):
    """Choose one of the unfinished matches (the most recently saved first); Esc leaves."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "leave", show=False)]

    def __init__(self, lang: str, saved: Sequence[SavedMatch]) -> None:
        super().__init__(lang)
        self.saved = list(saved)

    def body(self) -> ComposeResult:
        cat = self.cat
        yield Plain(cat.text("tui_resume_title"), classes="title")
        yield OptionList(
            *(Option(Text(saved_label(item, cat)), id=str(i)) for i, item in enumerate(self.saved)),
            id="saved",
        )
        yield Plain(cat.text("tui_keys_resume"), classes="keys")

    def on_mount(self) -> None:
        options = self.query_one("#saved", OptionList)
        options.highlighted = 0
        options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.saved[event.option_index])

    def action_leave(self) -> None:
        """Leave without continuing a match."""
        self.dismiss(None)
