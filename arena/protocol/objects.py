"""Agents handed over as Python objects (from a notebook or a script), not as spec strings.

An agent object, an agent class or a plain function ``f(position, rng)`` (or Kaggle's
``f(observation, configuration)``) is registered under a name and played as the spec
``local:NAME``. Workers are forked from the process that registered it, so an object defined
in a notebook plays with any number of jobs; every host gets its own copy. Such agents run in
the worker (they are the caller's own code) and need the local backend.
"""

from __future__ import annotations

import copy
import hashlib
import inspect
import typing
from dataclasses import dataclass
from typing import Any

from arena.protocol.agent import Agent
from arena.protocol.functions import agent_of_function
from arena.protocol.registry import AgentSpec, SpecKind
from arena.rules.errors import AgentSpecError

PREFIX = "local"


@dataclass(frozen=True)
class LocalAgent:
    """A registered agent object, class or function."""

    name: str
    source: Any

    @property
    def is_function(self) -> bool:
        """True for a plain function: neither an agent class nor an object with ``choose``."""
        return not (inspect.isclass(self.source) or hasattr(self.source, "choose"))

    def make(self) -> Agent:
        """A fresh agent: an instance of a class, a copy of an object, a wrapped function."""
        source = self.source
        if self.is_function:
            return agent_of_function(source, f"agent {self.name!r}")
        if inspect.isclass(source):
            return typing.cast(Agent, source())
        return typing.cast(Agent, copy.deepcopy(source))

    def fingerprint(self) -> str:
        """A SHA-256 of the agent's source code where Python can find it."""
        subject = self.source if inspect.isclass(self.source) or inspect.isfunction(
            self.source) else type(self.source)
        try:
            return "sha256 " + hashlib.sha256(inspect.getsource(subject).encode()).hexdigest()
        except (OSError, TypeError):
            return "unknown source"


_AGENTS: dict[str, LocalAgent] = {}


def register(agent: Any, name: str | None = None) -> str:
    """Register ``agent`` (object, class or function) and return its spec ``local:NAME``.

    The name defaults to the class's or function's name; registering a name again replaces
    the agent (a notebook cell run again defines its class anew).
    """
    if not (callable(agent) or hasattr(agent, "choose")):
        raise AgentSpecError(f"{agent!r} is not an agent: expected an object with "
                             "choose(position, rng), an agent class or a function")
    name = name or getattr(agent, "__name__", None) or type(agent).__name__
    local = LocalAgent(name, agent)
    if local.is_function:
        local.make()  # a function that cannot be called as an agent is refused here
    _AGENTS[name] = local
    return f"{PREFIX}:{name}"


def lookup(name: str) -> LocalAgent:
    """The agent registered as ``name``."""
    try:
        return _AGENTS[name]
    except KeyError:
        raise AgentSpecError(f"no agent object is registered as {name!r} in this process "
                             "(local: agents come from the Python API)") from None


class Local:
    """The registry's target for ``local:NAME``: builds the registered agent."""

    def __new__(cls, name: str) -> Agent:  # type: ignore[misc]
        """A fresh agent from the one registered as ``name``."""
        return lookup(name).make()


class LocalSpec(AgentSpec):
    """A parsed ``local:NAME`` spec."""

    def subject(self) -> str:
        """The registered class (or the object's class), by module and name."""
        source = lookup(self.values["name"]).source
        kind = source if inspect.isclass(source) else type(source)
        return f"class {kind.__module__}.{kind.__qualname__}"

    def fingerprint(self) -> str:
        """The SHA-256 of the registered agent's source code."""
        return lookup(self.values["name"]).fingerprint()


def parse_local(text: str, engines: object = None) -> AgentSpec:
    """Parse ``local:NAME``: an agent registered here."""
    _, _, name = text.partition(":")
    lookup(name)
    return LocalSpec(text, f"{PREFIX}:{name}", f"{__name__}:Local", {"name": name})


local_spec = SpecKind(
    (f"{PREFIX}:NAME",),
    "An agent object, class or function handed to the Python API (arena.match(agent, ...)) "
    "in this process, under its name.", parse_local)
"""The registry's ``local`` kind."""
