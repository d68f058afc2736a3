"""Every row of the README's misbehaving-agents table under each hosting where it applies
(inline, process, engine): the fault is recorded as the table says and the run goes on.

The agents are tests/data/hosting_agents.py's and faulty_agents.py's, and the engine programs
of tests/data/engines. An inline agent that ends its own process (``os._exit``, a crash) ends
the run: the table's "dies" row is for agents in a process of their own (the inline crash,
which keeps every finished game and says how to resume, is tests/integration/test_hosting.py's).
A position changed in an agent's own process is a copy no game sees: that row is for inline
agents.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.rules.errors import AgentSpecError
from arena.rules.results import Side, Termination
from arena.runs.planning.plan import GameSettings, match_plan
from arena.runs.playing.runner import run_games
from arena.runs.store.reading import load_games
from tests.helpers.paths import DATA

HOSTED = DATA / "hosting_agents.py"
FAULTY = DATA / "faulty_agents.py"
GAMES = 3
OPPONENT = f"{HOSTED}:Leftmost"  # fills the first column with the faulty agent's help


def engine(name: str) -> str:
    return f"engine:{DATA / 'engines' / f'{name}.py'}"


def slow_unless_inline(hosting: str, time_per_move: float | None) -> list[pytest.MarkDecorator]:
    """A child Python per agent (and one more after each fault) takes about a second, and so
    do the moves that overrun their limit."""
    return [] if hosting == "inline" and time_per_move is None else [pytest.mark.slow]


# (row of the table, agent spec or engine, hosting, time per move, termination, error text)
FAULTS = [
    *[(row, spec, hosting, None, "agent_error", error)
      for hosting in ("inline", "process")
      for row, spec, error in [
          ("raises", f"{FAULTY}:RaisesDeep", "ValueError: the evaluation went wrong"),
          ("raises SystemExit", f"{HOSTED}:Exits:code=3", "SystemExit: 3"),
          ("raises KeyboardInterrupt", f"{HOSTED}:Interrupts", "KeyboardInterrupt"),
      ]],
    ("changes the position", f"{HOSTED}:Mutates", "inline", None, "agent_error",
     "changed the position"),
    *[("dies", spec, "process", None, "agent_crash", error) for spec, error in [
        (f"{HOSTED}:HardExits", "exited with status 3"),
        (f"{HOSTED}:Segfaults", "SIGSEGV"),
    ]],
    ("dies", engine("crashes"), "engine", None, "agent_crash", "exited with status 3"),
    ("overruns its limit", f"{HOSTED}:Sleeps:seconds=0.2", "inline", 0.05, "time_forfeit",
     "limit 0.05 s + 0.1 s grace"),  # inline: when it returns
    ("overruns its limit", f"{HOSTED}:Sleeps:seconds=0.3", "process", 0.05, "time_forfeit",
     "no answer within 0.15 s to a move; the agent's process was stopped"),
    ("overruns its limit", engine("hangs"), "engine", 0.2, "time_forfeit",
     "no answer within 0.3 s to a move; the engine was stopped"),
    *[(row, spec, hosting, None, "illegal_move", error)
      for hosting in ("inline", "process")
      for row, spec, error in [
          ("a missing column", f"{HOSTED}:Answers:answer=7", "7"),
          ("not a column", f"{HOSTED}:Answers:answer=x", "'x'"),
          ("a full column", f"{HOSTED}:FillsFirstColumn", "full"),
      ]],
    *[("is disqualified", f"{HOSTED}:Disqualifies", hosting, None, "disqualified",
       "Disqualified: it broke a rule of its own") for hosting in ("inline", "process")],
    ("a missing column", engine("off_board"), "engine", None, "illegal_move", "move 9"),
    ("not a column", engine("garbage"), "engine", None, "illegal_move", "I think column 4"),
]


@pytest.mark.parametrize(
    ("row", "spec", "hosting", "time_per_move", "termination", "error"),
    [pytest.param(*fault, id=f"{fault[0]}-{fault[2]}", marks=slow_unless_inline(fault[2], fault[3]))
     for fault in FAULTS])
def test_a_misbehaving_agent_costs_its_games_and_the_run_goes_on(
        tmp_path: Path, row: str, spec: str, hosting: str, time_per_move: float | None,
        termination: str, error: str) -> None:
    settings = GameSettings(seed=5, time_per_move=time_per_move,
                            hosting="process" if hosting == "engine" else hosting)  # type: ignore[arg-type]
    run = run_games(match_plan(spec, OPPONENT, GAMES, settings), tmp_path)
    games = load_games(tmp_path / "games.csv")
    assert games["game"].tolist() == list(range(GAMES))  # every game played, none lost
    faulted = games[games["termination"] != "four_in_a_row"]
    assert len(faulted) >= GAMES - 1, row  # the fault recurs game after game
    assert set(faulted["termination"]) == {termination}
    assert set(faulted["result"]) == {"loss"}  # agent A, the faulty one, loses
    assert all(error in text for text in faulted["error"]), faulted["error"].tolist()
    forfeits = run.summaries[0].forfeits
    assert forfeits[(Termination(termination), Side.A)] == sum(forfeits.values()) == len(faulted)


@pytest.mark.parametrize(("spec", "hosting"), [
    (f"{HOSTED}:BadConstructor", "inline"),
    pytest.param(f"{HOSTED}:BadConstructor", "process", marks=pytest.mark.slow),
    pytest.param(engine("fails_to_start"), "engine", marks=pytest.mark.slow),
])
def test_an_agent_that_cannot_be_built_stops_the_run_before_any_game(
        tmp_path: Path, spec: str, hosting: str) -> None:
    settings = GameSettings(hosting="process" if hosting == "engine" else hosting)  # type: ignore[arg-type]
    with pytest.raises(AgentSpecError):
        run_games(match_plan(spec, "random", GAMES, settings), tmp_path)
    games = tmp_path / "games.csv"
    assert not games.exists() or load_games(games).empty
