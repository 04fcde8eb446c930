"""The pieces of the table as Rich renderables, from an observation (rules V1, V2).

Every function here reads only what it is given: the table screen passes the
observation of the seat at the screen, so no other hand can reach the display.
The replay viewer may pass every hand (the record is the user's own file).
Every word comes from the message catalog.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..core import Action, Card, Observation, ScoreLine, Suit
from ..i18n import Catalog
from ..i18n import card_text as card_short

#: Keys that play the cards of a hand, left to right.  Letters used by other commands
#: (t take, u undo, h hint, c counting, r rules, s scores, q quit, l, n, p, v) are left out.
_RESERVED: Final = set("tuhcrsqlnpv")
CARD_KEYS: Final = (
    tuple("1234567890")
    + tuple(ch for ch in "abdefgijkmouwxyz" if ch not in _RESERVED)
    + tuple(ch.upper() for ch in "abdefgijkmouwxyz" if ch not in _RESERVED)
)
_RED: Final = (Suit.HEARTS, Suit.DIAMONDS)


def _marks(seat: int, you: int | None, dealer: int | None) -> list[str]:
    """The marks after a seat's name: yours, the dealer's, or one for both (the verb agrees)."""
    if seat == you:
        return ["you_deal" if seat == dealer else "you"]
    return ["dealer"] if seat == dealer else []


def card_text(card: Card, lang: str, *, style: str = "") -> Text:
    """A card for the screen: ``10♥`` in red, ``Д♠`` in the normal colour."""
    colour = "bold red" if card.suit in _RED else "bold"
    return Text(card_short(card, lang), style=f"{colour} {style}".strip())


def cards_text(cards: Sequence[Card], lang: str, empty: str = "—") -> Text:
    """Cards separated by spaces, or ``empty``."""
    if not cards:
        return Text(empty, style="dim")
    return Text(" ").join(card_text(card, lang) for card in cards)


def header_text(obs: Observation, cat: Catalog, *, deal: bool = True) -> Text:
    """Deal number (unless ``deal`` is false), dealer, whose turn, stock and target on one line."""
    names = obs.names
    parts = [cat.text("tui_deal", deal=obs.deal + 1)] if deal else []
    parts.append(cat.text("tui_dealer", name=names[obs.dealer]))
    if obs.to_move is not None:
        parts.append(cat.text("tui_turn", name=names[obs.to_move]))
    parts.append(cat.count("tui_stock", obs.stock))
    parts.append(cat.text("tui_target", target=obs.options.target))
    return Text(" · ".join(parts), style="bold")


def players_table(
    obs: Observation,
    cat: Catalog,
    lang: str,
    *,
    you: int | None = None,
    hands: Mapping[int, Sequence[Card]] | None = None,
) -> Table:
    """One row per seat: hand size (or the hand), taken cards, foxtrots, match total."""
    table = Table(box=None, padding=(0, 1), expand=True, show_edge=False)
    table.add_column("", width=2, no_wrap=True)
    table.add_column(cat.text("tui_col_player"), ratio=3, no_wrap=True, overflow="ellipsis")
    table.add_column(
        cat.text("tui_col_hand"), ratio=2 if hands else 1, justify="left" if hands else "right"
    )
    table.add_column(cat.text("tui_col_taken"), justify="right", ratio=1)
    table.add_column(cat.text("tui_col_foxtrots"), ratio=2)
    table.add_column(cat.text("tui_col_total"), justify="right", ratio=1)
    for seat, name in enumerate(obs.names):
        mark = Text("▶", style="bold yellow") if seat == obs.to_move else Text("")
        label = Text(name, style="bold" if seat == you else "")
        marks = [cat.text(f"tui_{owner}_mark") for owner in _marks(seat, you, obs.dealer)]
        if marks:
            label.append(" " + cat.text("tui_marks", marks=", ".join(marks)), style="dim")
        held: RenderableType = (
            cards_text(hands[seat], lang) if hands is not None else Text(str(obs.hand_sizes[seat]))
        )
        table.add_row(
            mark,
            label,
            held,
            str(len(obs.taken[seat])),
            cards_text(obs.foxtrots[seat], lang),
            str(obs.totals[seat]),
        )
    return table


def pile_text(pile: Sequence[Card], cat: Catalog, lang: str) -> Text:
    """Every card of the pile, bottom first; the top card marked."""
    text = Text(cat.count("tui_pile", len(pile)) + ": ", style="bold")
    if not pile:
        text.append(cat.text("tui_pile_empty"), style="dim")
        return text
    for card in pile[:-1]:
        text.append_text(card_text(card, lang))
        text.append(" ")
    text.append_text(card_text(pile[-1], lang, style="reverse"))
    text.append(" ◀ " + cat.text("tui_top"), style="yellow")
    return text


def hand_text(hand: Sequence[Card], legal: Sequence[Action], selected: int, lang: str) -> Text:
    """The hand, sorted, each card with the key that plays it; unplayable cards dimmed."""
    playable = {action.card for action in legal if action.card is not None}
    text = Text()
    for index, card in enumerate(hand):
        key = CARD_KEYS[index] if index < len(CARD_KEYS) else "·"
        style = "underline" if index == selected else ""
        if legal and card not in playable:
            style += " dim"
        text.append(f"{key}:", style="cyan dim" if card not in playable else "cyan")
        text.append_text(card_text(card, lang, style=style.strip()))
        text.append("  ")
    return text


# ------------------------------------------------------------------ card faces

#: A card face is 5 columns wide and 3 rows high; a card under another shows 4 columns.
FACE_WIDTH: Final = 5
FACE_STEP: Final = 6  # a card of the hand and the space after it
PILE_STEP: Final = 4
_FACE: Final = "on grey93"


def _inner(card: Card, lang: str) -> tuple[str, str]:
    """The rank and suit of a face (``10♥``, `` Д♠``) and its colour, red or black."""
    shown = card_short(card, lang)
    colour = "red" if card.suit in _RED else "black"
    return f"{shown[:-1]:>2}{shown[-1]}", f"bold {colour} {_FACE}"


def _face_rows(card: Card, lang: str, border: str, *, full: bool = True) -> list[Text]:
    """The three rows of a face; ``full=False``: no right edge (a card under another)."""
    inner, colour = _inner(card, lang)
    edge = f"{border} {_FACE}"
    right = ("╮", "│", "╯") if full else ("", "", "")
    top = Text("╭───" + right[0], style=edge)
    middle = Text("│", style=edge)
    middle.append(inner, style=colour)
    middle.append(right[1], style=edge)
    bottom = Text("╰───" + right[2], style=edge)
    return [top, middle, bottom]


def hand_faces(
    hand: Sequence[Card], legal: Sequence[Action], selected: int, lang: str, width: int
) -> Text | None:
    """The hand as card faces with the key of each card under it, or None if it does not fit
    in ``width`` columns.  The chosen card has a yellow edge; cards that cannot be played now
    a dim one and a dim key."""
    if not hand or len(hand) * FACE_STEP > width:
        return None
    playable = {action.card for action in legal if action.card is not None}
    rows = [Text(), Text(), Text(), Text()]
    for index, card in enumerate(hand):
        usable = not legal or card in playable
        border = "bold yellow" if index == selected else ("grey50" if usable else "grey74")
        for row, part in zip(rows, _face_rows(card, lang, border), strict=False):
            row.append_text(part)
            row.append(" ")
        key = CARD_KEYS[index] if index < len(CARD_KEYS) else "·"
        key_style = "bold reverse yellow" if index == selected else ("cyan" if usable else "dim")
        rows[3].append(f"{key:^{FACE_WIDTH}}", style=key_style)
        rows[3].append(" ")
    return Text("\n").join(rows)


def pile_faces(
    pile: Sequence[Card], cat: Catalog, lang: str, width: int, *, fresh: bool = False
) -> Text | None:
    """The pile as overlapping faces, bottom card first, the top card whole and marked; None
    if it does not fit in ``width`` columns.  ``fresh``: the top card is the last move's (its
    edge is yellow)."""
    label = cat.count("tui_pile", len(pile)) + ": "
    top_mark = " ◀ " + cat.text("tui_top")
    needed = len(label) + PILE_STEP * max(len(pile) - 1, 0) + FACE_WIDTH + len(top_mark)
    if not pile or needed > width:
        return None
    rows = [Text(label, style="bold"), Text(" " * len(label)), Text(" " * len(label))]
    for index, card in enumerate(pile):
        last = index == len(pile) - 1
        border = "bold yellow" if last and fresh else "grey50"
        for row, part in zip(rows, _face_rows(card, lang, border, full=last), strict=True):
            row.append_text(part)
    rows[1].append(top_mark, style="yellow")
    return Text("\n").join(rows)


def score_table(
    names: Sequence[str],
    scores: Sequence[ScoreLine],
    totals: Sequence[int],
    cat: Catalog,
    width: int | None = None,
) -> Table:
    """The score sheet of a deal: every part P1-P4 for every player (named in words), and the
    match totals."""
    table = Table(
        width=width, padding=(0, 1), box=box.SIMPLE_HEAD, show_edge=False, collapse_padding=True
    )
    # a long name wraps between its words on a narrow screen, the numbers stay whole
    table.add_column(cat.text("tui_col_player"), max_width=24, min_width=11)
    for key in (
        "tui_col_foxtrots_n",
        "tui_col_doubles_n",
        "tui_col_cards",
        "tui_col_p2",
        "tui_col_p3",
        "tui_col_p4",
        "tui_col_total",
    ):
        table.add_column(cat.text(key), justify="right", no_wrap=True)  # names of 1-2 lines
    for seat, line in enumerate(scores):
        table.add_row(
            names[seat],
            str(line.foxtrots),
            str(line.double_foxtrots),
            str(line.cards),
            f"{line.card_points:+d}",
            f"{line.most_cards:+d}",
            Text(f"{line.total:+d}", style="bold"),
            Text(str(totals[seat]), style="bold"),
        )
    return table


def totals_table(
    names: Sequence[str], deal_scores: Sequence[Sequence[ScoreLine]], cat: Catalog
) -> Table:
    """Every deal's score for every player, and the match totals."""
    table = Table(expand=False, padding=(0, 1), box=box.SIMPLE_HEAD)
    table.add_column(cat.text("tui_col_player"), no_wrap=True, overflow="ellipsis", max_width=24)
    for number in range(len(deal_scores)):
        table.add_column(cat.text("tui_deal_short", deal=number + 1), justify="right")
    table.add_column(cat.text("tui_col_total"), justify="right")
    for seat, name in enumerate(names):
        cells = [f"{scores[seat].total:+d}" for scores in deal_scores]
        total = sum(scores[seat].total for scores in deal_scores)
        table.add_row(name, *cells, Text(str(total), style="bold"))
    return table


def lines_text(lines: Sequence[str]) -> Group:
    """Lines of plain text, one renderable."""
    return Group(*(Text(line) for line in lines))
