"""The wire format: every HTTP body and WebSocket message as a pydantic model, and the error codes.

This is the one place the protocol lives; ``docs/protocol.md`` documents it.
A client message is checked in a fixed order (``parse_client``): size, JSON,
schema; the table actor then checks token, seat, turn and legality.  Each
failure is one ``Error`` naming what was wrong, and changes nothing.
"""

from __future__ import annotations

import enum
import json
from typing import Annotated, Any, Final, Literal, get_args

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from pydantic_core import PydanticCustomError

from ..core.options import MAX_NAME_LENGTH, name_problem
from .table.learned import KIND_PATTERN

#: The largest client message, in bytes of UTF-8 text.
MAX_MESSAGE: Final = 4096
#: The deepest nesting of arrays and objects a client message may have.
MAX_DEPTH: Final = 32
LEVELS: Final = ("easy", "medium", "hard", "expert")
#: A learned level's seat kind: ``learned`` (the shipped policy of the table's size) or
#: ``learned:NAME`` (an operator's policy); which exist at which sizes the lobby checks
#: (web/table/learned.py), so that the refusal can name them.
LearnedKind = Annotated[str, Field(pattern=KIND_PATTERN)]
#: A player's name on the server: 1 to this many characters (the record's bound).
NAME_LENGTH: Final = MAX_NAME_LENGTH


class Code(enum.StrEnum):
    """Error codes; each names one check that failed."""

    TOO_LARGE = "too_large"
    BAD_JSON = "bad_json"
    BAD_SCHEMA = "bad_schema"
    UNKNOWN_TYPE = "unknown_type"
    NO_TOKEN = "no_token"
    BAD_TOKEN = "bad_token"
    WRONG_SEAT = "wrong_seat"
    SPECTATOR = "spectator"
    ALREADY_HELLO = "already_hello"
    NEED_HELLO = "need_hello"
    NOT_STARTED = "not_started"
    MATCH_OVER = "match_over"
    STALE_SEQ = "stale_seq"
    NOT_YOUR_TURN = "not_your_turn"
    ILLEGAL = "illegal"
    BAD_SEED = "bad_seed"
    SEED_CLOSED = "seed_closed"
    THROTTLED = "throttled"
    NO_TABLE = "no_table"
    SEAT_TAKEN = "seat_taken"
    NO_SEAT = "no_seat"
    STARTED = "started"
    BAD_OPTIONS = "bad_options"
    NOT_FINISHED = "not_finished"
    MOVED = "moved"
    UNAVAILABLE = "unavailable"
    NO_UNDO = "no_undo"
    BUSY = "busy"
    # accounts (web/players/accounts.py)
    NOT_SIGNED_IN = "not_signed_in"
    BAD_CSRF = "bad_csrf"
    NAME_TAKEN = "name_taken"
    BAD_PASSKEY = "bad_passkey"
    NO_PASSKEY = "no_passkey"
    LAST_PASSKEY = "last_passkey"
    NO_PLAYER = "no_player"
    PASSKEY_TAKEN = "passkey_taken"  # this passkey is stored already (another registration)
    RATED_TABLE = "rated_table"  # no help at a rated table before its end (players/rated.py)
    ALREADY_PLAYED = "already_played"  # an account's second play of a day's deck (web/daily/)
    # bot accounts (web/players/bot_accounts.py)
    REVOKED = "revoked"  # the bot token was revoked by its owner
    BOT_CONNECTED = "bot_connected"  # one connection per bot at a time
    NO_BOT = "no_bot"
    TOO_MANY_BOTS = "too_many_bots"


class ProtocolError(Exception):
    """A refused message or request: a code and a sentence that says what and where."""

    def __init__(
        self, code: Code, message: str, action_id: str | None = None, reason: str | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.action_id = action_id
        self.reason = reason


def _fair_name(name: str) -> str:
    problem = name_problem(name)
    if problem is not None:  # the record's rule (core.options.check_names)
        raise PydanticCustomError("player_name", "{problem}", {"problem": problem})
    return name


#: A person's or a computer's name: the record's rule (``core.options.name_problem``: 1 to
#: ``NAME_LENGTH`` characters, a letter, digit or symbol, no control or bidirectional
#: characters), so that a name the server takes makes a valid record.
PlayerName = Annotated[str, AfterValidator(_fair_name)]


class _Model(BaseModel):
    # allow_inf_nan: a number field refuses NaN and the infinities (JSON has neither)
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


# ------------------------------------------------------------------ HTTP


class OptionsIn(_Model):
    """The rule options of a new table (rules C3, T2, T6, E2, P3, M1)."""

    players: Annotated[int, Field(ge=2, le=9)] = 2
    take: Literal["any", "match"] = "match"
    forced_foxtrot: bool = False
    leftover_pile: Literal["discard", "last_taker"] = "discard"
    most_cards_tie: Literal["none", "all"] = "none"
    target: Annotated[int, Field(ge=1, le=100000)] = 200


class SeatPlan(_Model):
    """Who sits in a seat: a person, or a computer of a level."""

    kind: Literal["person", "easy", "medium", "hard", "expert"] | LearnedKind = "person"
    name: PlayerName | None = None


class CreateTable(_Model):
    """``POST /api/tables``."""

    options: OptionsIn = OptionsIn()
    seats: list[SeatPlan] | None = None  # default: every seat a person
    grace_seconds: Annotated[float, Field(ge=0, le=86400)] = 60.0
    turn_seconds: Annotated[float | None, Field(gt=0, le=86400)] = None
    replacement: Literal["easy", "medium", "hard", "expert"] = "medium"
    public: bool = True
    seed_seconds: Annotated[float, Field(ge=0, le=60)] = 2.0
    #: after a deal the table waits until every person here presses Next deal, at most this
    #: long (0: no pause; the page's lobby asks for 30); computers never wait
    deal_pause_seconds: Annotated[float, Field(ge=0, le=600)] = 0.0
    bot_delay: Annotated[float, Field(ge=0, le=10)] = 0.8
    first_dealer: Annotated[int | None, Field(ge=0, le=8)] = None
    #: a rated table (web/players/ratings.py): its creator and every person at it must be signed in
    rated: bool = False


class Join(_Model):
    """``POST /api/tables/{id}/join``: a free seat (any when omitted) and a name."""

    name: PlayerName
    seat: Annotated[int | None, Field(ge=0, le=8)] = None


# ------------------------------------------------------------- WebSocket, in


class Hello(_Model):
    """The first message: a token to sit in a seat, or none to watch."""

    type: Literal["hello"]
    token: Annotated[str | None, Field(max_length=200)] = None
    seat: Annotated[int | None, Field(ge=0, le=8)] = None
    last_seq: Annotated[int | None, Field(ge=0)] = None
    lang: Literal["en", "ru", "uk"] = "en"


class ActionIn(_Model):
    """Play a card (``"QS"``) or ``"take"``; ``id`` is the client's, ``seq`` the last it saw."""

    type: Literal["action"]
    id: Annotated[str, Field(min_length=1, max_length=64)]
    seq: Annotated[int, Field(ge=0)]
    action: Annotated[str, Field(min_length=1, max_length=8)]
    seat: Annotated[int | None, Field(ge=0, le=8)] = None


class SeedIn(_Model):
    """A person's own seed for the next deal: lowercase hex, at most 64 bytes."""

    type: Literal["seed"]
    deal: Annotated[int, Field(ge=0)]
    seed: Annotated[str, Field(min_length=2, max_length=128)]


class NextDealIn(_Model):
    """A person has read the score sheet of the last deal: the next one may start."""

    type: Literal["next_deal"]
    deal: Annotated[int, Field(ge=0)]


class UndoIn(_Model):
    """Take back my last move and the computers' replies (one person against computers)."""

    type: Literal["undo"]


class Ping(_Model):
    """Keep-alive; answered with ``pong``."""

    type: Literal["ping"]


#: The quick reactions a player may send (web/table/reactions.py): words the page says in the
#: reader's language, and emoji.  A fixed set: no free text, nothing to moderate.
Reaction = Literal[
    "well_played",
    "good_game",
    "thanks",
    "oops",
    "sorry",
    "good_luck",
    "clap",
    "sweat",
    "wow",
    "thinking",
]
REACTIONS: Final[tuple[str, ...]] = get_args(Reaction)  # the same set, in order


class ReactIn(_Model):
    """A quick reaction from a player's seat, shown by his seat for a few seconds."""

    type: Literal["react"]
    reaction: Reaction


ClientMessage = Annotated[
    Hello | ActionIn | SeedIn | NextDealIn | UndoIn | Ping | ReactIn, Field(discriminator="type")
]


def too_deep(text: str, limit: int = MAX_DEPTH) -> bool:
    """Whether JSON ``text`` nests arrays and objects deeper than ``limit`` (strings skipped).

    Counting the brackets first keeps an ordinary message from being scanned at all.
    """
    if text.count("[") + text.count("{") <= limit:
        return False
    depth = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


def _not_a_number(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


ClientIn = Hello | ActionIn | SeedIn | NextDealIn | UndoIn | Ping | ReactIn
_CLIENT: Final[TypeAdapter[ClientIn]] = TypeAdapter(ClientMessage)
CLIENT_TYPES: Final = ("hello", "action", "seed", "next_deal", "undo", "ping", "react")


def parse_client(text: str | bytes) -> ClientIn:
    """Check size, JSON and schema, in that order; raise ``ProtocolError`` on the first failure.

    ``bytes`` is a binary frame: refused (``bad_json``), whatever it holds, since the
    protocol is JSON text.  So is JSON nested deeper than ``MAX_DEPTH`` (no message
    has more than two levels; the parser would recurse once per level) and the
    non-JSON numbers ``NaN`` and ``Infinity`` Python's parser would accept.
    """
    raw = text.encode() if isinstance(text, str) else text
    if len(raw) > MAX_MESSAGE:
        raise ProtocolError(
            Code.TOO_LARGE, f"the message has {len(raw)} bytes; the limit is {MAX_MESSAGE}"
        )
    if isinstance(text, bytes):
        raise ProtocolError(
            Code.BAD_JSON, "the message is a binary frame: send JSON in a text frame"
        )
    if too_deep(text):
        raise ProtocolError(
            Code.BAD_JSON, f"the message is JSON nested deeper than {MAX_DEPTH} levels"
        )
    try:
        data = json.loads(text, parse_constant=_not_a_number)
    except ValueError as error:  # json.JSONDecodeError and _not_a_number's refusal
        raise ProtocolError(Code.BAD_JSON, f"the message is not JSON: {error}") from None
    if not isinstance(data, dict):
        raise ProtocolError(Code.BAD_SCHEMA, "a message is a JSON object")
    action_id = data.get("id") if isinstance(data.get("id"), str) else None
    kind = data.get("type")
    if kind not in CLIENT_TYPES:
        raise ProtocolError(
            Code.UNKNOWN_TYPE,
            f"unknown message type {str(kind)[:20]!r} (expected one of {', '.join(CLIENT_TYPES)})",
            action_id,
        )
    try:
        return _CLIENT.validate_python(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"][1:]) or "message"
        raise ProtocolError(Code.BAD_SCHEMA, f"{where}: {first['msg']}", action_id) from None


# ------------------------------------------------------------ WebSocket, out


class Welcome(_Model):
    """The answer to ``hello``: who this connection is."""

    type: Literal["welcome"] = "welcome"
    table: str
    seat: int | None
    role: Literal["player", "spectator"]
    seq: int


class Snapshot(_Model):
    """The full current view of this connection (a seat's or the public one)."""

    type: Literal["snapshot"] = "snapshot"
    seq: int
    view: dict[str, Any]


class EventOut(_Model):
    """One logged event: its sequence number, public data, narration, and the view after it.

    ``text`` is the narration for the screen (cards in short: ``Д♠``); ``spoken`` the same
    lines as a screen reader should say them, line for line: the cards in words, each in the
    case its sentence needs ("кладёт даму пик", not "кладёт дама пик").
    """

    type: Literal["event"] = "event"
    seq: int
    kind: str
    data: dict[str, Any]
    text: list[str]
    spoken: list[str] = []
    view: dict[str, Any] | None = None
    catchup: bool = False


class Ack(_Model):
    """An accepted action: the sequence number of the event it became."""

    type: Literal["ack"] = "ack"
    id: str
    seq: int


class ErrorOut(_Model):
    """A refused message: what was wrong; nothing was changed."""

    type: Literal["error"] = "error"
    code: Code
    message: str
    id: str | None = None
    #: For ``illegal``: the engine's reason (``IllegalActionError.code``: ``take_not_allowed``,
    #: ``empty_pile``, ``not_in_hand``, ``must_foxtrot``), so a client words it itself.
    reason: str | None = None


class SeatPresence(_Model):
    """One seat as the others see it."""

    seat: int
    kind: str
    name: str | None
    connected: bool
    away_until: float | None = None
    computer_playing: bool = False


class Presence(_Model):
    """Who is connected; a countdown (``away_until``) while someone is away."""

    type: Literal["presence"] = "presence"
    seats: list[SeatPresence]
    turn_deadline: float | None = None
    spectators: int = 0
    #: between deals: the seats whose Next deal the table still waits for, and until when
    next_deal_waits: list[int] = []
    next_deal_at: float | None = None


class Pong(_Model):
    """The answer to ``ping``."""

    type: Literal["pong"] = "pong"


class ReactionOut(_Model):
    """A player's quick reaction, to everyone at the table (never logged: not a rule event)."""

    type: Literal["reaction"] = "reaction"
    seat: int
    reaction: Reaction


class Goodbye(_Model):
    """The last message before the server closes the socket (code 1001, going away).

    Sent when the server stops (Ctrl-C, SIGTERM): every accepted action is in
    the log already, so the client reconnects (to this or another process) with
    its token and last seq and carries on where it was.
    """

    type: Literal["goodbye"] = "goodbye"
    code: int = 1001
    reason: str = "the server is stopping: reconnect in a moment, nothing is lost"
    text: str = ""


def error_out(error: ProtocolError) -> ErrorOut:
    """The message that tells a client its message was refused."""
    return ErrorOut(code=error.code, message=error.message, id=error.action_id, reason=error.reason)
