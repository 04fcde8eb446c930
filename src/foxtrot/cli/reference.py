"""The command line's reference page, written from the parsers themselves.

argparse offers no public way to walk a parser's groups and flags, so this module reads the
standard library's own ``_action_groups``, ``_group_actions``, ``_subparsers`` and
``_choices_actions`` (listed in the test of private names as the standard library's).

``docs/guide/cli-reference.md`` is this module's output (``python -m foxtrot.cli.reference >
docs/guide/cli-reference.md``), and a test compares the two: a flag added to a parser and not to
the page fails the suite, so the page cannot drift from the command.

>>> page = markdown()
>>> "## `foxtrot serve`" in page and "`--bus URL`" in page
True
"""

from __future__ import annotations

import argparse

from .main import build_parser

HEADER = """# Command reference

Every command of `foxtrot` and every flag, as `foxtrot COMMAND --help` prints them (this page
is written from the command's own parsers; [the command line](cli.md) shows the commands in
use). The table options are the same for every command that starts matches.
"""


def _cell(text: str) -> str:
    """Text fit for one cell of a Markdown table."""
    return " ".join(text.split()).replace("|", "\\|")


def _flag(action: argparse.Action) -> str:
    """How the flag is written: its names and its value's name or choices."""
    if not action.option_strings:
        name = action.metavar or action.dest
        return f"`{name}`" + (" …" if action.nargs in ("*", "+") else "")
    value = ""
    if action.nargs != 0:
        if isinstance(action.metavar, str):
            value = " " + action.metavar
        elif isinstance(action.metavar, tuple):
            value = " " + " ".join(action.metavar)
        elif action.choices is not None:
            value = " {" + ",".join(str(choice) for choice in action.choices) + "}"
        else:
            value = " " + action.dest.upper()
        if action.nargs == "?":
            value = f" [{value.strip()}]"
    return ", ".join(f"`{option}{value}`" for option in action.option_strings)


def _help(action: argparse.Action, parser: argparse.ArgumentParser) -> str:
    """The flag's help, with argparse's ``%(default)s``-style fields filled in."""
    text = action.help or ""
    if "%" in text:  # as argparse fills them in
        text = text % {**vars(action), "prog": parser.prog}
    return _cell(text)


def _section(name: str, parser: argparse.ArgumentParser, summary: str) -> list[str]:
    """One command: its summary and a table of its flags by group (argparse's usage line is
    left out: its layout changes between Python versions, the table's content does not)."""
    lines = [f"## `foxtrot {name}`", "", _cell(summary or parser.description or ""), ""]
    for group in parser._action_groups:
        actions = [
            action
            for action in group._group_actions
            if action.help is not argparse.SUPPRESS and not isinstance(action, argparse._HelpAction)
        ]
        if not actions:
            continue
        lines += [f"**{group.title}**", "", "| flag | what it does |", "| --- | --- |"]
        lines += [f"| {_flag(action)} | {_help(action, parser)} |" for action in actions]
        lines.append("")
    return lines


def commands() -> dict[str, tuple[argparse.ArgumentParser, str]]:
    """Every command of ``foxtrot`` in order: its parser and its one-line summary.

    >>> list(commands())[:3]
    ['rules', 'simulate', 'check']
    """
    parser = build_parser()
    subparsers = parser._subparsers
    assert subparsers is not None  # build_parser adds the commands
    found: dict[str, tuple[argparse.ArgumentParser, str]] = {}
    for action in subparsers._group_actions:
        if isinstance(action, argparse._SubParsersAction):
            summaries = {choice.dest: str(choice.help or "") for choice in action._choices_actions}
            for name, sub in action.choices.items():
                found[name] = (sub, summaries.get(name, ""))
    return found


def markdown() -> str:
    """The whole reference page."""
    lines = [HEADER]
    for name, (sub, summary) in commands().items():
        lines += _section(name, sub, summary)
    return "\n".join(lines).rstrip() + "\n"


if __name__ == "__main__":
    print(markdown(), end="")
