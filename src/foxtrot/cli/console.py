"""The command line's output: rich when it is installed, plain text when it is not.

The base install of Foxtrot needs no third-party package, so the command line
must print its tables, rules and progress without rich; with rich (it comes
with the ``tui`` extra) the same calls give colour, boxes, wrapped Markdown and
a progress bar.  A pipe or a file always gets plain, unwrapped text.
"""

from __future__ import annotations

import shutil
import sys
import textwrap
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from importlib.util import find_spec
from typing import Any, TextIO

HAVE_RICH = find_spec("rich") is not None


class Console:
    """Where one stream of the command line's output goes (stdout, or stderr)."""

    def __init__(self, *, stderr: bool = False, rich: bool | None = None) -> None:
        self._stderr = stderr
        self._rich: Any = None
        if HAVE_RICH if rich is None else rich:
            from rich.console import Console as RichConsole  # noqa: PLC0415

            self._rich = RichConsole(stderr=stderr, highlight=False, soft_wrap=True)

    @property
    def stream(self) -> TextIO:
        """The stream written to (looked up on every call, so tests can capture it)."""
        return sys.stderr if self._stderr else sys.stdout

    @property
    def is_terminal(self) -> bool:
        """True when a person reads the stream in a terminal."""
        if self._rich is not None:
            return bool(self._rich.is_terminal)
        return self.stream.isatty()

    def print(self, text: str = "", *, markup: bool = False, style: str | None = None) -> None:
        """One line (or several) of text; ``markup`` is rich's, ignored in plain text."""
        if self._rich is not None:
            # in a terminal, wrap at word boundaries; in a pipe, never break a line
            self._rich.print(text, markup=markup, style=style, soft_wrap=not self.is_terminal)
        else:
            self.stream.write(f"{text}\n")

    def rule(self, title: str) -> None:
        """A heading line."""
        if self._rich is not None:
            self._rich.rule(title)
        else:
            self.stream.write(f"--- {title} ---\n")

    def json(self, text: str) -> None:
        """JSON text: highlighted in a terminal, exactly as given elsewhere."""
        if self._rich is not None and self.is_terminal:
            self._rich.print_json(text)
        else:
            self.stream.write(f"{text}\n")

    def markdown(self, text: str) -> None:
        """Markdown: rendered and wrapped to the terminal's width; as it is in a pipe."""
        if not self.is_terminal:
            self.stream.write(text)
        elif self._rich is not None:
            from rich.markdown import Markdown  # noqa: PLC0415

            self._rich.print(Markdown(text), soft_wrap=False)  # wrapped at the window's edge
        else:
            width = shutil.get_terminal_size().columns
            for line in text.splitlines():
                indent = len(line) - len(line.lstrip(" -*"))
                wrapped = textwrap.wrap(line, width, subsequent_indent=" " * indent)
                self.stream.write("\n".join(wrapped or [""]) + "\n")

    def table(
        self,
        headers: Sequence[str],
        rows: Sequence[Sequence[str]],
        *,
        title: str | None = None,
        right: Sequence[int] = (),
    ) -> None:
        """A table; the columns whose indexes are in ``right`` are right-justified."""
        if self._rich is not None:
            from rich import box  # noqa: PLC0415
            from rich.table import Table  # noqa: PLC0415

            # one space between columns (not two), so that wide tables fit 120 columns
            table = Table(
                *headers, title=title, box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True
            )
            for index in right:
                table.columns[index].justify = "right"
                table.columns[index].no_wrap = True  # numbers are never cut
            for row in rows:
                table.add_row(*row)
            if not self.is_terminal:  # a pipe or a file has no width: do not squeeze
                self._rich.width = max(self._rich.width, 160)
            self._rich.print(table)
            return
        widths = [
            max(len(str(cell)) for cell in column) for column in zip(headers, *rows, strict=True)
        ]

        def line(cells: Sequence[str]) -> str:
            parts = [
                cell.rjust(width) if index in right else cell.ljust(width)
                for index, (cell, width) in enumerate(zip(cells, widths, strict=True))
            ]
            return "  ".join(parts).rstrip()

        if title:
            self.stream.write(f"{title}\n")
        self.stream.write(line(headers) + "\n")
        self.stream.write("  ".join("-" * width for width in widths) + "\n")
        for row in rows:
            self.stream.write(line(row) + "\n")

    @contextmanager
    def progress(self, total: int, description: str) -> Iterator[Callable[[], None]]:
        """A progress bar (only in a terminal); yields the function that advances it by one."""
        if not self.is_terminal:
            yield lambda: None
            return
        if self._rich is not None:
            from rich.progress import (  # noqa: PLC0415
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
            )

            # The time left from the mean time per item so far: rich's own estimate needs two
            # updates inside a 30 s window, which long matches of the expert never give.
            left = TextColumn("{task.fields[left]}")
            columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
            with Progress(
                *columns, TimeElapsedColumn(), left, console=self._rich, transient=True
            ) as bar:
                task = bar.add_task(description, total=total, left="")
                start = time.monotonic()
                count = 0

                def step() -> None:
                    nonlocal count
                    count += 1
                    seconds = (time.monotonic() - start) / count * (total - count)
                    bar.update(task, advance=1, left=f"about {_duration(seconds)} left")

                yield step
            return
        done = 0
        start = time.monotonic()

        def advance() -> None:
            nonlocal done
            done += 1
            left = (time.monotonic() - start) / done * (total - done)
            self.stream.write(f"\r{description} {done}/{total}, about {_duration(left)} left ")
            self.stream.flush()

        try:
            yield advance
        finally:
            self.stream.write("\r\033[K")


def _duration(seconds: float) -> str:
    """``42 s``, ``3 min``, ``2 h 05 min``: a time left, as precise as it deserves."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    minutes = round(seconds / 60)
    return f"{minutes} min" if minutes < 90 else f"{minutes // 60} h {minutes % 60:02d} min"
