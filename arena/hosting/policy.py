"""Which host runs which agent: the run's ``hosting`` policy applied to an agent's spec."""

from __future__ import annotations

from typing import Protocol

from arena.hosting.base import Host, Hosting
from arena.hosting.engines.external import ExternalSpec
from arena.hosting.inline import InlineHost
from arena.hosting.process import ProcessHost
from arena.protocol.agent import Agent
from arena.protocol.objects import PREFIX as LOCAL_PREFIX
from arena.protocol.registry import AgentSpec, is_builtin, kind_of, parse_spec, plays_inline


class AgentSource(Protocol):
    """An agent to host, as a run's player gives it: its spec's text, the spec parsed (when
    asked), and a new agent of it."""

    @property
    def text(self) -> str:
        """The spec string."""

    @property
    def spec(self) -> AgentSpec:
        """The parsed spec."""

    def build(self) -> Agent:
        """A new agent."""


class SpecText:
    """A spec string as an ``AgentSource``: parsed when first asked (``engines``: the engines
    file in effect), then kept."""

    def __init__(self, text: str, engines: object = None):
        self.text = text
        self._engines = engines
        self._spec: AgentSpec | None = None

    @property
    def spec(self) -> AgentSpec:
        """The parsed spec."""
        if self._spec is None:
            self._spec = parse_spec(self.text, self._engines)
        return self._spec

    def build(self) -> Agent:
        """A new agent of the spec."""
        return self.spec.build()


def make_host(spec: str | AgentSource, hosting: Hosting, engines: object = None) -> Host:
    """A host for ``spec`` (a spec string, or a run's player): inline for built-ins (and the
    arena's kinds that declare ``inline``, their output captured) under ``auto``, else as
    ``hosting`` says; a program (``engine:``, ``pons:``; ``engines`` names the engines file
    in effect for a spec string) always runs in an ``EngineHost``, whatever ``hosting``.

    The agent is built when the host starts (in a child process for ``process``, from the
    spec's text), so a spec from the user's files is never imported here when it runs in a
    process (the parsers of the spec kinds run no code of the user's).
    """
    source = SpecText(spec, engines) if isinstance(spec, str) else spec
    kind = kind_of(source.text)
    if kind is not None and isinstance(source.spec, ExternalSpec):
        return source.spec.host()
    builtin = is_builtin(source.text)
    local = kind == LOCAL_PREFIX  # objects of this process: no child has them
    trusted = builtin or plays_inline(source.text)
    if hosting == "inline" or local or (hosting == "auto" and trusted):
        return InlineHost(source.text, source.build, capture_output=not builtin)
    return ProcessHost(source.text)
