"""Agents that are programs of their own, as the registry names them.

- ``engine:PATH``: an executable that needs no arguments, speaking the arena's protocol; a
  ``.py`` file runs with the Python that runs the arena (no ``chmod``, same packages).
- ``engine:NAME``: an engine of the engines file in effect (``--engines FILE``); a name wins
  over a file of the same name.
- ``pons:PATH``: Pascal Pons' ``c4solver`` in its native mode.

Their specs (``ExternalSpec``) make an ``EngineHost`` wherever they run, whatever the run's
hosting policy, and build a ``HostedAgent`` where an Agent object is wanted (the conformance
check, ``arena play``).
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from arena.hosting.engines.engine import Dialect, EngineHost, Program, RefusedBoard
from arena.hosting.engines.engines_file import EnginesTable, NamedEngine
from arena.hosting.engines.line_protocol import PROTOCOL, ArenaDialect
from arena.hosting.engines.pons import PonsDialect, pons_program
from arena.protocol.agent import Agent, Choice, GameStart
from arena.protocol.registry import AgentSpec, SpecKind, file_fingerprint
from arena.rules.board import Position
from arena.rules.errors import AgentSpecError, UnsupportedBoardError


@dataclass(frozen=True, kw_only=True)
class ExternalSpec(AgentSpec):
    """A parsed ``engine:`` or ``pons:`` spec: the program to run and how to talk to it."""

    program: Program
    dialect: Dialect
    source: NamedEngine | str
    """The engines-file entry, or the program's file: what its fingerprint covers."""

    @property
    def factory(self) -> Callable[..., Any]:
        """Nothing to import: a program is not a Python class."""
        raise AgentSpecError(f"agent spec {self.text!r} names a program, not a Python class")

    @property
    def interactive(self) -> bool:
        """Programs never ask a person."""
        return False

    def fingerprint(self) -> str:
        """SHA-256 of the program's file, or of its engines-file entry (and the files it
        names)."""
        if isinstance(self.source, NamedEngine):
            return self.source.fingerprint()
        return file_fingerprint(Path(self.source))

    def host(self, move_bound: float | None = None) -> EngineHost:
        """A host that runs the program."""
        return EngineHost(self.text, self.program, self.dialect, move_bound)

    def build(self) -> Agent:
        """The program as an Agent object."""
        return HostedAgent(self.host())


class HostedAgent:
    """A program as an Agent object, each call passed to its host (a fault is raised as the
    ``AgentFault`` exception; a refused board as ``UnsupportedBoardError``)."""

    interactive = False

    def __init__(self, host: EngineHost):
        self.host = host

    @property
    def reproducible(self) -> bool:
        """What the program declares."""
        return self.host.traits.reproducible

    @property
    def supported_limits(self) -> frozenset[str]:
        """What the program declares."""
        return self.host.traits.supported_limits

    def new_game(self, game: GameStart) -> None:
        """Tell the program of a game."""
        try:
            self.host.new_game(game)
        except RefusedBoard as refusal:
            raise UnsupportedBoardError(str(refusal)) from None

    def choose(self, position: Position, rng: np.random.Generator) -> int | Choice:
        """The program's move, waited for as long as the host's bound allows."""
        return self.host.move(position, rng, None)[0]

    def close(self) -> None:
        """End the program."""
        self.host.close()


def _program_file(spec: str, path: str) -> str:
    """``path`` as an absolute path, checked to be a file this process may run."""
    file = Path(path)
    if not file.is_file():
        raise AgentSpecError(f"agent spec {spec!r}: {path} is not a file" if file.exists()
                             else f"agent spec {spec!r}: no such file {path}")
    if file.suffix != ".py" and not os.access(file, os.X_OK):
        raise AgentSpecError(f"agent spec {spec!r}: {path} is not executable (chmod +x {path})")
    return os.path.abspath(file)


def parse_engine(text: str, engines: object = None) -> ExternalSpec:
    """Parse ``engine:NAME`` (an engine of ``engines``, the engines file in effect) or
    ``engine:PATH``."""
    _, _, rest = text.partition(":")
    if not rest:
        raise AgentSpecError(f"agent spec {text!r}: give engine:PATH (an executable, or a .py "
                             "file) or engine:NAME (an engine of --engines FILE)")
    table = engines if isinstance(engines, EnginesTable) else None
    named = table.get(rest) if table is not None else None
    if named is not None:
        program = named.program()
        return ExternalSpec(text, text, shlex.join(program.argv), program=program,
                            dialect=ArenaDialect(), source=named)
    if not Path(rest).exists():
        if table is not None:
            raise AgentSpecError(f"agent spec {text!r}: no engine named {rest!r} in "
                                 f"{table.file} (engines: {', '.join(table.names())}) and no "
                                 f"file {rest}")
        raise AgentSpecError(f"agent spec {text!r}: no such file {rest} (give an executable or "
                             "a .py file; named engines need --engines FILE)")
    path = _program_file(text, rest)
    program = Program.of(path)
    return ExternalSpec(text, f"engine:{os.path.normpath(rest)}", shlex.join(program.argv),
                        program=program, dialect=ArenaDialect(), source=path)


def parse_pons(text: str, engines: object = None) -> ExternalSpec:
    """Parse ``pons:PATH``, the path of Pascal Pons' ``c4solver``."""
    _, _, rest = text.partition(":")
    if not rest:
        raise AgentSpecError(f"agent spec {text!r}: give pons:PATH, the path of Pascal Pons' "
                             "c4solver (built with make from github.com/PascalPons/connect4)")
    path = _program_file(text, rest)
    program = pons_program(path)
    return ExternalSpec(text, f"pons:{os.path.normpath(rest)}", shlex.join(program.argv),
                        program=program, dialect=PonsDialect(), source=path)


engine_spec = SpecKind(
    ("engine:PATH", "engine:NAME"),
    "A program speaking the arena's line protocol (arena agents engine shows it): an "
    "executable, a .py file (run with this Python), or an engine named in the engines file "
    "(--engines FILE).", parse_engine, details=PROTOCOL)
"""The registry's ``engine`` kind."""

pons_spec = SpecKind(
    ("pons:PATH",),
    "Pascal Pons' c4solver (github.com/PascalPons/connect4) in its native mode: perfect play.",
    parse_pons)
"""The registry's ``pons`` kind."""
