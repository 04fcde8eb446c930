"""The suite passes on a busy machine: no test bets on how fast the machine is.

A fixed sleep ("after 0.05 s the server has surely done it") and an elapsed-time assertion
("it took under 5 s") both hold on an idle machine and fail when every core is busy
(``tools/stress-test`` runs the suite that way).  A test waits for the condition itself
(tests/waiting.py: ``wait_until``, ``wait_until_async``), for an event the code under test
signals, or for a later event that must follow; a speed claim is a figure for benchmarks/.

This test reads every test module's syntax tree and finds:

- a fixed sleep: ``time.sleep``, ``asyncio.sleep`` or Playwright's ``wait_for_timeout``
  called outside the body of a ``while`` or ``for`` loop (a sleep inside a loop is the pause
  of a polling loop, or the pace of a client, and is fine); ``sleep(0)``, which only yields
  to the event loop, is fine too;
- an elapsed-time assertion: an ``assert`` outside any loop that reads a clock
  (``time.time``, ``time.monotonic``, ``time.perf_counter``, their ``_ns`` forms, an event
  loop's ``time``), or that uses a name assigned from a difference involving one
  (``took = time.monotonic() - start``).  An assertion inside a loop is the deadline of a
  polling loop.  A clock read before an event, compared afterwards with a time the code
  under test announced, is an ordering, not a measurement, and is fine.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

TESTS = Path(__file__).resolve().parent

SLEEPS = frozenset({"sleep", "wait_for_timeout"})
CLOCKS = frozenset({"time", "monotonic", "perf_counter", "time_ns", "monotonic_ns"})
LOOPS = (ast.For, ast.AsyncFor, ast.While)
SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.Module)


@dataclass(frozen=True)
class Finding:
    """One fixed sleep or elapsed-time assertion: where, and what."""

    path: str
    line: int
    what: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.what}"


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _in_loop_body(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    """Whether ``node`` is in the body of a loop of its own function (not in the loop's
    condition or iterable, and not in a function merely defined inside a loop)."""
    child, parent = node, parents.get(node)
    while parent is not None and not isinstance(parent, SCOPES):
        if isinstance(parent, LOOPS) and child in (*parent.body, *parent.orelse):
            return True
        child, parent = parent, parents.get(parent)
    return False


def _called(node: ast.Call) -> str | None:
    func = node.func
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return None


def _is_clock(node: ast.AST) -> bool:
    """``time.monotonic()``, ``time.time()``, ``loop.time()``, ``perf_counter()``, ..."""
    if not isinstance(node, ast.Call) or node.args or node.keywords:
        return False
    name = _called(node)
    if name not in CLOCKS:
        return False
    # ``time()`` alone, or an attribute: ``time.time()``, ``loop.time()``, ``self.clock.time()``
    return isinstance(node.func, ast.Name) or name != "time" or isinstance(node.func, ast.Attribute)


def _reads_clock(node: ast.AST) -> bool:
    return any(_is_clock(sub) for sub in ast.walk(node))


def _is_zero(node: ast.Call) -> bool:
    first = node.args[0] if node.args else None
    return isinstance(first, ast.Constant) and first.value == 0


def _elapsed_names(tree: ast.AST) -> set[str]:
    """Names assigned from a difference that reads a clock (``took = now() - start``)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            value = node.value
            if any(
                isinstance(sub, ast.BinOp) and isinstance(sub.op, ast.Sub) and _reads_clock(sub)
                for sub in ast.walk(value)
            ):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names |= {t.id for t in targets if isinstance(t, ast.Name)}
    return names


def findings(path: Path, relative: str) -> list[Finding]:
    """The fixed sleeps and elapsed-time assertions of one test module."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    parents = _parents(tree)
    elapsed = _elapsed_names(tree)
    found: list[Finding] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _called(node) in SLEEPS:
            if not _is_zero(node) and not _in_loop_body(node, parents):
                found.append(Finding(relative, node.lineno, f"fixed {_called(node)}()"))
        elif isinstance(node, ast.Assert) and not _in_loop_body(node, parents):
            uses = {sub.id for sub in ast.walk(node.test) if isinstance(sub, ast.Name)}
            if _reads_clock(node.test) or uses & elapsed:
                found.append(Finding(relative, node.lineno, "assertion on a measured time"))
    return sorted(found, key=lambda f: f.line)


def test_no_fixed_sleep_and_no_elapsed_time_assertion_in_the_tests() -> None:
    found: list[Finding] = []
    for path in sorted(TESTS.rglob("*.py")):
        relative = path.relative_to(TESTS).as_posix()
        found += findings(path, relative)
    assert not found, "wait for the condition instead (tests/waiting.py):\n" + "\n".join(
        map(str, found)
    )


def test_the_finder_finds_what_it_should(tmp_path: Path) -> None:
    """The rules on a sample: fixed sleeps and measured times found, polling loops not."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import asyncio, time\n"
        "def fixed(page):\n"
        "    time.sleep(0.5)\n"  # 3: found
        "    page.wait_for_timeout(100)\n"  # 4: found
        "    start = time.monotonic()\n"
        "    took = time.monotonic() - start\n"
        "    assert took < 5\n"  # 7: found
        "    assert time.perf_counter() - start < 1\n"  # 8: found
        "async def polling(ready):\n"
        "    deadline = time.monotonic() + 30\n"
        "    while not ready():\n"
        "        assert time.monotonic() < deadline\n"
        "        await asyncio.sleep(0.01)\n"
        "    await asyncio.sleep(0)\n"
        "    before = time.time()\n"
        "    assert ready() >= before\n"
        "    for _ in range(3):\n"
        "        def later():\n"
        "            time.sleep(1)\n"  # 19: found (a function of its own, not the loop's)
    )
    assert [(f.line, f.what) for f in findings(sample, "sample.py")] == [
        (3, "fixed sleep()"),
        (4, "fixed wait_for_timeout()"),
        (7, "assertion on a measured time"),
        (8, "assertion on a measured time"),
        (19, "fixed sleep()"),
    ]
