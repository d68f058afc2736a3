"""Which host runs which agent: the run's ``hosting`` policy applied to a spec string."""

from __future__ import annotations

from arena.hosting.base import Host, Hosting
from arena.hosting.engines.external import external_host
from arena.hosting.inline import InlineHost
from arena.hosting.process import ProcessHost
from arena.protocol.registry import BUILTIN_AGENTS, LOCAL_PREFIX, is_external, parse_spec


def is_builtin(spec: str) -> bool:
    """True for the agents that come with the arena (trusted: they run inline under auto)."""
    return spec.partition(":")[0] in BUILTIN_AGENTS


def make_host(spec: str, hosting: Hosting) -> Host:
    """A host for ``spec``: inline for built-ins under ``auto``, else as ``hosting`` says;
    a program (``engine:``, ``pons:``) always runs in an ``EngineHost``, whatever ``hosting``.

    The agent is built when the host starts (in a child process for ``process``), so a spec
    from the user's files is never imported here when it runs in a process.
    """
    if is_external(spec):
        return external_host(spec)
    builtin = is_builtin(spec)
    local = spec.startswith(f"{LOCAL_PREFIX}:")  # objects of this process: no child has them
    if hosting == "inline" or local or (hosting == "auto" and builtin):
        return InlineHost(spec, lambda: parse_spec(spec).build(), capture_output=not builtin)
    return ProcessHost(spec)
