"""``arena agents``: list the registered agents and the other forms of spec, or describe one."""

from __future__ import annotations

import inspect
import textwrap
from collections.abc import Callable
from typing import Any

import click

from arena.protocol.players import LIMITS
from arena.protocol.registry import (
    AgentEntry,
    Param,
    SpecKind,
    parse_spec,
    registry,
    spec_forms,
    spec_kind,
    spec_kinds,
)
from arena.rules.errors import AgentSpecError

WIDTH = 92
INDENT = "    "


@click.command("agents")
@click.argument("name", required=False)
def agents_command(name: str | None) -> None:
    """List every agent, then every other form of spec, with their parameters.

    Each agent is listed with its parameters, defaults and a one-line description, then the
    other forms of spec string (your own code, programs, Kaggle agents, networks) with
    theirs. With NAME, describe that agent in full: a registered agent, a kind of spec (onnx,
    kaggle, engine, ...) or your own class, as MODULE:ATTR or path/to/file.py:ATTR. Build an
    agent with a spec string: NAME or NAME:key=value,key=value (for example
    `immediate-win:block=true`).
    """
    entries = registry()
    if name is None:
        for entry in entries.values():
            _describe_entry(entry, full=False)
        click.echo("Other spec strings (arena agents KIND describes one):\n")
        for kind in spec_forms():
            _describe_kind(kind)
        click.echo(f"Any spec takes limits after '@': {LIMITS} (e.g. mcts@time=0.5).")
        return
    if name in entries:
        _describe_entry(entries[name], full=True)
    elif name.rstrip(":") in spec_kinds():
        kind = spec_kind(name.rstrip(":"))
        _describe_kind(kind)
        if kind.details:
            click.echo(kind.details)
    elif ":" in name:
        spec = parse_spec(name)
        _describe(spec.name, spec.factory, spec.params, full=True)
    else:
        raise click.BadParameter(f"unknown agent {name!r}; known: {', '.join(entries)}; kinds "
                                 f"of spec: {', '.join(spec_kinds())}", param_hint="NAME")


def _describe_entry(entry: AgentEntry, full: bool) -> None:
    try:
        factory, params = entry.load(), entry.params()
    except AgentSpecError as error:
        click.echo(f"{entry.name}\n    (cannot be loaded: {error})\n")
        return
    origin = "" if entry.builtin else f"  [{entry.origin}]"
    _describe(entry.name + origin, factory, params, full)


def _describe_kind(kind: SpecKind) -> None:
    """A kind's forms, one a line, what it plays and its ``key=value`` parameters."""
    click.echo("\n".join(kind.forms))
    click.echo(textwrap.fill(kind.summary, WIDTH, initial_indent=INDENT,
                             subsequent_indent=INDENT))
    _echo_params(kind.params())
    click.echo()


def _describe(title: str, factory: Callable[..., Any], params: tuple[Param, ...],
              full: bool) -> None:
    doc = inspect.getdoc(factory) or ""
    text = doc if full else doc.split("\n", 1)[0]
    click.echo(title)
    for line in text.splitlines():
        click.echo(f"{INDENT}{line}".rstrip())
    _echo_params(params)
    click.echo()


def _echo_params(params: tuple[Param, ...]) -> None:
    for param in params:
        default = "required" if param.required else f"default {param.default}"
        click.echo(f"{INDENT}{param.name}={param.type_name()}  ({default})")
