"""Kaggle's ConnectX agents and submission files as arena agents: the spec kind ``kaggle:``.

``kaggle:random`` and ``kaggle:negamax`` are Kaggle's own agents (they need
kaggle-environments); ``kaggle:path/to/main.py`` is the last callable of a submission file, as
Kaggle loads it. Any ``(observation, configuration)`` function is an agent too, everywhere
(``arena.protocol.functions``); this module adds Kaggle's sources.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from arena.protocol.functions import KaggleFunctionAgent
from arena.protocol.registry import (
    AgentSpec,
    SpecKind,
    file_fingerprint,
    import_target,
    version_of,
)
from arena.rules.errors import AgentSpecError
from arena.system.install import needs_extra

PREFIX = "kaggle"
BUILT_IN = ("random", "negamax")


def last_callable(path: Path) -> Callable[..., Any]:
    """The last callable a submission file defines: the function Kaggle would play."""
    spec = f"{PREFIX}:{path}"
    try:
        source = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise AgentSpecError(f"agent spec {spec!r}: cannot read the Kaggle submission {path}: "
                             f"{reason}") from None
    namespace: dict[str, Any] = {}
    sys.path.append(str(path.resolve().parent))  # as Kaggle does: it may import its neighbours
    try:
        exec(compile(source, str(path), "exec"), namespace)
    finally:
        sys.path.pop()
    found = [value for value in namespace.values() if callable(value)]
    if not found:
        raise AgentSpecError(f"agent spec {spec!r}: the Kaggle submission {path} defines no "
                             "function")
    return found[-1]


def kaggle_builtin(name: str) -> Callable[..., Any]:
    """Kaggle's own ConnectX agent ``name`` (random or negamax)."""
    try:
        from kaggle_environments.envs.connectx.connectx import agents
    except ImportError:
        raise AgentSpecError(needs_extra(f"kaggle:{name} needs kaggle-environments",
                                         "kaggle")) from None
    return agents[name]


class KaggleAgent(KaggleFunctionAgent):
    """A Kaggle ConnectX agent: Kaggle's ``random`` or ``negamax``, or the last function of a
    submission file."""

    def __init__(self, source: str):
        where = f"agent spec {f'{PREFIX}:{source}'!r}"
        if source in BUILT_IN:
            function = kaggle_builtin(source)
        elif source.endswith(".py"):
            function = last_callable(Path(source))
        else:
            raise AgentSpecError(f"{where}: expected kaggle:random, kaggle:negamax or "
                                 "kaggle:PATH.py (a submission file)")
        super().__init__(function, where)


class KaggleSpec(AgentSpec):
    """A parsed ``kaggle:`` spec."""

    def fingerprint(self) -> str:
        """kaggle-environments' version for Kaggle's own agents, else the file's SHA-256."""
        source = self.values["source"]
        if not source.endswith(".py"):
            return f"kaggle-environments {version_of('kaggle-environments')}"
        return file_fingerprint(Path(source))


def parse_kaggle(text: str, engines: object = None) -> AgentSpec:
    """Parse ``kaggle:random``, ``kaggle:negamax`` or ``kaggle:PATH.py``; the file is read
    only when the agent is built."""
    _, _, source = text.partition(":")
    if not source:
        raise AgentSpecError(f"agent spec {text!r}: give kaggle:random, kaggle:negamax or "
                             "kaggle:PATH.py (a submission file)")
    target = f"{__name__}:KaggleAgent"
    import_target(target, text)
    return KaggleSpec(text, f"{PREFIX}:{source}", target, {"source": source})


kaggle_spec = SpecKind(
    (*(f"{PREFIX}:{name}" for name in BUILT_IN), f"{PREFIX}:FILE.py"),
    "Kaggle's own ConnectX agents (the kaggle extra), or a submission file's last function, "
    "called as Kaggle's evaluator calls it.", parse_kaggle)
"""The registry's ``kaggle`` kind."""
