"""Whose address is a request's: the connection's, unless it came through a proxy the
operator named (``foxtrot serve --forwarded-allow-ips``).  uvicorn's own default believes
``X-Forwarded-For`` from 127.0.0.1, so a client on the machine (or behind a proxy that passes
the header through) could name a new address for each request and walk past every
per-address limit; here, the computers-only tables a client address may start."""

from __future__ import annotations

from pathlib import Path

import httpx

from .web_support import ServerProcess

COMPUTERS_ONLY = {"seats": [{"kind": "easy"}, {"kind": "easy"}], "seed_seconds": 0}


def start_three(base: str) -> list[int]:
    """Three computers-only tables, each asked from a different forged address."""
    return [
        httpx.post(
            f"{base}/api/tables",
            json=COMPUTERS_ONLY,
            headers={"X-Forwarded-For": f"203.0.113.{i}"},
            timeout=20,
        ).status_code
        for i in range(1, 4)
    ]


def test_a_forged_forwarded_address_is_not_believed(tmp_path: Path) -> None:
    server = ServerProcess(
        f"sqlite:///{tmp_path / 'a.db'}", tmp_path, "--computer-tables", "20", "2"
    )
    server.start()
    try:
        assert start_three(server.base) == [201, 201, 429]  # one address: the connection's
    finally:
        server.kill()


def test_the_named_proxy_is_believed(tmp_path: Path) -> None:
    server = ServerProcess(
        f"sqlite:///{tmp_path / 'b.db'}",
        tmp_path,
        "--computer-tables",
        "20",
        "2",
        "--forwarded-allow-ips",
        "127.0.0.1",
    )
    server.start()
    try:
        assert start_three(server.base) == [201, 201, 201]  # three clients of the proxy
    finally:
        server.kill()
