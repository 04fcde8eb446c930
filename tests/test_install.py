"""The base install: no third-party package at run time, and it plays, simulates and checks.

``import foxtrot`` and the bots must load nothing from outside the standard library; a wheel
installed with no extras into a fresh venv runs the command line's base commands, and a
command that needs an extra says which one to install instead of a traceback.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # tests/conftest.py: the tiers

ROOT = Path(__file__).resolve().parents[1]
BASE_MODULES = ("foxtrot", "foxtrot.bots", "foxtrot.research", "foxtrot.cli.main")


def test_the_engine_bots_and_command_line_import_no_third_party_package() -> None:
    def loaded_by(imports: tuple[str, ...]) -> set[str]:
        code = (
            "import json, sys\n"
            f"for name in {imports!r}:\n"
            "    __import__(name)\n"
            "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))\n"
        )
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
        )
        return set(json.loads(done.stdout))

    # what the interpreter loads before any import of ours (a site's .pth files may load a
    # package such as certifi at startup) is not foxtrot's doing
    loaded = loaded_by(BASE_MODULES) - loaded_by(())
    assert "foxtrot" in loaded
    outside = sorted(
        name
        for name in loaded - {"foxtrot"}
        if name not in sys.stdlib_module_names and not name.startswith("_")
    )
    assert outside == [], f"the base modules import {outside}"


def test_the_base_install_declares_no_dependency() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["dependencies"] == []
    assert {"tui", "plot", "web", "all", "test"} <= set(project["optional-dependencies"])


def test_a_server_install_offers_the_learned_level() -> None:
    # the lobby offers ``learned`` only where numpy is installed: the web extra brings it
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]

    def names(extra: str) -> set[str]:
        return {re.split(r"[<>=\[ ]", requirement)[0] for requirement in extras[extra]}

    assert names("learned") <= names("web")


def _run(exe: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(exe), *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        timeout=300,
    )


@pytest.fixture(scope="module")
def base_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the project's wheel and nothing else: the ``bin`` folder."""
    tmp = tmp_path_factory.mktemp("base")
    wheels = tmp / "wheels"
    build = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir"]
    subprocess.run([*build, str(wheels), str(ROOT)], check=True, capture_output=True)
    (wheel,) = wheels.glob("foxtrot-*.whl")
    subprocess.run([sys.executable, "-m", "venv", str(tmp / "venv")], check=True)
    bin_dir = tmp / "venv" / "bin"
    subprocess.run(
        [str(bin_dir / "python"), "-m", "pip", "install", "--quiet", "--no-index", str(wheel)],
        check=True,
        capture_output=True,
    )
    return bin_dir


def test_a_wheel_without_extras_simulates_checks_and_plays(base_venv: Path, tmp_path: Path) -> None:
    python, foxtrot = base_venv / "python", base_venv / "foxtrot"
    listed = _run(python, "-m", "pip", "list", "--format", "json", cwd=tmp_path)
    names = {entry["name"].lower() for entry in json.loads(listed.stdout)}
    assert "foxtrot" in names and not names & {"rich", "textual", "matplotlib", "fastapi"}

    done = _run(foxtrot, "simulate", "--matches", "3", "--records", "out", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "3 random matches" in done.stdout and "deal score of a player" in done.stdout
    done = _run(foxtrot, "check", "out", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("ok ") == 3 and "3 valid, 0 invalid" in done.stdout
    # The wheel carries the compiled catalogs (i18n/locale/*/LC_MESSAGES/foxtrot.mo).
    done = _run(foxtrot, "replay", "out/match-00001.json", "--lang", "uk", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Роздача 1: здає " in done.stdout
    done = _run(
        python,
        "-m",
        "foxtrot",
        "tournament",
        "--bots",
        "medium,easy",
        "--matches",
        "2",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "greedy" in done.stdout and "random" in done.stdout and "Elo" in done.stdout
    done = _run(foxtrot, "rules", "--lang", "en", cwd=tmp_path)
    assert done.returncode == 0 and done.stdout.startswith("# Foxtrot")


@pytest.mark.parametrize(
    ("args", "extra"),
    [
        (("play", "--bots", "hard"), "tui"),
        (("tournament", "--bots", "medium,easy", "--matches", "1", "--plot", "p.png"), "plot"),
        (("tournament", "--bots", "openspiel:ismcts,easy", "--matches", "1"), "openspiel"),
    ],
)
def test_a_command_that_needs_a_missing_extra_names_it(
    base_venv: Path, tmp_path: Path, args: tuple[str, ...], extra: str
) -> None:
    done = _run(base_venv / "foxtrot", *args, cwd=tmp_path)
    assert done.returncode == 1
    assert f"pip install 'foxtrot[{extra}]'" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "p.png").exists()
