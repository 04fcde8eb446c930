"""``POST /api/analysis`` (web/http/analysis.py): frames of the analysis board.

The coach's values agree with ``foxtrot hint``'s on the same position; no answer before the
match is over (nor with ``hands`` off after it) names a card the analysing seat could not see
(the leak checker of the table's tests, ``cards_in``); bad positions, bad moves and floods
are refused with a clear message.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from foxtrot.analysis import Board, LineError
from foxtrot.bots.coach import suggest
from foxtrot.core import Phase, State
from foxtrot.web.http.analysis import SAMPLES, Analyst, Ask, frame_json
from foxtrot.web.http.review import finished_deals
from foxtrot.web.protocol import ProtocolError
from waiting import wait_until

from .test_web_hidden import cards_in
from .web_support import create, join, server

pytestmark = pytest.mark.timeout(300)


def _match(client: TestClient, target: int) -> tuple[str, str]:
    """A match of a person (seat 0, never connected: a computer plays for him) and an easy
    computer: (table, the person's token)."""
    table = create(
        client,
        options={"players": 2, "target": target},
        seats=[{"kind": "person"}, {"kind": "easy"}],
        grace_seconds=0,
        bot_delay=0.02,
    )["table"]
    return table, str(join(client, table, "Ann")["token"])


def _ask(client: TestClient, token: str | None = None, **body: Any) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return client.post("/api/analysis", json=body, headers=headers)


def visible(state: State, seat: int) -> set[str]:
    """The cards ``seat`` may see at ``state``: its hand, and every card of the deal played
    or turned up (the history, the pile, the upturned card)."""
    obs = state.observation(seat)
    seen = {str(card) for card in obs.hand} | {str(card) for card in obs.pile}
    seen |= {str(action) for _, action in obs.history if action.card is not None}
    if obs.upturned is not None:
        seen.add(str(obs.upturned))
    for cards in obs.foxtrots:
        seen |= {str(card) for card in cards}
    return seen


def test_a_finished_match_is_analysed_by_anyone(sqlite_url: str) -> None:
    with server(sqlite_url) as client:
        table, token = _match(client, target=1)
        wait_until(
            lambda: client.get(f"/api/tables/{table}").json()["status"] == "over",
            timeout=120,
            what="the match's end",
        )
        record = client.get(
            f"/api/tables/{table}/record", headers={"Authorization": f"Bearer {token}"}
        ).json()
        board = Board.from_record(record, 1, 2)
        line: list[str] = []
        for _ in range(3):  # the position, then two moves tried: the worst each time
            answer = _ask(client, table=table, deal=1, move=2, line=line, lang="en")
            assert answer.status_code == 200, answer.text
            frame = answer.json()
            state = board.at(line).state
            seat = board.seat
            assert frame["line"] == line and frame["seat"] == seat
            text = json.dumps(frame, ensure_ascii=False)
            assert cards_in(text) <= visible(state, seat), "a hidden card in a frame"
            mover = frame["mover"]
            if mover != seat:  # another seat: its moves are offered with every hand shown
                assert frame["moves"] == [] and frame["recorded"] is None
                shown = _ask(client, table=table, deal=1, move=2, line=line, hands=True).json()
                assert shown["view"]["hands"] == [
                    [str(card) for card in state.hand(s)] for s in range(2)
                ]
                assert State.from_text(shown["position"]) == state
                frame = shown
            obs = state.observation(mover)
            hint = suggest(obs, iterations=SAMPLES, seconds=None)
            values = {move["action"]: move["value"] for move in frame["moves"]}
            if len(values) > 1:  # the hint's move and value, and the next best's
                assert values[str(hint.action)] == round(hint.value or 0.0, 1)
                assert hint.alternative is not None
                assert values[str(hint.alternative)] == round(hint.alternative_value or 0.0, 1)
                assert max(values.values()) == values[str(hint.action)]
            line.append(frame["moves"][-1]["action"])
        bad = _ask(client, table=table, deal=1, move=2, line=["ZZ"])
        assert bad.status_code == 400
        assert "move 1 of the line: bad action 'ZZ'" in bad.json()["message"]
        illegal = _ask(client, table=table, deal=1, move=2, line=["take", "take"])
        assert illegal.status_code == 400
        assert "is not a legal move" in illegal.json()["message"]
        nowhere = _ask(client, table=table, deal=9)
        assert "deal 9: the record has" in nowhere.json()["message"]


def test_a_deal_of_a_match_in_play_shows_only_the_seat(sqlite_url: str) -> None:
    with server(sqlite_url) as client:
        table, token = _match(client, target=100_000)
        lobby = client.app.state.lobby_holder["lobby"]  # type: ignore[attr-defined]
        actor = lobby.tables[table]

        def ended() -> dict[str, Any] | None:
            try:
                return client.portal.call(finished_deals, actor, 0)  # type: ignore[union-attr]
            except ProtocolError:
                return None

        record = wait_until(ended, timeout=120, what="the first deal's end")
        assert record is not None
        assert _ask(client, table=table, deal=1).json()["code"] == "no_token"
        assert _ask(client, token, table=table, deal=1, seat=1).json()["code"] == "wrong_seat"
        assert _ask(client, token, table=table, deal=1, hands=True).status_code == 409
        board = Board.from_record(record, 1, 1, 0, open=False)
        line: list[str] = []
        for _ in range(12):  # along the record for the other seat, own moves tried
            answer = _ask(client, token, table=table, deal=1, line=line)
            assert answer.status_code == 200, answer.text
            frame = answer.json()
            state = board.at(line).state
            assert not frame["open"] and "hands" not in frame["view"]
            assert "position" not in frame
            text = json.dumps(frame, ensure_ascii=False)
            assert cards_in(text) <= visible(state, 0), "a hidden card before the end"
            if state.phase is not Phase.PLAYING:
                break
            if frame["mover"] == 0:
                assert frame["moves"], frame
                line.append(frame["moves"][0]["action"])
            else:
                assert frame["moves"] == [] and frame["recorded"] is None
                if not frame["follow"]:  # the line left the record: the other seat is hidden
                    hidden = state.observation(state.to_move or 0).legal_actions[0]
                    refused = _ask(client, token, table=table, deal=1, line=[*line, str(hidden)])
                    assert "hidden until the match is over" in refused.json()["message"]
                    break
                line.append("played")


def test_bad_requests_and_floods_are_refused(sqlite_url: str) -> None:
    with server(sqlite_url) as client:
        both = _ask(client, table="x", deal=1, position="y")
        assert both.status_code == 400 and "a table" in both.json()["message"]
        text = _ask(client, position="2:match:no:discard nonsense")
        assert text.status_code == 400
        assert "not the 16 fields of a position" in text.json()["message"]
        assert _ask(client, position="x", lang="xx").status_code == 400
        assert _ask(client, position="x", line=["x" * 20]).status_code == 400
        assert _ask(client, table="nosuchtable", deal=1).status_code == 404
    analyst = Analyst(rate=3)
    now = time.monotonic()
    for _ in range(3):
        analyst.admit("1.2.3.4", now)
    with pytest.raises(ProtocolError, match="at most 3 analysis frames a minute"):
        analyst.admit("1.2.3.4", now)
    analyst.admit("5.6.7.8", now)  # another client is not held back
    analyst.admit("1.2.3.4", now + 61)  # a minute later it may ask again


@pytest.fixture(scope="module")
def deal_in_play() -> dict[str, Any]:
    """The record of the first deal of a match still being played (as ``finished_deals``
    gives it): two players, random legal moves."""
    from foxtrot.core import SplitMix64, TableOptions, to_record  # noqa: PLC0415

    rng = SplitMix64(5)
    state = State(TableOptions(players=2, target=100_000), dealer=0)
    state.deal(rng)
    while state.phase is Phase.PLAYING:
        seat = state.to_move
        assert seat is not None
        state.apply(rng.choice(state.observation(seat).legal_actions))
    return to_record(state)


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    move=st.integers(1, 40),
    seat=st.integers(0, 1),
    picks=st.lists(st.one_of(st.just(-1), st.integers(0, 20)), max_size=12),
)
def test_no_frame_before_the_end_names_a_hidden_card(
    deal_in_play: dict[str, Any], move: int, seat: int, picks: list[int]
) -> None:
    """Any line from any position of a deal of a match in play, seen by either seat: every
    frame the worker computes (or the refusal it gives) names only cards that seat may see."""
    board = Board.from_record(deal_in_play, 1, move, seat, open=False)
    line: list[str] = []
    for pick in picks:  # -1: the move made; else one of the seat's own legal moves
        frame = board.at(line)
        if frame.mover is None:
            break
        if frame.mover == seat and pick >= 0:
            legal = frame.state.observation(seat).legal_actions
            line.append(str(legal[pick % len(legal)]))
        elif frame.recorded is not None:
            line.append("played")
        else:
            line.append("take")  # a hidden seat's move off the record: refused below
            break
    ask = Ask(deal_in_play, (1, move), seat, tuple(line), False, False, "en", 4)
    try:
        answer = frame_json(ask)
    except LineError as error:  # a hidden seat's move off the record: the refusal names
        assert "hidden until the match is over" in str(error)  # no hidden card either
        assert cards_in(str(error)) <= visible(board.at(line[:-1]).state, seat)
        return
    state = board.at(line).state
    assert cards_in(json.dumps(answer, ensure_ascii=False)) <= visible(state, seat)
    assert "hands" not in answer["view"] and "position" not in answer


def test_frames_are_computed_in_turn_between_clients_and_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One client's burst does not hold another's frame back (the fair queue), and a frame
    asked again is the kept one, not computed again."""
    import asyncio  # noqa: PLC0415
    from concurrent.futures import ThreadPoolExecutor  # noqa: PLC0415

    from foxtrot.web.http import analysis  # noqa: PLC0415

    computed: list[str] = []

    def compute(ask: Ask) -> dict[str, Any]:
        computed.append(ask.lang)
        return {"frame": ask.lang}

    monkeypatch.setattr(analysis, "_safe_frame", compute)

    def ask(name: str) -> Ask:
        return Ask("text", None, None, (), False, True, name)

    async def burst() -> list[Any]:
        analyst = Analyst(pool=ThreadPoolExecutor(1))
        try:
            asks = [analyst.frame("A", ("a", i), ask(f"a{i}")) for i in range(4)]
            got = await asyncio.gather(*asks, analyst.frame("B", ("b",), ask("b")))
            got.append(await analyst.frame("B", ("b",), ask("b")))
            return got
        finally:
            analyst.close()

    got = asyncio.run(burst())
    assert [frame["frame"] for frame in got] == ["a0", "a1", "a2", "a3", "b", "b"]
    assert computed == ["a0", "a1", "b", "a2", "a3"]  # B's frame before A's third
