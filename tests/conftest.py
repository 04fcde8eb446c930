"""The test tiers: markers given by where a test lives, so no file can forget its tier.

- ``browser``: drives Debian's Chromium (everything under ``tests/browser``);
- ``server``: starts the game server in the test's process (everything under ``tests/web``);
- ``postgres``: runs on a real PostgreSQL server (a ``[postgresql]`` parameter);
- ``cluster``: several server processes on PostgreSQL and Redis (``test_web_cluster.py``), and
  the Redis bus on a real Redis (``test_web_redis_bus.py``);
- ``slow``: every ``browser``, ``postgres`` and ``cluster`` test, the server files whose
  tests kill and restart servers (``_SLOW_FILES``), and the tests marked ``slow`` in their
  own file (a fresh venv, mypy over the tree, training, Ray, whole matches driven by keys).

``pytest -m "not slow"`` is the quick tier: it needs neither PostgreSQL, Redis nor Chromium
(docs/testing.md). Plain ``pytest`` runs all.
"""

from __future__ import annotations

from pathlib import Path

import pytest

_HERE = Path(__file__).parent
_BY_FOLDER = {"browser": ("browser", "slow"), "web": ("server",)}
_CLUSTER = {"test_web_cluster.py", "test_web_redis_bus.py"}
#: server tests of many seconds each: kill -9 at random moments, whole matches scanned, shutdowns
_SLOW_FILES = {*_CLUSTER, "test_web_restart.py", "test_web_hidden.py", "test_web_shutdown.py"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test collected under ``tests/browser`` and ``tests/web`` with its tiers."""
    for item in items:
        path = Path(item.fspath)
        try:
            folder = path.relative_to(_HERE).parts[0]
        except ValueError:
            continue  # a doctest in the package: quick
        for name in _BY_FOLDER.get(folder, ()):
            item.add_marker(name)
        if path.name in _CLUSTER:
            item.add_marker("cluster")
        if path.name in _SLOW_FILES:
            item.add_marker("slow")
        callspec = getattr(item, "callspec", None)
        if callspec is not None and "postgresql" in callspec.params.values():
            item.add_marker("postgres")
            item.add_marker("slow")
