"""The optional compiled build of the engine's hot modules (mypyc); by default, pure Python.

``pip install .`` installs pure Python, as ever: the metadata is in ``pyproject.toml``.
``FOXTROT_MYPYC=1 pip install --no-build-isolation .`` (mypy installed, as the ``test``
extra brings it, and a C compiler) compiles the modules of ``COMPILED`` ahead of time with
mypyc, the compiler mypy and black ship themselves with: the same typed source, so the rules
stay written once, and every other module stays Python.  docs/library/engine.md has the
figures and the method; ``tests/test_compiled_build.py`` builds it and runs the core's tests
against it.
"""

from __future__ import annotations

import os

from setuptools import setup

#: The modules compiled: the state and what it runs every move, and the observations' views.
#: Left as Python: ``rules`` (numba compiles its functions from their Python source),
#: ``cards`` and ``actions`` (interned values made with ``object.__new__``),
#: ``observation``, ``events``, ``options``, ``snapshot`` and the record modules (dataclasses
#: and enums, read rather than run), and everything outside the core.
COMPILED = [
    "src/foxtrot/core/kernel.py",
    "src/foxtrot/core/position.py",
    "src/foxtrot/core/refusals.py",
    "src/foxtrot/core/seat_views.py",
    "src/foxtrot/core/state.py",
]

if os.environ.get("FOXTROT_MYPYC", "") not in ("", "0"):
    from mypyc.build import mypycify

    setup(ext_modules=mypycify(COMPILED, opt_level="3"))
else:
    setup()
