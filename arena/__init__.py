"""Connect Four Arena: play Connect Four agents against each other and measure them.

The Python API: ``arena.match(a, b, games)``, ``arena.tournament([a, b, c], games)`` and
``arena.sprt(a, b, elo0, elo1)`` play (agents as spec strings, objects, classes or functions)
and return the games, the summary, and the ratings or the test's steps; their other keywords
are the options of a ``arena.RunRequest``. ``arena.load_games(path)`` reads a run's games.csv,
checked against its meta.json (at the top of a Swiss or knockout tournament, every round's);
``arena.compare(dir1, dir2, ...)`` puts finished runs side by side.
"""

import importlib

__version__ = "0.1.0"

_API = {"match": "arena.api", "tournament": "arena.api", "sprt": "arena.api",
        "load_games": "arena.api", "RunRequest": "arena.runs.request",
        "compare": "arena.report.compare"}


def __getattr__(name: str) -> object:
    """The API's functions, imported when first used (``import arena`` stays light)."""
    if name in _API:
        return getattr(importlib.import_module(_API[name]), name)
    raise AttributeError(f"module 'arena' has no attribute {name!r}")
