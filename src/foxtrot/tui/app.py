"""``foxtrot play``: the match in the terminal (Textual).

The app owns the flow of a match: setup, dealing, whose turn, the bots (each
decision in a worker thread, after a short delay, so the screen stays live),
the cover between two people's turns, the score sheet after each deal, the end
of the match, and the autosave after every deal and every action.

What a person sees always comes from ``state.observation(seat)`` of the person
at the screen: with one person, that person; in hot-seat, the person whose
turn it is, after the cover has been dismissed.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar, Final

from textual.app import App
from textual.binding import Binding, BindingType
from textual.events import Resize
from textual.worker import Worker, WorkerState

from ..core import TAKE, Action, CardPlayed, Event, FoxtrotError, Phase, PileTaken, replay
from ..i18n import card_slots, card_text, catalog
from ..narrate import narrate
from . import view
from .resume import ResumeScreen
from .screens import (
    MIN_HEIGHT,
    MIN_WIDTH,
    CountingScreen,
    CoverScreen,
    HintScreen,
    InfoScreen,
    MatchEndScreen,
    ReviewScreen,
    RulesScreen,
    score_sheet,
)
from .session import Match, SavedMatch, UndoError
from .setup import SetupScreen, SetupValues
from .style import CSS
from .table import TableScreen

BOT_DELAY: Final = 0.6
#: Seconds the mover sees what his move did before the cover hides the table (hot-seat).
COVER_DELAY: Final = 2.0
#: Keys that move around a screen (the log scrolls with them): never "a wrong key".
_MOVING_KEYS: Final = {"up", "down", "pageup", "pagedown", "home", "end", "tab", "shift+tab"}


class PlayApp(App[str | None]):
    """A match of Foxtrot at one screen: people (hot-seat) and computer opponents."""

    CSS = CSS
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "save_quit", show=False, priority=True),
        Binding("ctrl+q", "save_quit", show=False, priority=True),
    ]

    def __init__(
        self,
        lang: str,
        match: Match | None = None,
        setup: SetupValues | None = None,
        *,
        saved: Sequence[SavedMatch] = (),
        seed: int | None = None,
        bot_delay: float = BOT_DELAY,
        cover_delay: float = COVER_DELAY,
        hint_budget: tuple[int, float | None] = (1500, 1.5),
        review_budget: tuple[int, float | None] = (150, 0.05),
    ) -> None:
        super().__init__()
        self.lang = lang
        self.match = match
        self.setup_values = setup or SetupValues(lang=lang)
        self.saved = list(saved)
        self.error = ""  # a match chosen from the list that cannot be read: said after leaving
        self.seed = seed
        self.bot_delay = bot_delay
        self.cover_delay = cover_delay
        self.hint_budget = hint_budget
        self.review_budget = review_budget
        self.viewer: int | None = None
        self.selected = 0
        self.table: TableScreen | None = None
        self.bot_pending = False
        self.generation = 0
        self.saved_to: Path | None = None
        self.history: list[str] = []
        self.last_move = ""  # the last move in words, highlighted on the table
        self.last_mover: int | None = None
        self.cover_pending: int | None = None  # hot-seat: the seat the cover is coming for
        self.status_at: tuple[int, int] | None = None  # the state a message on the table is about

    # ------------------------------------------------------------ starting

    def on_mount(self) -> None:
        self.title = catalog(self.lang).text("tui_title")
        self._check_size(self.size.width, self.size.height)
        if self.match is not None:
            self.start_table(resumed=bool(self.match.state.deal_logs()))
        elif self.saved:
            self.push_screen(ResumeScreen(self.lang, self.saved), self._resume_chosen)
        else:
            self.show_setup()

    def _resume_chosen(self, saved: SavedMatch | None) -> None:
        if saved is None:
            self.exit(None)
            return
        try:
            self.match = Match.resume(saved.path, seed=self.seed, lang=self.lang)
        except FoxtrotError as error:
            self.error = catalog(self.lang).text(
                "tui_record_error", path=str(saved.path), reason=str(error)
            )
            self.exit(None)
            return
        self.lang = self.match.lang
        self.start_table(resumed=True)

    def show_setup(self) -> None:
        """The setup screen; Start begins a new match."""
        self.setup_values.lang = self.lang
        self.push_screen(SetupScreen(self.setup_values), self._setup_done)

    def _setup_done(self, values: SetupValues | None) -> None:
        if values is None:
            self.exit(None)
            return
        self.setup_values = values
        self.lang = values.lang
        n = values.options.players
        self.match = Match.new(
            values.options, values.seats[:n], values.chosen_names(), seed=self.seed, lang=self.lang
        )
        self.start_table(resumed=False)

    def start_table(self, *, resumed: bool) -> None:
        """Show the table; deal the first deal of a new match; go on from where it stands."""
        match = self.match
        assert match is not None
        self.generation += 1
        self.bot_pending = False
        humans = match.humans
        self.viewer = humans[0] if len(humans) == 1 else None
        self.table = TableScreen(self.lang)
        self.push_screen(self.table)
        cat = catalog(self.lang)
        state = match.state
        self.history = []
        if resumed:
            self.log_lines([cat.text("tui_resumed", path=str(match.path))])
            self.log_lines(deal_so_far(match.record(), self.lang))
        elif state.lot is not None:
            draws = ", ".join(
                cat.text("tui_lot_draw", name=state.names[seat], **card_slots(card, self.lang))
                for rnd in state.lot.rounds
                for seat, card in rnd
            )
            self.log_lines([cat.text("tui_lot", draws=draws, name=state.names[state.lot.dealer])])
        if state.phase is Phase.AWAITING_DEAL and state.deal_number == 0:
            self.after(match.deal())
        else:
            match.save()
            self.advance()

    # ------------------------------------------------------------ the flow

    def log_lines(self, lines: list[str]) -> None:
        """Add lines to the last actions (kept here until the table is on the screen)."""
        self.history.extend(lines)
        if self.table is not None and self.table.ready:
            self.table.log_lines(lines)

    def table_ready(self) -> None:
        """The table screen is mounted: fill it."""
        if self.table is not None:
            self.table.log_lines(self.history)
        self.refresh_table()

    def after(self, events: tuple[Event, ...]) -> None:
        """Tell what happened, then go on."""
        names = self.match.state.names if self.match else ()
        self.log_lines([line for event in events for line in narrate(event, names, self.lang)])
        moves = [event for event in events if isinstance(event, (CardPlayed, PileTaken))]
        if moves:
            self.last_move = " ".join(narrate(moves[-1], names, self.lang))
            self.last_mover = moves[-1].seat
        if any(not isinstance(event, (CardPlayed, PileTaken)) for event in events):
            self.last_move = ""  # a deal began or ended, or the stock was dealt again
        self.advance()

    def version(self) -> tuple[int, int]:
        """Where the match stands: the deal, and the number of actions in it."""
        if self.match is None:
            return (0, 0)
        logs = self.match.state.deal_logs()
        return (len(logs), len(logs[-1].actions) if logs else 0)

    def say(self, text: str, *, warn: bool = True) -> None:
        """A message on the table about the match as it stands; it goes at the next move."""
        if self.table is not None and self.table.ready:
            self.table.status(text, warn=warn)
            self.status_at = self.version()

    def advance(self) -> None:
        """Whose move is it: a bot's (schedule it), a person's (cover in hot-seat), a deal's end."""
        match = self.match
        if match is None:
            return
        state = match.state
        if state.phase is not Phase.PLAYING:
            self.refresh_table()
            logs = state.deal_logs()
            if not logs:
                self.after(match.deal())
                return
            scores = logs[-1].scores
            assert scores is not None
            sheet = score_sheet(
                self.lang,
                names=state.names,
                deal=len(logs) - 1,
                scores=scores,
                totals=state.totals,
                target=state.options.target,
                winner=state.winner,
                width=self.size.width - 14,
            )
            self.push_screen(sheet, self._sheet_done)
            return
        seat = state.to_move
        assert seat is not None
        self.selected = 0
        if match.is_bot(seat):
            self.refresh_table()
            self.schedule_bot()
        elif match.hot_seat and self.viewer != seat:
            if self.cover_delay > 0 and self.viewer is not None and self.last_mover == self.viewer:
                # the mover sees what his move did first: a short pause, or any key
                self.cover_pending = seat
                self.refresh_table()
                self.say(self.cat_text("tui_cover_soon", name=state.names[seat]), warn=False)
                generation = self.generation
                self.set_timer(self.cover_delay, lambda: self.cover(generation))
                return
            self.cover_pending = seat
            self.cover(self.generation)
        else:
            self.viewer = seat
            self.refresh_table()

    def cat_text(self, message: str, **values: object) -> str:
        """A message of the app's language."""
        return catalog(self.lang).text(message, **values)

    def cover(self, generation: int) -> None:
        """Hide the table and ask for the next person (hot-seat), once."""
        match, seat = self.match, self.cover_pending
        if match is None or seat is None or generation != self.generation:
            return
        self.cover_pending = None
        self.viewer = None
        self.refresh_table()
        self.push_screen(CoverScreen(self.lang, match.state.names[seat]), self._uncover)

    def _uncover(self, _: Any = None) -> None:
        match = self.match
        if match is not None and match.state.to_move is not None:
            self.viewer = match.state.to_move
        self.refresh_table()

    def _sheet_done(self, _: Any = None) -> None:
        match = self.match
        if match is None:
            return
        state = match.state
        if state.phase is Phase.OVER:
            assert state.winner is not None
            end = MatchEndScreen(
                self.lang,
                names=state.names,
                totals=state.totals,
                winner=state.winner,
                people=match.humans,
                path=str(match.path),
            )
            self.push_screen(end, self._end_done)
        elif state.phase is Phase.AWAITING_DEAL:
            self.after(match.deal())

    def _end_done(self, choice: str | None) -> None:
        match = self.match
        if choice and choice.startswith("review:") and match is not None:
            seat = int(choice.split(":")[1])
            self.push_screen(
                ReviewScreen(self.lang, match.record(), seat, self.review_budget),
                lambda _: self._sheet_done(),
            )
        elif choice == "new":
            self.match = None
            self.table = None
            self.generation += 1
            while len(self.screen_stack) > 1:
                self.pop_screen()
            self.show_setup()
        else:
            self.exit(None)

    def refresh_table(self) -> None:
        """Draw the table for the person at the screen."""
        if self.table is None or self.match is None or not self.table.ready:
            return
        state = self.match.state
        seat = self.viewer if self.viewer is not None else 0
        if self.status_at is not None and self.status_at != self.version():
            self.table.status("")  # the message was about a move that is no longer the last
            self.status_at = None
        self.table.show(
            state.observation(seat),
            self.viewer,
            self.selected,
            last=self.last_move,
            undo=self.match.can_undo,
        )

    # ------------------------------------------------------------ bots

    def schedule_bot(self) -> None:
        """Let the bot to move think in a worker thread, after a short delay."""
        if self.bot_pending:
            return
        self.bot_pending = True
        generation = self.generation
        if self.bot_delay > 0:
            self.set_timer(self.bot_delay, lambda: self._start_bot(generation))
        else:
            self._start_bot(generation)

    def _start_bot(self, generation: int) -> None:
        match = self.match
        if match is None or generation != self.generation:
            return
        seat = match.state.to_move
        if seat is None or not match.is_bot(seat):
            self.bot_pending = False
            return
        state = match.state.clone()
        self.run_worker(
            lambda: match.bot_move(state, seat),
            thread=True,
            group="bot",
            name=f"{generation}:{seat}",
            exit_on_error=False,
        )

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        if worker.group != "bot" or event.state not in (WorkerState.SUCCESS, WorkerState.ERROR):
            return
        self.bot_pending = False
        generation, seat = (int(part) for part in worker.name.split(":"))
        match = self.match
        if match is None or generation != self.generation or match.state.to_move != seat:
            return
        result = worker.result if event.state is WorkerState.SUCCESS else None
        error = worker.error if event.state is WorkerState.ERROR else None
        action, failure = match.bot_result(seat, result, error)
        if failure is None:
            self.after(match.apply(action, seat))
            return
        # never silent: told on the screen, logged, saved (session)
        key = "tui_bot_failed_error" if failure.raised else "tui_bot_failed_illegal"
        text = catalog(self.lang).text(key, name=match.state.names[seat], path=str(match.path))
        self.log_lines([text])
        self.after(match.apply(action, seat))
        self.say(text)

    @property
    def waiting_for(self) -> int | None:
        """The seat of the person who is to play now at the table (shown, not covered), if any."""
        if self.table is None or self.screen is not self.table or not self.table.ready:
            return None
        return self.turn_of_viewer()

    def turn_of_viewer(self) -> int | None:
        """The seat at the screen, if it is that person's turn."""
        match = self.match
        if match is None:
            return None
        seat = match.state.to_move
        if seat is None or match.is_bot(seat) or seat != self.viewer:
            return None
        return seat

    # ------------------------------------------------------------ people

    def table_key(self, key: str, char: str) -> bool:
        """A key pressed at the table; True if it meant something."""
        if self.has_class("-too-small") or self.match is None or self.table is None:
            return False
        if self.cover_pending is not None:  # hot-seat: any key hides the table now
            self.cover(self.generation)
            return True
        commands = {
            "t": self.take,
            "u": self.undo,
            "h": self.hint,
            "c": self.counting,
            "r": self.rules,
            "s": self.scores,
            "q": self.action_save_quit,
        }
        if char in commands:
            commands[char]()
            return True
        if key in ("left", "right", "enter", "space"):
            self.move_selection(key)
            return True
        if char and char in view.CARD_KEYS:
            self.play_index(view.CARD_KEYS.index(char))
            return True
        if key in _MOVING_KEYS or not ((char.isprintable() and char.strip()) or key[:1] == "f"):
            return False  # scrolling the log, or a modifier alone
        shown = char if char.isprintable() and char.strip() else key.upper()
        self.say(self.cat_text("tui_wrong_key", pressed=shown))
        return True

    def _my_turn(self) -> int | None:
        seat = self.turn_of_viewer()
        if seat is None:
            self.say(self.cat_text("tui_not_your_turn"))
        return seat

    def play_index(self, index: int) -> None:
        """Play the card at ``index`` of the hand of the person to move."""
        seat = self._my_turn()
        if seat is None or self.match is None:
            return
        hand = self.match.state.observation(seat).hand
        if index >= len(hand):
            self.say(self.cat_text("tui_no_such_card"))
            return
        card = hand[index]
        assert card is not None
        self.play(Action.play(card))

    def take(self) -> None:
        """Take the pile (rule T4)."""
        self.play(TAKE)

    def play(self, action: Action) -> None:
        """Play ``action`` for the person to move, if it is legal; else say why not."""
        seat = self._my_turn()
        if seat is None or self.match is None or self.table is None:
            return
        state = self.match.state
        error = state.why_illegal(action, seat)
        if error is not None:
            key = f"tui_illegal_{error.code}"
            if error.code == "must_foxtrot":  # name the cards that make the foxtrot
                cards = {card_text(a.card, self.lang) for a in state.legal_actions() if a.card}
                self.say(self.cat_text(key, cards=", ".join(sorted(cards))))
                return
            self.say(self.cat_text(key if key in _ILLEGAL else "tui_illegal"))
            return
        self.table.status("")
        self.after(self.match.apply(action, seat))

    def undo(self) -> None:
        """Take back the person's last move and the computers' replies (against computers only)."""
        match = self.match
        if match is None:
            return
        if not match.can_undo:
            self.say(self.cat_text("tui_undo_hot_seat"))
            return
        seat = self._my_turn()
        if seat is None:
            return
        try:
            match.undo(seat)
        except UndoError as refused:
            self.say(self.cat_text(f"tui_undo_{refused.code}"))
            return
        self.generation += 1  # a bot's answer still on its way is for a move that is gone
        self.bot_pending = False
        self.last_move = ""
        self.log_lines([self.cat_text("tui_undo_log", name=match.state.names[seat])])
        self.advance()
        self.say(self.cat_text("tui_undone"), warn=False)

    def move_selection(self, key: str) -> None:
        """Arrows choose a card, Enter or Space plays it."""
        seat = self._my_turn()
        if seat is None or self.match is None:
            return
        size = len(self.match.state.observation(seat).hand)
        if key in ("enter", "space"):
            self.play_index(self.selected)
            return
        step = 1 if key == "right" else -1
        self.selected = (self.selected + step) % max(size, 1)
        self.refresh_table()

    def hint(self) -> None:
        """The coach's suggestion, with its reason (computed in a worker thread)."""
        seat = self._my_turn()
        if seat is None or self.match is None:
            return
        obs = self.match.state.observation(seat)
        self.push_screen(HintScreen(self.lang, obs, self.hint_budget), self._hint_done)

    def _hint_done(self, action: Action | None) -> None:
        if action is not None:
            self.play(action)

    def counting(self) -> None:
        """The card-counting view for the person at the screen."""
        if self.viewer is None or self.match is None:
            return
        self.push_screen(CountingScreen(self.lang, self.match.state.observation(self.viewer)))

    def rules(self) -> None:
        """The rules screen."""
        self.push_screen(RulesScreen(self.lang))

    def scores(self) -> None:
        """Every finished deal's scores and the match totals."""
        if self.match is None:
            return
        state = self.match.state
        cat = catalog(self.lang)
        logs = [log.scores for log in state.deal_logs() if log.scores is not None]
        content: Any = (
            view.totals_table(state.names, logs, cat) if logs else cat.text("tui_no_scores_yet")
        )
        self.push_screen(InfoScreen(self.lang, cat.text("tui_scores_title"), content))

    # ------------------------------------------------------------ leaving

    def action_save_quit(self) -> None:
        """Save the match (if there is one) and leave (Ctrl-C, Ctrl-Q, q)."""
        if self.match is not None:
            self.saved_to = self.match.save()
        self.generation += 1
        self.exit(None)

    # ------------------------------------------------------------ size

    def on_resize(self, event: Resize) -> None:
        self._check_size(event.size.width, event.size.height)

    def _check_size(self, width: int, height: int) -> None:
        self.set_class(width < MIN_WIDTH or height < MIN_HEIGHT, "-too-small")


def deal_so_far(record: dict[str, Any], lang: str) -> list[str]:
    """The last deal of a record in words (public: every action was seen face up)."""
    names = record["names"]
    last = len(record["deals"]) - 1
    return [
        line
        for step in replay(record)
        if step.deal == last
        for event in step.events
        for line in narrate(event, names, lang)
    ]


_ILLEGAL: Final = {
    f"tui_illegal_{code}"
    for code in (
        "not_your_turn",
        "not_in_hand",
        "take_not_allowed",
        "empty_pile",
        "must_foxtrot",
        "match_over",
        "no_deal",
    )
}
