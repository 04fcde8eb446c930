"""Foxtrot ("American Pishti"), the double-deck card game by Ed Vasicek.

The rules engine lives in ``foxtrot.core`` and is re-exported here.
"""

from .core import *  # noqa: F403
from .core import __all__ as __all__

__version__ = "0.1.0"
