"""The example bot (examples/bot_player.py, greedy through ``foxtrot.client``) plays a whole
match at a real server (``foxtrot serve`` in a subprocess) against a person and a computer;
its token is in no line of the server's log."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from foxtrot.client import BotClient, BotRefusedError
from waiting import wait_until

from .passkey_support import Passkey
from .web_support import ServerProcess, create_at, join_at

ROOT = Path(__file__).resolve().parents[2]
#: How long the whole match may take on a machine with every core busy (a bound, not a goal).
MATCH_SECONDS = 240.0


def account_with_bot(base: str) -> tuple[httpx.Client, str]:
    """Register an account at ``base`` with a software passkey and create a bot; the signed-in
    client and the bot's token."""
    client = httpx.Client(base_url=base, timeout=30)
    begun = client.post("/api/account/register", json={"name": "Owner", "lang": "en"})
    assert begun.status_code == 200, begun.text
    key = Passkey("127.0.0.1", base)
    done = client.post(
        "/api/account/register/finish",
        json={
            "challenge": begun.json()["challenge"],
            "credential": key.create(begun.json()["options"]),
        },
    )
    assert done.status_code == 200, done.text
    made = client.post(
        "/api/account/bots", json={"name": "Greedy"}, headers={"X-CSRF-Token": done.json()["csrf"]}
    )
    assert made.status_code == 201, made.text
    return client, str(made.json()["token"])


def refused(base: str, token: str) -> str:
    """The code ``foxtrot.client`` raises when it connects with ``token``."""

    async def attempt() -> str:
        try:
            client = await BotClient.connect(base, token)
        except BotRefusedError as error:
            return error.code
        await client.close()
        return "welcomed"

    return asyncio.run(attempt())


def play_person(ws_url: str, token: str, deadline: float) -> dict[str, Any]:
    """A person who plays the first legal action each turn until the match is over; the
    last view."""
    view: dict[str, Any] = {}
    seq, acted = 0, -1
    with connect(ws_url) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        while view.get("phase") != "over":
            left = deadline - time.monotonic()
            assert left > 0, "the match did not end in time"
            message = json.loads(ws.recv(timeout=left))
            if message["type"] in ("event", "snapshot"):
                seq = max(seq, int(message["seq"]))
                view = message.get("view") or view
            if message["type"] == "error" and message.get("id"):
                acted = -1  # refused (the turn moved on): answer the next view
            if view.get("legal") and view.get("to_move") == view.get("seat") and acted != seq:
                acted = seq
                action = {"type": "action", "id": f"p{seq}", "seq": seq, "action": view["legal"][0]}
                ws.send(json.dumps(action))
    return view


@pytest.mark.slow
def test_the_example_bot_plays_a_whole_match(sqlite_url: str, tmp_path: Path) -> None:
    served = ServerProcess(sqlite_url, tmp_path)
    served.start()
    try:
        owner, token = account_with_bot(served.base)
        table = create_at(
            served.base,
            options={"players": 3, "target": 60},
            seats=[{"kind": "person"}, {"kind": "person"}, {"kind": "easy"}],
        )
        env = os.environ | {
            "FOXTROT_BOT_TOKEN": token,
            "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")]),
        }
        out = (tmp_path / "bot.out").open("w")
        bot = subprocess.Popen(
            [
                *(sys.executable, str(ROOT / "examples" / "bot_player.py")),
                *("--server", served.base, "--table", table, "--seed", "7"),
            ],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        try:
            wait_until(
                lambda: httpx.get(f"{served.base}/api/tables/{table}").json()["seats"][0]["taken"],
                what="the bot in its seat",
            )
            # while it plays: a bad token, and a second connection of the same bot, refused
            assert refused(served.base, "fxbot_" + "x" * 43) == "bad_token"
            assert refused(served.base, token) == "bot_connected"
            person = join_at(served.base, table, "Ann")
            deadline = time.monotonic() + MATCH_SECONDS
            final = play_person(f"{served.ws_base}/ws/tables/{table}", person, deadline)
            code = wait_until(lambda: bot.poll() is not None, what="the bot's exit") and bot.poll()
        finally:
            if bot.poll() is None:
                bot.kill()
            out.close()
        said = (tmp_path / "bot.out").read_text()
        assert code == 0, said
        assert f"match over: totals {final['totals']}, winner seat {final['winner']}" in said
        assert final["names"][0] == "BOT Greedy" and final["winner"] is not None
        assert max(final["totals"]) >= 60
        # the bots' pool rated it; the person's account (who did not play) is not moved
        listed = wait_until(
            lambda: [b for b in owner.get("/api/account/bots").json()["bots"] if b["rating"]],
            what="the bot's rating",
        )
        assert listed[0]["rating"]["matches"] == 1
        profile = owner.get("/api/players/Owner").json()
        assert profile["rating"] is None and profile["matches"] == []
    finally:
        served.stop()
    logged = "".join(path.read_text() for path in tmp_path.glob("server-*.log"))
    assert "bot connected" in logged and "bot seated" in logged
    assert token.removeprefix("fxbot_") not in logged
