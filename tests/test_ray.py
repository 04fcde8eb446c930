"""Tournaments on Ray (research.backends): the same results as the process pool, for the same
seed, on a local Ray instance and on a real local cluster joined through ``--address``."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import ray

from foxtrot.cli.main import main
from foxtrot.core import TableOptions
from foxtrot.research import TournamentConfig, parse_bots, run_tournament
from foxtrot.research.backends import ProcessPool, RayBackend, make_backend

pytestmark = pytest.mark.slow  # tests/conftest.py: the tiers

RAY = str(Path(sys.executable).with_name("ray"))


def _config() -> TournamentConfig:
    return TournamentConfig(
        parse_bots("greedy,random,easy"),
        TableOptions(players=2, target=100),
        matches=6,
        seed=5,
        duplicate=True,
    )


@pytest.fixture
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


def test_ray_backend_gives_the_process_pool_results(local_ray: None) -> None:
    config = _config()
    pool = run_tournament(config, backend=ProcessPool(2))
    on_ray = run_tournament(config, backend=RayBackend(batch=5))
    assert on_ray.to_json(timings=False) == pool.to_json(timings=False)
    assert len(on_ray.games) == config.games == 36
    assert ray.is_initialized()  # it joined the running instance and left it running


def test_make_backend_refuses_what_does_not_fit() -> None:
    with pytest.raises(ValueError, match="--address is for --backend ray"):
        make_backend("processes", address="auto")
    with pytest.raises(ValueError, match="unknown backend 'dask'"):
        make_backend("dask")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _ray_stop(env: dict[str, str]) -> None:
    subprocess.run([RAY, "stop", "--force"], env=env, capture_output=True, timeout=60, check=False)


def test_tournament_on_a_local_ray_cluster_through_address(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``ray start --head`` here, then ``foxtrot tournament --backend ray --address``."""
    port = _free_port()
    temp = tempfile.mkdtemp(prefix="ray", dir="/tmp")  # short: Ray's socket paths are limited
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
    env.pop("RAY_ADDRESS", None)
    start = [
        RAY, "start", "--head", f"--port={port}", "--num-cpus=2",
        "--include-dashboard=false", f"--temp-dir={temp}", "--disable-usage-stats",
    ]  # fmt: skip
    try:
        started = subprocess.run(
            start, env=env, capture_output=True, text=True, timeout=120, check=False
        )
        assert started.returncode == 0, started.stdout + started.stderr
        common = ["tournament", "--bots", "greedy,random", "--matches", "8", "--seed", "3"]
        common += ["--target", "100"]
        on_pool = tmp_path / "pool.json"
        on_ray = tmp_path / "ray.json"
        assert main([*common, "--jobs", "2", "--json", str(on_pool)]) == 0
        address = ["--address", f"127.0.0.1:{port}", "--json", str(on_ray)]
        driver = subprocess.run(
            [sys.executable, "-m", "foxtrot", *common, "--backend", "ray", *address],
            env=env,
            check=False,
            capture_output=True,
            text=True,
            timeout=180,
        )
        assert driver.returncode == 0, driver.stdout + driver.stderr
        assert "Ray" in driver.stdout
        pool, cluster = (json.loads(p.read_text(encoding="utf-8")) for p in (on_pool, on_ray))
        for report in (pool, cluster):  # the timings differ from run to run; nothing else may
            report.pop("seconds", None)
            for row in report["results"]:
                for key in [k for k in row if k.startswith("time")]:
                    del row[key]
            for game in report.get("games", []):
                game.pop("times", None)
        assert cluster == pool
    finally:
        _ray_stop(env)
        shutil.rmtree(temp, ignore_errors=True)
    capsys.readouterr()


def test_address_needs_the_ray_backend(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--bots", "greedy,random", "--address", "auto"]) == 2
    assert "--address needs --backend ray" in capsys.readouterr().err
