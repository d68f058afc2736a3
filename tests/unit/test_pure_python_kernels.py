"""The numba kernels run as plain Python with ``NUMBA_DISABLE_JIT=1``, with the same answers (all
but the exact solver's, whose raw pointers from a numba intrinsic need the JIT). The kernels
already in the compiled core have no plain-Python mode: their numba twins that the fused loop
still calls are checked here (the negamax search), and the agents' answers, the core's, are
the numba kernel's."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from arena.search.kernels.bitboard import popcount
from connect_four_agents.negamax import NegamaxAgent
from tests.helpers.kernel_cases import HEURISTICS, compiled, positions, results
from tests.helpers.paths import ROOT

CASES = ROOT / "tests" / "helpers" / "kernel_cases.py"


@pytest.mark.slow
def test_the_kernels_give_the_same_answers_without_the_jit() -> None:
    environment = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    # -W error: a warning (numpy's uint64 wrap-around warnings included) fails the run
    finished = subprocess.run([sys.executable, "-W", "error", str(CASES)], env=environment,
                              capture_output=True, text=True, timeout=300, check=False)
    assert finished.returncode == 0, finished.stderr
    plain = json.loads(finished.stdout)
    assert plain["compiled"] is False  # the kernels really ran as Python functions
    assert compiled()
    jitted = results()
    assert plain["results"].keys() == jitted.keys()
    for name, answers in jitted.items():
        assert plain["results"][name] == answers, name
    # the cases are not trivial: scores differ between moves, wins are found, MCTS moves
    assert any(len(set(scores.values())) > 1 for scores, _ in jitted["negamax"])
    # the agents search in the compiled core: node for node the numba search checked above
    searched = []
    for heuristic in HEURISTICS:
        for position in positions():
            agent = NegamaxAgent(depth=4, heuristic=heuristic, tiebreak="left")
            searched.append([{str(c): s for c, s in agent.root_scores(position).items()},
                             agent.nodes])
    assert searched == jitted["negamax"]
    assert jitted["game_endings"] == [1, -1, -1, -2]


def test_popcount_runs_in_python_too() -> None:
    for bits in (0, 1, 0b1011, (1 << 64) - 1, 1 << 63):
        assert popcount(np.uint64(bits)) == bin(bits).count("1")
