"""Fixtures of the server tests: a database of each kind, a real PostgreSQL server, clients.

The PostgreSQL server is started by the tests themselves from Debian's
``postgresql`` package (``/usr/lib/postgresql/*/bin``): ``initdb`` in a fresh
folder, ``pg_ctl start`` on a free loopback port, under ``runuser -u postgres``
when the tests run as root.  Nothing is skipped: if PostgreSQL cannot be
started, every PostgreSQL test fails with the reason.
"""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from .web_support import free_port

_databases = itertools.count(1)


def _as_postgres(command: list[str]) -> list[str]:
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *command]
    return command


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A PostgreSQL server for this test session; yields its admin URL (psycopg 3)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    if not found:
        pytest.fail(
            "PostgreSQL is not installed (/usr/lib/postgresql/*/bin/pg_ctl is missing):"
            " apt-get install -y postgresql"
        )
    bindir = Path(found[-1]).parent
    folder = Path(tempfile.mkdtemp(prefix="foxtrot-pg-"))
    folder.chmod(0o755)
    data = folder / "data"
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
    port = free_port()
    try:
        subprocess.run(
            _as_postgres(
                [
                    str(bindir / "initdb"),
                    "-D",
                    str(data),
                    "-A",
                    "trust",
                    "-U",
                    "foxtrot",
                    "-E",
                    "UTF8",
                ]
            ),
            check=True,
            capture_output=True,
            text=True,
            timeout=120,
        )
        options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        subprocess.run(
            _as_postgres(
                [
                    str(bindir / "pg_ctl"),
                    "-D",
                    str(data),
                    "-o",
                    options,
                    "-l",
                    str(folder / "log"),
                    "-w",
                    "start",
                ]
            ),
            check=True,
            capture_output=True,
            text=True,
            timeout=120,
        )
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as error:
        detail = getattr(error, "stderr", "") or ""
        pytest.fail(f"PostgreSQL could not be started: {error} {detail}")
    try:
        yield f"postgresql+psycopg://foxtrot@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            _as_postgres([str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]),
            capture_output=True,
            check=False,
        )
        shutil.rmtree(folder, ignore_errors=True)


def new_postgres_database(admin_url: str) -> str:
    """A fresh, empty database on the session's server; its URL."""
    import sqlalchemy as sa  # noqa: PLC0415

    name = f"foxtrot_{os.getpid()}_{next(_databases)}"
    engine = sa.create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with engine.connect() as db:
        db.execute(sa.text(f'CREATE DATABASE "{name}"'))
    engine.dispose()
    return admin_url.rsplit("/", 1)[0] + f"/{name}"


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database: an SQLite file, or a new database on the PostgreSQL server."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'server.db'}"
    return new_postgres_database(request.getfixturevalue("postgres_server"))


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """A fresh SQLite database file."""
    return f"sqlite:///{tmp_path / 'server.db'}"


class RedisProcess:
    """A Redis server on a free loopback port, which a test may stop and start again (the
    same port and address: its clients reconnect as they would to a restarted server)."""

    def __init__(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.fail("redis-server is not installed: apt-get install -y redis-server")
        self.binary = binary
        self.folder = Path(tempfile.mkdtemp(prefix="foxtrot-redis-"))
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start it and wait until it answers PING (30 s at most)."""
        where = ["--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.folder)]
        options = ["--save", "", "--appendonly", "no", "--daemonize", "no"]
        self.proc = subprocess.Popen(
            [self.binary, *where, *options],
            stdout=open(self.folder / "log", "ab"),  # noqa: SIM115
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as sock:
                    sock.sendall(b"PING\r\n")
                    if sock.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(
                    f"redis-server could not be started: {(self.folder / 'log').read_text()}"
                )
            time.sleep(0.05)

    def stop(self) -> None:
        """Kill it (as a crash would) and wait until it has exited."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture(scope="session")
def redis_server() -> Iterator[str]:
    """A Redis server for this test session on a free loopback port; yields its URL."""
    redis = RedisProcess()
    try:
        redis.start()
        yield redis.url
    finally:
        redis.close()


def postgres_tool(name: str) -> list[str]:
    """The command of one of Debian's PostgreSQL programs (``pg_dump``, ``pg_restore``), run as
    the server of ``postgres_server`` is (as the postgres user when the tests run as root)."""
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if not found:
        pytest.fail(
            f"{name} is not installed (/usr/lib/postgresql/*/bin): apt-get install -y postgresql"
        )
    return _as_postgres([found[-1]])
