"""The Foxtrot rules engine: no I/O, no third-party imports, nothing from the front ends."""

from .actions import ACTIONS, TAKE, Action
from .cards import CARD_POINTS, CARDS, Card, Rank, Suit, format_cards, parse_cards
from .dealing import Lot, draw_lots, shuffled_deck
from .errors import (
    DeckError,
    FoxtrotError,
    IllegalActionError,
    NotationError,
    OptionsError,
    PositionTextError,
    RecordError,
    UndoError,
)
from .events import (
    CardPlayed,
    DealEnded,
    DealStarted,
    Event,
    MatchEnded,
    PileTaken,
    PlayResult,
    Redealt,
)
from .observation import Observation
from .options import PRESETS, LeftoverPile, MostCardsTie, TableOptions, TakeRule
from .outcome import Outcome, Phase
from .record import (
    ReplayStep,
    dumps,
    from_record,
    loads,
    record_seats,
    replay,
    state_at,
    take_back,
    to_record,
)
from .record_keys import SEAT_LEVELS
from .record_text import parse_record
from .rng import STREAM, SplitMix64
from .scoring import ScoreLine, score_deal
from .snapshot import Snapshot
from .state import DealLog, State

__all__ = [
    "ACTIONS",
    "CARDS",
    "CARD_POINTS",
    "PRESETS",
    "SEAT_LEVELS",
    "STREAM",
    "TAKE",
    "Action",
    "Card",
    "CardPlayed",
    "DealEnded",
    "DealLog",
    "DealStarted",
    "DeckError",
    "Event",
    "FoxtrotError",
    "IllegalActionError",
    "LeftoverPile",
    "Lot",
    "MatchEnded",
    "MostCardsTie",
    "NotationError",
    "Observation",
    "OptionsError",
    "Outcome",
    "Phase",
    "PileTaken",
    "PlayResult",
    "PositionTextError",
    "Rank",
    "RecordError",
    "Redealt",
    "ReplayStep",
    "ScoreLine",
    "Snapshot",
    "SplitMix64",
    "State",
    "Suit",
    "TableOptions",
    "TakeRule",
    "UndoError",
    "draw_lots",
    "dumps",
    "format_cards",
    "from_record",
    "loads",
    "parse_cards",
    "parse_record",
    "record_seats",
    "replay",
    "score_deal",
    "shuffled_deck",
    "state_at",
    "take_back",
    "to_record",
]
