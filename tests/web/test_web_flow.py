"""The flow between moves: the pause after a deal until Next deal, undo against
computers (the terminal game's rule), the rematch of a finished table, and deal 1 waiting for
every person's seed."""

from __future__ import annotations

import asyncio
import itertools
import time
from typing import Any

import pytest

from foxtrot.web.lobby import Lobby
from foxtrot.web.protocol import CreateTable, ProtocolError
from foxtrot.web.store.event_log import Store
from foxtrot.web.table import actor as table_actor
from waiting import wait_until_async

from .web_support import Player, create, join, player, server

pytestmark = pytest.mark.timeout(120)
_ids = itertools.count()


def play_first_legal_until(p: Player, done: Any) -> None:
    """Play the first legal action whenever it is this seat's turn, until ``done(p)``."""
    while not done(p):
        view = p.latest
        if view.get("legal") and view["phase"] == "playing":
            answer = p.act(view["legal"][0], f"a{next(_ids)}")
            assert answer["type"] == "ack", answer
        else:
            p.recv()


def deal_over(p: Player) -> bool:
    return p.view is not None and p.view["phase"] == "awaiting_deal" and bool(p.view["deal_scores"])


def test_the_table_waits_for_next_deal(db_url: str) -> None:
    with server(db_url) as client:
        table = create(
            client,
            options={"players": 2, "target": 10_000},
            seats=[{"kind": "person"}, {"kind": "easy"}],
            bot_delay=0,
            seed_seconds=0,
            deal_pause_seconds=60,
        )["table"]
        ann = join(client, table, "Ann", 0)
        with player(client, table, ann["token"]) as a:
            before = time.time()  # the pause begins later: it ends a minute after this at least
            play_first_legal_until(a, deal_over)
            paused = a.until(lambda m: m["type"] == "presence" and m["next_deal_waits"] == [0])
            assert paused["next_deal_at"] >= before + 59.9  # the table plans to wait a minute
            # Nothing deals while the table waits: a ping answered after the pause began shows
            # the table still at the deal's end (a computer, bot_delay 0, would have dealt at
            # once), with no deal among the messages in between; the deal comes on Next deal.
            a.send(type="ping")
            between: list[dict[str, Any]] = []
            while (message := a.recv())["type"] != "pong":
                between.append(message)
            assert not [m for m in between if m.get("kind") == "deal"], between
            assert a.latest["phase"] == "awaiting_deal"
            assert client.get(f"/api/tables/{table}").json()["seq"] == a.seq
            a.send(type="next_deal", deal=0)
            started = a.until(lambda m: m["type"] == "event" and m["kind"] == "deal")
            assert started["data"]["deal"] == 1


def test_undo_against_computers_restores_the_position(db_url: str) -> None:
    with server(db_url) as client:
        table = create(
            client,
            options={"players": 3, "target": 10_000},
            seats=[{"kind": "person"}, {"kind": "easy"}, {"kind": "easy"}],
            bot_delay=0,
            seed_seconds=0,
            first_dealer=2,
        )["table"]
        ann = join(client, table, "Ann", 0)
        with player(client, table, ann["token"]) as a:
            before = dict(a.my_turn())
            answer = a.act(before["legal"][0], "first")
            assert answer["type"] == "ack"
            a.until(lambda m: m["type"] == "event" and m["view"]["to_move"] == 0)  # both replied
            assert a.latest["hand"] != before["hand"]
            a.send(type="undo")
            undone = a.until(lambda m: m["type"] == "event" and m["kind"] == "undo")
            assert undone["data"]["undone"] == 3  # Ann's move and the two replies
            assert "Ann takes back a move." in undone["text"]
            after = undone["view"]
            for key in ("hand", "pile", "hand_sizes", "stock", "history", "to_move"):
                assert after[key] == before[key], key
            # nothing of Ann's in this deal any more: a second undo is refused, nothing changes
            a.send(type="undo")
            refused = a.error()
            assert (refused["code"], refused["reason"]) == ("no_undo", "none")


def test_undo_is_refused_with_two_people(db_url: str) -> None:
    with server(db_url) as client:
        table = create(client, options={"players": 2}, seed_seconds=0)["table"]
        ann = join(client, table, "Ann", 0)
        bob = join(client, table, "Bob", 1)
        with player(client, table, ann["token"]) as a, player(client, table, bob["token"]):
            a.send(type="undo")
            refused = a.error()
            assert (refused["code"], refused["reason"]) == ("no_undo", "hot_seat")


def test_the_rematch_has_the_same_seats_and_options(db_url: str) -> None:
    with server(db_url) as client:
        body = {
            "options": {"players": 3, "target": 1, "take": "any"},
            "seats": [{"kind": "person"}, {"kind": "person"}, {"kind": "easy"}],
            "bot_delay": 0,
            "seed_seconds": 0,
            "grace_seconds": 0,  # Bob never comes: a computer plays for him at once
        }
        table = create(client, **body)["table"]
        ann = join(client, table, "Ann", 0)
        bob = join(client, table, "Bob", 1)

        def ask(token: str) -> Any:
            headers = {"Authorization": f"Bearer {token}"}
            return client.post(f"/api/tables/{table}/rematch", headers=headers)

        early = ask(ann["token"])
        assert early.status_code == 409 and early.json()["code"] == "not_finished", early.text
        with player(client, table, ann["token"]) as a:
            play_first_legal_until(a, lambda p: p.view is not None and p.view["phase"] == "over")
        with player(client, table, bob["token"]) as b:
            made = ask(ann["token"])
            assert made.status_code == 200, made.text
            new = made.json()["table"]
            assert made.json()["seat"] == 0
            told = b.until(lambda m: m["type"] == "event" and m["kind"] == "rematch")
            assert "Ann asks for a rematch." in told["text"]
        again = ask(bob["token"])  # Bob joins Ann's rematch, in his seat
        assert again.status_code == 200, again.text
        assert (again.json()["table"], again.json()["seat"]) == (new, 1)
        summary = client.get(f"/api/tables/{new}").json()
        old = client.get(f"/api/tables/{table}").json()
        assert old["rematch"] == new
        assert summary["options"] == old["options"]
        assert [s["kind"] for s in summary["seats"]] == ["person", "person", "easy"]
        assert [s["name"] for s in summary["seats"]] == ["Ann", "Bob", old["seats"][2]["name"]]
        assert summary["status"] == "playing"  # every seat is taken: it started


def test_deal_one_waits_for_every_persons_seed(db_url: str) -> None:
    """At the start nobody may be connected yet: deal 1 waits (up to seed_seconds) for the
    seed of every person, and takes it when it comes."""
    with server(db_url) as client:
        table = create(
            client,
            options={"players": 2},
            seats=[{"kind": "person"}, {"kind": "easy"}],
            seed_seconds=30,
        )["table"]
        ann = join(client, table, "Ann", 0)
        with player(client, table, ann["token"], last_seq=0) as a:  # every event again
            kinds = [m.get("kind") for m in a.received if m["type"] == "event"]
            assert kinds == ["join", "start", "commit"], kinds  # the catch-up, before the deal
            assert a.latest["phase"] == "awaiting_deal"  # not dealt without Ann's seed
            a.send(type="seed", deal=0, seed="ab" * 32)
            dealt = a.until(lambda m: m["type"] == "event" and m["kind"] == "deal")
            assert dealt["data"]["player_seeds"][0] == "ab" * 32


def in_lobby(path: Any, test: Any, **settings: Any) -> None:
    """Run ``test(lobby)`` in a booted lobby on a fresh SQLite file, then shut it down."""

    async def main_() -> None:
        lobby = Lobby(Store(f"sqlite:///{path}"), **settings)
        await lobby.boot()
        try:
            await test(lobby)
        finally:
            await lobby.shutdown()

    asyncio.run(main_())


def test_tables_of_computers_only_are_bounded_and_closed_when_unwatched(tmp_path: Any) -> None:
    """At most so many per address and per server (``busy``), and closed once nobody has
    watched them for ``unwatched_seconds``; the closed table's log stays."""
    plan = {"options": {"players": 2, "target": 10_000}, "seats": [{"kind": "easy"}] * 2}
    request = CreateTable.model_validate(plan | {"bot_delay": 0.05})

    async def test(lobby: Lobby) -> None:
        lobby.computer_tables = 3
        first = await lobby.create(request, client="10.0.0.1")
        await lobby.create(request, client="10.0.0.1")
        with pytest.raises(ProtocolError) as refused:
            await lobby.create(request, client="10.0.0.1")
        assert refused.value.code.value == "busy" and "your address" in refused.value.message
        await lobby.create(request, client="10.0.0.2")
        with pytest.raises(ProtocolError) as full:
            await lobby.create(request, client="10.0.0.3")
        assert "this server" in full.value.message
        lobby.unwatched_seconds = 0.3
        await wait_until_async(
            lambda: (
                first.status == "closed"
                and not [a for a in lobby.tables.values() if a.status == "playing"]
            ),
            what="every unwatched table of computers closed",
        )
        await lobby.create(request, client="10.0.0.1")  # room again
        row = await lobby.db(lobby.store.load, first.id)
        assert row is not None and row.status == "closed"

    in_lobby(tmp_path / "bots.db", test, heartbeat=0.05)


def test_a_long_match_keeps_only_the_last_events_in_memory(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table keeps the events a reconnecting client may be sent again (``CATCHUP_LIMIT``),
    not its whole log: a long match does not grow the server's memory (the log is stored)."""
    monkeypatch.setattr(table_actor, "CATCHUP_LIMIT", 5)
    plan = {"options": {"players": 2, "target": 10_000}, "seats": [{"kind": "easy"}] * 2}
    request = CreateTable.model_validate(plan | {"bot_delay": 0, "seed_seconds": 0})

    async def test(lobby: Lobby) -> None:
        actor = await lobby.create(request)
        while actor.seq < 40:
            await asyncio.sleep(0.05)
        assert len(actor.entries) <= 10
        assert [e.seq for e in actor.entries] == list(
            range(actor.entries[0].seq, actor.entries[-1].seq + 1)
        )
        assert actor.entries[-1].seq == actor.seq  # the newest are kept, in order

    in_lobby(tmp_path / "long.db", test)


def test_old_action_ids_are_forgotten_and_a_late_resend_is_stale(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ids kept to answer resends are bounded (``ACCEPTED_KEPT``); an id older than them,
    sent again, is refused as stale and never played twice."""
    monkeypatch.setattr(table_actor, "ACCEPTED_KEPT", 2)
    with server(db_url) as client:
        table = create(
            client,
            options={"players": 2, "target": 10_000},
            seats=[{"kind": "person"}, {"kind": "easy"}],
            first_dealer=1,
        )["table"]
        ann = join(client, table, "Ann", 0)
        with player(client, table, ann["token"]) as a:
            first = a.my_turn()
            sent_at = a.seq
            assert a.act(first["legal"][0], "old", seq=sent_at)["type"] == "ack"
            for i in range(6):
                view = a.my_turn()
                assert a.act(view["legal"][0], f"n{i}")["type"] == "ack"
            lobby = client.app.state.lobby_holder["lobby"]  # type: ignore[attr-defined]
            assert len(lobby.tables[table].accepted) <= 4
            moves = len(a.my_turn()["history"])  # the computer has replied: the table waits
            again = a.act(first["legal"][0], "old", seq=sent_at)
            assert (again["type"], again["code"]) == ("error", "stale_seq")
            assert len(a.latest["history"]) == moves
