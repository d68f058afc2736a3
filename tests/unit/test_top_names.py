"""What ``import arena`` offers: the API and the names an agent's author needs, seen by
``dir`` (a notebook's tab completion) and by type checkers, and the modules earlier READMEs
told users to import, which the layout has since moved."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import arena
from tests.helpers.cli import arena_command, checkout_env
from tests.helpers.paths import ROOT

OLD_IMPORTS = """
from arena.agent import BaseAgent
from arena.notation import from_moves, to_array
from arena.records import load_games
from arena.oracle import Oracle
from arena.experiment import load_experiment, run_experiment
from arena.bridges.pons import PonsOracle
import arena.bridges.pons, arena.hosting.engines.pons, arena.protocol.agent
assert arena.bridges.pons is arena.hosting.engines.pons
assert BaseAgent is arena.protocol.agent.BaseAgent
assert arena.agent.__spec__.name == "arena.protocol.agent"
"""
"""Every import an earlier README gave, the old name imported first (no second copy)."""

OLD_RUNS_IMPORTS = """
from arena.runs.rows import GameRow, load_games, read_rows
from arena.runs.request import DEFAULT_DPI, ChartOptions, RunRequest, parse_formats
from arena.runs.pool import BACKENDS, Backend
from arena.runs.meta import RunMeta
from arena.runs.files import RunFiles
import arena.runs.plan, arena.runs.planning.plan, arena.runs.store.reading
assert arena.runs.plan is arena.runs.planning.plan
assert load_games is arena.runs.store.reading.load_games
"""
"""Imports of ``arena.runs``' modules from before they went into its rooms, in a fresh process."""


def test_dir_lists_the_api_and_the_names_for_agents() -> None:
    for name in ("match", "tournament", "sprt", "load_games", "compare", "RunRequest",
                 "BaseAgent", "Choice", "Limit", "GameStart", "Disqualified", "Position",
                 "Rules"):
        assert name in dir(arena) and name in arena.__all__
        assert getattr(arena, name) is not None
    from arena import BaseAgent, Limit, Position, Rules
    assert Position.empty(Rules()).legal_moves() == list(range(7))
    assert BaseAgent.__name__ == "BaseAgent" and Limit(depth=3).depth == 3


def test_type_checkers_see_the_names_served() -> None:
    tree = ast.parse((ROOT / "arena" / "__init__.py").read_text(encoding="utf-8"))
    block = next(node for node in tree.body if isinstance(node, ast.If)
                 and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING")
    seen = {alias.name: node.module for node in block.body
            if isinstance(node, ast.ImportFrom) for alias in node.names}
    assert seen == arena._API


def test_the_imports_earlier_readmes_gave_still_work() -> None:
    done = subprocess.run([sys.executable, "-c", OLD_IMPORTS], env=checkout_env(),
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_the_modules_of_runs_keep_their_earlier_names() -> None:
    done = subprocess.run([sys.executable, "-c", OLD_RUNS_IMPORTS], env=checkout_env(),
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(("old", "new"), sorted(arena.MOVED.items()))
def test_a_moved_module_is_the_module_that_replaced_it(old: str, new: str) -> None:
    assert importlib.import_module(old) is importlib.import_module(new)
    assert importlib.import_module(new).__spec__.name == new


def test_an_agent_file_written_against_the_old_import_plays(tmp_path: Path) -> None:
    (tmp_path / "old.py").write_text("from arena.agent import BaseAgent\n\n\n"
                                     "class Old(BaseAgent):\n"
                                     "    def choose(self, position, rng):\n"
                                     "        return position.legal_moves()[0]\n")
    done = subprocess.run(arena_command("match", "old.py:Old", "random", "-n", "2", "--quiet",
                                        "--no-report", "--out", "run"),
                          env=checkout_env(), cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("old.py:Old [")
