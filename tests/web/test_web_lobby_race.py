"""Two requests for a table this process has no copy of: one load, one copy, every socket served.

With many processes a table's copy is made on demand (the first hello or request
that reaches a process).  Two of them arriving together used to build two
copies: the second replaced the first, and a socket seated on the first never
got another event.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from foxtrot.web.cluster.bus import Connection
from foxtrot.web.lobby import Lobby
from foxtrot.web.protocol import CreateTable
from foxtrot.web.store.event_log import Store, TableRow
from foxtrot.web.table.actor import TableActor

pytestmark = pytest.mark.timeout(60)


class CountingStore(Store):
    """A store that counts the loads of each table (they run on the database thread)."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.loads: dict[str, int] = {}

    def load(self, table_id: str) -> TableRow | None:
        self.loads[table_id] = self.loads.get(table_id, 0) + 1
        return super().load(table_id)


class SlowClaims:
    """The part of a cluster ``Lobby.get`` uses: a claim that takes a while, and loses."""

    def __init__(self) -> None:
        self.claims = 0

    async def claim(self, _table_id: str) -> bool:
        self.claims += 1
        await asyncio.sleep(0)  # a round trip yields the loop: the other caller runs meanwhile
        return False

    async def catch_up(self, _actor: TableActor) -> None:
        return None

    async def announce(self, _actor: TableActor, _seat: int | None) -> None:
        return None


class Sink:
    def __init__(self) -> None:
        self.kinds: list[str] = []

    async def send(self, text: str) -> None:
        message: dict[str, Any] = json.loads(text)
        if message["type"] == "event":
            self.kinds.append(str(message["kind"]))


async def _new_table(url: str) -> str:
    """A table made by another lobby (another process): this one has no copy of it."""
    maker = Lobby(Store(url))
    await maker.boot()
    actor = await maker.create(CreateTable(seed_seconds=0, bot_delay=0))
    await maker.shutdown()
    return actor.id


@pytest.mark.parametrize("clustered", [False, True], ids=["one process", "follower"])
def test_two_gets_at_once_load_once_and_share_one_copy(sqlite_url: str, clustered: bool) -> None:
    async def main() -> None:
        store = CountingStore(sqlite_url)
        lobby = Lobby(store)
        await lobby.boot()
        table = await _new_table(sqlite_url)
        claims = SlowClaims()
        if clustered:
            lobby.cluster = claims  # type: ignore[assignment]
        first, second = await asyncio.gather(lobby.get(table), lobby.get(table))
        assert first is second is lobby.tables[table]
        assert store.loads[table] == 1
        assert claims.claims == (1 if clustered else 0)
        assert first.follower is clustered
        lobby.cluster = None
        await lobby.shutdown()

    asyncio.run(main())


def test_both_sockets_of_two_hellos_at_once_get_the_later_events(sqlite_url: str) -> None:
    async def main() -> None:
        lobby = Lobby(Store(sqlite_url))
        await lobby.boot()
        table = await _new_table(sqlite_url)
        sinks = [Sink(), Sink()]
        conns = [Connection(sink.send) for sink in sinks]
        writers = [asyncio.create_task(conn.run_writer()) for conn in conns]

        async def hello(conn: Connection) -> None:  # what the WebSocket route does
            await lobby.connect(await lobby.get(table), conn, None, None)

        await asyncio.gather(*(hello(conn) for conn in conns))
        await lobby.join(await lobby.get(table), "Ann", None)
        for conn in conns:
            conn.close()
        await asyncio.gather(*writers)
        assert sinks[0].kinds == sinks[1].kinds == ["join"]
        await lobby.shutdown()

    asyncio.run(main())
