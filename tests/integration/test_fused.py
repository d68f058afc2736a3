"""The fused game loop plays the games the hosted path plays: games.csv equal byte for byte but
for the think times, for every kind of kernel agent, on several boards, with openings,
adjudication and either first mover; and the hosted path plays whenever a condition fails."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

import pytest

from arena.rules.board import Rules
from arena.runs.planning.plan import GameSettings, match_plan
from arena.runs.planning.request import RunRequest
from arena.runs.playing import batches, fused
from arena.runs.playing.runner import run_games
from arena.runs.store.rows import COLUMNS, TIMING_COLUMNS
from arena.runs.store.summary import summarize, summary_csv
from arena.search.solver import shared_solver
from connect_four_agents.negamax import NegamaxAgent
from tests.helpers.cli import checkout_env

TIMINGS = [COLUMNS.index(name) for name in TIMING_COLUMNS]
Rows = list[list[str]]


class FusedCalls:
    """Counts the games the fused loop plays."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch):
        self.games = 0
        real = batches.play_fused

        def counted(settings, batch, players):  # type: ignore[no-untyped-def]
            self.games += len(batch)
            return real(settings, batch, players)

        monkeypatch.setattr(batches, "play_fused", counted)


def _games(out: Path) -> Rows:
    """games.csv's rows as the strings written, with the timing columns blanked."""
    with (out / "games.csv").open(encoding="utf-8", newline="") as file:
        rows = list(csv.reader(file))
    assert tuple(rows[0]) == COLUMNS
    for row in rows[1:]:
        for index in TIMINGS:
            row[index] = ""
    return rows[1:]


def _run(tmp_path: Path, name: str, agent_a: str, agent_b: str, games: int,
         settings: GameSettings, openings: str = "none", first: str = "alternate") -> Path:
    shared_solver().clear()  # node counts of the solver depend on what its table holds
    out = tmp_path / name
    run_games(match_plan(agent_a, agent_b, games, settings, openings, first),  # type: ignore[arg-type]
              out, RunRequest(jobs=1))  # one process: the fused calls are counted here
    return out


def _hosted_and_fused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, agent_a: str,
                      agent_b: str, games: int, settings: GameSettings,
                      openings: str = "none", first: str = "alternate") -> tuple[Rows, Rows]:
    calls = FusedCalls(monkeypatch)
    with monkeypatch.context() as hosted_only:
        hosted_only.setattr(batches, "fused_kernels", lambda *args: None)
        hosted = _run(tmp_path, "hosted", agent_a, agent_b, games, settings, openings, first)
    assert calls.games == 0
    fused_run = _run(tmp_path, "fused", agent_a, agent_b, games, settings, openings, first)
    assert calls.games == games  # every game went through the fused loop
    for out in (hosted, fused_run):  # counted as written: what games.csv read back gives
        assert (out / "summary.csv").read_text() == summary_csv(summarize(out / "games.csv"))
    return _games(hosted), _games(fused_run)


CASES = [
    ("random", "random", 300, GameSettings(seed=1), "none", "alternate"),
    ("random", "immediate-win", 200, GameSettings(rules=Rules(5, 6, 4), seed=9), "random:2",
     "b"),
    ("immediate-win:block=true", "immediate-win", 200, GameSettings(rules=Rules(4, 5, 3)),
     "uniform:3", "a"),
    ("negamax:depth=3", "negamax:depth=2,heuristic=threats+positional", 40,
     GameSettings(seed=0), "random:4", "alternate"),
    ("negamax:depth=2,tiebreak=left,move_order=left-to-right",
     "negamax:depth=2,tiebreak=first,move_order=left-to-right", 20,
     GameSettings(rules=Rules(6, 5, 4)), "uniform:2", "alternate"),
    ("negamax:depth=2,tiebreak=right", "negamax:depth=1,tiebreak=first,wins=flat", 20,
     GameSettings(rules=Rules(7, 8, 5)), "none", "alternate"),
    ("mcts:iterations=60", "mcts:iterations=40,rollout=immediate-win,c=0.7", 12,
     GameSettings(rules=Rules(5, 6, 4)), "random:2", "alternate"),
    ("random", "immediate-win", 40, GameSettings(rules=Rules(5, 5, 4), adjudicate=9),
     "none", "alternate"),
    ("solver", "solver:blunder=0.3", 6, GameSettings(rules=Rules(4, 5, 4)), "random:3",
     "alternate"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("agent_a", "agent_b", "games", "settings", "openings", "first"),
                         CASES)
def test_fused_games_equal_the_hosted_games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            agent_a: str, agent_b: str, games: int,
                                            settings: GameSettings, openings: str,
                                            first: str) -> None:
    hosted, fused_rows = _hosted_and_fused(tmp_path, monkeypatch, agent_a, agent_b, games,
                                           settings, openings, first)
    assert len(hosted) == games
    assert fused_rows == hosted


def test_fused_games_equal_and_think_times_are_measured(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    # a searching side: a random or immediate-win side's whole game can take under half a
    # microsecond of the compiled loop, which games.csv's six decimals write as 0
    hosted, fused_rows = _hosted_and_fused(tmp_path, monkeypatch, "random", "negamax:depth=2",
                                           60, GameSettings(seed=3), "random:2")
    assert fused_rows == hosted
    lines = (tmp_path / "fused" / "games.csv").read_text().splitlines()[1:]
    times = [float(row[index]) for row in csv.reader(lines) for index in TIMINGS]
    assert all(time >= 0 for time in times) and any(time > 0 for time in times)


@pytest.mark.parametrize(("agent_a", "settings"), [
    ("random", GameSettings(time_per_move=5.0)),  # a time limit
    ("random@time=5", GameSettings()),  # a player's own limit
    ("random", GameSettings(hosting="process")),  # hosted in a child process
    ("negamax-id:depth=2", GameSettings()),  # by time: not reproducible
    ("mcts:time=0.01", GameSettings()),
    ("solver:temperature=1", GameSettings(rules=Rules(4, 4, 3))),
    ("solver:max_nodes=1000", GameSettings(rules=Rules(4, 4, 3))),
])
def test_the_hosted_path_plays_when_a_condition_fails(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch,
                                                      agent_a: str,
                                                      settings: GameSettings) -> None:
    calls = FusedCalls(monkeypatch)
    _run(tmp_path, "run", agent_a, "random", 2, settings)
    assert calls.games == 0
    assert len(_games(tmp_path / "run")) == 2


def test_a_user_agent_is_hosted_even_when_it_extends_a_built_in(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    agent = tmp_path / "mine.py"
    agent.write_text("from connect_four_agents.negamax import NegamaxAgent\n"
                     "class Mine(NegamaxAgent):\n"
                     "    def choose(self, position, rng):\n"
                     "        return position.legal_moves()[0]\n", encoding="utf-8")
    calls = FusedCalls(monkeypatch)
    _run(tmp_path, "run", f"{agent}:Mine", "random", 2, GameSettings())
    assert calls.games == 0
    rows = _games(tmp_path / "run")
    assert rows[0][7].startswith("1")  # the user's choose played


def test_only_the_declaring_class_counts() -> None:
    class Leftmost(NegamaxAgent):
        def choose(self, position, rng):  # type: ignore[no-untyped-def, override]
            return position.legal_moves()[0]

    rules = Rules()
    assert fused.kernel_agent(NegamaxAgent(depth=2), rules) is not None
    assert fused.kernel_agent(Leftmost(depth=2), rules) is None


IMPORTS = """
import sys
import numpy as np
from arena.runs.playing.batches import AgentCache, play_fusable, warm_fused
from arena.runs.planning.request import RunRequest

plan = RunRequest(openings="random:4").match_plan(sys.argv[1], "random", 4)
agents = AgentCache()
warm_fused(plan, agents)
[played], _ = play_fusable(plan.settings, plan.batch(np.arange(4)), agents)
text, _ = played.text()
print(text.count(b"\\n"), *sorted(m for m in ("numba", "llvmlite") if m in sys.modules))
"""


@pytest.mark.parametrize("agent", ["random", "negamax:depth=2", "mcts:iterations=50", "solver"])
def test_a_fused_pairing_plays_in_the_compiled_core_without_numba(agent: str) -> None:
    # in a fresh process: warmed, then a batch of every kind of kernel agent played and its
    # rows written, with no just-in-time compiler loaded (where numba is installed too)
    done = subprocess.run([sys.executable, "-c", IMPORTS, agent], env=checkout_env(),
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["4"]
