"""How the arena was installed, and the command that adds one of its optional extras.

An editable install (``pip install -e .`` in a checkout) is told apart from a regular one by
the ``direct_url.json`` pip records in the distribution's metadata (PEP 610): the extra of a
checkout is installed from the checkout, that of a regular install by the package's name.
"""

from __future__ import annotations

import importlib.metadata
import json
from pathlib import Path
from urllib.parse import unquote, urlparse

DISTRIBUTION = "connect-four-arena"


def editable_checkout() -> Path | None:
    """The checkout the arena is installed from in editable mode, or None (a regular install,
    or none pip knows of)."""
    try:
        recorded = importlib.metadata.distribution(DISTRIBUTION).read_text("direct_url.json")
    except importlib.metadata.PackageNotFoundError:
        return None
    try:
        direct = json.loads(recorded or "{}")
    except ValueError:
        return None
    url = urlparse(str(direct.get("url", "")))
    if not isinstance(direct.get("dir_info"), dict) or not direct["dir_info"].get("editable") \
            or url.scheme != "file":
        return None
    return Path(unquote(url.path))


def install_command(extra: str) -> str:
    """The command that installs the optional ``extra`` (``llm``, ``rl``, ...) into this
    install: from its checkout for an editable one, else by the package's name."""
    checkout = editable_checkout()
    if checkout is not None:
        return f"python3 -m pip install -e '.[{extra}]' in {checkout}"
    return f"python3 -m pip install '{DISTRIBUTION}[{extra}]'"


def needs_extra(what: str, extra: str) -> str:
    """The one-line hint for ``what`` when an optional extra is missing, e.g. "llm agents need
    the openai client (the llm extra): python3 -m pip install ..."."""
    return f"{what} (the {extra} extra): {install_command(extra)}"


def missing_extra(module: str, error: ModuleNotFoundError, extra: str) -> ModuleNotFoundError:
    """The error of importing ``module`` without the ``extra`` that holds ``error.name``: the
    same error, its message the one-line hint."""
    return ModuleNotFoundError(
        needs_extra(f"{module} needs {error.name}, which is not installed", extra),
        name=error.name)
