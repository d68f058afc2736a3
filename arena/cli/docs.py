"""``arena docs``: where the documentation is."""

from __future__ import annotations

from pathlib import Path

import click

CHECKOUT = Path(__file__).resolve().parents[2]
"""The folder that holds ``arena/``: in a checkout, also ``docs/`` and ``mkdocs.yml``."""


def where(checkout: Path = CHECKOUT) -> str:
    """Where to read the documentation: the built site, else its sources, else the README."""
    site, sources = checkout / "site" / "index.html", checkout / "docs" / "index.md"
    if site.is_file():
        return (f"The documentation: {site.as_uri()} (open it in a browser; its search box "
                f"works when the site is served: python3 -m http.server -d {site.parent}).")
    if sources.is_file():
        return (f"The documentation's sources: {sources.parent} (Markdown, starting at "
                f"{sources.name}). To build the site: python3 -m pip install -e "
                f"\"{checkout}[docs]\" && mkdocs build -f {checkout / 'mkdocs.yml'}, then "
                f"open {site}.")
    return ("The documentation is not installed with the package: see the project's README "
            "and its docs/ folder in the source repository.")


@click.command("docs")
def docs_command() -> None:
    """Tell where the documentation is: the built site, else the docs/ folder.

    In a checkout, `mkdocs build` (with the docs extra) writes the site to site/; until then
    the pages are the Markdown files of docs/, which read as they are.
    """
    click.echo(where())
