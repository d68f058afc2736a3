"""Connect Four Arena: play Connect Four agents against each other and measure them.

The Python API: ``arena.match(a, b, games)``, ``arena.tournament([a, b, c], games)`` and
``arena.sprt(a, b, elo0, elo1)`` play (agents as spec strings, objects, classes or functions)
and return the games, the summary, and the ratings or the test's steps; their other keywords
are the options of a ``arena.RunRequest``. ``arena.load_games(path)`` reads a run's games.csv,
checked against its meta.json (at the top of a Swiss or knockout tournament, every round's),
``arena.load_model_moves(dir)`` what each language model's moves cost;
``arena.compare(dir1, dir2, ...)`` puts finished runs side by side. What an agent's author
needs is here too: ``BaseAgent``, ``Choice``, ``Limit``, ``GameStart``, ``Disqualified``,
``Position``, ``Rules``.

The modules that earlier versions documented and the layout has since moved
(``arena.agent``, ``arena.notation``, ...: ``MOVED``) are still found under their old names,
as the very modules that hold their names now.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from importlib.abc import Loader, MetaPathFinder
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what type checkers and editors see of _API (tests/unit/test_top_names.py)
    from arena.api import load_games as load_games
    from arena.api import load_model_moves as load_model_moves
    from arena.api import match as match
    from arena.api import sprt as sprt
    from arena.api import tournament as tournament
    from arena.protocol.agent import BaseAgent as BaseAgent
    from arena.protocol.agent import Choice as Choice
    from arena.protocol.agent import Disqualified as Disqualified
    from arena.protocol.agent import GameStart as GameStart
    from arena.protocol.agent import Limit as Limit
    from arena.report.compare import compare as compare
    from arena.rules.board import Position as Position
    from arena.rules.board import Rules as Rules
    from arena.runs.planning.request import RunRequest as RunRequest

from arena.system.version import VERSION as __version__  # noqa: F401 - the package's version

_API = {"match": "arena.api", "tournament": "arena.api", "sprt": "arena.api",
        "load_games": "arena.api", "load_model_moves": "arena.api",
        "RunRequest": "arena.runs.planning.request",
        "compare": "arena.report.compare", "BaseAgent": "arena.protocol.agent",
        "Choice": "arena.protocol.agent", "Limit": "arena.protocol.agent",
        "GameStart": "arena.protocol.agent", "Disqualified": "arena.protocol.agent",
        "Position": "arena.rules.board", "Rules": "arena.rules.board"}

__all__ = sorted(_API)

MOVED = {"arena.agent": "arena.protocol.agent", "arena.notation": "arena.rules.notation",
         "arena.records": "arena.runs.store.reading", "arena.oracle": "arena.search.oracle",
         "arena.experiment": "arena.competitions.experiments",
         "arena.bridges": "arena.hosting.engines",
         "arena.bridges.pons": "arena.hosting.engines.pons",
         "arena.runs.request": "arena.runs.planning.request",
         "arena.runs.plan": "arena.runs.planning.plan",
         "arena.runs.seeds": "arena.runs.planning.seeds",
         "arena.runs.openings": "arena.runs.planning.openings",
         "arena.runs.files": "arena.runs.store.files",
         "arena.runs.meta": "arena.runs.store.meta",
         "arena.runs.validation": "arena.runs.store.validation",
         "arena.runs.directory": "arena.runs.store.directory",
         "arena.runs.summary": "arena.runs.store.summary",
         "arena.runs.reading": "arena.runs.store.reading",
         "arena.runs.recorded": "arena.runs.store.recorded",
         "arena.runs.adjudication": "arena.runs.playing.adjudication",
         "arena.runs.game": "arena.runs.playing.game",
         "arena.runs.fused": "arena.runs.playing.fused",
         "arena.runs.batches": "arena.runs.playing.batches",
         "arena.runs.pool": "arena.runs.playing.pool",
         "arena.runs.crashes": "arena.runs.playing.crashes",
         "arena.runs.crash_watcher": "arena.runs.playing.crash_watcher",
         "arena.runs.runner": "arena.runs.playing.runner",
         "arena.runs.progress": "arena.runs.playing.progress",
         "arena.protocol.kernel_players": "arena.protocol.kernel_agents"}
"""Old module names, as earlier READMEs gave them, and the modules that hold their names now;
``arena.runs``' modules before they went into its rooms (``arena.runs.rows`` is a module of
its own: it also offers ``load_games``, as it once did)."""


def __getattr__(name: str) -> object:
    """The API's functions, imported when first used (``import arena`` stays light)."""
    if name in _API:
        return getattr(importlib.import_module(_API[name]), name)
    raise AttributeError(f"module 'arena' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The module's names with the API's, which are imported only when first used."""
    return sorted({*globals(), *_API})


class _MovedModules(MetaPathFinder, Loader):
    """Finds an old module name of ``MOVED`` as the module that replaced it: the same module
    object, imported when the old name is first imported."""

    def find_spec(self, name: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        return ModuleSpec(name, self) if name in MOVED else None

    def create_module(self, spec: ModuleSpec) -> ModuleType:
        module = importlib.import_module(MOVED[spec.name])
        spec.loader_state = module.__spec__  # the import system sets the old name's next
        return module

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run (the module was imported under its own name): give the module back
        its own spec."""
        assert module.__spec__ is not None
        module.__spec__ = module.__spec__.loader_state


if not any(isinstance(finder, _MovedModules) for finder in sys.meta_path):
    sys.meta_path.insert(0, _MovedModules())  # before the path finder: no second copy
