"""The documentation site and the README, its front page.

``mkdocs build --strict`` (mkdocs.yml) fails on a broken link or anchor, a page left out of the
navigation, and any warning of mkdocstrings: a docstring the API reference cannot render
fails here, not on the day someone publishes the site. The built pages must load nothing from
the network (the site is read offline, and a font fetched from elsewhere tells that host who
reads it), and the README stays a front page: short, with links that lead somewhere.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Final

import pytest

from foxtrot.core import IllegalActionError

ROOT: Final = Path(__file__).resolve().parent.parent
README: Final = ROOT / "README.md"
#: The README is the front page; the guides and reports live in docs/.
README_MAX_LINES: Final = 200
#: Attributes through which a page makes the browser fetch something on its own.
FETCHING: Final = {
    "script": "src",
    "img": "src",
    "iframe": "src",
    "source": "src",
    "audio": "src",
    "video": "src",
    "link": "href",  # stylesheets, fonts, icons, preloads; <a href> is only a link
}
#: A markdown link or image target, or an HTML src/href, in the README.
README_TARGET: Final = re.compile(r"\]\(([^)\s]+)\)|(?:src|href)=\"([^\"]+)\"")


def _build(site: Path, config: Path = ROOT / "mkdocs.yml") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    # Not -q: it hides the warnings from the count that --strict fails on.
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(config)]
    return subprocess.run(
        [*command, "--site-dir", str(site)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built once for this module's tests."""
    out = tmp_path_factory.mktemp("site")
    done = _build(out)
    assert done.returncode == 0, f"mkdocs build --strict failed:\n{done.stdout}\n{done.stderr}"
    return out


class _Fetches(HTMLParser):
    """Every URL a page would fetch by itself (scripts, stylesheets, images, frames)."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        wanted = FETCHING.get(tag)
        for name, value in attrs:
            if value is not None and name in (wanted, "srcset"):
                self.urls.append(value)


def _external(url: str) -> bool:
    return url.startswith(("http://", "https://", "//"))


def test_the_site_builds_strictly_with_every_page_and_the_api_reference(site: Path) -> None:
    # The front page, a guide, the rule book, a report and the generated API reference.
    for page in ("index.html", "guide/terminal.html", "rules.html", "reports/strength.html"):
        assert (site / page).is_file(), page
    state = (site / "api" / "state.html").read_text(encoding="utf-8")
    # mkdocstrings rendered State and its verbs from the docstrings.
    for name in ("foxtrot.core.state.State", "apply_unchecked", "why_illegal", "observation"):
        assert name in state, name
    # Every markdown file in docs/ is a page of the site (omitted_files is a warning: strict).
    pages = {p.relative_to(ROOT / "docs").with_suffix(".html") for p in ROOT.glob("docs/**/*.md")}
    assert pages and all((site / p).is_file() for p in pages)


def test_the_built_pages_fetch_nothing_from_the_network(site: Path) -> None:
    fetched: dict[str, list[str]] = {}
    for page in sorted(site.rglob("*.html")):
        parser = _Fetches()
        parser.feed(page.read_text(encoding="utf-8"))
        outside = [url for url in parser.urls if _external(url)]
        if outside:
            fetched[str(page.relative_to(site))] = outside
    assert not fetched, f"pages that load something from the network: {fetched}"
    # No web font is even named in the stylesheets (theme.font: false).
    css = " ".join(p.read_text(encoding="utf-8") for p in site.rglob("*.css"))
    assert "fonts.googleapis" not in css and "fonts.gstatic" not in css


def test_a_docstring_fault_fails_the_build(tmp_path: Path) -> None:
    """The check can fail: a reference mkdocstrings cannot resolve is an error under --strict."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Broken\n\n::: broken_module\n", encoding="utf-8")
    (tmp_path / "broken_module.py").write_text(
        '"""A module whose docstring points at [a target][nowhere.at.all]."""\n', encoding="utf-8"
    )
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: broken\ntheme:\n  name: material\n  font: false\nplugins:\n"
        "  - mkdocstrings:\n      handlers:\n        python:\n          paths: [.]\n",
        encoding="utf-8",
    )
    done = _build(tmp_path / "site", tmp_path / "mkdocs.yml")
    assert done.returncode != 0
    assert "nowhere.at.all" in done.stderr


def test_the_readme_is_a_short_front_page_whose_links_lead_somewhere() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) < README_MAX_LINES
    # The quick start: clone first, then the two commands.
    assert re.search(r"[Cc]lone this repository", text)
    assert "pip install '.[all]' && foxtrot serve" in text
    assert "bash tools/test" in text
    missing = []
    for match in README_TARGET.finditer(text):
        target = (match.group(1) or match.group(2)).split("#", 1)[0]
        if not target or _external(target):
            continue
        if not (ROOT / target).exists():
            missing.append(target)
    assert not missing, f"README links to files that do not exist: {missing}"


@pytest.mark.parametrize("page", ["README.md", "docs/library/engine.md"])
def test_the_engine_example_runs_as_its_comments_say(page: str) -> None:
    """The front page's example: every line runs, and the last raises as its comment says."""
    text = (ROOT / page).read_text(encoding="utf-8")
    block = text.split("```python\n", 1)[1].split("```", 1)[0]
    *lines, last = block.strip().splitlines()
    assert last.startswith('state.apply("take")') and "IllegalActionError" in last
    scope: dict[str, object] = {}
    exec("\n".join(lines), scope)
    with pytest.raises(IllegalActionError) as refused:
        exec(last, scope)
    assert refused.value.code  # says why, with a code
    assert scope["events"]  # the checked apply returned what happened
