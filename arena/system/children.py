"""Child Python processes that import this very arena, wherever it was imported from."""

from __future__ import annotations

import os
from pathlib import Path

SOURCE_ROOT = str(Path(__file__).resolve().parents[2])
"""The folder that holds the packages ``arena`` and ``agents``."""


def child_environment() -> dict[str, str]:
    """This process's environment with ``SOURCE_ROOT`` first on PYTHONPATH, so that a child
    Python imports the same arena (a checkout, not another installed copy)."""
    path = os.environ.get("PYTHONPATH")
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, (SOURCE_ROOT, path)))}
