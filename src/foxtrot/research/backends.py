"""Where a tournament's matches are played: a process pool here, or Ray tasks (extra ``[ray]``).

Every backend takes the same list of ``GameTask`` values and yields one
``GameResult`` per task, in task order; a match depends only on its task
(seeds come from the tournament seed, the lineup and the match number, see
``tournament``), so every backend gives the same results for the same seed.

- ``ProcessPool(jobs)``: ``concurrent.futures`` processes on this machine
  (``jobs=1``: in this process).
- ``RayBackend(address)``: batches of matches as Ray tasks (one task per batch,
  not per match: a match of two fast bots takes milliseconds, less than a Ray
  task's overhead).  With no address it starts a local Ray instance, unless
  ``RAY_ADDRESS`` names a cluster; ``address="auto"`` or ``"HOST:PORT"``
  joins an existing cluster (``ray start --head`` on one machine, ``ray start
  --address HOST:PORT`` on the others; every machine needs foxtrot installed).
  A Ray instance this backend started is shut down when the matches are done.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Generator, Sequence
from typing import Any

from .results import GameResult
from .tournament import Backend, GameTask, play_game, play_games


@dataclasses.dataclass(frozen=True, slots=True)
class ProcessPool:
    """``jobs`` worker processes on this machine (1: in this process)."""

    jobs: int = 1
    name: str = "processes"

    def play(self, todo: Sequence[GameTask]) -> Generator[GameResult, None, None]:
        """Play ``todo`` with ``tournament.play_games``."""
        return play_games(todo, self.jobs)


def play_batch(batch: Sequence[GameTask]) -> list[GameResult]:
    """A batch of matches in one Ray task (or anywhere): the results in order."""
    return [play_game(task) for task in batch]


@dataclasses.dataclass(frozen=True, slots=True)
class RayBackend:
    """Batches of matches as Ray tasks, locally or on a cluster (see the module doc).

    ``batch`` is the number of matches per task (default: about four tasks per
    CPU of the cluster); ``num_cpus`` limits a local instance this backend starts.
    """

    address: str | None = None
    batch: int | None = None
    num_cpus: int | None = None
    name: str = "ray"

    def play(self, todo: Sequence[GameTask]) -> Generator[GameResult, None, None]:
        """Submit every batch, then yield the results batch by batch, in order."""
        import ray  # noqa: PLC0415 (Ray takes seconds to import: only when asked for)

        started = not ray.is_initialized()
        if started:
            ray.init(
                address=self.address,
                num_cpus=self.num_cpus if self.address is None else None,
                include_dashboard=False,
                log_to_driver=False,
                configure_logging=False,
            )
        try:
            resources = ray.cluster_resources()  # type: ignore[no-untyped-call]  # untyped in Ray
            size = self.batch or _batch_size(len(todo), resources)
            task = ray.remote(play_batch)
            refs = [task.remote(list(todo[i : i + size])) for i in range(0, len(todo), size)]
            finished = False
            try:
                for ref in refs:
                    yield from ray.get(ref)
                finished = True
            finally:
                if not finished:  # Ctrl-C, an error, or the caller stopped early
                    for ref in refs:
                        ray.cancel(ref, force=True)
        finally:
            if started:
                ray.shutdown()


def _batch_size(tasks: int, resources: dict[str, Any]) -> int:
    """About four batches per CPU, so that the CPUs stay busy until the end."""
    cpus = max(1, int(resources.get("CPU", 1)))
    return max(1, math.ceil(tasks / (4 * cpus)))


def make_backend(name: str, *, jobs: int = 1, address: str | None = None) -> Backend:
    """The backend called ``name`` (``processes`` or ``ray``)."""
    if name == "processes":
        if address is not None:
            raise ValueError("--address is for --backend ray")
        return ProcessPool(jobs)
    if name == "ray":
        return RayBackend(address=address)
    raise ValueError(f"unknown backend {name!r} (expected processes or ray)")


__all__ = ["Backend", "ProcessPool", "RayBackend", "make_backend", "play_batch"]
