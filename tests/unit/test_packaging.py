"""What the distribution installs: every package of the arena, and the built-in agents of the
folder agents/ under the import name connect_four_agents (``agents`` is the OpenAI Agents
SDK's)."""

from __future__ import annotations

import tomllib

from tests.helpers.paths import ROOT


def setuptools_table() -> dict[str, object]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]


def test_every_package_of_the_arena_is_installed() -> None:
    found = {".".join(path.parent.relative_to(ROOT).parts)
             for path in (ROOT / "arena").rglob("__init__.py")}
    listed = set(setuptools_table()["packages"])  # type: ignore[call-overload]
    assert listed - {"connect_four_agents"} == found


def test_the_built_in_agents_install_under_a_name_of_their_own() -> None:
    table = setuptools_table()
    assert table["package-dir"] == {"connect_four_agents": "agents"}
    assert not list((ROOT / "agents").glob("*/__init__.py"))  # no subpackage left unlisted
    entry_points = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "entry-points"]
    targets = [target for group in entry_points.values() for target in group.values()]
    assert all(not target.startswith("agents.") for target in targets), targets
