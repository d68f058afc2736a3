"""``arena docs``: where the documentation is, in a checkout or in an install."""

from __future__ import annotations

from pathlib import Path

import click

from arena.system.install import checkout_install, readme_file

CHECKOUT = Path(__file__).resolve().parents[2]
"""The folder that holds ``arena/``: in a checkout, also ``docs/`` and ``mkdocs.yml``."""

SELF_DOCUMENTED = ("arena --help and arena COMMAND --help (every command and option), arena "
                   "agents (every spec string; arena agents KIND describes one, arena agents "
                   "engine the engine protocol)")
"""What documents the arena wherever it is installed."""


def where(checkout: Path = CHECKOUT, readme: Path | None = None) -> str:
    """Where to read the documentation: the built site, else its sources, else (an install
    without them) what the install has."""
    site, sources = checkout / "site" / "index.html", checkout / "docs" / "index.md"
    if site.is_file():
        return (f"The documentation: {site.as_uri()} (open it in a browser; its search box "
                f"works when the site is served: python3 -m http.server -d {site.parent}).")
    if sources.is_file():
        return (f"The documentation's sources: {sources.parent} (Markdown, starting at "
                f"{sources.name}). To build the site, in {checkout}: "
                f"{checkout_install('docs')} && mkdocs build, then open {site}.")
    description = "" if readme is None else f"; the README is the description in {readme}"
    return ("This install has no documentation pages (they come with the project's source "
            f"checkout). It documents itself: {SELF_DOCUMENTED}{description}.")


@click.command("docs")
def docs_command() -> None:
    """Tell where the documentation is: the built site or its sources, else the install's help.

    In a checkout, `mkdocs build` (with the docs extra) writes the site to site/; until then
    the pages are its Markdown sources, which read as they are. An install without them (a
    regular pip install) is documented by its commands' help, `arena agents` and the README
    in the package's metadata.
    """
    click.echo(where(readme=readme_file()))
