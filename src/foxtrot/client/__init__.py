"""A small client for bots: play at a Foxtrot server through its WebSocket protocol.

``BotClient.connect(url, token)`` says hello with a bot account's token (created on the
person's account: docs/guide/bot-accounts.md); ``create`` or ``join`` a casual table;
``turns()`` gives each ``Turn`` to move, with the engine's ``Observation`` of the seat, so
that any bot of ``foxtrot.bots`` plays through it; ``act`` sends the choice.  It needs the
``web`` extra (``websockets``); the engine and the bots never import it.
"""

from __future__ import annotations

from .bot_client import BotClient, BotRefusedError, Turn
from .views import TakenCards, observation_of

__all__ = ["BotClient", "BotRefusedError", "TakenCards", "Turn", "observation_of"]
