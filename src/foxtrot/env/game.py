"""One match driven step by step for the environments: dealing, rewards, observations.

``Game`` is the part the PettingZoo, Gymnasium and batched environments share:
it owns a ``State``, deals every deal itself (the chance step) from a generator
seeded once per match, applies one action at a time through the engine, and
keeps a ``Tracker`` of the observation arrays.  It never decides a rule: the
engine does (``legal_codes``, ``why_illegal``, and ``apply_code_unchecked``, the move that
``apply_unchecked`` makes, which also says what the card did).

Illegal actions: ``play(code)`` raises ``IllegalActionError`` (a ``ValueError``)
with the engine's reason and changes nothing; an index outside 0..52 raises
``IllegalActionError`` too.  There is no silent substitute.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import numpy as np

from ..core import ACTIONS, IllegalActionError, Phase, ScoreLine, SplitMix64, State, TableOptions
from ..core.kernel import foxtrot_bonus
from .encoding import N_ACTIONS, Array, Mask, Tracker, legal_mask, pad, padded_options

#: What a step rewards: each deal's score when it ends; the match result (1 to the winner);
#: or ``margin``, dense: every step, the change of the seat's running points (card points
#: and foxtrot bonuses taken so far; the deal score once it ends) minus the mean change of
#: the others', so that a deal's rewards add up to the seat's deal score minus the mean
#: deal score of the others.
REWARDS: Final = ("deal", "match", "margin")
_PLAYING: Final = Phase.PLAYING


def table_options(options: TableOptions | None, changes: Mapping[str, Any]) -> TableOptions:
    """``options`` (default: the engine's defaults) with the keyword options changed."""
    base = options if options is not None else TableOptions()
    return base.replace(**changes) if changes else base


def check_reward(reward: str, deals: int = 0) -> str:
    """``reward`` if it is one of ``REWARDS`` (``match`` only for whole matches); else a
    clear ``ValueError``."""
    if reward not in REWARDS:
        raise ValueError(f"reward: {reward!r} is not allowed (expected deal, match or margin)")
    if reward == "match" and deals:
        raise ValueError("reward: match needs deals=0 (an episode of deals has no winner)")
    return reward


def check_deals(deals: int) -> int:
    """``deals`` if it is 0 (the whole match) or a positive number of deals."""
    if type(deals) is not int or deals < 0:
        raise ValueError(f"deals: {deals!r} is not allowed (1 or more deals, or 0: the match)")
    return deals


def check_max_steps(max_steps: int | None) -> int | None:
    """``max_steps`` if it is ``None`` (no limit) or a positive number of steps."""
    if max_steps is not None and (type(max_steps) is not int or max_steps < 1):
        raise ValueError(f"max_steps: {max_steps!r} is not allowed (a positive number, or None)")
    return max_steps


class Game:
    """A match in progress, with its observation arrays and the rewards of the last step."""

    __slots__ = (
        "_codes",
        "_deals",
        "_running",
        "deals",
        "mover",
        "options",
        "pad_to",
        "reward",
        "rewarded",
        "rewards",
        "scores",
        "state",
        "tracker",
    )

    def __init__(
        self,
        options: TableOptions,
        reward: str = "deal",
        buffer: Array | None = None,
        *,
        deals: int = 0,
        pad_to: int | None = None,
    ) -> None:
        """``deals``: an episode is that many deals (0: the whole match); ``pad_to``: the
        observation arrays laid out for that many seats (``encoding.padded_options``)."""
        self.options = options
        self.deals = check_deals(deals)
        self.reward = check_reward(reward, self.deals)
        padded_options(options, pad_to)  # refuses a bad pad_to
        self.pad_to = pad_to
        self.tracker = Tracker(options, buffer)  # ``buffer``: a row of a batch's array
        self.state = State(options, dealer=0)
        self._deals = SplitMix64(0)
        self.rewards = [0.0] * options.players
        self.rewarded = False  # some reward of the last step is not 0
        self._running = [0] * options.players  # margin: points taken so far this deal
        self._codes: tuple[int, ...] = ()
        self.mover: int | None = None  # the seat to move, as ``state.to_move``
        self.scores: tuple[ScoreLine, ...] = ()  # the score sheet of the last deal that ended

    def reset(self, seed: int) -> None:
        """A new match: the first dealer by lot, then every shuffle, from ``seed``."""
        self._deals = SplitMix64(seed)
        self.state = State(self.options, rng=self._deals)
        self.state.deal(self._deals)
        self.rewards = [0.0] * self.options.players
        self.rewarded = False
        self._running = [0] * self.options.players
        self.scores = ()
        self.tracker.sync(self.state)
        self._legal()

    def _legal(self) -> None:
        self._codes = tuple(self.state.legal_codes())
        self.mover = self.state.to_move

    @property
    def to_move(self) -> int | None:
        """The seat to move, ``None`` once the match is over."""
        return self.mover

    @property
    def over(self) -> bool:
        """True once the episode is over: the match is won, or ``deals`` deals were played."""
        return self.mover is None

    @property
    def legal_codes(self) -> tuple[int, ...]:
        """The legal action indices of the seat to move."""
        return self._codes

    def mask(self) -> Mask:
        """The action mask of the seat to move (a new array; all 0 once the match is over)."""
        flags = bytearray(N_ACTIONS)  # a bytearray and frombuffer: ten times np.zeros + indexing
        for code in self._codes:
            flags[code] = 1
        mask: Mask = np.frombuffer(flags, dtype=np.int8)
        return mask

    def observe(self, seat: int) -> Array:
        """The observation array of ``seat`` (padded to ``pad_to`` seats if asked)."""
        return pad(self.tracker.observe(seat), self.options, self.pad_to)

    def play(self, code: int) -> bool:
        """Apply action ``code`` for the seat to move; True if a deal ended.

        Sets ``rewards`` (per seat) for this step.  An illegal action raises
        ``IllegalActionError`` and changes nothing.
        """
        state = self.state
        if type(code) is not int:
            code = as_index(code)
        if code not in self._codes:
            self._refuse(code)
        mover = self.mover
        assert mover is not None
        # the engine's one implementation of a move, unchecked (a legal action, as checked
        # above); it says what the card did, which the tracker needs
        result = state.apply_code_unchecked(code)
        rewards = self.rewards
        if self.rewarded:
            for seat in range(len(rewards)):
                rewards[seat] = 0.0
            self.rewarded = False
        ended = state.phase is not _PLAYING  # the deal ended (a new one is dealt below)
        if ended:
            scores = state.deal_logs()[-1].scores  # the deal that just ended
            assert scores is not None
            self.scores = scores
            self._score()
            self.rewarded = any(rewards)
            if state.phase is Phase.AWAITING_DEAL and not (
                self.deals and state.deal_number >= self.deals
            ):
                state.deal(self._deals)
            self.tracker.sync(state)
        else:
            nxt = state.to_move
            assert nxt is not None
            self.tracker.step(state, mover, code, result, nxt)
            if self.reward == "margin":
                self._margin(mover)
        self._legal()
        return ended

    def _margin(self, mover: int) -> None:
        """The mover's points may have grown (only his: nobody else took anything)."""
        points = sum(card.points for card in self.state.taken(mover))
        points += sum(foxtrot_bonus(card.id) for card in self.state.foxtrots(mover))
        gain = points - self._running[mover]
        if gain:
            self._running[mover] = points
            self._share([gain if seat == mover else 0 for seat in range(len(self.rewards))])

    def _share(self, gains: list[int]) -> None:
        """Rewards from each seat's gain: its own minus the mean of the others'."""
        n = len(gains)
        total = sum(gains)
        for seat, gain in enumerate(gains):
            self.rewards[seat] = gain - (total - gain) / (n - 1)
        self.rewarded = True

    def _score(self) -> None:
        state = self.state
        if self.reward != "match":
            scores = self.scores
            if self.reward == "margin":
                gains = [line.total - got for line, got in zip(scores, self._running, strict=True)]
                self._running = [0] * len(scores)
                self._share(gains)
                return
            for seat, line in enumerate(scores):
                self.rewards[seat] = float(line.total)
        elif state.outcome is not None:
            self.rewards[:] = state.outcome.returns()

    def _refuse(self, code: int) -> None:
        raise refusal(self.state, code)

    def current_mask(self) -> Mask:
        """The mask straight from the engine (for checks)."""
        return legal_mask(self.state)


def refusal(state: State, code: int) -> IllegalActionError:
    """The engine's error for action index ``code``, which the mask of ``state`` refuses."""
    if not 0 <= code < N_ACTIONS:
        seat = state.to_move if state.to_move is not None else -1
        return IllegalActionError(
            "bad_action", seat, f"do action {code}", f"actions are 0 to {N_ACTIONS - 1}"
        )
    error = state.why_illegal(ACTIONS[code])
    assert error is not None, "the mask and the engine disagree"
    return error


def as_index(code: object) -> int:
    """An action index from a numpy integer or a one-element array."""
    try:
        value: int = int(code)  # type: ignore[call-overload]  # numpy scalars and 0-d arrays
    except (TypeError, ValueError):
        raise IllegalActionError(
            "bad_action", -1, f"do {code!r}", "an action is a whole number 0 to 52"
        ) from None
    if value != code:
        raise IllegalActionError("bad_action", -1, f"do {code!r}", "not a whole number")
    return value


__all__ = [
    "REWARDS",
    "Game",
    "as_index",
    "check_deals",
    "check_max_steps",
    "check_reward",
    "refusal",
    "table_options",
]
