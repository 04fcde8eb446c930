"""The product speaks of the game, never of how it was made: no code, page, catalog, doc,
benchmark or test names a tracker's issue number, and no report reads like a work diary
("this session", "the helper's"). Reports say what was measured, how and when.

The words are searched in every text file the project ships or keeps beside the package
(``src``, ``docs``, ``tests``, ``benchmarks``, ``examples``, ``tools``, ``.ci``, the README and
``mkdocs.yml``); the compiled catalogs (``.mo``) come from the ``.po`` files searched here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PLACES = ("src", "docs", "tests", "benchmarks", "examples", "tools", ".ci")
FILES = ("README.md", "mkdocs.yml", "pyproject.toml")
SUFFIXES = {".py", ".md", ".js", ".css", ".html", ".po", ".pot", ".toml", ".yml", ".txt", ".sh", ""}
SKIPPED = {"__pycache__", ".venv", "node_modules", "site", "test-artifacts", "__snapshots__"}

#: Each pattern and what it catches.  A session cookie or a signed-in session is the game's
#: own vocabulary, so "session" alone is never searched for, only the diary's phrases.
WORDS: dict[str, re.Pattern[str]] = {
    "an issue number": re.compile(r"\bissues?\s*#?\d+", re.IGNORECASE),
    "an issue reference": re.compile(r"\(issue\b|\bissue:\s", re.IGNORECASE),
    "a work session": re.compile(
        r"\b(?:this|last|previous|next|earlier)\s+session(?:'s)?\b(?!\s+(?:cookie|token|id\b))"
        r"(?!'s\s+(?:cookie|token|csrf|id\b))|\bsession's end\b",
        re.IGNORECASE,
    ),
    "a helper": re.compile(r"\bhelpers?'s?\s+(?:tests|branch|run|measurements)\b", re.IGNORECASE),
}


def texts() -> list[Path]:
    """Every text file searched, this test's own file aside (it spells the patterns)."""
    found = [ROOT / name for name in FILES]
    for place in PLACES:
        for path in sorted((ROOT / place).rglob("*")):
            if SKIPPED.intersection(path.relative_to(ROOT).parts) or not path.is_file():
                continue
            if path.suffix in SUFFIXES and path != Path(__file__).resolve():
                found.append(path)
    return found


def findings(text: str) -> list[tuple[int, str, str]]:
    """``(line, what, the words)`` for each match in ``text``."""
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        for what, pattern in WORDS.items():
            match = pattern.search(line)
            if match:
                out.append((number, what, match.group(0)))
    return out


@pytest.mark.parametrize(
    "text",
    [
        "A fix (issue 25): passkeys",
        "// issue 22: the pause",
        "Issue 8, a newcomer's match",
        "from before this session's cheaper apply",
        "stopped at the session's end",
        "from other helpers' tests",
        "the self-play policy of issue #26",
    ],
)
def test_the_patterns_catch_the_diary(text: str) -> None:
    assert findings(text), text


@pytest.mark.parametrize(
    "text",
    [
        "Make the client hold only this session cookie",
        "the session's CSRF token",
        "a signed-in session lasts 30 days",
        "one issue of the log",
    ],
)
def test_the_games_own_words_pass(text: str) -> None:
    assert not findings(text), text


def test_nothing_shipped_speaks_of_its_making() -> None:
    files = texts()
    assert len(files) > 200  # the walk found the project
    bad = [
        f"{path.relative_to(ROOT)}:{line}: {what}: {words!r}"
        for path in files
        for line, what, words in findings(path.read_text(encoding="utf-8", errors="replace"))
    ]
    assert not bad, "\n".join(bad)
