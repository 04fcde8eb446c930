"""A fair deal anyone can check: the commit-reveal shuffle ``fx/v1`` (docs/fair.md).

Before a deal the server draws a secret 32-byte seed and publishes its
commitment, ``SHA-256(seed)``.  Each person may then add a seed of his own.
The deck is a Fisher-Yates shuffle of the unshuffled pack driven by a stream of
HMAC-SHA256 blocks keyed with the server seed over the table id, the deal
number and the players' seeds; integers are drawn by rejection sampling, so
there is no modulo bias.  When the deal ends the seed is revealed, and
``verify_record`` (``foxtrot verify``) recomputes every deck.

Only the standard library is used (``hashlib``, ``hmac``), so any language can
check a record; nothing here touches Python's ``random``.

>>> seed = bytes(32)
>>> commitment(seed)
'66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925'
>>> deck = shuffle(seed, "t1", 0, ["", "ab"], 2)
>>> len(deck), str(deck[0]) != ""
(104, True)
>>> shuffle(seed, "t1", 0, ["", "ab"], 2) == deck
True
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Final

from ..core import CARDS, Card

ALGORITHM: Final = "fx/v1"
SEED_BYTES: Final = 32
#: The most bytes a player's own seed may have (it is given as hex text).
PLAYER_SEED_MAX: Final = 64
_HEX: Final = re.compile(r"[0-9a-f]*")


class FairError(ValueError):
    """A record whose fair-deal data is missing, malformed or does not match its decks."""


def new_seed() -> bytes:
    """A fresh secret server seed (32 random bytes from the operating system)."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> str:
    """The public commitment to a server seed: its SHA-256, as lowercase hex."""
    return hashlib.sha256(seed).hexdigest()


def check_player_seed(text: str) -> str:
    """A player's seed as the canonical lowercase hex text; refuse anything else."""
    if not isinstance(text, str) or not _HEX.fullmatch(text) or len(text) % 2:
        raise FairError("a player's seed is lowercase hex text with an even number of digits")
    if len(text) > 2 * PLAYER_SEED_MAX:
        raise FairError(f"a player's seed has at most {PLAYER_SEED_MAX} bytes")
    return text


def message(table: str, deal: int, player_seeds: Sequence[str]) -> bytes:
    """What the HMAC is computed over: ``fx/v1|table|deal|seed0,seed1,...`` (one per seat).

    A seat that gave no seed has the empty string.  The table id holds no
    ``|`` and seeds are hex, so the message is unambiguous.
    """
    if "|" in table:
        raise FairError("a table id may not hold '|'")
    seeds = ",".join(check_player_seed(seed) for seed in player_seeds)
    return f"{ALGORITHM}|{table}|{deal}|{seeds}".encode()


def _words(seed: bytes, msg: bytes) -> Iterator[int]:
    """32-bit big-endian words of HMAC-SHA256(seed, msg || counter) for counter 0, 1, 2..."""
    counter = 0
    while True:
        block = hmac.new(seed, msg + counter.to_bytes(8, "big"), hashlib.sha256).digest()
        for i in range(0, 32, 4):
            yield int.from_bytes(block[i : i + 4], "big")
        counter += 1


def _below(words: Iterator[int], n: int) -> int:
    """A uniform integer in ``[0, n)``: words at or above the largest multiple of n are skipped."""
    limit = (1 << 32) - (1 << 32) % n
    while True:
        word = next(words)
        if word < limit:
            return word % n


def unshuffled(decks: int) -> list[Card]:
    """The pack before shuffling: ranks 2..A, each in suits S H D C, each card ``decks`` times."""
    return [card for card in CARDS for _ in range(decks)]


def shuffle(
    seed: bytes, table: str, deal: int, player_seeds: Sequence[str], decks: int
) -> list[Card]:
    """The deck of a deal, index 0 the top (rule D4): Fisher-Yates from the last position down."""
    if len(seed) != SEED_BYTES:
        raise FairError(f"a server seed has {SEED_BYTES} bytes")
    deck = unshuffled(decks)
    words = _words(seed, message(table, deal, player_seeds))
    for i in range(len(deck) - 1, 0, -1):
        j = _below(words, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


# ----------------------------------------------------------------- checking


def fair_entry(commit: str, player_seeds: Sequence[str], seed: bytes | None) -> dict[str, Any]:
    """The ``fair`` key the server adds to a G2 deal (``seed`` is null until the deal ends)."""
    return {
        "algorithm": ALGORITHM,
        "commitment": commit,
        "player_seeds": list(player_seeds),
        "server_seed": seed.hex() if seed is not None else None,
    }


def verify_record(record: Mapping[str, Any]) -> list[str]:
    """Check every deal of a record against its commitment; the lines of a report.

    Raises ``FairError`` naming the deal if a deck, seed or commitment does not
    match; a deal still in progress (seed not yet revealed) is reported, not
    refused.
    """
    table = record.get("table")
    if not isinstance(table, str):
        raise FairError("the record has no 'table' key: it was not written by the server")
    options = record.get("options")
    decks = options.get("decks") if isinstance(options, Mapping) else None
    if decks not in (2, 3):
        raise FairError("options.decks is missing or not 2 or 3")
    deals = record.get("deals")
    if not isinstance(deals, list):
        raise FairError("deals: expected a list")
    players = options.get("players") if isinstance(options, Mapping) else None
    lines = []
    for index, deal in enumerate(deals):
        where = f"deal {index}"
        fair = deal.get("fair") if isinstance(deal, Mapping) else None
        if not isinstance(fair, Mapping):
            raise FairError(f"{where}: no 'fair' key")
        if fair.get("algorithm") != ALGORITHM:
            raise FairError(f"{where}: algorithm is {fair.get('algorithm')!r}, not {ALGORITHM!r}")
        commit = fair.get("commitment")
        seeds = fair.get("player_seeds")
        if not isinstance(commit, str) or not isinstance(seeds, list):
            raise FairError(f"{where}: commitment and player_seeds are required")
        if len(seeds) != players:
            raise FairError(f"{where}: expected {players} player seeds, got {len(seeds)}")
        revealed = fair.get("server_seed")
        if revealed is None:
            if "scores" in deal:
                raise FairError(f"{where}: the deal has ended but its server seed is not revealed")
            lines.append(f"{where}: in progress; its seed is revealed when it ends")
            continue
        try:
            seed = bytes.fromhex(revealed) if isinstance(revealed, str) else b""
        except ValueError:
            seed = b""
        if len(seed) != SEED_BYTES:
            raise FairError(f"{where}: server_seed is not {SEED_BYTES} bytes of hex")
        if commitment(seed) != commit:
            raise FairError(f"{where}: the revealed server seed does not match the commitment")
        try:
            expected = shuffle(seed, table, index, [str(s) for s in seeds], decks)
        except FairError as error:
            raise FairError(f"{where}: {error}") from None
        if deal.get("deck") != [str(card) for card in expected]:
            raise FairError(
                f"{where}: the deck is not the one the seeds give (it was changed or stacked)"
            )
        given = sum(1 for s in seeds if s)
        lines.append(f"{where}: deck matches its commitment ({given} player seeds)")
    return lines
