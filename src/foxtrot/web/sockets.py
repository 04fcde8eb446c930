"""Reading a WebSocket as the server's sockets do: text or bytes, and a closed socket as one.

The tables' socket (``http/app.py``) and the bots' (``players/bot_accounts.py``) read their
messages here, so that both treat a binary frame and a socket closed on either side alike.
"""

from __future__ import annotations

from fastapi import WebSocket, WebSocketDisconnect
from fastapi.websockets import WebSocketState


async def read_text(websocket: WebSocket) -> str | bytes:
    """The next message (``bytes``: a binary frame, which the protocol refuses).

    ``WebSocketDisconnect`` once the socket is closed by either side.  Starlette marks
    the socket closed on this side after our own close (a goodbye) or a send that failed
    (the client vanished), and then refuses to read with a ``RuntimeError``
    (``WebSocketDisconnected`` from starlette 1.0): a closed socket, not a server error.
    Starlette's ``receive_text`` would fail on a binary frame (``KeyError``), so the
    ASGI message is read as it comes.
    """
    if websocket.application_state is not WebSocketState.CONNECTED:
        raise WebSocketDisconnect(1006)
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(int(message.get("code") or 1000), message.get("reason"))
    text = message.get("text")
    if text is not None:
        return str(text)
    return bytes(message.get("bytes") or b"")
