"""What the distribution installs: the package arena whole (every subpackage and data file) with
its compiled core, and the built-in agents of the folder agents/ under the import name
connect_four_agents (``agents`` is the OpenAI Agents SDK's). The build is scikit-build-core's
(pyproject.toml) running CMake (CMakeLists.txt); tests/integration/test_install.py checks a
wheel it builds."""

from __future__ import annotations

import re
import subprocess
import tomllib
from typing import Any

from arena.system.version import VERSION
from tests.helpers.paths import ROOT


def pyproject() -> dict[str, Any]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def scikit_build_table() -> dict[str, Any]:
    return pyproject()["tool"]["scikit-build"]


def tracked(folder: str) -> list[str]:
    """The files git tracks under ``folder`` of the checkout."""
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", folder], capture_output=True,
                            text=True, check=True).stdout
    return listed.split()


def test_the_build_is_scikit_build_core_s_with_nanobind_cmake_and_ninja() -> None:
    system = pyproject()["build-system"]
    assert system["build-backend"] == "scikit_build_core.build"
    required = {re.split(r"[<>=!~ ]", name)[0] for name in system["requires"]}
    assert required == {"scikit-build-core", "nanobind"}
    # CMake and Ninja: scikit-build-core asks pip for them where the machine has none that fit
    assert {"cmake", "ninja"} <= scikit_build_table().keys()


def test_the_distribution_s_version_is_the_arena_s() -> None:
    assert pyproject()["project"]["version"] == VERSION


def test_every_package_of_the_arena_is_installed_with_its_data() -> None:
    table = scikit_build_table()
    assert table["wheel"]["packages"] == ["arena"]  # the folder, whole
    excluded = table["wheel"]["exclude"]
    assert excluded == ["arena/search/core"]  # the C++ sources only, built into the extension
    assert all(path.endswith((".hpp", ".cpp")) for path in tracked("arena/search/core"))
    data = [path for path in tracked("arena") if not path.endswith((".py", ".pyi"))]
    shipped = [path for path in data if not path.startswith("arena/search/core/")]
    assert {"arena/competitions/ladder/anchors.csv", "arena/analysis/data/pons/Test_L1_R1"} \
        <= set(shipped)


def test_every_folder_of_python_files_is_a_package() -> None:
    """A folder of the arena without __init__.py would install, but as a namespace package
    that the layers' checks and mypy see differently."""
    folders = {path.parent for path in (ROOT / "arena").rglob("*.py")}
    assert all((folder / "__init__.py").is_file() for folder in folders), folders


def test_the_built_in_agents_install_under_a_name_of_their_own() -> None:
    table = scikit_build_table()
    # a package in wheel.packages keeps its folder's name: agents/ is copied under its own
    assert table["wheel"]["force-include"] == {"agents": "connect_four_agents"}
    assert "agents" not in table["wheel"]["packages"]
    assert "agents/data/net.onnx" in tracked("agents")
    entry_points = pyproject()["project"]["entry-points"]
    targets = [target for group in entry_points.values() for target in group.values()]
    assert all(not target.startswith("agents.") for target in targets), targets


def test_the_extension_is_installed_where_the_kernels_import_it() -> None:
    cmake = (ROOT / "CMakeLists.txt").read_text()
    assert "nanobind_add_module(_core " in cmake
    assert "install(TARGETS _core LIBRARY DESTINATION arena/search/kernels)" in cmake
    native = (ROOT / "arena" / "search" / "kernels" / "native.py").read_text()
    assert "from arena.search.kernels import _core as core" in native


def test_the_compiler_flags_are_portable() -> None:
    """A wheel runs on other machines than the one that built it: no -march=native; Release."""
    for name in ("CMakeLists.txt", "pyproject.toml"):
        assert "march=native" not in (ROOT / name).read_text().replace(
            "never -march=native", ""), name
    assert scikit_build_table()["cmake"]["build-type"] == "Release"
