"""The Python that runs a given checkout's arena, for the benchmarks that compare two checkouts.

PYTHONPATH cannot choose the checkout once the project is installed editable (the import hook
of ``pip install -e .`` takes every ``import arena`` first), and a checkout's compiled core
has to be built anyway. So each checkout compared is built as pip builds it, a wheel
installed into a venv of its own that sees this Python's packages (``tests/helpers/venvs``).
A build is kept under ``$XDG_CACHE_HOME/connect-four-arena/benchmarks/`` (default
``~/.cache``) by the checkout's commit, and reused while the checkout has no changes; a
checkout with changes is built again each time. Both sides of a comparison are built this
way, so that neither pays an editable install's import hook the other does not.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.helpers.venvs import installed_python  # noqa: E402


def cache_folder() -> Path:
    """Where built checkouts are kept."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "connect-four-arena" / "benchmarks"


def _commit_if_clean(checkout: Path) -> str | None:
    """The checkout's commit, or None when it has changes (or is not a git checkout)."""
    git = ["git", "-C", str(checkout)]
    head = subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True)
    changes = subprocess.run([*git, "status", "--porcelain", "--untracked-files=no"],
                             capture_output=True, text=True)
    if head.returncode or changes.returncode or changes.stdout.strip():
        return None
    return head.stdout.strip()


def checkout_python(checkout: Path) -> Path:
    """A Python whose ``import arena`` is ``checkout``'s, built on first use."""
    checkout = checkout.resolve()
    commit = _commit_if_clean(checkout)
    folder = cache_folder() / commit if commit else Path(tempfile.mkdtemp(prefix="arena-build-"))
    python = folder / "venv" / "bin" / "python"
    if commit and python.exists():
        return python
    began = time.perf_counter()
    if folder.exists():
        shutil.rmtree(folder)  # a build that did not finish
    print(f"building {checkout} ({commit or 'with changes'}) ...", file=sys.stderr, flush=True)
    python = installed_python(checkout, folder)
    print(f"built in {time.perf_counter() - began:.0f} s", file=sys.stderr, flush=True)
    return python


def clean_environment(**variables: str) -> dict[str, str]:
    """This process's environment without PYTHONPATH (a checkout's own Python needs none),
    with ``variables`` set."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    return {**env, **variables}


_PYTHONS: dict[Path, Path] = {}


def compare_checkouts(*checkouts: Path) -> None:
    """Make ``python_for`` give each checkout's Python: this one's own Python when it is
    measured alone, else every checkout built (``checkout_python``)."""
    resolved = [checkout.resolve() for checkout in checkouts]
    _PYTHONS.clear()
    if resolved != [ROOT]:
        _PYTHONS.update({checkout: checkout_python(checkout) for checkout in resolved})


def python_for(checkout: Path) -> str:
    """The Python that runs ``checkout``'s arena (``compare_checkouts``; by default this
    checkout's, this Python)."""
    checkout = checkout.resolve()
    if checkout in _PYTHONS:
        return str(_PYTHONS[checkout])
    if checkout != ROOT:
        raise ValueError(f"{checkout} is not built: call compare_checkouts first")
    return sys.executable


def child_output(checkout: Path, program: str, *args: object) -> str:
    """What ``program`` (Python source) prints, run with ``args`` in a fresh process of
    ``checkout``'s Python from an empty directory; exits if it fails."""
    with tempfile.TemporaryDirectory() as scratch:
        done = subprocess.run([python_for(checkout), "-c", program, *map(str, args)],
                              capture_output=True, text=True, env=clean_environment(),
                              cwd=scratch)
    if done.returncode:
        raise SystemExit(f"{checkout}: the child failed (exit {done.returncode}):\n"
                         f"{done.stderr[-2000:]}")
    return done.stdout
