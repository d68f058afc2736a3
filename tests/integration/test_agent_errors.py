"""How an agent's faults are told: once, naming the user's own thing, with the traceback of
an exception kept in agents.log (tests/data/faulty_agents.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.runs.planning.plan import GameSettings, match_plan
from arena.runs.playing.runner import run_games
from arena.runs.store.reading import load_games
from tests.helpers.cli import invoke
from tests.helpers.paths import DATA

AGENTS = DATA / "faulty_agents.py"


@pytest.mark.parametrize("hosting", ["inline", "process"])
@pytest.mark.parametrize(("spec", "message"), [
    (f"{AGENTS}:NoChoose", f"agent spec '{AGENTS}:NoChoose': {AGENTS}:NoChoose has no "
                           "choose(position, rng) method"),
    ("kaggle:no/such/main.py", "agent spec 'kaggle:no/such/main.py': cannot read the Kaggle "
                               "submission no/such/main.py: No such file or directory"),
    ("kaggle:chess", "agent spec 'kaggle:chess': expected kaggle:random, kaggle:negamax or "
                     "kaggle:PATH.py (a submission file)"),
])
def test_an_agent_that_cannot_be_built_is_told_once(tmp_path: Path, hosting: str, spec: str,
                                                     message: str) -> None:
    result = invoke("match", spec, "random", "-n", "2", "--hosting", hosting, "--no-report",
                    "--out", str(tmp_path / "run"))
    assert result.exit_code == 2
    assert result.stderr == f"arena: error: {message}\n"
    assert not (tmp_path / "run" / "games.csv").exists()


@pytest.mark.parametrize("command", [
    ["play"], pytest.param(["accuracy", "--set", "random:12-12"], marks=pytest.mark.slow),
    ["bench", "--agents"]])
def test_a_constructor_that_fails_is_one_line_in_every_command(tmp_path: Path,
                                                               command: list[str]) -> None:
    spec = f"{AGENTS}:BadConstructor"
    result = invoke(*command, spec, input="")
    assert result.exit_code == 2, result.output
    assert result.stderr == (f"arena: error: agent spec {spec!r}: could not build the agent: "
                             "RuntimeError: no weights file\n")


@pytest.mark.parametrize("hosting", ["inline", pytest.param("process", marks=pytest.mark.slow)])
def test_an_agents_exception_leaves_its_last_frames_in_the_log(tmp_path: Path,
                                                               hosting: str) -> None:
    spec = f"{AGENTS}:RaisesDeep"
    settings = GameSettings(hosting=hosting)  # type: ignore[arg-type]
    run_games(match_plan(spec, "random", 1, settings, first="a"), tmp_path)
    (game,) = load_games(tmp_path / "games.csv").to_dict("records")
    assert (game["termination"], game["error"]) == ("agent_error",
                                                    "ValueError: the evaluation went wrong")
    head = f"game 0 A {spec}: "
    logged = [line.removeprefix(head)
              for line in (tmp_path / "agents.log").read_text().splitlines()
              if line.startswith(head)]
    assert logged[0] == "Traceback (most recent call last):"
    assert logged[-1] == "ValueError: the evaluation went wrong"
    frames = [line.rpartition(" in ")[2] for line in logged if line.startswith("  File ")]
    assert frames == ["plan", "search", "evaluate", "score", "weigh"]  # the last 5 of choose's
    assert logged[-2].strip() == 'raise ValueError("the evaluation went wrong")'

