"""The engine's boundaries: nothing outside ``foxtrot.core`` reads ``State``'s private names, and
the compiled kernel (``foxtrot.fast``) does not import the bots that import it.

``State``'s private names are taken from the class itself (its slots and its methods, and its
bases'), so a private name added later is covered too.  A use is an attribute access
``x._name`` (or ``getattr``/``setattr``/``hasattr`` with the name as a literal) on anything but
``self`` or ``cls``: outside the core, code reads the public API of ``foxtrot.core.position``
(``hand_ids``, ``pile_ids``, ``apply_code_unchecked``, ...) instead.
"""

from __future__ import annotations

import ast
from pathlib import Path

from foxtrot.core import State

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "foxtrot"

#: Other objects whose own private names happen to be spelt like the engine's, by file and
#: the receiver's name: the compiled batch engine of ``BatchedGames`` keeps its arrays as
#: ``_hands``, ``_stock``... (its test reaches into them to plant hidden cards).
NOT_A_STATE = {("tests/test_batch.py", "engine")}


def private_names() -> set[str]:
    """Every underscore name of ``State`` and its bases, dunders aside."""
    names: set[str] = set()
    for cls in State.__mro__[:-1]:  # not ``object``
        names.update(getattr(cls, "__slots__", ()))
        names.update(vars(cls))
    return {name for name in names if name.startswith("_") and not name.startswith("__")}


def uses(source: str, names: set[str]) -> list[tuple[int, str, str]]:
    """``(line, receiver, name)`` of every use of one of ``names`` on something not ``self``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in names:
            receiver = ast.unparse(node.value)
            if receiver not in ("self", "cls"):
                found.append((node.lineno, receiver, node.attr))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "setattr", "hasattr", "delattr")
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and node.args[1].value in names
        ):
            found.append((node.lineno, ast.unparse(node.args[0]), str(node.args[1].value)))
    return found


def test_the_private_names_are_found() -> None:
    names = private_names()
    assert {"_hands", "_pile", "_stock", "_match", "_to_move", "_deals", "_run_out"} <= names
    assert "hand_ids" not in names and "__init__" not in names


def test_the_scan_finds_a_planted_private_access() -> None:
    names = private_names()
    planted = "def f(state):\n    x = state._hands\n    return getattr(state, '_pile')\n"
    assert uses(planted, names) == [(2, "state", "_hands"), (3, "state", "_pile")]
    assert uses("class A:\n    def f(self):\n        return self._hands\n", names) == []


def test_nothing_outside_the_core_reads_a_private_name_of_state() -> None:
    names = private_names()
    files = [
        path
        for folder in ("src", "tests", "benchmarks", "examples")
        for path in sorted((ROOT / folder).rglob("*.py"))
        if (PACKAGE / "core") not in path.parents
    ]
    assert len(files) > 100
    offences = []
    for path in files:
        where = path.relative_to(ROOT).as_posix()
        for line, receiver, name in uses(path.read_text(encoding="utf-8"), names):
            if (where, receiver) not in NOT_A_STATE:
                offences.append(f"{where}:{line}: {receiver}.{name}")
    assert not offences, "private names of State used outside foxtrot.core:\n" + "\n".join(offences)


def test_inside_the_core_only_the_state_touches_its_private_names() -> None:
    """The state owns its fields: its views (``seat_views``), its readers (``position``),
    its text and its sampling read it through its public API and build it through
    ``State.from_snapshot``; no other module of the core reads or writes its privates."""
    names = private_names()
    core = sorted((PACKAGE / "core").glob("*.py"))
    assert len(core) > 15
    offences = [
        f"{path.name}:{line}: {receiver}.{name}"
        for path in core
        if path.name != "state.py"
        for line, receiver, name in uses(path.read_text(encoding="utf-8"), names)
    ]
    assert not offences, "private names of State used in the core:\n" + "\n".join(offences)
    assert uses((PACKAGE / "core" / "state.py").read_text(encoding="utf-8"), names)  # it looks


def private_writes(source: str) -> list[tuple[int, str]]:
    """``(line, target)`` of every assignment to an underscore attribute, ``self``'s included."""
    found = []
    for node in ast.walk(ast.parse(source)):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AugAssign | ast.AnnAssign) and node.value is not None:
            targets = [node.target]
        for target in targets:
            for part in ast.walk(target):
                if isinstance(part, ast.Attribute) and part.attr.startswith("_"):
                    found.append((part.lineno, ast.unparse(part)))
    return found


def test_the_position_mixins_write_nothing() -> None:
    """The mixins (``PositionIds``, ``PositionCards``, ``PositionValue``, ``Legality``) and the
    state's readers only read: its fields are written by its own methods alone."""
    assert private_writes("def f(self):\n    self._pile = []\n") == [(2, "self._pile")]
    readers = ("position.py", "refusals.py", "seat_views.py", "position_text.py", "determinize.py")
    for module in readers:
        source = (PACKAGE / "core" / module).read_text(encoding="utf-8")
        assert private_writes(source) == [], module


def _imported(path: Path) -> set[str]:
    """The ``foxtrot`` modules ``path`` imports, as absolute names."""
    package = ".".join(path.relative_to(ROOT / "src").with_suffix("").parts[:-1])
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return {name for name in found if name.startswith("foxtrot")}


def test_the_compiled_kernel_imports_nothing_from_the_bots() -> None:
    """The layering core <- fast <- bots: the bots call the kernel, never the other way."""
    fast = sorted((PACKAGE / "fast").glob("*.py"))
    assert len(fast) >= 5
    for path in fast:
        bots = sorted(name for name in _imported(path) if name.startswith("foxtrot.bots"))
        assert not bots, f"{path.name} imports {bots}"
    assert "foxtrot.bots.values" in _imported(PACKAGE / "bots" / "expert.py")  # the scan works
    assert "foxtrot.fast" in _imported(PACKAGE / "bots" / "expert.py")
