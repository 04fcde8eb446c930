"""The project's rule book, ``docs/rules.md``, inside the repository.

Its rule ids are exactly the project's list (a rule dropped from the book fails), every id
has at least one test named after it (``test_T3b_...``), and nothing in the package, the
tests, the benchmarks or CI reads the rule book that once lay beside the repository, so that
a fresh clone with nothing beside it passes its own test command.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Final

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
RULES = ROOT / "docs" / "rules.md"
ID_PATTERN: Final = re.compile(r"^\s*- ([A-Z]\d+[a-e]?)\.", re.MULTILINE)

#: The project's rule ids, in the order of the rule book.
# fmt: off
RULE_IDS: Final = (
    "C1", "C2", "C3", "C4",
    "D1", "D2", "D3", "D4",
    "T1", "T2", "T3", "T3a", "T3b", "T3c", "T3d", "T3e", "T4", "T5", "T6", "T7",
    "R1", "R2",
    "E1", "E2", "P1", "P2", "P3", "P4",
    "M1", "M2",
    "V1", "V2", "V3",
    "G1", "G2", "G3",
    "X1", "X2", "X3", "X4", "X5", "X6", "X7", "X8", "X9", "X10",
)
# fmt: on

#: Where the project's own files live (what a fresh clone holds), the docs and their site's
#: configuration included (tests/test_docs.py builds it).
# fmt: off
SCANNED: Final = (
    "src", "tests", "benchmarks", ".ci", "docs", "pyproject.toml", "README.md", "mkdocs.yml",
)
# fmt: on
#: Generated or cached folders (all in .gitignore), not the project's files.
SKIPPED_DIRS: Final = frozenset(
    {"__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".hypothesis", "build", "dist"}
)
#: Ways of referring to the ``shared`` folder beside the repository, or to its rule book.
OUTSIDE: Final = re.compile(
    r"\.\./shared"  # a relative path: "../shared/RULES.md"
    r"|/work/shared"  # the absolute path on the team's machine
    r"|/\s*[\"']shared[\"']"  # a pathlib part: parents[1] / "shared"
    r"|[\"']shared[\"']\s*[/,)]"  # "shared" / ..., joinpath("shared", ...), join(.., "shared")
    r"|[\"']shared/"  # a string path starting there: "shared/RULES.md"
    r"|\bRULES\.md\b"  # the name of that rule book (the project's is docs/rules.md)
)


def _rule_ids() -> list[str]:
    return ID_PATTERN.findall(RULES.read_text(encoding="utf-8"))


def _test_names() -> list[str]:
    names = []
    for path in sorted(TESTS.glob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                names.append(node.name)
    return names


def _project_files() -> list[Path]:
    """Every text file of SCANNED but this one, whose patterns would match themselves."""
    files = []
    for name in SCANNED:
        top = ROOT / name
        candidates = [top] if top.is_file() else sorted(top.rglob("*"))
        for path in candidates:
            parts = path.relative_to(ROOT).parts
            if any(p in SKIPPED_DIRS or p.endswith(".egg-info") for p in parts):
                continue
            if path.is_file() and path.resolve() != Path(__file__).resolve():
                files.append(path)
    return files


def test_rule_book_is_inside_the_repository() -> None:
    assert RULES.is_file(), f"{RULES} is missing"
    assert RULES.resolve().is_relative_to(ROOT.resolve())


def test_rule_book_ids_are_the_project_list() -> None:
    ids = _rule_ids()
    assert len(ids) == len(set(ids)), f"an id appears twice in {RULES.name}: {ids}"
    assert ids == list(RULE_IDS), (
        f"missing: {[i for i in RULE_IDS if i not in ids]},"
        f" unexpected: {[i for i in ids if i not in RULE_IDS]}"
        if set(ids) != set(RULE_IDS)
        else f"the ids are out of order: {ids}"
    )


def test_every_rule_id_has_a_test() -> None:
    ids = _rule_ids()
    assert {"C1", "T3b", "X10"} <= set(ids)  # the pattern finds the ids
    tokens = {token for name in _test_names() for token in name.split("_")[1:]}
    missing = [rule for rule in (*RULE_IDS, *ids) if rule not in tokens]
    assert not missing, f"rules without a test named after them: {missing}"


def test_record_shape_block_is_in_the_rule_book() -> None:
    text = RULES.read_text(encoding="utf-8")
    block = text.split("```json", 1)[1].split("```", 1)[0]
    for key in ("format", "options", "names", "deals", "totals", "winner", "dealer", "deck"):
        assert f'"{key}"' in block
    assert '"foxtrot-record/1"' in block
    assert "external contract" in text


def test_the_scan_recognises_references_to_the_shared_folder() -> None:
    """The pattern catches the ways this file itself used to find the rule book."""
    caught = [
        'RULES = TESTS.parents[1] / "shared" / "RULES.md"',
        "open('../shared/rules')",
        'Path("/work/shared")',
        'ROOT.parent.joinpath("shared", "x")',
        "os.path.join(here, '..', 'shared')",
        'Path("shared/notes.md")',
    ]
    assert all(OUTSIDE.search(line) for line in caught)
    allowed = [
        'RULES = ROOT / "docs" / "rules.md"',
        "cards played onto a shared pile",
        "(immutable parts are shared)",
        "shared by greedy and the expert",
    ]
    assert not any(OUTSIDE.search(line) for line in allowed)


def test_nothing_refers_to_the_shared_folder_beside_the_repository() -> None:
    files = _project_files()
    scanned = {path.relative_to(ROOT).as_posix() for path in files}
    # The scan really covers the package, the other tests and CI.
    assert {"src/foxtrot/core/record.py", "tests/test_quality.py", ".ci/run"} <= scanned
    found = []
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # not a text file
        for number, line in enumerate(text.splitlines(), 1):
            if OUTSIDE.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "references to the folder beside the repository:\n" + "\n".join(found)
