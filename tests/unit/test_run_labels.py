"""Names for agents: --label, an experiment's labels, the API's (name, agent); short,
readable run directory names built from them."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.api import _players
from arena.competitions.experiments import ExperimentError, load_experiment
from arena.competitions.tournaments import tournament_plan
from arena.protocol.labels import shown_spec
from arena.protocol.players import canonical_player
from arena.runs.planning.plan import NAME_LENGTH, MatchSetupError, default_out_dir
from arena.runs.planning.request import RunRequest
from tests.helpers.runs import plan_of

STRONG = "negamax:depth=4,heuristic=threats+positional"


def test_a_match_directory_reads_as_its_agents() -> None:
    name = default_out_dir(plan_of(STRONG, "negamax:depth=4", 10), Path("r")).name
    assert name.startswith("negamax-d4-threats+positional-vs-negamax-d4_seed5_")
    assert len(name.rpartition("_")[2]) == 8
    labels = dict(RunRequest().with_labels({STRONG: "my bot!"}).labels)
    labelled = default_out_dir(plan_of(STRONG, "random", 10), Path("r"), labels)
    assert labelled.name.startswith("my-bot-vs-random_seed5_")
    assert default_out_dir(plan_of("random", "random", 2), Path("r")).name.startswith(
        "random-vs-random_seed5_")


def test_a_tournament_directory_stays_short() -> None:
    """The issue's example (three pairings with long specs) was 95 characters."""
    specs = ["random", "immediate-win:block=true", "negamax:depth=2", STRONG,
             "mcts:iterations=10000"]
    plan = tournament_plan(specs, 2, RunRequest())
    name = default_out_dir(plan, Path("r")).name
    readable = name.rpartition("_seed")[0]
    assert readable.startswith("5-agents-random-immediate-win") and len(readable) <= NAME_LENGTH
    assert not readable.endswith("-")


def test_labels_are_keyed_by_canonical_specs_and_must_differ() -> None:
    request = RunRequest().with_labels({"negamax:depth=4": "four", " random ": "r"})
    assert dict(request.labels) == {"negamax": "four", "random": "r"}  # depth 4 is the default
    with pytest.raises(MatchSetupError, match="given to two agents"):
        request.with_labels({"immediate-win": "four"})
    with pytest.raises(MatchSetupError, match="one line"):
        RunRequest().with_labels({"random": " "})


def test_the_api_names_strings_and_objects() -> None:
    def leftmost(position: object, rng: object) -> int:
        return 0

    specs, names = _players([("deep", "negamax:depth=6"), "random", ("left", leftmost)])
    assert specs == ["negamax:depth=6", "random", "local:left"]
    assert names == {"negamax:depth=6": "deep", "local:left": "left"}


def test_experiment_labels_file_wide_and_per_entry(tmp_path: Path) -> None:
    path = tmp_path / "e.toml"
    path.write_text('[labels]\n"negamax:depth=2" = "shallow"\nrandom = "coin"\n'
                    '[[match]]\nname = "m"\na = "negamax:depth=2"\nb = "random"\ngames = 2\n'
                    'labels = {random = "dice"}\n'
                    '[[match]]\nname = "n"\na = "negamax:depth=2"\nb = "random"\ngames = 2\n')
    first, second = load_experiment(path).entries
    assert dict(first.request.labels) == {"negamax:depth=2": "shallow", "random": "dice"}
    assert dict(second.request.labels) == {"negamax:depth=2": "shallow", "random": "coin"}
    path.write_text('[labels]\n"negamax:dpth=2" = "x"\n'
                    '[[match]]\nname = "m"\na = "random"\nb = "random"\ngames = 2\n')
    with pytest.raises(ExperimentError, match="dpth"):
        load_experiment(path)


@pytest.mark.parametrize(("stored", "shown"), [
    ("negamax", "negamax:depth=4"),
    ("negamax:heuristic=threats", "negamax:depth=4,heuristic=threats"),
    ("negamax:depth=3", "negamax:depth=3"),
    ("minimax:pruning=false", "minimax:depth=4,pruning=false"),
    ("negamax@time=0.5", "negamax:depth=4@time=0.5"),
    ("random", "random"),
    ("gone:depth=7", "gone:depth=7"),  # a spec that no longer loads: as it is
])
def test_a_spec_shown_to_people_carries_its_depth(stored: str, shown: str) -> None:
    """Runs store the canonical spec (the default depth left out, as the ladder's anchors are
    named); tables and pages show the depth, and the shown spec reads back to the stored one."""
    assert shown_spec(stored) == shown
    if stored != "gone:depth=7":
        assert canonical_player(shown) == stored
