"""How the kernel is compiled: numba's ``njit``, cached on disk, keyed to the sources it reads.

numba compiles a function on its first call (about a second for the whole search) and, with
caching, keeps the machine code in ``__pycache__`` for the next process.  Its own cache
(``cache=True``) is keyed to the one source file of each function, but compiled code also
holds what it read from other modules: the rules' constants and tables of ``core.kernel``
and ``core.rules`` and the jitted kernel functions it calls (the bots' weights are
arguments, ``weights``, not compiled in: this package imports nothing from
``foxtrot.bots``).  So the key here also holds a digest of every source file the kernel
reads: change a rule or a weight, and the kernel is compiled anew instead of running stale
code.

This module imports numba: it is loaded only when the compiled kernel is used.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

import numba
from numba.core.caching import FunctionCache

from ..core import actions, cards, kernel, rules

F = TypeVar("F", bound=Callable[..., Any])


def _sources_digest() -> str:
    """A digest of the sources the compiled kernel is built from."""
    files = [Path(m.__file__ or "") for m in (actions, cards, kernel, rules)]
    files += sorted(Path(__file__).parent.glob("_[!_]*.py"))  # the compiled modules
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


SOURCES: str = _sources_digest()


_FunctionCache: Any = FunctionCache  # numba is untyped


class _SourcesCache(_FunctionCache):  # type: ignore[misc]
    """numba's on-disk cache, with the sources' digest in every entry's key."""

    def _index_key(self, sig: Any, codegen: Any) -> tuple[Any, ...]:
        key: tuple[Any, ...] = super()._index_key(sig, codegen)
        return (*key, SOURCES)


def jit(fn: F) -> F:
    """``numba.njit(fn)``, compiled on first call, cached on disk under the sources' digest
    (uncached where no cache directory can be written)."""
    dispatcher: Any = numba.njit(fn)
    return _cached(dispatcher, fn)


def hot(fn: F) -> F:
    """``jit`` without numba's reference counting, for the functions of the hot loop: they
    allocate nothing and only borrow the arrays they are given, and the counting (an atomic
    operation per array per call) took half the time of a playout."""
    njit: Any = numba.njit  # ``_nrt`` is a numba option its type hints do not list
    dispatcher: Any = njit(_nrt=False)(fn)
    return _cached(dispatcher, fn)


def inlined(fn: F) -> F:
    """``hot``, and inlined into its callers by numba (``inline="always"``): for the
    functions of every playout move, whose many array arguments cost more to pass than
    their work once the call is a call."""
    njit: Any = numba.njit
    dispatcher: Any = njit(_nrt=False, inline="always")(fn)
    return _cached(dispatcher, fn)


def _cached(dispatcher: Any, fn: F) -> F:
    with contextlib.suppress(Exception):  # no cache directory, or a numba without this
        dispatcher._cache = _SourcesCache(dispatcher.py_func)
    return cast(F, dispatcher)
