"""Foxtrot as an OpenSpiel Python game: ``python_foxtrot`` (see ``foxtrot.openspiel``).

The core ``State`` plays; this module adds what OpenSpiel asks of a game: chance nodes
for the dealer and the shuffle, integer actions, returns, and the history each player
remembers (``track.DealTrack``).  It reads the core only through its public API
(``State``, ``legal_codes``, ``apply_unchecked`` after a legality check, ``hand``,
``observation``, ``deal_logs``, ``clone``).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Final

import pyspiel

from ..core import ACTIONS, CARDS, IllegalActionError, OptionsError, Phase, State, TableOptions
from ..core.kernel import CARD_POINTS
from ..core.options import parse_ranks
from .observer import FoxtrotObserver
from .resample import resample_state, sampled_stream
from .track import DealTrack, Move

SHORT_NAME: Final = "python_foxtrot"
N_ACTIONS: Final = 53  # card ids 0..51 (rank * 4 + suit), then 52 = take the pile
#: With ``deals=0`` a match ends when it is won (M2) or after this many deals, whichever
#: comes first (scores can be negative, so a match has no bound of its own; matches last
#: 5 to 12 deals at the default target).
MATCH_DEALS: Final = 64
RETURNS: Final = ("margin", "points", "win")

#: Every parameter and its default: the rule options of ``TableOptions`` (their text
#: values; for a mini game ``packs`` (0: rule X7's decks), ``ranks`` as text such as
#: ``"10 J Q"`` ("": all thirteen), ``suits`` and ``hand_size``), the number of players,
#: how many deals an episode is, the first dealer (-1: a chance node draws him, uniformly,
#: as the lot of D1 does), and what ``returns`` are.
DEFAULTS: Final[dict[str, Any]] = {
    "players": 2,
    "take": "match",
    "forced_foxtrot": False,
    "leftover_pile": "discard",
    "most_cards_tie": "none",
    "target": 200,
    "packs": 0,
    "ranks": "",
    "suits": 4,
    "hand_size": 8,
    "deals": 1,
    "dealer": -1,
    "returns": "margin",
}


def _game_type(utility: Any, terminal: bool = True) -> Any:
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="Python Foxtrot",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=getattr(pyspiel.GameType.RewardModel, "TERMINAL" if terminal else "REWARDS"),
        max_num_players=9,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=DEFAULTS,
    )


GAME_TYPE: Final = _game_type(pyspiel.GameType.Utility.ZERO_SUM)


@dataclasses.dataclass(frozen=True, slots=True)
class Rules:
    """A game's parameters, checked: the table, deals, first dealer, returns."""

    options: TableOptions
    deals: int
    dealer: int
    returns: str

    @property
    def deal_cap(self) -> int:
        """The most deals an episode has: ``deals``, or ``MATCH_DEALS`` for a match."""
        return self.deals or MATCH_DEALS

    def __deepcopy__(self, memo: dict[int, Any]) -> Rules:
        """Itself: rules are immutable (a state's clone shares them)."""
        return self

    @staticmethod
    def of(params: dict[str, Any]) -> Rules:
        """The rules of a parameter dict (cached: states ask for them often)."""
        key = tuple(sorted(params.items()))
        rules = _RULES.get(key)
        if rules is None:
            rules = _RULES[key] = Rules(*options_of(params))
        return rules


_RULES: dict[tuple[tuple[str, Any], ...], Rules] = {}


def options_of(params: dict[str, Any]) -> tuple[TableOptions, int, int, str]:
    """The table options, deals, first dealer and returns of a parameter dict."""
    unknown = sorted(set(params) - set(DEFAULTS))
    if unknown:
        raise OptionsError(f"{SHORT_NAME}: unknown parameter {', '.join(unknown)}")
    merged = {**DEFAULTS, **params}
    options = TableOptions(
        players=merged["players"],
        take=merged["take"],
        forced_foxtrot=merged["forced_foxtrot"],
        leftover_pile=merged["leftover_pile"],
        most_cards_tie=merged["most_cards_tie"],
        target=merged["target"],
        packs=merged["packs"] or None,
        ranks=parse_ranks(merged["ranks"]),
        suits=merged["suits"],
        hand_size=merged["hand_size"],
    )
    deals, dealer, returns = merged["deals"], merged["dealer"], merged["returns"]
    if type(deals) is not int or deals < 0:
        raise OptionsError(f"deals: {deals!r} is not allowed (1 or more deals, or 0: the match)")
    if type(dealer) is not int or not -1 <= dealer < options.players:
        raise OptionsError(
            f"dealer: {dealer!r} is not a seat (0 to {options.players - 1}, or -1: drawn)"
        )
    if returns not in RETURNS:
        raise OptionsError(f"returns: {returns!r} is not allowed (expected margin, points or win)")
    if returns == "win" and deals != 0:
        raise OptionsError("returns: win needs deals=0 (only a whole match has a winner)")
    return options, deals, dealer, returns


def params_of(options: TableOptions) -> dict[str, Any]:
    """The game parameters of a table (pyspiel's simple types), the inverse of ``options_of``.

    The pack's parameters are given only for a mini game, so that the real game's are
    the ones they always were.

    >>> params_of(TableOptions(packs=1, ranks=("J", "Q"), suits=2, hand_size=1))["ranks"]
    'J Q'
    >>> options_of(params_of(TableOptions(players=3)))[0] == TableOptions(players=3)
    True
    """
    params: dict[str, Any] = {
        "players": options.players,
        "take": options.take.value,
        "forced_foxtrot": options.forced_foxtrot,
        "leftover_pile": options.leftover_pile.value,
        "most_cards_tie": options.most_cards_tie.value,
        "target": int(options.target),
    }
    if options.is_mini:
        params["packs"] = options.decks
        params["ranks"] = " ".join(options.ranks)
        params["suits"] = options.suits
        params["hand_size"] = options.hand_size
    return params


def deal_bounds(options: TableOptions) -> tuple[int, int]:
    """The lowest and highest score one seat can make in one deal (P1-P4)."""
    copies = options.copies  # the cards in the pack (a mini game's may leave some out)
    low = sum(n * min(points, 0) for n, points in zip(copies, CARD_POINTS, strict=True))
    # card points, a double foxtrot (20) for every two cards at most, most cards (5)
    high = sum(n * max(points, 0) for n, points in zip(copies, CARD_POINTS, strict=True))
    high += 10 * options.deck_size + 5
    return low, high


class FoxtrotGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no type information
    """The game object: parameters, sizes, and new states (see ``foxtrot.openspiel``)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = dict(params or {})
        rules = Rules.of(given)
        n = rules.options.players
        low, high = deal_bounds(rules.options)
        cap = rules.deal_cap
        zero_sum = rules.returns != "points"
        if rules.returns == "win":
            lowest, highest = -1.0 / (n - 1), 1.0
        elif zero_sum:  # own score minus the others' mean
            lowest, highest = float((low - high) * cap), float((high - low) * cap)
        else:
            lowest, highest = float(low * cap), float(high * cap)
        utility = (
            pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM
        )
        info = pyspiel.GameInfo(
            num_distinct_actions=N_ACTIONS,
            max_chance_outcomes=52,  # a card kind; the dealer's seat (< 9) when he is drawn
            num_players=n,
            min_utility=lowest,
            max_utility=highest,
            utility_sum=0.0 if zero_sum else None,
            # a deal: every card played (at most the deck) and a take after each (T4)
            max_game_length=2 * rules.options.deck_size * cap,
        )
        # one reward, at the end (one deal, or a match won): OpenSpiel's MCTS asks for that
        terminal = rules.deals == 1 or rules.returns == "win"
        super().__init__(_game_type(utility, terminal), info, {**DEFAULTS, **given})

    @property
    def rules(self) -> Rules:
        """The parameters, read (OpenSpiel may copy a game without its Python attributes)."""
        return Rules.of(self.get_parameters())

    def new_initial_state(self) -> FoxtrotState:
        """The start of an episode: the dealer (if drawn) and the shuffle are chance nodes."""
        return FoxtrotState(self)

    def max_chance_nodes_in_history(self) -> int:
        """The dealer, then one chance node per card of every deck."""
        rules = self.rules
        return 1 + rules.options.deck_size * rules.deal_cap

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Any:
        """The observer of ``observer.FoxtrotObserver`` (OpenSpiel's observation API)."""
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        return FoxtrotObserver(self.rules.options, iig_obs_type, params)


class _Core:
    """The core ``State`` of a ``FoxtrotState``, copied by ``State.clone()`` when OpenSpiel
    clones the state (its default is ``copy.deepcopy``, six times as slow)."""

    __slots__ = ("state",)

    def __init__(self, state: State | None) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        return _Core(None if self.state is None else self.state.clone())


class FoxtrotState(pyspiel.State):  # type: ignore[misc]  # pyspiel ships no type information
    """A position of ``python_foxtrot``: the core ``State`` and the deals' tracks."""

    def __init__(self, game: FoxtrotGame) -> None:
        super().__init__(game)
        self.rules = rules = game.rules
        options = rules.options
        self._core = _Core(None if rules.dealer < 0 else State(options, dealer=rules.dealer))
        self.tracks: list[DealTrack] = []
        self._left = list(options.copies)  # the cards not yet dealt from the deck being shuffled
        self._returns = [0.0] * options.players
        self._rewards = [0.0] * options.players
        #: The history, one byte an action (every action and chance outcome is below 256):
        #: the observers' cache key, cheaper than ``tuple(history())``, its hash computed
        #: once, and shared by clones (bytes are immutable).
        self.trail = b""

    @property
    def options(self) -> TableOptions:
        """The table's options."""
        return self.rules.options

    @property
    def core(self) -> State | None:
        """The core engine's state (``None`` until the first dealer is drawn)."""
        return self._core.state

    @core.setter
    def core(self, state: State) -> None:
        self._core.state = state

    # ------------------------------------------------------------ who moves

    def current_player(self) -> int:
        """The seat to move, ``CHANCE`` while the dealer is drawn or the deck shuffled."""
        core = self.core
        if core is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self._over():
            return int(pyspiel.PlayerId.TERMINAL)
        if core.phase is Phase.AWAITING_DEAL:
            return int(pyspiel.PlayerId.CHANCE)
        to_move = core.to_move
        assert to_move is not None
        return to_move

    def _over(self) -> bool:
        core = self.core
        if core is None:
            return False
        return core.is_over or (
            core.phase is Phase.AWAITING_DEAL and core.deal_number >= self.rules.deal_cap
        )

    def is_terminal(self) -> bool:
        """The match is won, or ``deals`` deals were played (see ``MATCH_DEALS``)."""
        return self._over()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The dealer (uniform: the lot of D1 is fair), or the next card of the deck: each
        card kind with its share of the cards not dealt yet."""
        if self.core is None:
            n = self.options.players
            return [(seat, 1.0 / n) for seat in range(n)]
        left = self._left
        remaining = sum(left)
        return [(kind, count / remaining) for kind, count in enumerate(left) if count]

    def _legal_actions(self, player: int) -> list[int]:
        assert self.core is not None
        return self.core.legal_codes()  # plays in card order, then take (52): ascending

    # ------------------------------------------------------------ moving

    def _apply_action(self, action: int) -> None:
        self._apply(action)
        self.trail += bytes((action,))  # applied: the action is in the history

    def _apply(self, action: int) -> None:
        if self.core is None:  # the lot: the first dealer
            self.core = State(self.options, dealer=int(action))
            return
        core = self.core
        if core.phase is Phase.AWAITING_DEAL:
            self._shuffle(int(action))
            return
        code = int(action)
        if code not in core.legal_codes():
            error = core.why_illegal(ACTIONS[code]) if 0 <= code < N_ACTIONS else None
            raise error or IllegalActionError(
                "bad_action", core.to_move or 0, f"do action {code}", "actions are 0 to 52"
            )
        seat = core.to_move
        assert seat is not None
        for other in range(len(self._rewards)):  # chance nodes earn nothing: a deal's score
            self._rewards[other] = 0.0  # stays the reward until the next player's move
        before = [tuple(card.id for card in core.hand(s)) for s in range(self.options.players)]
        deal = core.deal_number
        core.apply_unchecked(ACTIONS[code])
        track = self.tracks[-1]
        if core.deal_number == deal:
            track.moved(seat, code, before, core)
            return
        track.add(Move(seat, code, len(track.rounds) - 1))
        scores = core.deal_logs()[deal].scores
        assert scores is not None
        track.scores = tuple(line.total for line in scores)
        self._left = list(self.options.copies)
        self._reward_deal(track.scores)

    def _shuffle(self, kind: int) -> None:
        """One more card of the deck (top first); the last one deals it (D2-D4)."""
        if not 0 <= kind < 52 or not self._left[kind]:
            raise IllegalActionError(
                "bad_action", -1, f"deal card {kind}", "no such card is left to deal"
            )
        core = self.core
        assert core is not None
        if not self.tracks or self.tracks[-1].scores is not None:
            self.tracks.append(DealTrack(dealer=-1, start=len(self.history())))
        track = self.tracks[-1]
        track.deck.append(kind)
        self._left[kind] -= 1
        if len(track.deck) == self.options.deck_size:
            core.deal(deck=[CARDS[c] for c in track.deck])
            track.dealer = core.dealer
            track.dealt(core)

    def _reward_deal(self, scores: tuple[int, ...]) -> None:
        kind = self.rules.returns
        n = len(scores)
        if kind == "win":
            core = self.core
            assert core is not None
            if core.winner is not None:
                gains = [1.0 if s == core.winner else -1.0 / (n - 1) for s in range(n)]
            else:
                return
        elif kind == "points":
            gains = [float(score) for score in scores]
        else:
            total = sum(scores)
            gains = [score - (total - score) / (n - 1) for score in scores]
        for seat, gain in enumerate(gains):
            self._rewards[seat] = gain
            self._returns[seat] += gain

    def rewards(self) -> list[float]:
        """What each seat earned since the last decision (OpenSpiel reads rewards at
        decision nodes: a deal's reward is there until the next player moves)."""
        return self._rewards[:]

    def returns(self) -> list[float]:
        """The sum of the rewards so far (see ``foxtrot.openspiel`` for each ``returns``)."""
        return self._returns[:]

    # ------------------------------------------------------------ reading

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"dealer {action}" if self.core is None else f"deal {CARDS[action]}"
        return str(ACTIONS[action])

    def __str__(self) -> str:
        """Everything, hidden cards included (not a player's view: for debugging and tests)."""
        core = self.core
        if core is None:
            return "dealer: not drawn"
        lines = [f"deal {core.deal_number} dealer {core.dealer} totals {list(core.totals)}"]
        if core.phase is Phase.AWAITING_DEAL:
            deck = self.tracks[-1].deck if self.tracks and self.tracks[-1].scores is None else []
            lines.append(f"shuffled {len(deck)}: " + " ".join(str(CARDS[c]) for c in deck))
            return "\n".join(lines)
        for seat in range(self.options.players):
            lines.append(f"hand {seat}: " + " ".join(map(str, core.hand(seat))))
        lines.append("pile: " + " ".join(map(str, core.pile)))
        lines.append("stock: " + " ".join(map(str, core.stock)))
        lines.append(f"to move: {core.to_move}")
        return "\n".join(lines)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> FoxtrotState:
        """A state ``player_id`` cannot tell from this one, its hidden cards dealt anew
        (``resample.resample_state``); the sampler seeds the shuffles."""
        return resample_state(self, int(player_id), sampled_stream(probability_sampler))


__all__ = [
    "DEFAULTS",
    "GAME_TYPE",
    "MATCH_DEALS",
    "N_ACTIONS",
    "RETURNS",
    "SHORT_NAME",
    "FoxtrotGame",
    "FoxtrotState",
    "deal_bounds",
    "options_of",
    "params_of",
]
