"""Docs that cannot drift from the code: the command reference is the parsers' own output,
the command line's page names every command, and the layout page names every package and
module of ``src/foxtrot``."""

from __future__ import annotations

import re
from pathlib import Path

from foxtrot.cli.reference import commands, markdown

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "foxtrot"
DOCS = ROOT / "docs"


def test_the_command_reference_is_the_parsers_output() -> None:
    page = (DOCS / "guide" / "cli-reference.md").read_text(encoding="utf-8")
    assert page == markdown(), (
        "docs/guide/cli-reference.md is stale: "
        "python -m foxtrot.cli.reference > docs/guide/cli-reference.md"
    )


def test_the_reference_holds_every_flag_of_every_command() -> None:
    page = markdown()
    names = commands()
    assert {"play", "serve", "replay", "tournament"} <= set(names)
    for name in names:
        assert f"## `foxtrot {name}`" in page
    for flag in ("--names", "--bot-delay", "--words", "--bus", "--idle-hours", "--seed"):
        assert f"`{flag}" in page, flag


def test_the_command_line_page_names_every_command() -> None:
    page = (DOCS / "guide" / "cli.md").read_text(encoding="utf-8")
    missing = [name for name in commands() if f"| `foxtrot {name}` |" not in page]
    assert not missing, f"docs/guide/cli.md has no row for: {missing}"


def _rows() -> dict[str, str]:
    """The layout page's rows by their first cell."""
    text = (DOCS / "development" / "layout.md").read_text(encoding="utf-8")
    return {m.group(1): m.group(2) for m in re.finditer(r"^\| `([^`]+)` \| (.*) \|$", text, re.M)}


def test_the_layout_page_names_every_package_and_module() -> None:
    rows = _rows()
    missing = []
    for path in sorted(PACKAGE.iterdir()):
        if path.name.startswith(("_", ".")) or path.name == "py.typed":
            continue
        if path.is_file() and path.suffix == ".py":
            if f"src/foxtrot/{path.name}" not in rows:
                missing.append(f"src/foxtrot/{path.name}")
            continue
        if not path.is_dir():
            continue
        row = next((v for k, v in rows.items() if k.startswith(f"src/foxtrot/{path.name}/")), None)
        if row is None:
            missing.append(f"src/foxtrot/{path.name}/")
            continue
        for module in sorted(path.rglob("*.py")):
            if "migrations" in module.parts or module.stem == "__init__":
                continue
            if f"`{module.stem}" not in row:
                missing.append(str(module.relative_to(PACKAGE)))
        for sub in sorted(
            p for p in path.rglob("*") if p.is_dir() and (p / "__init__.py").exists()
        ):
            if "migrations" not in sub.parts and f"`{sub.name}/" not in row:
                missing.append(str(sub.relative_to(PACKAGE)) + "/")
    assert not missing, f"docs/development/layout.md does not name: {missing}"
