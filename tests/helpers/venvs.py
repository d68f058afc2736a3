"""Pythons that run one given build of the arena, whatever else this Python has installed.

An editable install made by scikit-build-core (``pip install -e .``) puts an import hook first
in ``sys.meta_path`` through a ``.pth`` file of its site-packages: every ``import arena`` of a
Python that reads that file then gets the editable checkout, whatever PYTHONPATH or another
install says. A venv made with ``--system-site-packages`` reads those files too. The venvs here
see this Python's packages (numpy, pandas, ...) as plain folders on ``sys.path`` instead, so
none of their ``.pth`` files runs and the arena installed into the venv is the one imported.
"""

from __future__ import annotations

import subprocess
import sys
import sysconfig
import venv
from pathlib import Path


def package_folders() -> list[str]:
    """The site-packages folders of this Python (its venv's and the system's)."""
    paths = {sysconfig.get_path("purelib"), sysconfig.get_path("platlib")}
    return [entry for entry in sys.path
            if entry in paths or Path(entry).name in ("site-packages", "dist-packages")]


def seeing_venv(folder: Path) -> Path:
    """A venv in ``folder`` that sees this Python's packages but runs none of their start-up
    hooks; its Python."""
    venv.create(folder, with_pip=False, symlinks=True)
    python = folder / "bin" / "python"
    own = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path("
                          "'purelib'))"], capture_output=True, text=True, check=True)
    Path(own.stdout.strip(), "outer-packages.pth").write_text(
        "".join(f"{entry}\n" for entry in package_folders()))
    return python


def pip(python: Path, *args: str) -> None:
    """``pip ARGS...`` run for ``python`` (this Python's pip, which needs none in the venv)."""
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python),
                    "--disable-pip-version-check", "--quiet", *args], check=True,
                   capture_output=True)


def built_wheel(source: Path, folder: Path) -> Path:
    """The wheel pip builds from the checkout ``source``, in ``folder``."""
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet",
                    "--disable-pip-version-check", "-w", str(folder), str(source)],
                   check=True, capture_output=True)
    (wheel,) = folder.glob("*.whl")
    return wheel


def installed_python(source: Path, scratch: Path) -> Path:
    """A Python that runs the arena built from the checkout ``source`` as pip builds it (a
    wheel, installed into a seeing venv in ``scratch``)."""
    wheel = built_wheel(source, scratch / "dist")
    python = seeing_venv(scratch / "venv")
    pip(python, "install", "--no-deps", "--no-index", str(wheel))
    return python
