"""Experiment files and `arena run`: the schema and its errors, running and resuming, the page,
the reference (the homogeneity test itself: tests/unit/test_experiment_stats.py)."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest
from click.testing import Result

from arena.cli import ArenaGroup
from arena.cli.run import run_command
from arena.competitions.experiments import ExperimentError, load_experiment
from arena.protocol.labels import table_labels
from tests.helpers.cli import invoke

TINY = """
description = "A tiny experiment."
[defaults]
seed = 5

[[match]]
name = "iw-vs-random"
a = "immediate-win"
b = "random"
games = 6
first = "a"
reference = [REFERENCE]

[[tournament]]
name = "three"
agents = ["random", "immediate-win", "immediate-win:block=true"]
games = 2
"""


@pytest.fixture
def arena() -> click.Group:
    """An `arena` group holding the run command, with one-line errors."""
    return ArenaGroup("arena", commands=[run_command])


def write(path: Path, text: str, reference: str = "0, 0, 6") -> Path:
    path.write_text(text.replace("REFERENCE", reference), encoding="utf-8")
    return path


def run(arena: click.Group, path: Path, *args: str) -> Result:
    return invoke("run", str(path), "-j", "1", "-q", *args, command=arena)


# --------------------------------------------------------------------------- bad files

TOURNAMENT = '[[tournament]]\nname = "t"\nagents = ["random", "immediate-win"]\ngames = 2\n'

BAD = [
    ('unknown = 1\n[[match]]\nname = "m"\na = "random"\nb = "random"\ngames = 2\n',
     "", "unknown key 'unknown'; expected one of description, defaults, labels, match"),
    ('[defaults]\nout = "x"\n', "[defaults]: ", "unknown key 'out'"),
    ('[defaults]\njobs = 0\n[[match]]\nname = "m"\na = "random"\nb = "random"\ngames = 2\n',
     "[defaults]: ", "jobs must be a whole number >= 1, got 0"),
    *(('[defaults]\nconcurrency = ' + value + '\n[[match]]\nname = "m"\na = "random"\n'
       'b = "random"\ngames = 2\n', "[defaults]: ",
       f"concurrency must be a whole number from 1 to 1024, got {value}")
      for value in ("0", "-1", "5000")),  # as --concurrency takes it
    ('[[match]]\nname = "m"\na = "random"\nb = "random"\ngames = 2\nconcurrency = 0\n',
     'match #1 "m": ', "concurrency must be a whole number from 1 to 1024, got 0"),
    ('[[match]]\nname = "m"\na = "random"\nb = "random"\ngames = 2\ndpi = 5\n',
     'match #1 "m": ', "dpi must be a whole number from 10 to "),
    ('[[sprt]]\nname = "s"\na = "random"\nb = "immediate-win"\nelo0 = 0\nelo1 = 5\n'
     'alpha = 0\n', 'sprt #1 "s": ', "alpha must be a number > 0 and < "),
    ('[[match]]\nname = "m"\na = "random"\nb = "random"\ngames = 2\nopponent = "x"\n',
     'match #1 "m": ', "unknown key 'opponent'"),
    ('[[match]]\nname = "m"\na = "random"\ngames = 2\n', 'match #1 "m": ',
     "missing field 'b'"),
    ('[[match]]\na = "random"\nb = "random"\ngames = 2\n', "match #1: ",
     "missing field 'name'"),
    ('[[match]]\nname = "m"\na = "random"\nb = "random"\ngames = "ten"\n', 'match #1 "m": ',
     "games must be a whole number, got 'ten'"),
    ('[[match]]\nname = "m"\na = "random"\nb = "random"\ngames = 2\nreference = [1, 2]\n',
     'match #1 "m": ', "reference must be a list of three whole numbers"),
    ('[[tournament]]\nname = "t"\nagents = "random"\ngames = 2\n', 'tournament #1 "t": ',
     "agents must be a list of strings, got 'random'"),
    ('[[match]]\nname = "m"\na = "random"\nb = "negamax:depth=x"\ngames = 2\n',
     'match #1 "m": ', "negamax:depth=x"),
    ('[[match]]\nname = "m"\na = "random"\nb = "nosuch"\ngames = 2\n', 'match #1 "m": ',
     "unknown agent 'nosuch'"),
    ('[[match]]\nname = "m"\na = "random"\nb = "random"\ngames = 2\nfirst = "c"\n',
     'match #1 "m": ', "first must be one of alternate, a, b, got 'c'"),
    ('[[match]]\nname = "a/b"\na = "random"\nb = "random"\ngames = 2\n', 'match #1 "a/b": ',
     "must be a directory name"),
    ('[[match]]\nname = "report.md"\na = "random"\nb = "random"\ngames = 2\n',
     'match #1 "report.md": ', "name 'report.md' is reserved for the experiment's page"),
    ('[[match]]\nname = "report.html"\na = "random"\nb = "random"\ngames = 2\n',
     'match #1 "report.html": ', "name 'report.html' is reserved for the experiment's page"),
    ('[[match]]\nname = "m"\na = "random"\nb = "random"\ngames = 2\n'
     '[[tournament]]\nname = "m"\nagents = ["random", "immediate-win"]\ngames = 2\n',
     'tournament #1 "m": ', "name 'm' is already used by match #1 \"m\""),
    ('[[tournament]]\nname = "t"\nagents = ["random", "immediate-win"]\ngames = 3\n',
     'tournament #1 "t": ', "must be even"),
    ('[[tournament]]\nname = "t"\nagents = ["random", "immediate-win"]\ngames = 2\n'
     'anchor = "negamax"\n', 'tournament #1 "t": ', "anchor 'negamax' is not one of"),
    ('[defaults]\ncols = 12\n[[match]]\nname = "m"\na = "random"\nb = "random"\ngames = 2\n',
     'match #1 "m": ', "columns"),
    ('[[match]]\nname = "m"\na = "random"\nb = "random"\ngames = 2\nopenings = "none.txt"\n',
     'match #1 "m": ', "openings"),
    ('description = "nothing"\n', "", "no entries"),
    ('[[sprt]]\nname = "s"\na = "random"\nb = "immediate-win"\nelo0 = 0\n',
     'sprt #1 "s": ', "missing field 'elo1'"),
    ('[[sprt]]\nname = "s"\na = "random"\nb = "immediate-win"\nelo0 = 5\nelo1 = 0\n',
     'sprt #1 "s": ', "expected finite elo0 < elo1"),
    ('[[sprt]]\nname = "s"\na = "random"\nb = "immediate-win"\nelo0 = 0\nelo1 = 5\n'
     'openings = "none"\n', 'sprt #1 "s": ', "an SPRT plays game pairs"),
    ('[[sprt]]\nname = "s"\na = "random"\nb = "immediate-win"\nelo0 = 0\nelo1 = 5\n'
     'llr = "guess"\n', 'sprt #1 "s": ', "llr must be one of exact, approximate, got 'guess'"),
    ('[[sprt]]\nname = "s"\na = "random"\nb = "immediate-win"\nelo0 = 0\nelo1 = 5\n'
     'llr = 1\n', 'sprt #1 "s": ', "llr must be"),
    ('[[sprt]]\nname = "s"\na = { tournament = "t" }\nb = "random"\nelo0 = 0\nelo1 = 5\n',
     'sprt #1 "s": ', "a must be an agent spec or {tournament = NAME, rank = K}"),
    ('[[sprt]]\nname = "s"\na = { tournament = "t", rank = 1 }\nb = "random"\nelo0 = 0\n'
     'elo1 = 5\n', 'sprt #1 "s": ', "a names tournament 't', which is not a [[tournament]] of "
     "this file (none)"),
    (TOURNAMENT + '[[sprt]]\nname = "s"\na = { tournament = "t", rank = 3 }\nb = "random"\n'
     'elo0 = 0\nelo1 = 5\n', 'sprt #1 "s": ', 'a names rank 3 of tournament #1 "t", which '
     "has 2 agents"),
    (TOURNAMENT + '[[sprt]]\nname = "s"\na = { tournament = "t", rank = 1 }\n'
     'b = { tournament = "t", rank = 1 }\nelo0 = 0\nelo1 = 5\n', 'sprt #1 "s": ',
     "a and b are both #1 of t"),
    ('[[match]\nname = "m"\n', "", "not valid TOML"),
    (TOURNAMENT + 'format = "ladder"\n', 'tournament #1 "t": ',
     "unknown tournament format 'ladder': use one of round-robin, gauntlet, swiss, knockout"),
    (TOURNAMENT + 'format = "swiss"\n', 'tournament #1 "t": ',
     'format "swiss" needs its number of rounds'),
    (TOURNAMENT + 'format = "swiss"\nrounds = 0\n', 'tournament #1 "t": ',
     "a Swiss tournament needs at least one round, got 0"),
    (TOURNAMENT + 'rounds = 2\n', 'tournament #1 "t": ',
     "rounds (2) are for format \"swiss\" only, not 'round-robin'"),
    (TOURNAMENT + 'format = "knockout"\ngauntlet = true\n', 'tournament #1 "t": ',
     "gauntlet and format 'knockout': give one"),
    ('[[tournament]]\nname = "t"\nagents = ["random"]\ngames = 2\nformat = "knockout"\n',
     'tournament #1 "t": ', "a tournament needs at least two agents, got 1"),
]


@pytest.mark.parametrize(("text", "entry", "problem"), BAD)
def test_a_bad_file_is_refused_in_one_line_naming_file_entry_and_problem(
        arena: click.Group, tmp_path: Path, text: str, entry: str, problem: str) -> None:
    path = write(tmp_path / "bad.toml", text)
    out = tmp_path / "results"
    result = run(arena, path, "--out", str(out))
    assert result.exit_code == 2, result.output
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"arena: error: {path}: {entry}")
    assert problem in result.stderr
    assert not out.exists()


def test_a_missing_file_is_refused(arena: click.Group, tmp_path: Path) -> None:
    result = run(arena, tmp_path / "none.toml")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"arena: error: {tmp_path / 'none.toml'}: cannot read it")


def test_the_whole_file_is_checked_before_the_first_entry_plays(arena: click.Group,
                                                                tmp_path: Path) -> None:
    text = TINY + '\n[[tournament]]\nname = "late"\nagents = ["random", "nosuch"]\ngames = 2\n'
    result = run(arena, write(tmp_path / "late.toml", text), "--out", str(tmp_path / "r"))
    assert result.exit_code == 2
    assert 'tournament #2 "late": unknown agent' in result.stderr
    assert not (tmp_path / "r").exists()


def test_defaults_apply_to_every_entry_and_entries_override_them(tmp_path: Path) -> None:
    text = TINY.replace("games = 2\n", "games = 2\nseed = 9\nopenings = \"random:2\"\n")
    experiment = load_experiment(write(tmp_path / "x.toml", text))
    match, tournament = experiment.entries
    root = tmp_path / "results"
    assert match.plan(root).settings.seed == 5
    assert match.plan(root).describe()["openings"] == "none"
    assert tournament.plan(root).settings.seed == 9
    assert tournament.plan(root).describe()["openings"] == "random:2"
    assert [e.label for e in experiment.entries] == ['match #1 "iw-vs-random"',
                                                     'tournament #1 "three"']
    assert experiment.default_root() == Path("results") / "x"


# --------------------------------------------------------------------------- running


@pytest.mark.slow
def test_an_experiment_runs_resumes_and_writes_its_page(arena: click.Group,
                                                        tmp_path: Path) -> None:
    path = write(tmp_path / "tiny.toml", TINY)
    root = tmp_path / "results"
    first = run(arena, path, "--out", str(root))
    assert first.exit_code == 0, first.output
    lines = first.stdout.splitlines()
    assert lines[0] == 'match #1 "iw-vs-random":'
    seeds_line = re.fullmatch(r"  immediate-win \[(\d+), (\d+), (\d+)\] random \(6\)", lines[1])
    assert seeds_line, lines[1]
    wins, ties, losses = map(int, seeds_line.groups())
    assert lines[2].startswith("  reference [0, 0, 6]: differs (chi-square p = ")
    conditions = "  Conditions  openings none · 6 x 7 · no time limit"
    assert lines[3] == conditions
    assert lines[4:6] == ['tournament #1 "three":', "  3 pairings, 6 games; ratings (Elo):"]
    assert lines[6].split() == ["rank", "agent", "Elo", "95%", "interval", "games", "score"]
    ratings = (root / "three" / "ratings.csv").read_text().splitlines()[1:]
    assert [line.split()[0] for line in lines[7:10]] == [row.split(",")[0] for row in ratings]
    assert "random" in lines[7 + [row.split(",")[1] for row in ratings].index("random")]
    assert lines[10] == conditions
    assert len(lines) == 12
    assert lines[-1].split() == ["Report", str(root / "report.md")]
    for entry in ("iw-vs-random", "three"):
        assert {"games.csv", "summary.csv", "meta.json", "report.md"} <= {
            p.name for p in (root / entry).iterdir()}
    assert (root / "three" / "ratings.csv").is_file()
    page = (root / "report.md").read_text()
    assert page.startswith("# Experiment: tiny\n\nA tiny experiment.\n")
    assert f"immediate-win [{wins}, {ties}, {losses}] random (6)" in page
    assert "[three/report.md](three/report.md)" in page
    assert page.count("\n**Conditions**: openings none · 6 x 7 · no time limit.\n") == 2
    assert "Ratings (Elo, random = 0; 95% bootstrap intervals):" in page
    assert "| rank | agent | Elo | 95% interval | games | score |" in page
    assert f"| [{wins}, {ties}, {losses}] | [0, 0, 6] |" in page
    assert (root / "comparison.png").is_file()
    html = (root / "report.html").read_text()
    assert '<a href="three/report.html">three/report.md</a>' in html
    assert html.count("<svg") == 1 and "http" not in html.split("<svg")[0]

    played = {entry: (root / entry / "games.csv").read_text() for entry in ("iw-vs-random",
                                                                            "three")}
    # The same reference as our result: nothing is played again, the verdict is "within noise".
    again = run(arena, write(path, TINY, f"{wins}, {ties}, {losses}"), "--out", str(root))
    assert again.exit_code == 0, again.output
    assert again.stdout.splitlines()[2] == (f"  reference [{wins}, {ties}, {losses}]: within "
                                            "noise (chi-square p = 1)")
    assert {e: (root / e / "games.csv").read_text() for e in played} == played


LABELLED = """
[labels]
"negamax:depth=2" = "Shallow"
"negamax:depth=4" = "Deep"

[[match]]
name = "m"
a = "negamax:depth=2"
b = "negamax"
games = 2
reference = [1, 0, 1]

[[tournament]]
name = "t"
agents = ["negamax:depth=2", "negamax:depth=4", "random"]
games = 2
"""


def test_the_files_labels_name_the_agents_on_its_page_and_in_its_entries_reports(
        arena: click.Group, tmp_path: Path) -> None:
    """[labels] name the agents in the printed lines, the experiment's page (its results,
    ratings and comparison, the spec beside the name there) and each entry's report, whose
    spec columns show the depth of negamax at its default."""
    root = tmp_path / "results"
    result = run(arena, write(tmp_path / "labelled.toml", LABELLED), "--out", str(root))
    assert result.exit_code == 0, result.output
    assert "  Shallow [" in result.stdout and "] Deep (2)" in result.stdout
    page = (root / "report.md").read_text()
    assert "negamax:depth=2 [" not in page and "] negamax (2)" not in page
    assert "Shallow [" in page and "] Deep (2)" in page and "| Deep |" in page
    assert "| m | Shallow (`negamax:depth=2`) vs Deep (`negamax:depth=4`) |" in page
    for entry in ("m", "t"):
        report = (root / entry / "report.md").read_text()
        assert "**Deep**" in report or "| Deep |" in report
    tournament = (root / "t" / "report.md").read_text()
    assert "| Deep | `negamax:depth=4` |" in tournament and "`negamax`" not in tournament


def test_an_interrupted_entry_is_finished_by_running_the_file_again(arena: click.Group,
                                                                    tmp_path: Path) -> None:
    path = write(tmp_path / "tiny.toml", TINY)
    root = tmp_path / "results"
    assert run(arena, path, "--out", str(root), "--no-report").exit_code == 0
    games_csv = root / "three" / "games.csv"
    full = games_csv.read_text().splitlines(keepends=True)
    games_csv.write_text("".join(full[:3]))
    assert run(arena, path, "--out", str(root), "--no-report").exit_code == 0
    resumed = games_csv.read_text().splitlines(keepends=True)
    assert resumed[:3] == full[:3] and len(resumed) == len(full)
    assert not (root / "report.md").exists()


def test_an_entry_changed_after_a_run_is_refused_before_any_game(arena: click.Group,
                                                                 tmp_path: Path) -> None:
    path = write(tmp_path / "tiny.toml", TINY)
    root = tmp_path / "results"
    assert run(arena, path, "--out", str(root), "--no-report").exit_code == 0
    before = (root / "iw-vs-random" / "games.csv").read_text()
    write(path, TINY.replace("games = 2", "games = 2\nseed = 9"))
    result = run(arena, path, "--out", str(root))
    assert result.exit_code == 2
    assert result.stderr.startswith(f'arena: error: {path}: tournament #1 "three": ')
    assert "holds a different run" in result.stderr
    assert (root / "iw-vs-random" / "games.csv").read_text() == before


def test_an_sprt_plays_the_best_of_a_tournament_against_the_runner_up(arena: click.Group,
                                                                      tmp_path: Path) -> None:
    text = TINY + """
[[sprt]]
name = "best-vs-second"
a = { tournament = "three", rank = 1 }
b = { tournament = "three", rank = 2 }
elo0 = 0
elo1 = 50
max_games = 8
batch_pairs = 1
openings = "random:2"
llr = "approximate"
"""
    path = write(tmp_path / "sprt.toml", text)
    root = tmp_path / "results"
    result = run(arena, path, "--out", str(root), "--no-report")
    assert result.exit_code == 0, result.output
    ratings = (root / "three" / "ratings.csv").read_text().splitlines()
    best, second = (line.split(",")[1] for line in ratings[1:3])
    games = (root / "best-vs-second" / "games.csv").read_text().splitlines()
    assert {tuple(line.split(",")[3:5]) for line in games[1:]} == {(best, second)}
    sprt = (root / "best-vs-second" / "sprt.csv").read_text().splitlines()
    assert len(sprt) - 1 == (len(games) - 1) // 2  # one row per pair
    method = sprt[0].split(",").index("llr_method")
    assert {row.split(",")[method] for row in sprt[1:]} == {"approximate"}
    assert load_experiment(path).entries[-1].test.llr == "approximate"  # type: ignore[attr-defined]
    output = result.stdout.split('sprt #1 "best-vs-second":\n')[1].splitlines()
    labels = table_labels([best, second])  # the line names them as report.md does
    assert output[0].startswith(f"  {labels[best]} [")
    assert output[0].endswith(f"] {labels[second]} ({len(games) - 1})")
    assert output[1:3] == [f"  A is #1 of three ({best})", f"  B is #2 of three ({second})"]
    assert output[3].startswith("  SPRT H0 0 against H1 50 nElo: ")
    assert output[4] == "  Conditions  openings random:2 · 6 x 7 · no time limit"
    again = run(arena, path, "--out", str(root), "--no-report")
    assert again.stdout == result.stdout
    assert (root / "best-vs-second" / "games.csv").read_text().splitlines() == games


ROUNDS = """
[defaults]
rows = 4
cols = 5

[[tournament]]
name = "swiss"
agents = ["random", "immediate-win", "negamax:depth=1", "negamax:depth=2"]
games = 2
format = "swiss"
rounds = 2

[[tournament]]
name = "knockout"
agents = ["random", "immediate-win", "negamax:depth=1", "negamax:depth=2"]
games = 2
format = "knockout"

[[sprt]]
name = "winner"
a = { tournament = "knockout", rank = 1 }
b = "negamax:depth=3"
elo0 = 0
elo1 = 200
max_games = 4
batch_pairs = 1
openings = "random:2"
"""


@pytest.mark.slow
def test_swiss_and_knockout_entries_play_round_by_round(arena: click.Group,
                                                        tmp_path: Path) -> None:
    """Each plays into its folder as `arena tournament` does (round folders, rounds.csv);
    the experiment counts every round's games, and an SPRT may take the knockout's best."""
    path = write(tmp_path / "rounds.toml", ROUNDS)
    root = tmp_path / "results"
    result = invoke("run", str(path), "-j", "1", "--out", str(root), command=arena)
    assert result.exit_code == 0, result.output
    # 4 agents: a Swiss round has 2 pairings, a knockout 2 then 1
    assert 'tournament #1 "swiss": 8 games in' in result.stderr
    assert 'tournament #2 "knockout": 6 games in' in result.stderr
    assert "  4 pairings, 8 games; ratings (Elo):" in result.stdout
    assert "  3 pairings, 6 games; ratings (Elo):" in result.stdout
    for name, rounds in (("swiss", 2), ("knockout", 2)):
        folder = root / name
        assert sorted(p.name for p in folder.glob("round-*")) == [
            f"round-{n:02d}" for n in range(1, rounds + 1)]
        assert (folder / "rounds.csv").is_file() and (folder / "report.md").is_file()
    assert "## Standings by round" in (root / "swiss" / "report.md").read_text()
    assert "## Bracket" in (root / "knockout" / "report.md").read_text()
    page = (root / "report.md").read_text()
    assert "### tournament `swiss`" in page and "### tournament `knockout`" in page
    ratings = (root / "knockout" / "ratings.csv").read_text().splitlines()
    best = ratings[1].split(",")[1]
    assert f"  A is #1 of knockout ({best})" in result.stdout
    again = invoke("run", str(path), "-j", "1", "-q", "--out", str(root), command=arena)
    assert again.exit_code == 0 and again.stdout == result.stdout
    more = ROUNDS.replace('games = 2\nformat = "knockout"', 'games = 4\nformat = "knockout"')
    refused = run(arena, write(path, more), "--out", str(root))
    assert refused.exit_code == 2 and refused.stderr == (
        f'arena: error: {path}: tournament #2 "knockout": {root / "knockout"} holds a '
        "tournament of 2 games a pairing, not 4 (its rounds were paired from their results); "
        "give -n 2 or another --out\n")


# --------------------------------------------------------------------------- the test


def test_a_reference_with_a_wrong_count_is_an_experiment_error(tmp_path: Path) -> None:
    path = write(tmp_path / "x.toml", TINY, "1, -2, 3")
    with pytest.raises(ExperimentError, match=r'x.toml: match #1 "iw-vs-random": reference must'):
        load_experiment(path)
