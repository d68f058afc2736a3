"""`arena run` builds every agent of every entry before the first game: an agent that cannot be
built, or refuses its board, limit or workers, in any entry, is one line naming the file and
the entry, and nothing is played or created."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.competitions.experiments import load_experiment
from tests.helpers.cli import invoke

FIRST = '[[match]]\nname = "first"\na = "random"\nb = "random"\ngames = 2\n'

SEVEN = '''
from arena.protocol.agent import BaseAgent
from arena.rules.errors import UnsupportedBoardError


class Seven(BaseAgent):
    """Plays seven columns only."""

    def check_rules(self, rules):
        if rules.cols != 7:
            raise UnsupportedBoardError(f"plays 7 columns only, not {rules.cols}")

    def choose(self, position, rng):
        return position.legal_moves()[0]
'''

COUNTED = '''
from pathlib import Path

from arena.protocol.agent import BaseAgent


class Counted(BaseAgent):
    """Notes each time it is built, beside this file."""

    def __init__(self):
        with open(Path(__file__).with_suffix(".built"), "a") as log:
            log.write("built\\n")

    def choose(self, position, rng):
        return position.legal_moves()[0]
'''


def refused(path: Path, root: Path) -> str:
    """The one line of `arena run FILE`, refused with status 2 before ``root`` exists."""
    result = invoke("run", str(path), "--out", str(root), "-q", "-j", "1")
    assert result.exit_code == 2, result.output
    assert result.stdout == ""  # the first entry was not played
    assert result.stderr.count("\n") == 1
    assert not root.exists()
    return result.stderr


@pytest.mark.parametrize(("agent", "source", "problem"), [
    ("random@depth=3", None, "agent spec 'random@depth=3': the agent does not support a depth "
                             "limit (it supports: time)"),
    ("kaggle:{dir}/broken.py", "def agent(observation, configuration)\n    return 0\n",
     "agent spec 'kaggle:{dir}/broken.py': could not build the agent: SyntaxError"),
    ("{dir}/raiser.py:Bot", "class Bot:\n    def __init__(self):\n"
                            "        raise RuntimeError('no way')\n",
     "agent spec '{dir}/raiser.py:Bot': could not build the agent: RuntimeError: no way"),
], ids=["limit", "kaggle-syntax", "constructor"])
def test_a_bad_agent_late_in_the_file_is_refused_before_anything_plays(
        tmp_path: Path, agent: str, source: str | None, problem: str) -> None:
    agent, problem = (text.replace("{dir}", str(tmp_path)) for text in (agent, problem))
    if source is not None:
        Path(agent.removeprefix("kaggle:").partition(".py")[0] + ".py").write_text(source)
    path = tmp_path / "late.toml"
    path.write_text(f'{FIRST}[[match]]\nname = "second"\na = "{agent}"\nb = "random"\n'
                    'games = 2\n')
    line = refused(path, tmp_path / "results")
    assert line.startswith(f'arena: error: {path}: match #2 "second": {problem}')


def test_an_agent_that_refuses_an_entry_s_board_names_that_entry(tmp_path: Path) -> None:
    (tmp_path / "seven.py").write_text(SEVEN)
    seven = f"{tmp_path / 'seven.py'}:Seven"
    path = tmp_path / "boards.toml"  # the tournament is on 7 columns; the SPRT, on 6, names
    path.write_text(  # its agents by rank: every one of them is checked on 6 columns
        f'[[tournament]]\nname = "t"\nagents = ["random", "{seven}"]\ngames = 2\n'
        '[[sprt]]\nname = "s"\na = { tournament = "t", rank = 1 }\n'
        'b = { tournament = "t", rank = 2 }\nelo0 = 0\nelo1 = 10\ncols = 6\n')
    line = refused(path, tmp_path / "results")
    assert line == (f'arena: error: {path}: sprt #1 "s": agent spec \'{seven}\': '
                    "UnsupportedBoardError: plays 7 columns only, not 6\n")


def test_an_interactive_agent_with_more_workers_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "human.toml"
    path.write_text(f'{FIRST}[[match]]\nname = "person"\na = "human"\nb = "random"\n'
                    'games = 2\njobs = 2\n')
    result = invoke("run", str(path), "--out", str(tmp_path / "results"), "-q")
    assert result.exit_code == 2 and not (tmp_path / "results").exists()
    assert result.stderr.startswith(f'arena: error: {path}: match #2 "person": agent '
                                    "'human' is interactive: it needs --jobs 1")


def test_every_agent_is_built_once_for_the_whole_file(tmp_path: Path) -> None:
    (tmp_path / "counted.py").write_text(COUNTED)
    counted = f"{tmp_path / 'counted.py'}:Counted"
    path = tmp_path / "twice.toml"
    path.write_text(f'[defaults]\nhosting = "inline"\n'
                    f'[[match]]\nname = "one"\na = "{counted}"\nb = "random"\ngames = 2\n'
                    f'[[match]]\nname = "two"\na = "{counted}"\nb = "random"\ngames = 4\n')
    load_experiment(path).check_agents()
    assert (tmp_path / "counted.built").read_text() == "built\n"
