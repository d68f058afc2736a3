"""The kernels answer as the numba kernels did at 5c44b0f, the commit before the compiled
core: negamax's scores, nodes and choices, MCTS's choices, the solver's scores and nodes,
games of the fused loop between every kind of kernel agent, and the vector environment's
steps (``tests/helpers/kernel_answers.py`` says how ``tests/data/kernel_answers.json`` was
made)."""

from __future__ import annotations

import json

import pytest

from tests.helpers.kernel_answers import results
from tests.helpers.paths import ROOT

RECORDED = ROOT / "tests" / "data" / "kernel_answers.json"


@pytest.fixture(scope="module")
def recorded() -> dict:
    return json.loads(RECORDED.read_text())


@pytest.fixture(scope="module")
def answers() -> dict:
    return results()


@pytest.mark.parametrize("kernel", ["negamax", "mcts", "solver", "fused_games", "vector"])
def test_the_kernels_answer_as_numba_did(kernel: str, recorded: dict, answers: dict) -> None:
    assert answers[kernel] == recorded[kernel]


def test_the_recorded_cases_are_not_trivial(recorded: dict) -> None:
    assert sum(len(set(scores.values())) > 1 for scores, *_ in recorded["negamax"]) > 150
    assert len({choice[0] for choice in recorded["mcts"]}) == 8  # every column of 7 x 8
    assert len({strong for _, _, strong, *_ in recorded["solver"]}) > 8
    endings = {(result, termination) for _, result, termination, *_ in recorded["fused_games"]}
    assert {("win", "four_in_a_row"), ("loss", "four_in_a_row"), ("draw", "board_full"),
            ("loss", "adjudicated"), ("draw", "adjudicated")} <= endings
    assert all(any(any(rewards) for _, rewards, *_ in trace[2:]) for trace in recorded["vector"])
