"""``python -m foxtrot``: the same command line as ``foxtrot``."""

from .cli.main import main

raise SystemExit(main())
