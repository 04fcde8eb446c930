"""Quick reactions: a player's reaction reaches everyone at the table, a spectator's is
refused, a seat past its limit is refused with when it may send again, and a reaction is
never part of the table's log or record."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from foxtrot.web.protocol import REACTIONS, ProtocolError, parse_client
from foxtrot.web.table.reactions import ReactionLimits

from .web_support import create, join, player, server

pytestmark = pytest.mark.timeout(120)


def test_a_reaction_reaches_everyone_and_a_spectator_cannot_send(sqlite_url: str) -> None:
    with server(sqlite_url, reaction_limit=(3, 3600.0)) as client:
        table = create(client, options={"players": 2})["table"]
        ann, bob = join(client, table, "Ann"), join(client, table, "Bob")
        with (
            player(client, table, ann["token"]) as a,
            player(client, table, bob["token"]) as b,
            player(client, table, None) as watcher,
        ):
            a.send(type="react", reaction="well_played")
            for p in (a, b, watcher):
                got = p.until(lambda m: m["type"] == "reaction")
                assert got == {"type": "reaction", "seat": ann["seat"], "reaction": "well_played"}
            watcher.send(type="react", reaction="oops")
            refused = watcher.error()
            assert refused["code"] == "spectator" and "spectator" in refused["message"]
            b.send(type="react", reaction="free text")
            assert b.error()["code"] == "bad_schema"
            for reaction in ("clap", "sweat"):
                a.send(type="react", reaction=reaction)
                assert b.until(lambda m: m["type"] == "reaction")["reaction"] == reaction
            a.send(type="react", reaction="thanks")
            limited = a.until(lambda m: m["type"] == "error")
            assert limited["code"] == "throttled" and limited["reason"] == "reactions"
            assert "at most 3 reactions" in limited["message"]
            b.send(type="react", reaction="thanks")  # each seat has its own limit
            assert a.until(lambda m: m["type"] == "reaction")["seat"] == bob["seat"]
            a.send(type="ping")
            a.until(lambda m: m["type"] == "pong")
        # never a rule event: not in the log the server keeps
        events = client.get(f"/api/tables/{table}/replay").json()
        assert "well_played" not in json.dumps(events)


def test_only_the_fixed_reactions_parse() -> None:
    for reaction in REACTIONS:
        assert parse_client(json.dumps({"type": "react", "reaction": reaction})).type == "react"
    with pytest.raises(ProtocolError, match="reaction"):
        parse_client(json.dumps({"type": "react", "reaction": "hello there"}))


@given(st.lists(st.floats(min_value=0, max_value=5, allow_nan=False), max_size=30))
def test_never_more_than_count_in_any_window(gaps: list[float]) -> None:
    now = [0.0]
    limits = ReactionLimits(count=3, seconds=10.0, clock=lambda: now[0])
    sent: list[float] = []
    for gap in gaps:
        now[0] += gap
        if limits.wait("t", 0) == 0:
            sent.append(now[0])
    for i, at in enumerate(sent):
        assert sum(1 for other in sent[i:] if other < at + 10.0) <= 3
