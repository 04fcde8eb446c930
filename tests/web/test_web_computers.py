"""Computers on every core, shared fairly: a search waits in its table's queue, the tables take
turns for a free worker, and the tables a person is connected to go first, so a person's
opponent never waits behind another client's tables of computers."""

from __future__ import annotations

import asyncio
import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from foxtrot.core import Observation, SplitMix64, State, TableOptions
from foxtrot.web.table import computer
from foxtrot.web.table.computer import Computers, FairQueue, default_processes


@given(st.lists(st.tuples(st.sampled_from("abcde"), st.booleans()), max_size=40))
def test_the_fair_queue_serves_watched_tables_first_in_turn_and_in_order(
    arrivals: list[tuple[str, bool]],
) -> None:
    queue: FairQueue[tuple[str, bool, int]] = FairQueue()
    for number, (table, watched) in enumerate(arrivals):
        queue.put(table + ("!" if watched else ""), watched, (table, watched, number))
    served = [queue.pop() for _ in arrivals]
    assert queue.pop() is None and len(queue) == 0
    assert sorted(s for s in served if s is not None) == sorted(
        (t, w, n) for n, (t, w) in enumerate(arrivals)
    )
    flags = [s[1] for s in served if s is not None]
    assert flags == sorted(flags, reverse=True)  # every watched search before any other
    for key in set(arrivals):  # each table's searches in their order
        numbers = [s[2] for s in served if s is not None and (s[0], s[1]) == key]
        assert numbers == sorted(numbers)
    # in turn: between two searches of one table, no other table of its tier is served twice
    for i, first in enumerate(served):
        assert first is not None
        later = [s for s in served[i + 1 :] if s is not None and s[1] == first[1]]
        nxt = next((j for j, s in enumerate(later) if s[0] == first[0]), None)
        if nxt is not None:
            between = [s[0] for s in later[:nxt]]
            assert len(between) == len(set(between)), (first, served)


def an_observation() -> Observation:
    """The first seat's view of a fresh two-player deal."""
    state = State(TableOptions(players=2), dealer=0)
    state.deal(SplitMix64(1))
    return state.observation(1)


def test_the_default_is_one_worker_for_each_core() -> None:
    assert default_processes() >= 1
    assert Computers().processes == default_processes()
    with pytest.raises(ValueError, match="at least 1"):
        Computers(0)


def test_a_persons_search_passes_another_clients_queue_of_computer_tables(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One worker, busy with a computers-only table's search; ten more of those tables' searches
    wait; then a person's table asks: its search is the next to run."""
    started: list[str] = []
    release = threading.Event()

    def fake_think(level: str, obs: Any, seed: int) -> tuple[str, float]:
        started.append(level)
        assert release.wait(30), "the first search was never released"
        return level, 0.0

    monkeypatch.setattr(computer, "think", fake_think)
    obs = an_observation()

    async def scene() -> list[str]:
        computers = Computers(1, ThreadPoolExecutor(1))
        first = asyncio.ensure_future(computers.choose("hard", obs, table="bots0", watched=False))
        while not started:  # the worker has taken the first search
            await asyncio.sleep(0.01)
        others = [
            asyncio.ensure_future(computers.choose("expert", obs, table=f"bots{i}", watched=False))
            for i in range(1, 11)
        ]
        while computers.waiting < 10:  # every search is queued
            await asyncio.sleep(0.01)
        person = asyncio.ensure_future(computers.choose("hard", obs, table="anna", watched=True))
        while computers.waiting < 11:
            await asyncio.sleep(0.01)
        release.set()
        await asyncio.gather(first, person, *others)
        computers.close()
        return started

    order = asyncio.run(scene())
    assert order[:2] == ["hard", "hard"], order  # the person's search right after the first
    assert order.count("expert") == 10


def test_a_search_nobody_waits_for_any_more_is_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    release = threading.Event()

    def fake_think(level: str, obs: Any, seed: int) -> tuple[str, float]:
        calls.append(level)
        assert release.wait(30)
        return level, 0.0

    monkeypatch.setattr(computer, "think", fake_think)
    obs = an_observation()

    async def scene() -> None:
        computers = Computers(1, ThreadPoolExecutor(1))
        first = asyncio.ensure_future(computers.choose("hard", obs, table="a", watched=True))
        while not calls:
            await asyncio.sleep(0.01)
        gone = asyncio.ensure_future(computers.choose("expert", obs, table="b", watched=True))
        while computers.waiting < 1:
            await asyncio.sleep(0.01)
        gone.cancel()  # its table closed meanwhile
        release.set()
        assert await first == ("hard", 0.0)
        kept = await computers.choose("hard", obs, table="c", watched=True)
        assert kept == ("hard", 0.0)
        computers.close()

    asyncio.run(scene())
    assert calls == ["hard", "hard"]  # the cancelled search never ran


def test_an_address_has_a_bounded_number_of_expert_tables(tmp_path: Path) -> None:
    """Each table with an expert seat costs seconds of a worker a move: one client address
    may keep ``expert_tables_per_address`` of them open; another address is not held up."""
    from foxtrot.web.lobby import EXPERT_TABLES_PER_ADDRESS, Lobby  # noqa: PLC0415
    from foxtrot.web.protocol import CreateTable, ProtocolError  # noqa: PLC0415
    from foxtrot.web.store.event_log import Store  # noqa: PLC0415

    expert = CreateTable.model_validate(
        {"seats": [{"kind": "person"}, {"kind": "expert"}], "seed_seconds": 0}
    )
    medium = CreateTable.model_validate(
        {"seats": [{"kind": "person"}, {"kind": "medium"}], "seed_seconds": 0}
    )

    async def scene() -> None:
        lobby = Lobby(Store(f"sqlite:///{tmp_path / 'x.db'}"))
        await lobby.boot()
        try:
            for _ in range(EXPERT_TABLES_PER_ADDRESS):
                await lobby.create(expert, client="192.0.2.1")
            with pytest.raises(ProtocolError) as refused:
                await lobby.create(expert, client="192.0.2.1")
            assert refused.value.code.value == "busy" and "expert" in refused.value.message
            await lobby.create(medium, client="192.0.2.1")  # other levels are not bounded here
            await lobby.create(expert, client="192.0.2.2")
        finally:
            await lobby.shutdown()

    asyncio.run(scene())


class FailingComputers(Computers):
    """Computers whose first ``fails`` moves fail, as when a worker process dies."""

    def __init__(self, fails: int) -> None:
        super().__init__(processes=1)
        self.fails = fails

    async def choose(
        self, level: str, obs: Observation, *, table: str = "", watched: bool = True
    ) -> tuple[str, float]:
        if self.fails:
            self.fails -= 1
            raise RuntimeError("the worker process died")
        return await super().choose(level, obs, table=table, watched=watched)


def test_a_computer_move_that_fails_is_tried_again_and_the_table_plays_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A computer's move that fails (its worker died) is logged with its cause and tried again
    a moment later, longer after each failure in a row: the table plays on, where it would
    otherwise wait for ever (nobody else starts a computer's turn)."""
    from foxtrot.web.lobby import Lobby  # noqa: PLC0415
    from foxtrot.web.protocol import CreateTable, SeatPlan  # noqa: PLC0415
    from foxtrot.web.store.event_log import Store  # noqa: PLC0415
    from foxtrot.web.table import actor  # noqa: PLC0415
    from waiting import wait_until_async  # noqa: PLC0415

    monkeypatch.setattr(actor, "RETRY_FIRST", 0.01)
    caplog.set_level(logging.WARNING, logger="foxtrot.web")

    async def scene() -> tuple[int, str]:
        computers = FailingComputers(fails=3)
        lobby = Lobby(Store(f"sqlite:///{tmp_path / 'x.db'}"), computers=computers)
        await lobby.boot()
        try:
            seats = [SeatPlan(kind="easy"), SeatPlan(kind="easy")]
            table = await lobby.create(CreateTable(seats=seats, seed_seconds=0, bot_delay=0))

            def moves() -> int:
                logs = [] if table.state is None else table.state.deal_logs()
                return sum(len(log.actions) for log in logs)

            await wait_until_async(lambda: moves() >= 3, what="three computer moves")
            return computers.fails, table.id
        finally:
            await lobby.shutdown()

    left, table_id = asyncio.run(scene())
    assert left == 0
    failed = [r for r in caplog.records if r.getMessage() == "a wake-up failed"]
    assert len(failed) == 3
    assert {getattr(r, "table", None) for r in failed} == {table_id}
    assert [getattr(r, "retry_seconds", None) for r in failed] == [0.01, 0.02, 0.04]
    assert all("the worker process died" in str(getattr(r, "cause", "")) for r in failed)
