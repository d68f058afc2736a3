"""``arena agents``: list every registered agent."""

from __future__ import annotations

import click

from arena.agent import registry
from arena.errors import AgentSpecError


@click.command("agents")
def agents_command() -> None:
    """List every agent with its parameters, defaults and a one-line description.

    Build one with a spec string: NAME or NAME:key=value,key=value (for example
    `immediate-win:block=true`), or MODULE:ATTR / path/to/file.py:ATTR for your own.
    """
    for entry in registry().values():
        try:
            description, params = entry.description(), entry.params()
        except AgentSpecError as error:
            click.echo(f"{entry.name}\n    (cannot be loaded: {error})\n")
            continue
        origin = "" if entry.origin == "built-in" else f"  [{entry.origin}]"
        click.echo(f"{entry.name}{origin}\n    {description}")
        for param in params:
            default = "required" if param.required else f"default {param.default}"
            click.echo(f"    {param.name}={param.type_name()}  ({default})")
        click.echo()
