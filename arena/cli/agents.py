"""``arena agents``: list the registered agents, or describe one."""

from __future__ import annotations

import inspect

import click

from arena.protocol.registry import AgentEntry, registry
from arena.rules.errors import AgentSpecError


@click.command("agents")
@click.argument("name", required=False)
def agents_command(name: str | None) -> None:
    """List every agent with its parameters, defaults and a one-line description.

    With NAME, describe that agent in full. Build an agent with a spec string:
    NAME or NAME:key=value,key=value (for example `immediate-win:block=true`), or
    MODULE:ATTR / path/to/file.py:ATTR for your own.
    """
    entries = registry()
    if name is None:
        for entry in entries.values():
            _describe(entry, full=False)
        return
    if name not in entries:
        raise click.BadParameter(f"unknown agent {name!r}; known: {', '.join(entries)}",
                                 param_hint="NAME")
    _describe(entries[name], full=True)


def _describe(entry: AgentEntry, full: bool) -> None:
    try:
        factory, params = entry.load(), entry.params()
    except AgentSpecError as error:
        click.echo(f"{entry.name}\n    (cannot be loaded: {error})\n")
        return
    origin = "" if entry.builtin else f"  [{entry.origin}]"
    doc = inspect.getdoc(factory) or ""
    text = doc if full else doc.split("\n", 1)[0]
    click.echo(f"{entry.name}{origin}")
    for line in text.splitlines():
        click.echo(f"    {line}".rstrip())
    for param in params:
        default = "required" if param.required else f"default {param.default}"
        click.echo(f"    {param.name}={param.type_name()}  ({default})")
    click.echo()
