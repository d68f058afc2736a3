"""How the arena was installed, and the command that adds one of its optional extras.

The install is the distribution an installer (pip, uv, ...) recorded (an ``INSTALLER`` file
in its metadata: a checkout's own ``*.egg-info``, found first when Python runs in the
checkout, has none). An editable install (``pip install -e .`` in a checkout) is told apart
from a regular one by its ``direct_url.json`` (PEP 610): the extra of a checkout is installed
from the checkout, that of a regular install by the package's name.
"""

from __future__ import annotations

import importlib.metadata
import json
from pathlib import Path
from urllib.parse import unquote, urlparse

DISTRIBUTION = "connect-four-arena"


def installed() -> importlib.metadata.Distribution | None:
    """The arena's distribution as its installer recorded it, or None (not installed)."""
    for distribution in importlib.metadata.distributions(name=DISTRIBUTION):
        if distribution.read_text("INSTALLER") is not None:
            return distribution
    return None


def editable_checkout() -> Path | None:
    """The checkout the arena is installed from in editable mode, or None (a regular install,
    or none an installer recorded)."""
    distribution = installed()
    try:
        direct = json.loads(distribution.read_text("direct_url.json") or "{}"
                            ) if distribution else {}
    except ValueError:
        return None
    url = urlparse(str(direct.get("url", "")))
    if not isinstance(direct.get("dir_info"), dict) or not direct["dir_info"].get("editable") \
            or url.scheme != "file":
        return None
    return Path(unquote(url.path))


def checkout_install(extra: str) -> str:
    """The command that installs the optional ``extra`` when run in a checkout."""
    return f"python3 -m pip install -e '.[{extra}]'"


def install_command(extra: str) -> str:
    """The command that installs the optional ``extra`` (``llm``, ``rl``, ...) into this
    install: from its checkout for an editable one, else by the package's name."""
    checkout = editable_checkout()
    if checkout is not None:
        return f"{checkout_install(extra)} in {checkout}"
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


def readme_file() -> Path | None:
    """The installed distribution's metadata file, whose body is the project's README (the
    package's description), or None when no installer recorded one."""
    distribution = installed()
    found = [file for file in (distribution.files or []) if file.name == "METADATA"
             ] if distribution else []
    return Path(str(found[0].locate())) if found else None
