"""The optional parts of Foxtrot and the command that installs each.

The base install is the engine, the bots, records, tournaments and this command
line, with no third-party package.  A command that needs an extra checks for it
first, so a person who lacks it reads which ``pip install`` to run instead of a
traceback.
"""

from __future__ import annotations

from importlib.util import find_spec
from typing import Final

EXTRAS: Final = {
    "tui": ("textual", "rich"),
    "plot": ("matplotlib",),
    "web": (
        "fastapi",
        "uvicorn",
        "sqlalchemy",
        "alembic",
        "pydantic",
        "prometheus_client",
        "webauthn",
        "openskill",
    ),
    "rl": ("pettingzoo", "gymnasium", "numpy"),
    "train": ("pettingzoo", "gymnasium", "numpy", "torch", "sb3_contrib", "stable_baselines3"),
    "openspiel": ("pyspiel", "pettingzoo", "gymnasium", "numpy"),
    "learned": ("numpy",),
    "ray": ("ray",),
}


class MissingExtra(Exception):  # noqa: N818 (it names what is missing, not an error kind)
    """A command needs an extra that is not installed."""

    def __init__(self, extra: str, what: str, missing: str) -> None:
        self.extra = extra
        super().__init__(
            f"{what} needs the '{extra}' extra ({missing} is not installed):"
            f" pip install 'foxtrot[{extra}]'"
        )


def missing(extra: str) -> str | None:
    """The first package of ``extra`` that cannot be imported, or ``None``."""
    for module in EXTRAS[extra]:
        if find_spec(module) is None:
            return module
    return None


def require(extra: str, what: str) -> None:
    """Raise ``MissingExtra`` if a package of ``extra`` is not installed."""
    module = missing(extra)
    if module is not None:
        raise MissingExtra(extra, what, module)
