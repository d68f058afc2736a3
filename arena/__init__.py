"""Connect Four Arena: play Connect Four agents against each other and measure them.

The Python API: ``arena.match(a, b, games)`` and ``arena.tournament([a, b, c], games)`` play
(agents as spec strings, objects, classes or functions) and return the games, the summary and
(for a tournament) the ratings; ``arena.load_games(path)`` reads a run's games.csv.
"""

import importlib.util
import sys
from pathlib import Path

__version__ = "0.1.0"


def _claim_agents_package() -> None:
    """Bind the name ``agents`` to this project's package even when a folder another library
    put on sys.path holds an ``agents.py`` (kaggle-environments does): the package is loaded
    from its own location, and its modules from there too."""
    package = Path(__file__).resolve().parent.parent / "agents"
    loaded = sys.modules.get("agents")
    if loaded is not None and Path(getattr(loaded, "__file__", None) or ".").resolve() == \
            package / "__init__.py":
        return
    spec = importlib.util.spec_from_file_location(
        "agents", package / "__init__.py", submodule_search_locations=[str(package)])
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    sys.modules["agents"] = module
    spec.loader.exec_module(module)


_claim_agents_package()

_API = {"match": "arena.api", "tournament": "arena.api", "load_games": "arena.runs.rows"}


def __getattr__(name: str) -> object:
    """The API's functions, imported when first used (``import arena`` stays light)."""
    if name in _API:
        return getattr(importlib.import_module(_API[name]), name)
    raise AttributeError(f"module 'arena' has no attribute {name!r}")
