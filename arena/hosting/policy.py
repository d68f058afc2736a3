"""Which host runs which agent: the run's ``hosting`` policy applied to a spec string."""

from __future__ import annotations

from arena.hosting.base import Host, Hosting
from arena.hosting.engines.external import ExternalSpec
from arena.hosting.inline import InlineHost
from arena.hosting.process import ProcessHost
from arena.protocol.objects import PREFIX as LOCAL_PREFIX
from arena.protocol.registry import is_builtin, kind_of, parse_spec


def make_host(spec: str, hosting: Hosting, engines: object = None) -> Host:
    """A host for ``spec``: inline for built-ins under ``auto``, else as ``hosting`` says;
    a program (``engine:``, ``pons:``; ``engines`` names the engines file in effect) always
    runs in an ``EngineHost``, whatever ``hosting``.

    The agent is built when the host starts (in a child process for ``process``), so a spec
    from the user's files is never imported here when it runs in a process (the parsers of
    the spec kinds run no code of the user's).
    """
    kind = kind_of(spec)
    if kind is not None:
        parsed = parse_spec(spec, engines)
        if isinstance(parsed, ExternalSpec):
            return parsed.host()
    builtin = is_builtin(spec)
    local = kind == LOCAL_PREFIX  # objects of this process: no child has them
    if hosting == "inline" or local or (hosting == "auto" and builtin):
        return InlineHost(spec, lambda: parse_spec(spec, engines).build(),
                          capture_output=not builtin)
    return ProcessHost(spec)
