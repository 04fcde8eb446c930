"""``/metrics`` in the Prometheus text format: tables, connections, actions, latency, thinking."""

from __future__ import annotations

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
    from .lobby import Lobby

_LATENCY = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)


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
        self.open_tables.set_function(
            lambda: sum(1 for t in lobby.tables.values() if t.status in ("open", "playing"))
        )

    def render(self) -> tuple[bytes, str]:
        """The metrics page and its content type."""
        return generate_latest(self.registry), CONTENT_TYPE_LATEST
