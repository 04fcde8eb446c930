"""Hidden information, as a property: random matches through the server with random disconnects.

No message to a seat or a spectator contains, in any field (views, events,
narration, errors, presence), a card that connection may not see in that deal
(rules V1-V3): a seat may see its own hands and every card played or turned
up; a spectator only the latter.  No message carries a token, and no server
seed appears before its deal's reveal.
"""

from __future__ import annotations

import bisect
import json
import random
import re
import shutil
import tempfile
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from foxtrot.core import replay
from foxtrot.web.store.event_log import Store

from .web_support import Player, create, join, server

pytestmark = pytest.mark.timeout(600)
_CANONICAL = re.compile(r"(?<![A-Za-z0-9])(10|[2-9JQKA])([SHDC])(?![A-Za-z0-9])")
_DISPLAY = re.compile(r"(10|[2-9JQKAВДКТ])([♠♥♦♣])")
_RANKS = {"В": "J", "Д": "Q", "К": "K", "Т": "A"}
_SUITS = dict(zip("♠♥♦♣", "SHDC", strict=True))


def cards_in(text: str) -> set[str]:
    """Every card named in a message, in canonical or display notation."""
    found = {rank + suit for rank, suit in _CANONICAL.findall(text)}
    found |= {_RANKS.get(rank, rank) + _SUITS[suit] for rank, suit in _DISPLAY.findall(text)}
    return found


class Watcher:
    """A connection that may drop and come back; keeps (deal, text) of every message."""

    def __init__(self, client: Any, table: str, token: str | None, lang: str) -> None:
        self.client, self.table, self.token, self.lang = client, table, token, lang
        self.deal = -1
        self.log: list[tuple[int, str]] = []
        self.ctx: Any = None
        self.player: Player | None = None

    def open(self, resume: bool) -> None:
        self.ctx = self.client.websocket_connect(f"/ws/tables/{self.table}")
        self.player = Player(self.ctx.__enter__())
        hello: dict[str, Any] = {"type": "hello", "lang": self.lang}
        if self.token:
            hello["token"] = self.token
        if resume and self.log:
            hello["last_seq"] = self.seq
        self.player.send(**hello)
        self.drain_to(None)

    @property
    def seq(self) -> int:
        return self.player.seq if self.player else 0

    def close(self) -> None:
        if self.ctx is not None:
            self.ctx.__exit__(None, None, None)
            self.ctx, self.player = None, None

    def note(self, message: dict[str, Any]) -> None:
        if message["type"] in ("event", "snapshot", "welcome"):
            self.deal = int(message["seq"])  # the table's sequence number this message is at
        self.log.append((self.deal, json.dumps(message, ensure_ascii=False)))

    def drain_to(self, seq: int | None) -> None:
        """Read until the snapshot (``seq`` None) or until the event of ``seq``."""
        assert self.player is not None
        if seq is not None and self.player.seq >= seq:
            return
        while True:
            message = self.player.recv()
            self.note(message)
            if seq is None and message["type"] == "snapshot":
                return
            if (
                seq is not None
                and message["type"] in ("event", "snapshot")
                and message["seq"] >= seq
            ):
                return


def seen_by_seq(
    record: dict[str, Any], events: list[Any], seat: int | None
) -> tuple[list[int], list[set[str]]]:
    """What ``seat`` (None: a spectator) had seen in the deal at each sequence number.

    The record's steps (a deal dealt, an action) are the log's ``deal`` and
    ``action`` events, one for one, so each step has its sequence number.
    """
    steps = [event.seq for event in events if event.kind in ("deal", "action")]
    seqs: list[int] = []
    seen: list[set[str]] = []
    for seq, step in zip(steps, replay(record), strict=True):
        obs = step.state.observation(seat if seat is not None else 0)
        now = {str(obs.upturned)} if step.action is None else set(seen[-1])
        if seat is not None:
            now |= {str(card) for card in obs.hand}
        if step.move is not None and step.move.card is not None:
            now.add(str(step.move.card))
        seqs.append(seq)
        seen.append(now)
    return seqs, seen


plans = st.fixed_dictionaries(
    {
        "players": st.integers(2, 3),
        "people": st.integers(1, 3),
        "take": st.sampled_from(["any", "match"]),
        "grace": st.sampled_from([0.0, 0.05, 30.0]),
        "seed": st.integers(0, 2**32),
        "lang": st.sampled_from(["en", "ru", "uk"]),
    }
)


@given(plans)
@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_message_carries_a_card_its_reader_may_not_see(plan: dict[str, Any]) -> None:
    rng = random.Random(plan["seed"])
    players = plan["players"]
    people = min(plan["people"], players)
    seats: list[dict[str, Any]] = [{}] * people + [{"kind": "easy"}] * (players - people)
    folder = tempfile.mkdtemp(prefix="foxtrot-hidden-")
    with server(f"sqlite:///{folder}/server.db", message_rate=10000) as client:
        table = create(
            client,
            seats=seats,
            grace_seconds=plan["grace"],
            options={"players": players, "take": plan["take"], "target": 1},
        )["table"]
        tokens = [join(client, table, f"P{i}")["token"] for i in range(people)]
        spectator = Watcher(client, table, None, plan["lang"])
        persons = [Watcher(client, table, token, plan["lang"]) for token in tokens]
        try:
            spectator.open(False)
            for person in persons:
                person.open(False)
            for _ in range(3000):
                info = client.get(f"/api/tables/{table}").json()
                for watcher in [spectator, *[p for p in persons if p.player]]:
                    watcher.drain_to(info["seq"])
                if info["status"] == "over":
                    break
                if rng.random() < 0.08:  # a random disconnect, or a return
                    person = rng.choice(persons)
                    if person.player:
                        person.close()
                    else:
                        person.open(resume=rng.random() < 0.7)
                movers = [
                    p for p in persons if p.player and p.player.view and p.player.view["legal"]
                ]
                for person in movers:
                    assert person.player is not None and person.player.view is not None
                    assert spectator.player is not None and spectator.player.view is not None
                    view = person.player.view
                    if view["deal"] == spectator.player.view["deal"] and person.seq == info["seq"]:
                        choice = rng.choice(view["legal"])
                        person.player.send(
                            type="action", id=f"{info['seq']}", seq=info["seq"], action=choice
                        )
                time.sleep(0.002)
            assert info["status"] == "over"
            for person in persons:
                if not person.player:
                    person.open(resume=True)
            record = client.get(
                f"/api/tables/{table}/record", headers={"Authorization": f"Bearer {tokens[0]}"}
            ).json()
        finally:  # every connection ends before the server stops, even on a failure
            for watcher in [spectator, *persons]:
                watcher.close()
        events = Store(f"sqlite:///{folder}/server.db").load(table).events  # type: ignore[union-attr]
    shutil.rmtree(folder, ignore_errors=True)
    server_seeds = [deal["fair"]["server_seed"] for deal in record["deals"]]
    for seat, watcher in [(None, spectator), *enumerate(persons)]:
        seqs, seen = seen_by_seq(record, events, seat)
        revealed = 0
        for seq, text in watcher.log:
            for token in tokens:
                assert token not in text
            for index, seed in enumerate(server_seeds):
                if seed in text:
                    assert '"reveal"' in text or index < revealed
                    revealed = max(revealed, index + 1)
            at = bisect.bisect_right(seqs, seq) - 1
            allowed = seen[at] if at >= 0 else set()
            named = cards_in(text)
            assert named <= allowed, (seat, seq, named - allowed, text[:300])
