"""The table actor on its own: two actions at once, rebuilding from the log, seeds and deals."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from foxtrot.core import Observation, Phase
from foxtrot.web.cluster.bus import Connection
from foxtrot.web.lobby import Lobby, server_record
from foxtrot.web.protocol import ActionIn, CreateTable, ProtocolError, SeedIn
from foxtrot.web.store.event_log import Store
from foxtrot.web.table.actor import TableActor
from waiting import wait_until_async

pytestmark = pytest.mark.timeout(60)


def run(coro: Any) -> Any:
    return asyncio.run(coro)


class Sink:
    """Collects what a connection is sent."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    async def send(self, text: str) -> None:
        self.messages.append(json.loads(text))


async def seated(lobby: Lobby, actor: TableActor, token: str) -> tuple[Connection, Sink]:
    sink = Sink()
    conn = Connection(sink.send)
    asyncio.get_running_loop().create_task(conn.run_writer())
    await actor.connect(conn, actor.seat_of(token), None)
    return conn, sink


def phase_of(actor: TableActor) -> Phase:
    """The table's phase, read afresh: the actor deals while the test awaits."""
    assert actor.state is not None
    return actor.state.phase


def test_two_actions_at_once_are_applied_one_after_the_other(db_url: str) -> None:
    async def main() -> None:
        lobby = Lobby(Store(db_url))
        await lobby.boot()
        actor = await lobby.create(CreateTable(seed_seconds=0, bot_delay=0))
        _, ann = await actor.join("Ann", None)
        _, bob = await actor.join("Bob", None)
        while actor.state is None or actor.state.to_move is None:
            await asyncio.sleep(0.01)
        mover = actor.state.to_move
        conn, _ = await seated(lobby, actor, ann if mover == 0 else bob)
        legal = actor.state.legal_actions()
        seq = actor.seq
        first, second = (
            ActionIn(type="action", id=name, seq=seq, action=str(action))
            for name, action in (("one", legal[0]), ("two", legal[-1]))
        )
        results = await asyncio.gather(
            actor.act(conn, first), actor.act(conn, second), return_exceptions=True
        )
        accepted = [r for r in results if isinstance(r, str)]
        refused = [r for r in results if isinstance(r, ProtocolError)]
        assert len(accepted) == 1 and len(refused) == 1
        assert refused[0].code.value in ("stale_seq", "not_your_turn")
        assert actor.seq == seq + 1
        assert len(actor.state.observation(mover).hand) == 7
        await lobby.shutdown()

    run(main())


def test_a_table_is_rebuilt_exactly_from_its_log(db_url: str) -> None:
    async def main() -> tuple[str, dict[int, Observation], int]:
        lobby = Lobby(Store(db_url))
        await lobby.boot()
        plan = [{"kind": "easy"}, {"kind": "medium"}, {"kind": "easy"}]
        actor = await lobby.create(
            CreateTable.model_validate(
                {"seats": plan, "options": {"players": 3}, "seed_seconds": 0, "bot_delay": 0}
            )
        )
        while actor.seq < 60:
            await asyncio.sleep(0.01)
        async with actor.lock:  # a consistent moment
            assert actor.state is not None
            views = {s: actor.state.observation(s) for s in range(3)}
            seq = actor.seq
            await lobby.shutdown()
        return actor.id, views, seq

    table, views, seq = run(main())
    row = Store(db_url).load(table)
    assert row is not None and row.seq == seq
    rebuilt = TableActor.restore(row, None)  # type: ignore[arg-type]
    assert rebuilt.seq == seq
    for seat, obs in views.items():
        assert rebuilt.state is not None and rebuilt.state.observation(seat) == obs


def test_players_seeds_enter_the_deal_and_the_record_verifies(sqlite_url: str) -> None:
    from foxtrot.web.fair import verify_record  # noqa: PLC0415

    async def main() -> dict[str, Any]:
        lobby = Lobby(Store(sqlite_url))
        await lobby.boot()
        actor = await lobby.create(
            CreateTable.model_validate(
                {
                    "seats": [{}, {"kind": "easy"}],
                    "options": {"target": 1},
                    "seed_seconds": 30,
                    "bot_delay": 0,
                }
            )
        )
        _, ann = await actor.join("Ann", None)
        conn, sink = await seated(lobby, actor, ann)
        while 0 not in actor.fair:
            await asyncio.sleep(0.01)
        assert actor.state is not None and actor.state.phase is Phase.AWAITING_DEAL
        with pytest.raises(ProtocolError) as bad:
            await actor.add_seed(conn, SeedIn(type="seed", deal=0, seed="XYZ0"))
        assert bad.value.code.value == "bad_seed"
        await actor.add_seed(conn, SeedIn(type="seed", deal=0, seed="00ff" * 8))
        # the last person's seed deals at once, not after the 30 s of seed_seconds
        await wait_until_async(
            lambda: phase_of(actor) is Phase.PLAYING, timeout=20, what="the deal dealt at once"
        )
        assert actor.fair[0].player_seeds == ["00ff" * 8, ""]
        assert actor.fair[0].dealt
        while actor.status != "over":
            if actor.state.to_move == 0:
                legal = actor.state.legal_actions()
                msg = ActionIn(
                    type="action", id=f"a{actor.seq}", seq=actor.seq, action=str(legal[0])
                )
                await actor.act(conn, msg)
            await asyncio.sleep(0.005)
        record = server_record(actor)
        kinds = [m.get("kind") for m in sink.messages if m["type"] == "event"]
        assert "seed" in kinds and "deal" in kinds
        await lobby.shutdown()
        return record

    record = run(main())
    lines = verify_record(record)
    assert all("matches its commitment" in line for line in lines)
    assert "1 player seeds" in lines[0]


def test_a_table_every_person_left_is_closed_and_its_record_kept(sqlite_url: str) -> None:
    from foxtrot.web.fair import verify_record  # noqa: PLC0415

    async def main() -> dict[str, Any]:
        lobby = Lobby(Store(sqlite_url), idle_seconds=0.3, heartbeat=0.1)
        await lobby.boot()
        actor = await lobby.create(CreateTable(seed_seconds=0, grace_seconds=600))
        await actor.join("Ann", None)
        await actor.join("Bob", None)
        await wait_until_async(lambda: actor.status == "closed", what="the idle table closed")
        assert [e.kind for e in actor.entries][-1] == "close"
        again = await lobby.get(actor.id)  # from the database, once dropped from memory
        record = server_record(again)
        await lobby.shutdown()
        return record

    record = run(main())
    assert record["winner"] is None and "scores" not in record["deals"][0]
    assert verify_record(record) == ["deal 0: deck matches its commitment (0 player seeds)"]


def test_an_action_cancelled_mid_commit_is_adopted_not_half_done(sqlite_url: str) -> None:
    """The caller's task is cancelled while its event waits for the group commit.

    The event is committed anyway (it was handed over): the table must adopt it
    before the lock is released, so that memory and log agree and the next event
    gets the next sequence number (before the fix: a duplicate, refused by the log).
    """

    async def main() -> None:
        lobby = Lobby(Store(sqlite_url))
        await lobby.boot()
        real = lobby.hooks.append
        inside, release = asyncio.Event(), asyncio.Event()

        async def held_append(item: Any) -> None:
            """The commit, held open until the test has cancelled the caller."""
            inside.set()
            await release.wait()
            await real(item)

        actor = await lobby.create(CreateTable(seed_seconds=0, bot_delay=0))
        _, ann = await actor.join("Ann", None)
        _, bob = await actor.join("Bob", None)
        while actor.state is None or actor.state.to_move is None:
            await asyncio.sleep(0.01)
        lobby.hooks.append = held_append
        mover = actor.state.to_move
        conn, _ = await seated(lobby, actor, ann if mover == 0 else bob)
        seq = actor.seq
        first = ActionIn(
            type="action", id="one", seq=seq, action=str(actor.state.legal_actions()[0])
        )
        task = asyncio.create_task(actor.act(conn, first))
        await asyncio.wait_for(inside.wait(), 30)  # inside the commit now
        task.cancel()
        release.set()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert actor.seq == seq + 1  # adopted before the cancellation went on
        lobby.hooks.append = real
        other_conn, _ = await seated(lobby, actor, bob if mover == 0 else ann)
        assert actor.state.to_move != mover
        second = ActionIn(
            type="action", id="two", seq=actor.seq, action=str(actor.state.legal_actions()[0])
        )
        assert json.loads(await actor.act(other_conn, second))["seq"] == seq + 2
        logged = Store(sqlite_url).load(actor.id)
        assert logged is not None
        assert [e.seq for e in logged.events] == list(range(1, seq + 3))
        assert logged.events[seq].action_id == "one"
        await lobby.shutdown()

    run(main())
