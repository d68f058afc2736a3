"""Where the arena keeps what is costly to recompute: the solver's opening books and the
exact scores of positions already solved.

``CACHE_ENV`` names the directory when set; otherwise it is ``connect-four-arena`` under
``$XDG_CACHE_HOME`` (default ``~/.cache``). Commands that use it take ``--cache DIR``.
"""

from __future__ import annotations

import os
from pathlib import Path

CACHE_ENV = "CONNECT_FOUR_ARENA_CACHE"
APP_NAME = "connect-four-arena"

def cache_dir(chosen: Path | None = None) -> Path:
    """The cache directory: ``chosen`` (a command's ``--cache``) when given, else
    $CONNECT_FOUR_ARENA_CACHE, else the user's cache directory."""
    if chosen is not None:
        return chosen
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / APP_NAME
