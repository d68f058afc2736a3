"""A non-editable install beside the OpenAI Agents SDK (``pip install openai-agents``, whose
import name is ``agents``): both import, each its own package, and the arena plays its
built-in agents from an empty directory. A regular install's hints and ``arena docs`` point to
what it has."""

from __future__ import annotations

import shutil
import subprocess
import venv
from pathlib import Path

import pytest

from tests.helpers.paths import ROOT

SOURCES = ("arena", "agents", "pyproject.toml", "README.md")
"""What a build of the distribution reads from the checkout."""


def copy_of_the_checkout(folder: Path) -> Path:
    """The files a build reads, copied into ``folder`` (a build writes beside its sources)."""
    for name in SOURCES:
        source, target = ROOT / name, folder / name
        if source.is_dir():
            shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, target)
    return folder


@pytest.mark.slow
def test_the_arena_installs_beside_the_openai_agents_sdk(tmp_path: Path) -> None:
    environment = tmp_path / "venv"
    venv.create(environment, system_site_packages=True, with_pip=True)
    python = str(environment / "bin" / "python")

    def pip(*args: str) -> None:
        subprocess.run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                        *args], check=True, capture_output=True)

    pip("openai-agents")  # first: the order in which the arena overwrote its agents/
    pip("--no-deps", str(copy_of_the_checkout(tmp_path / "source")))
    empty = tmp_path / "empty"
    empty.mkdir()
    check = ("import agents, connect_four_agents.negamax as negamax; from agents import Agent; "
             "print(agents.__file__); print(negamax.__file__)")
    shown = subprocess.run([python, "-c", check], cwd=empty, capture_output=True, text=True,
                           check=True).stdout.split()
    site = Path(subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_path("
                                "'purelib'))"], capture_output=True, text=True,
                               check=True).stdout.strip())
    assert shown == [str(site / "agents" / "__init__.py"),
                     str(site / "connect_four_agents" / "negamax.py")]
    played = subprocess.run([str(environment / "bin" / "arena"), "match", "immediate-win",
                             "random", "-n", "4", "-j", "1", "--no-report", "--out", "run"],
                            cwd=empty, capture_output=True, text=True)
    assert played.returncode == 0, played.stderr
    assert played.stdout.startswith("immediate-win [")


@pytest.mark.slow
def test_a_regular_install_points_to_what_it_has(tmp_path: Path) -> None:
    """Installed from a wheel, the arena's hints name the package, not a checkout, and
    ``arena docs`` names the help and the README the install has."""
    environment = tmp_path / "venv"
    venv.create(environment, system_site_packages=True, with_pip=True)
    python = str(environment / "bin" / "python")
    subprocess.run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                    "--no-deps", str(copy_of_the_checkout(tmp_path / "source"))], check=True,
                   capture_output=True)
    empty = tmp_path / "empty"
    empty.mkdir()
    hint = subprocess.run([python, "-c", "from arena.system.install import install_command; "
                           "print(install_command('rl'))"], cwd=empty, capture_output=True,
                          text=True, check=True).stdout
    assert hint == "python3 -m pip install 'connect-four-arena[rl]'\n"
    told = subprocess.run([str(environment / "bin" / "arena"), "docs"], cwd=empty,
                          capture_output=True, text=True, check=True).stdout
    assert "arena agents engine" in told and "arena COMMAND --help" in told
    readme = Path(told.rsplit(" ", 1)[1].strip().rstrip("."))
    assert readme.name == "METADATA" and readme.is_relative_to(environment)
    assert "Connect Four" in readme.read_text(encoding="utf-8")
