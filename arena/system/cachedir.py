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

_chosen: Path | None = None


def use_cache_dir(directory: Path | None) -> None:
    """Make ``directory`` the process's cache directory (None: back to the default)."""
    global _chosen
    _chosen = directory


def cache_dir() -> Path:
    """The cache directory: the one chosen by ``use_cache_dir`` (a command's ``--cache``),
    else $CONNECT_FOUR_ARENA_CACHE, else the user's cache directory."""
    if _chosen is not None:
        return _chosen
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / APP_NAME
