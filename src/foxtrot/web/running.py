"""Running the application on uvicorn: stopping says goodbye to every socket first.

On Ctrl-C or SIGTERM uvicorn closes the open WebSockets itself (code 1012)
before the application's shutdown runs.  ``Server`` first lets the lobby send
each socket a ``goodbye`` message and close it with 1001 (going away), so a
client knows the server stopped on purpose and reconnects; then uvicorn's own
shutdown and the lobby's (database thread, workers) follow, and the process
exits with status 0.
"""

from __future__ import annotations

import contextlib
import gc
import signal
import socket
import sys
import threading
from collections.abc import Iterator
from typing import Any, Final

import uvicorn
from fastapi import FastAPI


class Server(uvicorn.Server):
    """uvicorn's server, with the lobby's goodbye before its own shutdown."""

    def __init__(self, config: uvicorn.Config, app: FastAPI) -> None:
        super().__init__(config)
        self._app = app

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        """Ctrl-C and SIGTERM start the shutdown; afterwards ``foxtrot serve`` exits with 0.

        (uvicorn itself raises the signal again once it stopped, which ends the
        process as killed by it: a stop that was asked for is not a failure.)
        """
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        signals = (signal.SIGINT, signal.SIGTERM)
        previous = {sig: signal.signal(sig, self.handle_exit) for sig in signals}
        try:
            yield
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        """Boot (every table rebuilt from its log), then freeze what boot made.

        The objects alive now (modules, the rebuilt tables) live as long as the
        server: moved out of the collector's generations, a full collection no
        longer walks them all, which shortens the longest pauses.
        """
        await super().startup(sockets)
        gc.freeze()

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        holder: dict[str, Any] = self._app.state.lobby_holder
        lobby = holder.get("lobby")
        if lobby is not None:
            await lobby.goodbye()
        await super().shutdown(sockets)


#: How long a thread may hold the interpreter lock while another waits for it (Python's
#: default is 5 ms).  The database thread takes the lock back after each statement; while the
#: event loop is busy, each retake waited up to the whole interval, and commits queued behind.
SWITCH_INTERVAL: Final = 0.0005


def serve(app: FastAPI, host: str, port: int) -> None:
    """Serve ``app`` until Ctrl-C or SIGTERM."""
    sys.setswitchinterval(SWITCH_INTERVAL)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=65536,
        access_log=False,
    )
    Server(config, app).run()
