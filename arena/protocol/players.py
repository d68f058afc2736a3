"""Players: agent specs with their own limits, written ``SPEC@time=0.5,depth=6,nodes=100000``.

``time`` is seconds per move (a number > 0); ``depth`` (plies) and ``nodes`` are whole numbers
>= 1 that bound a search, for the agents that support them (``supported_limits``). An agent's
own limit overrides the run's ``--time-per-move``. The same spec with different limits is a
different player.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from arena.protocol.agent import Agent, Limit, check_agent_rules
from arena.protocol.registry import AgentSpec, canonical_spec, is_builtin, parse_spec
from arena.rules.board import Rules
from arena.rules.errors import AgentSpecError

SEPARATOR = "@"
KEYS = ("time", "depth", "nodes")
LIMITS = "time=SECONDS, depth=PLIES and nodes=N"
"""The limits a player may set, as told to users."""


class ParsedPlayer(NamedTuple):
    """A player's text parsed: its name (the canonical spec, then its own limit if any), its
    spec as written and as canonical, and its own limit."""

    name: str
    spec: AgentSpec  # as written: errors of building it quote the user's text
    canonical: str  # the spec without default values: the name without its limit
    own: Limit | None


def parse_player(text: str, engines: object = None) -> ParsedPlayer:
    """``SPEC[@LIMIT]`` parsed once: the limit, then the spec (imported; ``engines``: the
    engines file in effect, for ``engine:NAME``). Nothing is built."""
    spec, limit = split_limit(text.strip())
    parsed = parse_spec(spec, engines)
    canonical = canonical_spec(parsed)
    return ParsedPlayer(join_limit(canonical, limit), parsed, canonical, limit)


def board_checked(spec: AgentSpec, rules: Rules) -> Agent | None:
    """A built-in agent built and checked on ``rules`` (AgentSpecError,
    UnsupportedBoardError); None for the user's agents, built only by their hosts."""
    if not is_builtin(spec.name):
        return None
    agent = spec.build()
    check_agent_rules(agent, rules)
    return agent


def canonical_player(text: str, rules: Rules | None = None, engines: object = None) -> str:
    """One text per player: the canonical spec (defaults left out), then its limit if any.

    Parses (and imports) the agent's spec; with ``rules``, a built-in agent is also built
    and checked on that board (AgentSpecError, UnsupportedBoardError), while the user's agents
    are built only by their hosts, when a run starts. ``engines``: the engines file in
    effect, for ``engine:NAME``.
    """
    player = parse_player(text, engines)
    if rules is not None:
        board_checked(player.spec, rules)
    return player.name


def is_interactive(text: str, engines: object = None) -> bool:
    """True if the player's agent asks a person (it then plays in this process)."""
    return parse_spec(split_limit(text)[0], engines).interactive


def split_limit(text: str) -> tuple[str, Limit | None]:
    """The spec and the limit of ``SPEC@LIMIT`` (None when there is no ``@``)."""
    spec, separator, limit = text.rpartition(SEPARATOR)
    if not separator:
        return text, None
    return spec, parse_limit(limit, text)


def parse_limit(text: str, where: str) -> Limit:
    """A limit from ``key=value,...``; AgentSpecError naming ``where`` when it is bad."""
    values: dict[str, float | int] = {}
    for item in filter(None, text.split(",")):
        key, equals, value = (part.strip() for part in item.partition("="))
        if key not in KEYS or not equals:
            raise AgentSpecError(f"agent spec {where!r}: bad limit {item!r}; limits are "
                                 f"{LIMITS} after '@', e.g. random@time=0.5")
        if key in values:
            raise AgentSpecError(f"agent spec {where!r}: limit {key} given twice")
        values[key] = _parse_value(key, value, where)
    if not values:
        raise AgentSpecError(f"agent spec {where!r}: nothing after '@'; e.g. @time=0.5")
    return Limit(**values)  # type: ignore[arg-type]


def _parse_value(key: str, text: str, where: str) -> float | int:
    try:
        number = float(text) if key == "time" else int(text)
    except ValueError:
        number = math.nan
    if not number > 0 or not math.isfinite(number):
        kind = "a number of seconds > 0" if key == "time" else "a whole number >= 1"
        raise AgentSpecError(f"agent spec {where!r}: limit {key} must be {kind}, got {text!r}")
    return number


def format_limit(limit: Limit) -> str:
    """``time=0.5,depth=6``: the limit's set fields, in a fixed order."""
    values = ((key, getattr(limit, key)) for key in KEYS)
    return ",".join(f"{key}={value:g}" if key == "time" else f"{key}={value}"
                    for key, value in values if value is not None)


def join_limit(spec: str, limit: Limit | None) -> str:
    """``SPEC@LIMIT``, or ``SPEC`` alone without a limit."""
    return f"{spec}{SEPARATOR}{format_limit(limit)}" if limit is not None else spec


def effective_limit(own: Limit | None, time_per_move: float | None) -> Limit:
    """An agent's limit: its own, with the run's time per move where it sets no time."""
    if own is None:
        return Limit(time=time_per_move)
    return own if own.time is not None else Limit(time_per_move, own.depth, own.nodes)


def unsupported(limit: Limit, supported: frozenset[str]) -> list[str]:
    """The search limits (depth, nodes) set in ``limit`` that an agent does not support."""
    return [key for key in ("depth", "nodes") if getattr(limit, key) is not None
            and key not in supported]


def check_limit(name: str, limit: Limit, supported: frozenset[str]) -> None:
    """AgentSpecError naming the player ``name`` when ``limit`` sets a search limit its agent
    does not support (``supported``: what the agent declares)."""
    refused = unsupported(limit, supported)
    if refused:
        raise AgentSpecError(
            f"agent spec {name!r}: the agent does not support a {' or '.join(refused)} "
            f"limit (it supports: {', '.join(sorted(supported))})")
