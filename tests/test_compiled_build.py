"""The optional compiled build of the engine (mypyc, ``setup.py``'s ``COMPILED``) passes the
core's tests as the pure-Python one does.

The build is made by ``tools/build-compiled`` in a temporary folder (a copy of ``src`` with
the compiled modules beside their source) and the core's tests run against it in a pytest of
their own, ``PYTHONPATH`` set to it.  The compiled modules' doctests, read from their source
(mypyc keeps no docstrings), run through ``doctest`` against the compiled modules (pytest's
``--doctest-modules`` collects the ``.py`` files, which the compiled build shadows).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SETUP = (ROOT / "setup.py").read_text(encoding="utf-8")

#: The core's tests, the compiled twin's differential tests among them.
CORE_TESTS = [
    "test_kernel.py",
    "test_position.py",
    "test_position_text.py",
    "test_cheap_views.py",
    "test_rules_turns.py",
    "test_rules_deal_end.py",
    "test_rules_view.py",
    "test_rules_match.py",
    "test_rules_scoring.py",
    "test_rules_cards_dealing.py",
    "test_properties.py",
    "test_options.py",
    "test_records.py",
    "test_mini.py",
    "test_notation.py",
    "test_fast_kernel.py",
    "test_api_errors.py",
]
#: Read the source's doctests, not the behaviour: run on the pure build only.
SOURCE_ONLY = ["test_position_text.py::test_every_public_name_of_state_is_shown_in_a_doctest"]

DOCTESTS = """
import ast, doctest, importlib, pathlib, sys
failed = tried = 0
runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
for name in sys.argv[1:]:
    module = importlib.import_module(name)
    assert module.__file__.endswith(".so"), module.__file__
    source = pathlib.Path(module.__file__.split(".", 1)[0] + ".py")
    tree = ast.parse(source.read_text(encoding="utf-8"))
    nodes = [tree, *(n for n in ast.walk(tree) if isinstance(n, (ast.ClassDef, ast.FunctionDef)))]
    for node in nodes:
        text = ast.get_docstring(node, clean=True)
        if text and ">>>" in text:
            test = doctest.DocTestParser().get_doctest(
                text, dict(vars(module)), f"{name}:{getattr(node, 'name', '')}", str(source), 0
            )
            runner.run(test)
result = runner.summarize(verbose=False)
print(result.attempted, result.failed)
sys.exit(1 if result.failed or not result.attempted else 0)
"""


def compiled_modules() -> list[str]:
    """The module names ``setup.py`` compiles."""
    return [
        line.strip().strip('",').removeprefix("src/").removesuffix(".py").replace("/", ".")
        for line in SETUP.splitlines()
        if line.strip().startswith('"src/foxtrot/')
    ]


def test_the_compiled_modules_are_the_cores_hot_ones() -> None:
    names = compiled_modules()
    assert "foxtrot.core.state" in names and "foxtrot.core.kernel" in names
    assert "foxtrot.core.rules" not in names  # numba compiles its functions from Python
    assert all(name.startswith("foxtrot.core.") for name in names)


@pytest.mark.slow
def test_the_compiled_build_passes_the_core_tests(tmp_path: Path) -> None:
    build = tmp_path / "compiled"
    env = dict(os.environ, PYTHON=sys.executable)
    subprocess.run([str(ROOT / "tools" / "build-compiled"), str(build)], check=True, env=env)
    compiled = sorted(p.name.split(".")[0] for p in (build / "src/foxtrot/core").glob("*.so"))
    assert compiled == sorted(name.rsplit(".", 1)[1] for name in compiled_modules())
    env["PYTHONPATH"] = str(build / "src")
    tests = [str(ROOT / "tests" / name) for name in CORE_TESTS]
    deselect = [f"--deselect=tests/{name}" for name in SOURCE_ONLY]
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=",
         *deselect, *tests],
        cwd=ROOT, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert " passed" in run.stdout and "skipped" not in run.stdout
    doc = subprocess.run(
        [sys.executable, "-c", DOCTESTS, *compiled_modules()],
        cwd=tmp_path, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert doc.returncode == 0, doc.stdout[-4000:] + doc.stderr[-2000:]
