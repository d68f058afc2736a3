"""What a command imports, checked in a child Python as a user runs it: listing agents or
mistyping one, and solving a position the next disc decides, import none of the heavy modules
(numba, which the arena no longer uses, scipy's linear algebra, pandas, matplotlib); a solve
that searches runs in the compiled core and imports none of them either. Issue 39's two short
commands, a 10-game random match without report and a solve, import none of the libraries
they do not need (pandas, matplotlib, tqdm, joblib, a TOML parser, dask), nor numpy.ma (which
np.median's and np.percentile's first calls import)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.cli import checkout_env

HEAVY = ("numba", "scipy.linalg", "pandas", "matplotlib")

PROBE = """
import sys
from arena.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print("imported:", sorted(m for m in {heavy!r} if m in sys.modules))
"""


UNNEEDED = ("pandas", "matplotlib", "tqdm", "joblib", "tomllib", "distributed", "pyarrow",
            "scipy.linalg", "numpy.ma", "numba")
"""What neither short command of issue 39 needs (numba: the arena has no JIT any more)."""


def run_and_list_imports(*args: str, modules: tuple[str, ...] = HEAVY,
                         cwd: Path | None = None) -> tuple[str, str]:
    """The output (stdout and stderr) of ``arena ARGS...`` in a child Python (in ``cwd``),
    and the line naming which of ``modules`` (the heavy ones) it imported."""
    finished = subprocess.run([sys.executable, "-c", PROBE.format(heavy=modules), *args],
                              env=checkout_env(), text=True, capture_output=True, check=True,
                              cwd=cwd)
    *output, imported = finished.stdout.splitlines()
    return "\n".join(output) + finished.stderr, imported


def test_listing_the_agents_imports_no_kernels() -> None:
    output, imported = run_and_list_imports("agents")
    assert imported == "imported: []"
    for name in ("random", "negamax", "negamax-id", "mcts", "solver"):
        assert f"\n{name}\n" in f"\n{output}"
    assert "    depth=int  (default 4)" in output  # negamax's, read from its signature
    assert "    rollout=random|immediate-win  (default random)" in output  # mcts'


def test_describing_an_agent_imports_no_kernels() -> None:
    output, imported = run_and_list_imports("agents", "negamax-id")
    assert imported == "imported: []"
    assert output.startswith("negamax-id\n    Negamax by iterative deepening")
    assert "    time=float  (default None)" in output


@pytest.mark.parametrize(("args", "message"), [
    (("match", "nagamax", "random", "-n", "2"), "did you mean 'negamax' or 'negamax-id'?"),
    (("match", "negamax:depht=3", "random", "-n", "2"), "unknown parameter 'depht'"),
])
def test_a_mistyped_agent_is_told_without_the_kernels(args: tuple[str, ...],
                                                      message: str) -> None:
    output, imported = run_and_list_imports(*args)
    assert imported == "imported: []"
    assert "arena: error:" in output and message in output


def test_a_position_the_next_disc_decides_is_solved_without_the_kernels() -> None:
    output, imported = run_and_list_imports("solve", "44444433333322222")
    assert imported == "imported: []"
    _, imported = run_and_list_imports("solve", "44444433333322222",
                                       modules=("numpy", "arena.stats.tally"))
    assert imported == "imported: []"  # nor numpy, nor the statistics of a run's games
    # columns 3 and 4 are full; every other column loses to a win with player 1's 10th disc
    assert "score       -12  -12    -    -  -12  -12  -12" in output


def test_the_help_of_solve_imports_no_kernels() -> None:
    output, imported = run_and_list_imports("solve", "--help")
    assert imported == "imported: []"
    assert "--table-mb MB" in output


def test_a_search_runs_in_the_compiled_core_without_numba_or_scipy_linalg() -> None:
    output, imported = run_and_list_imports("solve", "2252576253462244111563365343671351441")
    assert imported == "imported: []"
    # the first position of Test_L3_R1, published score -1
    assert "score         -    -    -    -    -   -1   -2" in output


def test_a_random_match_without_report_imports_only_what_it_plays_with(tmp_path: Path
                                                                       ) -> None:
    output, imported = run_and_list_imports("match", "random", "random", "-n", "10",
                                            "--no-report", "--quiet", modules=UNNEEDED,
                                            cwd=tmp_path)
    assert imported == "imported: []"
    assert "Games       10  (W " in output
    assert (tmp_path / "results" / "matches").is_dir()


@pytest.mark.slow
def test_a_solve_imports_only_what_it_solves_with(tmp_path: Path) -> None:
    output, imported = run_and_list_imports("solve", "4453", cwd=tmp_path,
                                            modules=(*UNNEEDED, "multiprocessing",
                                                     "arena.stats.tally"))
    assert imported == "imported: []"
    assert "score     -2: player 2 (not to move) wins with its 20th disc" in output
