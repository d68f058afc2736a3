"""The Python API: arena.match and arena.tournament with specs, objects, classes, functions."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import arena
from arena.rules.board import Position, Rules
from arena.rules.errors import AgentSpecError
from arena.runs.planning.plan import GameSettings, MatchSetupError, match_plan
from arena.runs.playing.runner import run_games
from arena.runs.store.reading import load_games


def leftmost(position: Position, rng: np.random.Generator) -> int:
    return position.legal_moves()[0]


def test_a_match_of_spec_strings_leaves_nothing_on_disk() -> None:
    scratch = Path(tempfile.gettempdir())
    before = set(scratch.glob("arena-run-*"))
    result = arena.match("immediate-win", "random", 30, seed=3, jobs=1, progress=False)
    assert set(scratch.glob("arena-run-*")) == before and result.directory is None
    assert len(result.games) == 30 and result.games["game"].tolist() == list(range(30))
    assert str(result.games["result"].dtype) == "category"
    row = result.summary.iloc[0]
    wins = int((result.games["result"] == "win").sum())
    assert (row["agent_a"], row["agent_b"], row["games"], row["wins"]) == (
        "immediate-win", "random", 30, wins)
    assert result.meta.seed == result.meta.run["seed"] == 3


def test_the_api_plays_the_same_games_as_the_command(tmp_path: Path) -> None:
    result = arena.match("negamax:depth=2", "random", 20, openings="random:2", seed=5,
                         out=tmp_path / "api", progress=False)
    run_games(match_plan("negamax:depth=2", "random", 20, GameSettings(seed=5), "random:2"),
              tmp_path / "runner")
    assert result.directory == tmp_path / "api"
    assert result.games["moves"].tolist() == load_games(
        tmp_path / "runner" / "games.csv")["moves"].tolist()


def test_an_agent_class_defined_here_plays_with_any_number_of_jobs() -> None:
    class Rightmost:  # not importable by name: as a class in a notebook
        def new_game(self, game: object) -> None:
            pass

        def choose(self, position: Position, rng: np.random.Generator) -> int:
            wins = position.winning_moves()
            return wins[0] if wins else position.legal_moves()[-1]

    one = arena.match(Rightmost, "random", 24, jobs=1, progress=False)
    two = arena.match(Rightmost(), "random", 24, jobs=2, progress=False)
    assert one.games["moves"].tolist() == two.games["moves"].tolist()
    assert one.summary.iloc[0]["agent_a"] == "local:Rightmost"


class OnlyChoose:
    """An agent with nothing but choose: no new_game, warm_up or close."""

    def choose(self, position: Position, rng: np.random.Generator) -> int:
        return position.legal_moves()[0]


class ChoosesNothing:
    """Meant to be an agent, but its author forgot choose."""

    def new_game(self, game: object) -> None:
        pass


def test_an_agent_needs_nothing_but_choose_and_a_class_without_it_is_named() -> None:
    result = arena.match(OnlyChoose, ("its-twin", OnlyChoose()), 2, jobs=1, progress=False)
    assert set(result.games["termination"]) <= {"four_in_a_row", "board_full"}
    assert result.games["moves"][0].startswith("111111222222")
    with pytest.raises(AgentSpecError) as caught:
        arena.match(ChoosesNothing, "random", 2, jobs=1, progress=False)
    assert f"class {__name__}.ChoosesNothing has no choose(position, rng) method" in str(
        caught.value)
    assert "arena.protocol.objects" not in str(caught.value)


def test_a_one_argument_kaggle_function_plays_and_a_function_of_no_agent_is_refused() -> None:
    def one(obs: dict) -> int:  # type: ignore[type-arg]
        return next(c for c in range(7) if obs["board"][c] == 0)

    result = arena.match(one, "random", 2, jobs=1, progress=False)
    assert set(result.games["termination"]) <= {"four_in_a_row", "board_full"}
    with pytest.raises(AgentSpecError, match=r"^agent 'getcwd': not an agent: getcwd\(\) "):
        arena.match(os.getcwd, "random", 2, jobs=1, progress=False)


@pytest.mark.slow
def test_functions_and_named_agents(tmp_path: Path) -> None:
    def kaggle_style(observation: dict, configuration: dict) -> int:  # type: ignore[type-arg]
        return next(c for c in range(7) if observation["board"][c] == 0)

    result = arena.tournament([("lefty", leftmost), kaggle_style, "random"], 4, jobs=2,
                              progress=False)
    assert result.ratings is not None and result.crosstable is not None
    assert set(result.ratings["agent"]) == {"local:lefty", "local:kaggle_style", "random"}
    both = result.games[(result.games["agent_a"] == "local:lefty")
                        & (result.games["agent_b"] == "local:kaggle_style")]
    assert (both["plies"] > 0).all()  # both play column 1 first: real games, no forfeits
    page = result.write_report(tmp_path / "report")
    assert page == tmp_path / "report" / "report.md" and "Ratings" in page.read_text()


def test_one_name_per_agent_in_the_repr_the_tables_and_the_chart() -> None:
    """A name given as (name, spec) names the agent in the repr, beside its spec in the
    summary, ratings and crosstable, and on the chart; an agent without one is named by a
    label that shows its depth (the default's too)."""
    result = arena.tournament([("deep", "negamax:depth=4"), "negamax:depth=3", "random"], 2,
                              jobs=1, progress=False)
    names = {"negamax": "deep", "negamax:depth=3": "negamax d3", "random": "random"}
    assert result.ratings is not None and result.crosstable is not None
    assert dict(zip(result.ratings["agent"], result.ratings["name"], strict=True)) == names
    assert list(result.ratings.columns[:3]) == ["rank", "agent", "name"]
    for a, name_a, b, name_b in result.summary[["agent_a", "name_a", "agent_b", "name_b"]
                                               ].itertuples(index=False):
        assert (names[a], names[b]) == (name_a, name_b)
    assert set(result.crosstable["opponent_name"]) == set(names.values())
    text = repr(result)
    assert "deep vs negamax d3" in text and "negamax vs" not in text and "negamax:" not in text
    assert "<td>deep</td>" in result._repr_html_()
    shown = {t.get_text() for t in result.plot("ratings").axes[0].get_yticklabels()}
    assert {"1. deep", "2. deep", "3. deep"} & shown


def test_two_agents_with_one_name_must_be_named() -> None:
    with pytest.raises(AgentSpecError, match="both called 'leftmost'"):
        arena.match(leftmost, ("leftmost", lambda position, rng: 0), 2, progress=False)


@pytest.mark.dask  # without dask, the backend is refused for that before the objects are
def test_objects_need_the_local_backend() -> None:
    with pytest.raises(MatchSetupError, match="Python object of this process"):
        arena.match(("lefty-dask", leftmost), "random", 2, backend="dask", progress=False)


def test_a_knockout_of_four_is_won_by_the_exact_solver_on_a_small_board(tmp_path: Path) -> None:
    """4x5 connect 4: the solver never loses, so it wins every pairing it plays (two rounds,
    three pairings, seeded 1 against 4 and 2 against 3)."""
    agents = ["random", "solver", "immediate-win", "negamax:depth=1"]
    result = arena.tournament(agents, 2, format="knockout", rules=Rules(4, 5), jobs=1,
                              progress=False, out=tmp_path / "ko")
    pairs = [(r.round, r.agent_a, r.agent_b) for r in result.summary.itertuples()]
    assert pairs[:2] == [(1, "random", "negamax:depth=1"), (1, "solver", "immediate-win")]
    assert len(pairs) == 3 and pairs[2][0] == 2 and "solver" in pairs[2][1:]
    assert result.ratings["agent"].iloc[0] == "solver"
    assert len(result.games) == 6 and set(result.games["round"]) == {1, 2}
    assert arena.load_games(tmp_path / "ko" / "games.csv").equals(result.games)


def test_a_swiss_tournament_plays_its_rounds_without_a_rematch(tmp_path: Path) -> None:
    agents = ["random", "immediate-win", "negamax:depth=1", "negamax:depth=2"]
    result = arena.tournament(agents, 2, format="swiss", rounds=3, rules=Rules(4, 5), jobs=1,
                              progress=False)
    assert result.directory is None and sorted(set(result.summary["round"])) == [1, 2, 3]
    pairs = [frozenset((r.agent_a, r.agent_b)) for r in result.summary.itertuples()]
    assert len(pairs) == 6 and len(set(pairs)) == 6  # 4 agents, 3 rounds: every pair once
    # kept in memory, rounds and all: its report is written elsewhere
    page = result.write_report(tmp_path / "report").read_text()
    assert "## Standings by round" in page and "after round 3" in page


@pytest.mark.parametrize(("options", "message"), [
    ({"format": "ladder"}, "unknown tournament format 'ladder'"),
    ({"format": "swiss"}, 'format "swiss" needs its number of rounds'),
    ({"rounds": 2}, r'rounds \(2\) are for format "swiss" only'),
    ({"format": "knockout", "rounds": 2}, r'rounds \(2\) are for format "swiss" only'),
    ({"format": "swiss", "rounds": 0}, "needs at least one round, got 0"),
    ({"format": "knockout", "gauntlet": True}, "gauntlet and format 'knockout'"),
])
def test_a_bad_format_is_refused(options: dict[str, object], message: str) -> None:
    from arena.competitions.tournaments import TournamentError

    with pytest.raises(TournamentError, match=message):
        arena.tournament(["random", "immediate-win"], 2, progress=False, **options)


def test_an_interrupted_swiss_tournament_resumes_to_the_same_pairings_and_games(
        tmp_path: Path) -> None:
    """A Swiss extended from two rounds to three, then cut short by an interruption that
    left round 2 half-played and round 3 unstarted: the same call again gives the
    uninterrupted run's games, round by round, and the same tables at the top."""
    agents = ["random", "immediate-win", "negamax:depth=1", "negamax:depth=2"]
    common = {"format": "swiss", "rules": Rules(4, 5), "jobs": 1, "progress": False}
    whole = arena.tournament(agents, 4, out=tmp_path / "whole", rounds=3, **common)
    arena.tournament(agents, 4, out=tmp_path / "cut", rounds=2, **common)  # top tables: 2
    arena.tournament(agents, 4, out=tmp_path / "cut", rounds=3, **common)
    games = tmp_path / "cut" / "round-02" / "games.csv"
    games.write_text("".join(games.read_text().splitlines(keepends=True)[:-5]))
    for path in (tmp_path / "cut" / "round-03").iterdir():
        path.unlink()
    (tmp_path / "cut" / "round-03").rmdir()
    resumed = arena.tournament(agents, 4, out=tmp_path / "cut", rounds=3, **common)
    timeless = [c for c in whole.games.columns if "time" not in c]  # timings vary
    assert resumed.games[timeless].equals(whole.games[timeless])
    assert len(resumed.games) == 3 * 2 * 4
    pairing = ["round", "agent_a", "agent_b"]
    assert resumed.summary[pairing].equals(whole.summary[pairing])
    for name in ("rounds.csv", "ratings.csv", "crosstable.csv"):
        assert (tmp_path / "cut" / name).read_text() == (tmp_path / "whole" / name).read_text()
    for name in ("games.csv", "summary.csv"):  # without the timings and what comes of them
        cut, full = (pd.read_csv(tmp_path / run / name) for run in ("cut", "whole"))
        kept = [c for c in full.columns if "time" not in c and "per_move" not in c]
        assert len(full) == {"games.csv": 24, "summary.csv": 6}[name]
        assert cut[kept].equals(full[kept])
