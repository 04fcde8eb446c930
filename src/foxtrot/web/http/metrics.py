"""``/metrics`` in the Prometheus text format: tables, connections, actions, latency, thinking."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

if TYPE_CHECKING:
    from ..lobby import Lobby

_LATENCY = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)
_LONG = (*_LATENCY, 2.5, 5.0, 10.0)


class Metrics:
    """The server's metrics, in a registry of their own (one per application)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.open_tables = Gauge(
            "foxtrot_open_tables", "Tables open or playing", registry=self.registry
        )
        self.connections = Gauge(
            "foxtrot_connections", "Open WebSocket connections", registry=self.registry
        )
        self.searches_waiting = Gauge(
            "foxtrot_searches_waiting",
            "Computer searches waiting for a worker process",
            registry=self.registry,
        )
        self.actions = Counter(
            "foxtrot_actions", "Accepted actions", ["source"], registry=self.registry
        )
        self.latency = Histogram(
            "foxtrot_action_seconds",
            "From an action's arrival to its acknowledgement (commit included)",
            ["source"],
            buckets=_LATENCY,
            registry=self.registry,
        )
        self.thinking = Histogram(
            "foxtrot_bot_thinking_seconds",
            "CPU time a computer seat spent choosing",
            buckets=_LATENCY,
            registry=self.registry,
        )
        self.commit = Histogram(
            "foxtrot_commit_seconds",
            "One group commit of the event log (every table's pending events in one transaction)",
            buckets=_LATENCY,
            registry=self.registry,
        )
        self.commit_size = Histogram(
            "foxtrot_commit_tables",
            "Tables whose events one group commit carried",
            buckets=(1, 2, 5, 10, 20, 50, 100, 200, 500),
            registry=self.registry,
        )
        self.throttled = Counter(
            "foxtrot_throttled_messages", "Messages refused for flooding", registry=self.registry
        )
        # Many processes (--bus): forwarding to owners, followers' reads of the log.
        self.forward = Histogram(
            "foxtrot_forward_seconds",
            "A request forwarded to its table's owner: sent to answered (retries included)",
            ["op"],
            buckets=_LONG,
            registry=self.registry,
        )
        self.forward_retries = Counter(
            "foxtrot_forward_retries",
            "Forwarded requests sent again: no owner, no answer in time, moved",
            ["reason"],
            registry=self.registry,
        )
        self.follow_read = Histogram(
            "foxtrot_follow_read_seconds",
            "One batched read of the log for the tables this process follows",
            buckets=_LONG,
            registry=self.registry,
        )
        self.answer = Histogram(
            "foxtrot_forwarded_answer_seconds",
            "A request forwarded to this process as its table's owner: received to answered",
            buckets=_LONG,
            registry=self.registry,
        )
        self.bus_errors = Counter(
            "foxtrot_bus_errors",
            "Messages to Redis that could not be sent (wake-ups, replies), by error",
            ["error"],
            registry=self.registry,
        )
        self.follow_wait = Histogram(
            "foxtrot_follow_wait_seconds",
            "A forwarded action's acknowledgement waiting for this process's read of its event",
            buckets=_LONG,
            registry=self.registry,
        )
        self.loop_lag = Histogram(
            "foxtrot_event_loop_lag_seconds",
            "How late a 0.1 s timer of the event loop fired (the process's CPU is short)",
            buckets=_LONG,
            registry=self.registry,
        )
        self.follow_tables = Histogram(
            "foxtrot_follow_read_tables",
            "Tables one batched read of the log covered",
            buckets=(1, 2, 5, 10, 20, 50, 100, 200, 500),
            registry=self.registry,
        )

    def attach(self, lobby: Lobby) -> None:
        """Count the lobby's actions, thinking and tables."""

        def on_action(source: str, seconds: float) -> None:
            self.actions.labels(source).inc()
            self.latency.labels(source).observe(seconds)

        def on_commit(size: int, seconds: float) -> None:
            self.commit.observe(seconds)
            self.commit_size.observe(size)

        lobby.hooks.on_action = on_action
        lobby.on_commit = on_commit
        lobby.hooks.on_think = self.thinking.observe
        cluster = lobby.cluster
        if cluster is not None:
            cluster.on_forward = lambda op, seconds: self.forward.labels(op).observe(seconds)
            cluster.on_retry = lambda reason: self.forward_retries.labels(reason).inc()

            def on_read(tables: int, seconds: float) -> None:
                self.follow_read.observe(seconds)
                self.follow_tables.observe(tables)

            cluster.on_read = on_read
            cluster.on_wait = self.follow_wait.observe
            cluster.bus.on_answer = self.answer.observe
            cluster.bus.on_error = lambda name: self.bus_errors.labels(name).inc()
        self.open_tables.set_function(
            lambda: sum(1 for t in lobby.tables.values() if t.status in ("open", "playing"))
        )
        self.searches_waiting.set_function(lambda: lobby.computers.waiting)

    async def watch_loop(self, period: float = 0.1) -> None:
        """Measure the event loop's lag for as long as the server runs."""
        loop = asyncio.get_running_loop()
        while True:
            start = loop.time()
            await asyncio.sleep(period)
            self.loop_lag.observe(max(0.0, loop.time() - start - period))

    def render(self) -> tuple[bytes, str]:
        """The metrics page and its content type."""
        return generate_latest(self.registry), CONTENT_TYPE_LATEST
