"""Every rule id of RULES.md has at least one test named after it (``test_T3b_...``)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
RULES = TESTS.parents[1] / "shared" / "RULES.md"


def _rule_ids() -> list[str]:
    text = RULES.read_text(encoding="utf-8")
    return re.findall(r"^\s*- ([A-Z]\d+[a-e]?)\.", text, re.MULTILINE)


def _test_names() -> list[str]:
    names = []
    for path in sorted(TESTS.glob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                names.append(node.name)
    return names


def test_every_rule_id_has_a_test() -> None:
    ids = _rule_ids()
    assert {"C1", "T3b", "X10"} <= set(ids)  # the pattern finds the ids
    tokens = {token for name in _test_names() for token in name.split("_")[1:]}
    missing = [rule for rule in ids if rule not in tokens]
    assert not missing, f"rules without a test named after them: {missing}"
