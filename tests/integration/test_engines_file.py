"""Engines files: named engines, checked on loading, usable from every run command and from
experiment files."""

from __future__ import annotations

import json
import os
import re
import shlex
import sys
from pathlib import Path

import pytest

from arena.competitions.experiments import ExperimentError, load_experiment
from arena.hosting.engines.engines_file import EnginesFileError, load_engines
from arena.protocol.players import canonical_player
from arena.protocol.registry import parse_spec
from arena.runs.store.reading import load_games
from tests.helpers.cli import invoke
from tests.helpers.paths import ENGINES

PYTHON = sys.executable


def write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def test_paths_are_relative_to_the_file_and_commands_to_their_directory(tmp_path: Path) -> None:
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "left.py").write_text((ENGINES / "leftmost.py").read_text())
    (tmp_path / "bots" / "engine_base.py").write_text((ENGINES / "engine_base.py").read_text())
    table = load_engines(write(tmp_path / "engines.toml", """
[[engine]]
name = "left"
command = "left.py"
cwd = "bots"
args = ["--quiet"]
options = { depth = 3, fast = true, style = "calm" }

[[engine]]
name = "python"
command = "python3"
"""))
    left = table.get("left")
    assert left is not None and left.cwd == str(tmp_path / "bots")
    assert left.command == str(tmp_path / "bots" / "left.py")
    assert left.program().argv == (PYTHON, str(tmp_path / "bots" / "left.py"), "--quiet")
    assert left.options == (("depth", "3"), ("fast", "true"), ("style", "calm"))
    assert table.get("python") is not None and table.get("python").command == "python3"
    assert table.names() == ["left", "python"]


@pytest.mark.parametrize(("text", "problem"), [
    ('[[engine]]\nname = "a"\ncommand = "python3"\narg = ["x"]\n',
     'engine #1 "a": unknown key \'arg\'; expected one of name, command, args, cwd, options'),
    ('[[engine]]\nname = "a"\n', 'engine #1 "a": missing field \'command\''),
    ('[[engine]]\ncommand = "python3"\n', "engine #1: missing field 'name'"),
    ('[[engine]]\nname = "a b"\ncommand = "python3"\n', "engine #1 \"a b\": name 'a b' must be"),
    ('[[engine]]\nname = "a"\ncommand = "python3"\n[[engine]]\nname = "a"\ncommand = "python3"\n',
     'engine #2 "a": name \'a\' is used by an earlier engine'),
    ('[[engine]]\nname = "a"\ncommand = "no-such-program-here"\n',
     'engine #1 "a": command \'no-such-program-here\': no such file'),
    ('[[engine]]\nname = "a"\ncommand = "python3"\ncwd = "nowhere"\n',
     'engine #1 "a": cwd \'nowhere\' is not a directory'),
    ('[[engine]]\nname = "a"\ncommand = "python3"\nargs = "x"\n',
     'engine #1 "a": args must be a list of strings'),
    ('[[engine]]\nname = "a"\ncommand = "python3"\noptions = { x = [1] }\n',
     'engine #1 "a": options must be a table of option values'),
    ('[[engine]]\nname = "a"\ncommand = "engines.toml"\n',
     "is not executable (chmod +x it)"),
    ("[engines]\n", "unknown key 'engines'; expected one of engine"),
    ("", "no engines: add an [[engine]] table"),
    ("[[engine]\n", "not valid TOML"),
])
def test_a_bad_engines_file_is_one_line_naming_file_and_entry(tmp_path: Path, text: str,
                                                              problem: str) -> None:
    path = write(tmp_path / "engines.toml", text)
    with pytest.raises(EnginesFileError) as caught:
        load_engines(path)
    assert str(caught.value).startswith(f"{path}: ") and problem in str(caught.value)
    assert "\n" not in str(caught.value)


def test_the_fingerprint_follows_the_entry_and_the_files_it_runs(tmp_path: Path) -> None:
    engine = write(tmp_path / "left.py", (ENGINES / "leftmost.py").read_text())
    entry = f'[[engine]]\nname = "left"\ncommand = "{PYTHON}"\nargs = ["{engine}"]\n'
    path = write(tmp_path / "engines.toml", entry)
    table = load_engines(path)
    first = parse_spec("engine:left", table).fingerprint()
    engine.write_text(engine.read_text() + "# changed\n")
    second = parse_spec("engine:left", table).fingerprint()
    table = load_engines(write(path, entry + 'options = { hash = 1 }\n'))
    third = parse_spec("engine:left", table).fingerprint()
    assert len({first, second, third}) == 3


def test_match_takes_an_engines_file_and_records_it(tmp_path: Path) -> None:
    path = write(tmp_path / "engines.toml",
                 f'[[engine]]\nname = "left"\ncommand = "{ENGINES / "leftmost.py"}"\n')
    out = tmp_path / "run"
    result = invoke("match", "engine:left", "random", "-n", "4", "--engines",
                    str(path), "--out", str(out), "--no-report", "-j", "1")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("left [")  # the engine's label, as in report.md
    games = load_games(out / "games.csv")
    assert games["moves"][0].startswith("1") and (games["agent_a"] == "engine:left").all()
    meta = json.loads((out / "meta.json").read_text())
    assert meta["sessions"][0]["engines"] == {
        "file": str(path), "engines": {"left": {"command": str(ENGINES / "leftmost.py"),
                                                "args": [], "cwd": str(tmp_path),
                                                "options": {}}}}
    assert meta["agents"]["engine:left"]["hosting"] == "engine"


@pytest.mark.parametrize("command", [["match", "engine:x", "random", "-n", "2"],
                                     ["tournament", "engine:x", "random", "-n", "2"],
                                     ["sprt", "engine:x", "random", "--elo0", "0", "--elo1",
                                      "10"]])
def test_every_run_command_refuses_a_bad_engines_file_in_one_line(tmp_path: Path,
                                                                  command: list[str]) -> None:
    path = write(tmp_path / "engines.toml", '[[engine]]\nname = "x"\n')
    result = invoke(*command, "--engines", str(path), "--out", str(tmp_path / "run"))
    assert result.exit_code == 2
    assert result.stderr == f"arena: error: {path}: engine #1 \"x\": missing field 'command'\n"


def test_an_experiment_names_its_engines_file_relative_to_itself(tmp_path: Path) -> None:
    (tmp_path / "exp").mkdir()
    write(tmp_path / "exp" / "engines.toml",
          f'[[engine]]\nname = "left"\ncommand = "{ENGINES / "leftmost.py"}"\n')
    experiment = write(tmp_path / "exp" / "question.toml", """
engines = "engines.toml"
[[match]]
name = "left-vs-random"
a = "engine:left"
b = "random"
games = 2
""")
    out = tmp_path / "results"
    result = invoke("run", str(experiment), "--out", str(out), "-q",
                    "--no-report", "-j", "1")
    assert result.exit_code == 0, result.output
    games = load_games(out / "left-vs-random" / "games.csv")
    assert (games["agent_a"] == "engine:left").all() and games["moves"][0].startswith("1")


def test_an_experiment_with_a_bad_engines_file_names_both_files(tmp_path: Path) -> None:
    write(tmp_path / "engines.toml", '[[engine]]\nname = "left"\ncommand = "python3"\nx = 1\n')
    experiment = write(tmp_path / "question.toml", 'engines = "engines.toml"\n[[match]]\n'
                                                   'name = "m"\na = "engine:left"\nb = "random"\n'
                                                   'games = 2\n')
    with pytest.raises(ExperimentError, match=re.escape(
            f"{experiment}: engines: {tmp_path / 'engines.toml'}: engine #1 \"left\": unknown "
            "key 'x'")):
        load_experiment(experiment)


def test_a_name_wins_over_a_file_of_the_same_name(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "left", "not an engine")
    table = load_engines(write(tmp_path / "engines.toml",
                               f'[[engine]]\nname = "left"\ncommand = "{PYTHON}"\n'))
    # the named engine runs this Python alone, not ./left (the target is its command line,
    # which quotes a path with spaces; compare the file, whatever path names it)
    [command] = shlex.split(parse_spec("engine:left", table).target)
    assert os.path.samefile(command, PYTHON)
    assert canonical_player("engine:left@time=1", engines=table) == "engine:left@time=1"
