"""``kill -9`` of ``foxtrot serve`` leaves no process behind: workers and resource tracker go too.

The children of the server (the coach's and the expert's workers, multiprocessing's
resource tracker) are read from ``/proc`` before the kill, each with its start
time (a number the kernel may give again later is not the same process).
"""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest

from .web_support import ServerProcess, create_at, join_at

pytestmark = [pytest.mark.timeout(120), pytest.mark.slow]


def _stat(pid: int) -> tuple[str, int, int] | None:
    """(state, parent, start time) of a live process, or None."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()  # after "pid (command) "
    return fields[0], int(fields[1]), int(fields[19])


def descendants(root: int) -> dict[int, int]:
    """Every process whose chain of parents leads to ``root``: pid -> start time."""
    parents: dict[int, tuple[int, int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (found := _stat(int(entry.name))) is not None:
            parents[int(entry.name)] = (found[1], found[2])
    found_pids: dict[int, int] = {}
    frontier = [root]
    while frontier:
        parent = frontier.pop()
        for pid, (ppid, start) in parents.items():
            if ppid == parent and pid not in found_pids:
                found_pids[pid] = start
                frontier.append(pid)
    return found_pids


def alive(processes: dict[int, int]) -> list[int]:
    """The processes of ``processes`` still running (a zombie has ended)."""
    left = []
    for pid, start in processes.items():
        found = _stat(pid)
        if found is not None and found[2] == start and found[0] != "Z":
            left.append(pid)
    return left


def test_kill_9_of_the_server_leaves_no_worker_behind(tmp_path: Path) -> None:
    proc = ServerProcess(f"sqlite:///{tmp_path}/s.db", tmp_path)
    proc.start()
    try:
        table = create_at(proc.base, seats=[{}, {"kind": "hard"}], first_dealer=1)
        token = join_at(proc.base, table, "Ann")
        auth = {"Authorization": f"Bearer {token}"}
        deadline = time.monotonic() + 60
        while True:  # the deal comes after the commitment; then the hint (the coach's worker)
            answer = httpx.post(
                f"{proc.base}/api/tables/{table}/hint", json={}, headers=auth, timeout=30
            )
            if answer.status_code == 200:
                break
            assert answer.json()["code"] in ("not_started", "not_your_turn"), answer.text
            assert time.monotonic() < deadline, answer.text
            time.sleep(0.1)
        assert proc.proc is not None
        children = descendants(proc.proc.pid)
        assert len(children) >= 2, children  # at least the coach's worker and the tracker
    finally:
        proc.kill()
    deadline = time.monotonic() + 60  # the tracker ends them at once; a busy machine is slow
    while alive(children) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not alive(children), [
        Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")[:120]
        for pid in alive(children)
    ]
