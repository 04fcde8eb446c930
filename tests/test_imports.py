"""The package's imports form no circle, and no module reads another module's private names.

Both are read from the source with ``ast``, over every module of ``src/foxtrot``:

- the import graph counts every import — at the top, inside a function, and under
  ``if TYPE_CHECKING:`` (a type-only circle is still a circle: the two modules cannot be
  understood, split or moved apart) — with relative imports resolved;
- a private name is one with a leading underscore (dunders aside).  A module may use its own;
  reading another's is a reach-in: ``from x import _y``, ``x._y`` on an imported module, and
  ``obj._y`` (or ``getattr(obj, "_y")``) where ``_y`` is a private member of a class of
  another ``foxtrot`` module and of none of this module's classes.

``STDLIB_PRIVATES`` holds the standard library's private names that have no public spelling.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
PACKAGE = SRC / "foxtrot"

#: Private names of the standard library used on purpose (as the scan reports them, by the
#: receiver's name), each with the reason there is no public way.
STDLIB_PRIVATES: dict[str, str] = {
    "argparse._SubParsersAction": "the type add_subparsers() returns, for annotations",
    "argparse._HelpAction": "the type of the --help action, to leave it out of a reference",
    "os._exit": "leave a forked worker at once, without the parent's exit handlers",
    "pool._processes": "ProcessPoolExecutor's workers, to terminate them on an interrupt"
    " (Python 3.14 adds terminate_workers())",
}

#: Names with a leading underscore that are public API of ``namedtuple`` (its documented
#: methods are spelt so to stay out of the way of field names).
NAMEDTUPLE_API = {"_replace", "_asdict", "_fields", "_field_defaults", "_make"}


def module_name(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    """Every module of the package by its dotted name."""
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


@cache
def tree(name: str) -> ast.Module:
    return ast.parse(modules()[name].read_text(encoding="utf-8"))


def resolve(importer: str, level: int, module: str | None) -> str:
    """The absolute name of ``from <level dots><module> import ...`` inside ``importer``."""
    if not level:
        return module or ""
    is_package = modules()[importer].name == "__init__.py"
    base = importer.split(".")
    base = base[: len(base) - level + (1 if is_package else 0)]
    return ".".join([*base, *([module] if module else [])])


def imports(name: str) -> Iterator[tuple[str, list[str]]]:
    """``(module, names)`` of every import in module ``name``, wherever it is written."""
    for node in ast.walk(tree(name)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, []
        elif isinstance(node, ast.ImportFrom):
            yield resolve(name, node.level, node.module), [alias.name for alias in node.names]


def graph() -> dict[str, set[str]]:
    """Module -> the ``foxtrot`` modules it imports (a submodule imported by name counts as
    the submodule, a name from a package as the package's ``__init__``)."""
    known = modules()
    edges: dict[str, set[str]] = {name: set() for name in known}
    for name in known:
        for module, names in imports(name):
            if not module.startswith("foxtrot"):
                continue
            targets = {f"{module}.{item}" for item in names if f"{module}.{item}" in known}
            if len(targets) < len(names) or not names:
                target = module
                while target not in known:  # ``import foxtrot.x.y`` of a name, not a module
                    target = target.rsplit(".", 1)[0]
                targets.add(target)
            edges[name] |= targets - {name}
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """One circle (a path that comes back to its start) per strongly connected component."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(node: str) -> None:  # Tarjan's algorithm
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges[node]):
            if nxt not in index:
                connect(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(circle(edges, set(component)))

    for node in sorted(edges):
        if node not in index:
            connect(node)
    return found


def circle(edges: dict[str, set[str]], component: set[str]) -> list[str]:
    """A shortest path from the component's first module back to itself, inside it."""
    start = min(component)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for nxt in sorted(edges[node] & component):
                if nxt == start:
                    return [*paths[node], start]
                if nxt not in paths:
                    paths[nxt] = [*paths[node], nxt]
                    following.append(nxt)
        frontier = following
    raise AssertionError("a component without a circle")


def test_the_graph_sees_relative_local_and_type_only_imports() -> None:
    edges = graph()
    assert len(edges) > 100
    assert "foxtrot.core.kernel" in edges["foxtrot.core.state"]  # relative, at the top
    assert "foxtrot.fast" in edges["foxtrot.env.batch"]  # ``from .. import fast``, in a function
    assert "foxtrot.core" in edges["foxtrot.env.batch"]
    planted = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(planted) == [["a", "b", "c", "a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_module_imports_itself_round_a_circle() -> None:
    found = cycles(graph())
    assert not found, "import circles:\n" + "\n".join(" -> ".join(c) for c in found)


# ------------------------------------------------------------------ reach-ins


def is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__") and name != "_"


def class_privates(module: ast.Module) -> set[str]:
    """Private members of the module's classes: methods, slots, class and instance fields."""
    names: set[str] = set()
    for cls in ast.walk(module):
        if not isinstance(cls, ast.ClassDef):
            continue
        for node in ast.walk(cls):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                names.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                if node.value.id in ("self", "cls") and isinstance(node.ctx, ast.Store):
                    names.add(node.attr)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names.add(node.target.id)
            elif isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        names.add(target.id)
                        if target.id == "__slots__" and isinstance(node.value, ast.Tuple):
                            names.update(
                                elt.value
                                for elt in node.value.elts
                                if isinstance(elt, ast.Constant) and isinstance(elt.value, str)
                            )
    return {name for name in names if is_private(name)}


@cache
def privates_of(name: str) -> frozenset[str]:
    return frozenset(class_privates(tree(name)))


def module_aliases(module: ast.Module, name: str) -> set[str]:
    """The local names ``module`` binds to imported modules (``import x``, ``import x as y``,
    ``from pkg import submodule``)."""
    known = modules()
    aliases = set()
    for node in ast.walk(module):
        if isinstance(node, ast.Import):
            for alias in node.names:
                aliases.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom):
            base = resolve(name, node.level, node.module)
            for alias in node.names:
                if f"{base}.{alias.name}" in known:
                    aliases.add(alias.asname or alias.name)
    return aliases


def reach_ins(name: str, source: str | None = None) -> list[str]:
    """Every private name of another module that module ``name`` reads (see the module doc)."""
    module = tree(name) if source is None else ast.parse(source)
    path = modules()[name].relative_to(SRC).as_posix()
    own = class_privates(module)
    others = set().union(*(privates_of(other) for other in modules() if other != name))
    aliases = module_aliases(module, name)
    found = []
    for node in ast.walk(module):
        if isinstance(node, ast.ImportFrom):
            base = resolve(name, node.level, node.module)
            found += [
                f"{path}: from {base} import {alias.name}"
                for alias in node.names
                if is_private(alias.name)
                # a package's private submodule, imported inside the package, is its own
                and not (f"{base}.{alias.name}" in modules() and name.startswith(base))
            ]
        elif isinstance(node, ast.Attribute) and is_private(node.attr):
            receiver = ast.unparse(node.value)
            if receiver in ("self", "cls", "super()"):
                continue
            root = receiver.split(".")[0]
            if root in aliases and receiver.replace(".", "").isidentifier():
                found.append(f"{path}: {receiver}.{node.attr}")  # a module's private name
            elif node.attr in others - own - NAMEDTUPLE_API:
                found.append(f"{path}: {receiver}.{node.attr}")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "setattr", "hasattr", "delattr")
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
            and is_private(node.args[1].value)
            and node.args[1].value in others - own
        ):
            found.append(f"{path}: {ast.unparse(node.args[0])}.{node.args[1].value}")
    return sorted(entry for entry in set(found) if entry.split(": ", 1)[1] not in STDLIB_PRIVATES)


def test_the_scan_finds_planted_reach_ins() -> None:
    planted = (
        "import random\n"
        "from foxtrot.core.state import _card\n"
        "from .game import Game\n"
        "def f(state, game):\n"
        "    random._inst\n"
        "    state._hands\n"
        "    getattr(game, '_codes')\n"
        "    game._replace()\n"
        "    self._hands\n"
    )
    found = reach_ins("foxtrot.env.batch", planted)
    assert found == [
        "foxtrot/env/batch.py: from foxtrot.core.state import _card",
        "foxtrot/env/batch.py: game._codes",
        "foxtrot/env/batch.py: random._inst",
        "foxtrot/env/batch.py: state._hands",
    ]


def test_no_module_reads_another_modules_private_names() -> None:
    offences = [entry for name in modules() for entry in reach_ins(name)]
    assert not offences, "private names read from another module:\n" + "\n".join(offences)
