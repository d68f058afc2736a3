"""The commands, the Python API and experiment files: the same options play the same run."""

from __future__ import annotations

from pathlib import Path

import arena
from arena.competitions.experiments import load_experiment, run_experiment
from arena.rules.board import Rules
from arena.runs.store.meta import load_meta
from tests.helpers.cli import arena as run_arena
from tests.helpers.runs import games_without_timing


def test_the_three_surfaces_play_the_same_run(tmp_path: Path) -> None:
    """The same options given to the command, the API and an experiment file: the same games
    and the same run description."""
    code, output = run_arena(
        "match", "immediate-win", "random", "-n", "6", "--seed", "3", "--openings", "random:2",
        "--first", "a", "--time-per-move", "2", "--rows", "5", "--cols", "6", "-j", "1",
        "--out", str(tmp_path / "command"), "--quiet", "--no-report")
    assert code == 0, output
    arena.match("immediate-win", "random", 6, seed=3, openings="random:2", first="a",
                time_per_move=2.0, rules=Rules(5, 6, 4), jobs=1,
                out=tmp_path / "api", progress=False)
    experiment = tmp_path / "same.toml"
    experiment.write_text('[defaults]\nseed = 3\nopenings = "random:2"\nfirst = "a"\n'
                          'time_per_move = 2.0\nrows = 5\ncols = 6\njobs = 1\n'
                          '[[match]]\nname = "file"\na = "immediate-win"\nb = "random"\n'
                          'games = 6\n')
    list(run_experiment(load_experiment(experiment), tmp_path))
    runs = [tmp_path / name for name in ("command", "api", "file")]
    games = [games_without_timing(run) for run in runs]
    assert games[0] == games[1] == games[2] and len(games[0]) == 6
    metas = [load_meta(run) for run in runs]
    assert metas[0].run == metas[1].run == metas[2].run
    assert metas[0].rules.rows == 5 and metas[0].run["time_per_move"] == 2.0
