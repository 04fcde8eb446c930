"""Behind a real proxy: Debian's nginx, with the site file shipped in examples/deploy/nginx.conf,
in front of two ``foxtrot serve --bus`` processes; and a backup restored with ``pg_restore``.

- A match played through nginx (TLS, WebSockets upgraded) survives ``kill -9`` of the process
  its clients were connected to: they reconnect through nginx to the other process, which takes
  the table over, and nothing is lost (every acknowledged action in the log once, no gap).
- The client address is nginx's ``$remote_addr``, believed from nginx only: a client's own
  ``X-Forwarded-For`` passes neither through nginx nor straight to a process, so the
  per-address limit (the computers-only tables one address may start) holds.
- ``pg_dump -Fc`` of a live server's database, restored with ``pg_restore`` into a fresh one,
  serves the same tables, replays and records.
"""

from __future__ import annotations

import json
import os
import re
import signal
import ssl
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, cast

import httpx
import pytest
from websockets.exceptions import WebSocketException
from websockets.sync.client import connect

from .conftest import new_postgres_database, postgres_tool
from .test_web_cluster import (
    Client,
    Cluster,
    check_against_log,
    status,
    wait_caught_up,
    wait_for,
    wait_over,
)
from .web_support import ServerProcess, create_at, free_port, join_at

pytestmark = pytest.mark.timeout(420)
NGINX = Path("/usr/sbin/nginx")
ROOT = Path(__file__).parents[2]
SITE = ROOT / "examples" / "deploy" / "nginx.conf"
UNIT = ROOT / "examples" / "deploy" / "foxtrot@.service"
GUIDE = ROOT / "docs" / "guide" / "operating.md"
LEASE = "1.5"
COMPUTERS_ONLY = {
    "seats": [{"kind": "easy"}, {"kind": "easy"}],
    "seed_seconds": 0,
    "bot_delay": 10,  # they play on for the whole test: the limit counts tables playing
}


def fill(site: str, upstreams: list[int], port: int, plain_port: int, cert: Path) -> str:
    """The shipped site file with this test's ports and certificate; every change is checked
    to have been made, so that a site file changed out of this test's sight fails it."""

    def sub(pattern: str, new: str | Callable[[re.Match[str]], str], text: str, count: int) -> str:
        changed, made = re.subn(pattern, new, text, flags=re.MULTILINE)
        assert made == count, f"{SITE} no longer has {count} x {pattern!r}"
        return changed

    ports = iter(upstreams)
    site = sub(
        r"^(\s*)server 127\.0\.0\.1:\d+;",
        lambda m: f"{m[1]}server 127.0.0.1:{next(ports)};",
        site,
        2,
    )
    site = sub(r"^\s*listen \[::\]:\d+( ssl)?;\n", "", site, 2)
    site = sub(r"listen 443 ssl;", f"listen 127.0.0.1:{port} ssl;", site, 1)
    site = sub(r"listen 80;", f"listen 127.0.0.1:{plain_port};", site, 1)
    site = sub(r"ssl_certificate\s+\S+;", f"ssl_certificate {cert};", site, 1)
    return sub(
        r"ssl_certificate_key\s+\S+;", f"ssl_certificate_key {cert.with_suffix('.key')};", site, 1
    )


class Nginx:
    """Debian's nginx in the foreground, a child of the test, serving the shipped site file on
    free loopback ports (HTTPS, and plain HTTP that redirects) in front of ``upstreams``."""

    def __init__(self, folder: Path, upstreams: list[int]) -> None:
        if not NGINX.exists():
            pytest.fail(f"nginx is not installed ({NGINX} is missing): apt-get install -y nginx")
        self.folder = folder
        folder.mkdir()
        self.port, self.plain_port = free_port(), free_port()
        self.base = f"https://127.0.0.1:{self.port}"
        self.ws_base = f"wss://127.0.0.1:{self.port}"
        self.cert = folder / "cert.pem"
        subprocess.run(
            [
                "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                "-keyout", str(self.cert.with_suffix(".key")), "-out", str(self.cert),
            ],
            check=True,
            capture_output=True,
            timeout=60,
        )  # fmt: skip
        site = fill(SITE.read_text(), upstreams, self.port, self.plain_port, self.cert)
        (folder / "foxtrot.conf").write_text(site)
        temp = "\n".join(
            f"    {kind}_temp_path {folder / kind};"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        # As root nginx's workers would run as nobody, who cannot read the test's folder.
        user = "user root;\n" if os.geteuid() == 0 else ""
        (folder / "nginx.conf").write_text(
            f"{user}worker_processes 1;\nevents {{ worker_connections 512; }}\n"
            f"http {{\n    access_log off;\n{temp}\n    include {folder / 'foxtrot.conf'};\n}}\n"
        )
        self.log = folder / "nginx.log"
        self.proc = subprocess.Popen(
            [
                str(NGINX), "-p", str(folder), "-c", str(folder / "nginx.conf"), "-e", "stderr",
                "-g", f"daemon off; pid {folder / 'nginx.pid'}; error_log stderr;",
            ],
            stdout=subprocess.DEVNULL,
            stderr=open(self.log, "ab"),  # noqa: SIM115
        )  # fmt: skip
        self.context = ssl.create_default_context(cafile=str(self.cert))

    def client(self, source: str = "127.0.0.1") -> httpx.Client:
        """An HTTPS client of nginx whose connections come from ``source`` (any of 127/8)."""
        transport = httpx.HTTPTransport(verify=self.context, local_address=source)
        return httpx.Client(base_url=self.base, transport=transport, timeout=20)

    def wait_ready(self, timeout: float = 60.0) -> None:
        """Wait until nginx answers /healthz from a process."""
        deadline = time.monotonic() + timeout
        with self.client() as client:
            while True:
                assert self.proc.poll() is None, f"nginx exited: {self.log.read_text()}"
                try:
                    if client.get("/healthz").json() == {"status": "ok"}:
                        return
                except (httpx.HTTPError, ValueError):
                    pass
                assert time.monotonic() < deadline, f"nginx never answered: {self.log.read_text()}"
                time.sleep(0.05)

    def stop(self) -> None:
        """A fast shutdown (SIGTERM), waited for: no nginx is left running."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class ProxiedCluster(Cluster):
    """Two processes as an operator runs them behind nginx: nginx's address is believed."""

    def _new(self) -> ServerProcess:
        return ServerProcess(
            self.db,
            self.home,
            "--bus",
            self.bus,
            "--lease-seconds",
            LEASE,
            "--forwarded-allow-ips",
            "127.0.0.1",
            "--computer-tables",
            "20",
            "2",
        )


class OneAddressClient(Client):
    """A person of ``test_web_cluster`` who always connects to one address (nginx's)."""

    def __init__(self, cluster: Cluster, table: str, token: str | None, front: Any) -> None:
        super().__init__(cluster, table, token, 0)
        self.front = front

    def _run(self) -> None:
        while not self.stopping.is_set():
            try:  # _session reads only the address, ws_base
                self._session(cast(ServerProcess, self.front))
            except (WebSocketException, OSError):  # nginx said 502, or the socket died
                time.sleep(0.05)


@contextmanager
def behind_nginx(
    postgres_server: str, redis_server: str, tmp_path: Path
) -> Iterator[tuple[str, Cluster, Nginx]]:
    """Two processes on a fresh database, and nginx in front; all stopped afterwards."""
    db = new_postgres_database(postgres_server)
    cluster = ProxiedCluster(db, redis_server, tmp_path, size=2)
    nginx: Nginx | None = None
    try:
        nginx = Nginx(tmp_path / "nginx", [proc.port for proc in cluster.procs])
        nginx.wait_ready()
        yield db, cluster, nginx
    finally:
        if nginx is not None:
            nginx.stop()
        cluster.close()


def node_of(base: str, client: httpx.Client | None = None) -> str:
    """The id of the process that answers at ``base`` (through ``client`` if given)."""
    if client is not None:
        return str(client.get("/api/cluster").json()["node"])
    return str(httpx.get(f"{base}/api/cluster", timeout=10).json()["node"])


def same_process(nginx: Nginx, source: str, node: str) -> bool:
    """Whether nginx sends the requests from ``source`` to the process ``node``."""
    with nginx.client(source) as client:
        return node_of(nginx.base, client) == node


def start_three(client: httpx.Client) -> list[int]:
    """Three computers-only tables, each asked with a different forged X-Forwarded-For."""
    return [
        client.post(
            "/api/tables", json=COMPUTERS_ONLY, headers={"X-Forwarded-For": f"203.0.113.{i}"}
        ).status_code
        for i in range(1, 4)
    ]


def test_the_guide_shows_the_shipped_files() -> None:
    """docs/guide/operating.md shows the site file and the unit as they are shipped."""
    blocks = re.findall(
        r"^```(?:nginx|ini)\n(.*?)^```$", GUIDE.read_text(), re.DOTALL | re.MULTILINE
    )
    assert blocks == [SITE.read_text(), UNIT.read_text()]


@pytest.mark.cluster
@pytest.mark.slow
@pytest.mark.postgres
def test_the_client_address_is_nginx_s_word_only(
    postgres_server: str, redis_server: str, tmp_path: Path
) -> None:
    with behind_nginx(postgres_server, redis_server, tmp_path) as (_db, cluster, nginx):
        plain = httpx.get(f"http://127.0.0.1:{nginx.plain_port}/t/abc", timeout=20)
        assert plain.status_code == 301
        assert plain.headers["location"] == "https://127.0.0.1/t/abc"
        with nginx.client() as local:
            # One address, however many it claims: the third is refused. (Through a proxy
            # that appended to the header, or by round robin over the processes, all three
            # would be accepted.)
            assert start_three(local) == [201, 201, 429]
            served = node_of(nginx.base, local)
        # Another client (another source address) that nginx sends to the same process: its
        # own address reached the server, whose limit for 127.0.0.1 is full.
        source = next(
            (
                f"127.0.0.{last}"
                for last in range(2, 60)
                if same_process(nginx, f"127.0.0.{last}", served)
            ),
            None,
        )
        assert source is not None, "nginx sent no other address to the same process"
        with nginx.client(source) as other:
            assert start_three(other) == [201, 201, 429]
        # Straight to a process, not from nginx's address: the header is not believed either.
        direct = httpx.Client(
            base_url=cluster.procs[0].base,
            transport=httpx.HTTPTransport(local_address="127.0.0.200"),
            timeout=20,
        )
        with direct:
            assert start_three(direct) == [201, 201, 429]


@pytest.mark.cluster
@pytest.mark.slow
@pytest.mark.postgres
def test_a_match_through_nginx_survives_kill_9_of_its_process(
    postgres_server: str, redis_server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with behind_nginx(postgres_server, redis_server, tmp_path) as (db, cluster, nginx):
        # the WebSocket clients trust the test's certificate as a browser trusts a real one
        monkeypatch.setenv("SSL_CERT_FILE", str(nginx.cert))
        body = {"seed_seconds": 0, "bot_delay": 0.02, "grace_seconds": 600}
        with nginx.client() as front:

            def create(**more: Any) -> str:
                answer = front.post("/api/tables", json=body | more)
                assert answer.status_code == 201, answer.text
                return str(answer.json()["table"])

            def join(table: str, name: str) -> str:
                answer = front.post(f"/api/tables/{table}/join", json={"name": name})
                assert answer.status_code == 200, answer.text
                return str(answer.json()["token"])

            duel = create(seats=[{}, {"kind": "easy"}], options={"target": 150})
            pair = create(options={"target": 150})
            tokens = {duel: [join(duel, "Ann")], pair: [join(pair, "Bob"), join(pair, "Cy")]}
            served = node_of(nginx.base, front)
        people = [
            OneAddressClient(cluster, table, token, nginx)
            for table, table_tokens in tokens.items()
            for token in table_tokens
        ]
        watcher = OneAddressClient(cluster, pair, None, nginx)
        everyone: list[Client] = [*people, watcher]
        try:
            for client in everyone:
                client.start()
            wait_for(lambda: all(p.seq > 20 for p in people), 60, "the matches go on")
            assert all(status(cluster, t) == "playing" for t in tokens), "killed mid-match"
            victim = next(p for p in cluster.procs if node_of(p.base) == served)
            assert all(cluster.owner(t) is victim for t in tokens), "it owns the tables too"
            before = {t: max(p.seq for p in people if p.table == t) for t in tokens}
            victim.kill()  # the process every client was connected to, mid-deal
            wait_for(
                lambda: all(
                    max(p.seq for p in people if p.table == t) > seq for t, seq in before.items()
                ),
                60,
                "the matches did not go on at the other process",
            )
            (survivor,) = cluster.live()
            with nginx.client() as front:
                assert node_of(nginx.base, front) == node_of(survivor.base)
            wait_over(cluster, list(tokens), timeout=240, clients=everyone)
            wait_caught_up(db, everyone)
            for client in everyone:
                client.finish()
            assert all(client.sessions >= 2 for client in everyone), "they reconnected"
            for table, table_tokens in tokens.items():
                mine: list[Client] = [c for c in everyone if c.table == table]
                check_against_log(db, cluster, table, table_tokens[0], mine)
                with nginx.client() as front:
                    through = front.get(
                        f"/api/tables/{table}/record",
                        headers={"Authorization": f"Bearer {table_tokens[0]}"},
                    ).json()
                served_record = httpx.get(
                    f"{survivor.base}/api/tables/{table}/record",
                    headers={"Authorization": f"Bearer {table_tokens[0]}"},
                    timeout=20,
                ).json()
                assert through == served_record
        finally:
            for client in everyone:
                client.stopping.set()


@pytest.mark.slow
@pytest.mark.postgres
def test_a_pg_dump_restored_with_pg_restore_serves_the_same_tables(
    postgres_server: str, tmp_path: Path
) -> None:
    db = new_postgres_database(postgres_server)
    home = tmp_path / "live"
    home.mkdir()
    live = ServerProcess(db, home)
    live.start()
    clients: list[Client] = []
    try:
        over = create_at(live.base, seats=[{}, {"kind": "easy"}], options={"target": 1})
        going = create_at(live.base, seats=[{}, {"kind": "easy"}], options={"target": 500})
        tokens = {over: join_at(live.base, over, "Ann"), going: join_at(live.base, going, "Bob")}
        alone = cast(Cluster, None)  # the clients' one address is the server's
        clients = [OneAddressClient(alone, t, token, live) for t, token in tokens.items()]
        for client in clients:
            client.start()
        wait_for(lambda: get(live.base, over)["status"] == "over", 120, "the short match ended")
        wait_for(lambda: clients[1].seq > 30, 60, "the long match went on")
        for client in clients:
            client.finish()  # the long match waits for Bob now (a computer plays only after 600 s)
        wait_for(
            lambda: waits_for_its_person(live.ws_base, going, tokens[going]),
            30,
            "the long match waits for Bob",
        )
        dump = tmp_path / "foxtrot.dump"
        name = db.rsplit("/", 1)[1]
        plain = postgres_url(db)
        taken = subprocess.run(
            [*postgres_tool("pg_dump"), "-Fc", "-d", plain],
            check=True,
            capture_output=True,
            timeout=120,
        )  # the backup of a live server: pg_dump reads one consistent snapshot
        dump.write_bytes(taken.stdout)
        before = served(live.base, tokens)
        assert before[over]["record"]["deals"] and before[going]["summary"]["seq"] > 30
        live.kill()
        restored = new_postgres_database(postgres_server)
        with dump.open("rb") as stdin:
            subprocess.run(
                [*postgres_tool("pg_restore"), "--no-owner", "-d", postgres_url(restored)],
                stdin=stdin,
                check=True,
                capture_output=True,
                timeout=120,
            )
        assert name not in restored
        again = ServerProcess(restored, home)
        again.start()
        try:
            assert served(again.base, tokens) == before
            # the match in play goes on, Bob's token still good
            bob = OneAddressClient(alone, going, tokens[going], again)
            clients.append(bob)
            bob.start()
            seq = before[going]["summary"]["seq"]
            wait_for(lambda: bob.acks and bob.seq > seq, 60, "Bob played on")
            bob.finish()
        finally:
            again.kill()
    finally:
        for client in clients:
            client.stopping.set()
        if live.alive():
            live.kill()


def get(base: str, table: str) -> dict[str, Any]:
    return dict(httpx.get(f"{base}/api/tables/{table}", timeout=20).json())


def postgres_url(url: str) -> str:
    """The URL of a database for PostgreSQL's own tools (no SQLAlchemy driver name)."""
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


def waits_for_its_person(ws_base: str, table: str, token: str) -> bool:
    """Whether the table waits for the seat of ``token`` (its snapshot offers it actions)."""
    with connect(f"{ws_base}/ws/tables/{table}", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        while True:
            message = json.loads(ws.recv(timeout=10))
            if message["type"] == "snapshot":
                return bool(message["view"].get("legal"))


def served(base: str, tokens: dict[str, str]) -> dict[str, Any]:
    """What a server serves of each table: its summary, its record once over, the replay as
    its person saw it, and the public replay."""
    answers: dict[str, Any] = {}
    for table, token in tokens.items():
        bearer = {"Authorization": f"Bearer {token}"}
        answers[table] = {
            "summary": get(base, table),
            "record": httpx.get(
                f"{base}/api/tables/{table}/record", headers=bearer, timeout=20
            ).json(),
            "replay": httpx.get(
                f"{base}/api/tables/{table}/replay", headers=bearer, timeout=20
            ).json(),
            "public": httpx.get(f"{base}/api/tables/{table}/replay", timeout=20).json(),
        }
    return answers
