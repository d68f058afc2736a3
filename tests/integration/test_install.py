"""The wheel pip builds (``pip wheel .``: scikit-build-core compiling the C++ core) holds every
module, data file and entry point, and the extension; installed, not editable, beside the
OpenAI Agents SDK (``pip install openai-agents``, whose import name is ``agents``), both
import, each its own package, and the arena plays its built-in agents from an empty directory
with its own compiled core. A regular install's hints and ``arena docs`` point to what it has.
A machine without a C++ compiler is told what to install.

The venvs see this Python's packages but not an editable install's import hook
(``tests/helpers/venvs``), which would hand them the checkout instead of the wheel."""

from __future__ import annotations

import configparser
import importlib.machinery
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.helpers.paths import ROOT
from tests.helpers.venvs import built_wheel, pip, seeing_venv

SOURCES = ("arena", "agents", "pyproject.toml", "README.md", "CMakeLists.txt")
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


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel of a copy of the checkout, as ``pip wheel .`` builds it."""
    folder = tmp_path_factory.mktemp("wheel")
    return built_wheel(copy_of_the_checkout(folder / "source"), folder / "dist")


def tracked(folder: str) -> list[str]:
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", folder], capture_output=True,
                            text=True, check=True).stdout
    return listed.split()


@pytest.mark.slow
def test_the_wheel_holds_every_module_data_file_and_the_core(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    sources = [path for path in tracked("arena") if not path.startswith("arena/search/core/")]
    assert set(sources) <= names  # every module, stub and data file (pons sets, anchors)
    agents = {"connect_four_agents/" + path.removeprefix("agents/") for path in tracked("agents")}
    assert agents <= names  # the built-in agents under their import name, net.onnx with them
    assert not any(name.startswith(("agents/", "arena/search/core/", "tests/")) for name in names)
    cores = [name for name in names if name.startswith("arena/search/kernels/_core.")
             and not name.endswith(".pyi")]
    assert len(cores) == 1 and cores[0].endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
    meta = f"connect_four_arena-{wheel.name.split('-')[1]}.dist-info"
    points = configparser.ConfigParser(delimiters="=")
    points.read_string(zipfile.ZipFile(wheel).read(f"{meta}/entry_points.txt").decode())
    assert points["console_scripts"]["arena"] == "arena.cli:main"
    assert points["connect_four_arena.agents"]["negamax"] == \
        "connect_four_agents.negamax:NegamaxAgent"
    assert "llm" in points["connect_four_arena.spec_kinds"]


@pytest.mark.slow
def test_the_arena_installs_beside_the_openai_agents_sdk(tmp_path: Path, wheel: Path) -> None:
    environment = tmp_path / "venv"
    python = seeing_venv(environment)
    pip(python, "install", "openai-agents")  # first: the order in which the arena overwrote
    pip(python, "install", "--no-deps", "--no-index", str(wheel))  # its agents/
    empty = tmp_path / "empty"
    empty.mkdir()
    check = ("import agents, connect_four_agents.negamax as negamax; from agents import Agent; "
             "from arena.search.kernels.native import core; "
             "print(agents.__file__); print(negamax.__file__); print(core.__file__)")
    shown = subprocess.run([python, "-c", check], cwd=empty, capture_output=True, text=True,
                           check=True).stdout.split()
    site = Path(subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_path("
                                "'purelib'))"], capture_output=True, text=True,
                               check=True).stdout.strip())
    assert shown[:2] == [str(site / "agents" / "__init__.py"),
                         str(site / "connect_four_agents" / "negamax.py")]
    assert Path(shown[2]).parent == site / "arena" / "search" / "kernels"  # its own core
    played = subprocess.run([str(environment / "bin" / "arena"), "match", "immediate-win",
                             "random", "-n", "4", "-j", "1", "--no-report", "--out", "run"],
                            cwd=empty, capture_output=True, text=True)
    assert played.returncode == 0, played.stderr
    assert played.stdout.startswith("immediate-win [")


@pytest.mark.slow
def test_a_regular_install_points_to_what_it_has(tmp_path: Path, wheel: Path) -> None:
    """Installed from a wheel, the arena's hints name the package, not a checkout, and
    ``arena docs`` names the help and the README the install has."""
    environment = tmp_path / "venv"
    python = seeing_venv(environment)
    pip(python, "install", "--no-deps", "--no-index", str(wheel))
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


@pytest.mark.slow
def test_a_machine_without_a_c_compiler_is_told_what_to_install(tmp_path: Path) -> None:
    """CXX naming no compiler stands for a machine without one (CMake would find this one's)."""
    source = copy_of_the_checkout(tmp_path / "source")
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                           "--disable-pip-version-check", "-w", str(tmp_path / "dist"),
                           str(source)], capture_output=True, text=True,
                          env={**os.environ, "CXX": str(tmp_path / "no-such-compiler")})
    told = " ".join((done.stdout + done.stderr).split())
    assert done.returncode != 0 and not list(tmp_path.glob("dist/*.whl"))
    assert "found no working C++ compiler" in told, told
    assert "'apt-get install g++'" in told and "xcode-select --install" in told
    assert "no-such-compiler', which does not work" in told
