"""docs/explanation/glossary.md: each word one meaning in the arena's names."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def public_names(path: Path) -> set[str]:
    """The names a module defines that do not start with an underscore: classes, functions,
    module-level assignments, and their methods and fields."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
    return {name for name in names if not name.startswith("_")}


def words(name: str) -> set[str]:
    """The words of a snake_case or CamelCase name, lower case."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name)
    return {word.lower() for word in spaced.split("_") if word}


def test_the_glossary_is_in_the_site() -> None:
    assert "explanation/glossary.md" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")


def test_openings_are_never_a_book() -> None:
    # A book is the solver's; the openings modules name only their earlier name so.
    names = public_names(ROOT / "arena/runs/planning/openings.py")
    booked = {name for name in names if "book" in words(name)} - {"OpeningBook"}
    assert not booked, booked
    assert "OpeningSet" in names


def defined_names() -> list[tuple[str, str]]:
    """Every class and function the arena and the built-in agents define, with its module's
    path (aliases, being assignments, are not among them)."""
    found = []
    for root in ("arena", "agents"):
        for path in sorted((ROOT / root).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                    found.append((path.relative_to(ROOT).as_posix(), node.name))
    return found


def named(word: str) -> set[tuple[str, str]]:
    return {(path, name) for path, name in defined_names() if word in words(name)}


def test_a_session_is_a_commands_record() -> None:
    assert {name for _, name in named("session")} <= {"SessionRecord", "_session_meta"}


def test_a_replay_is_the_page() -> None:
    assert {name for _, name in named("replay")} <= {"replay_page", "write_replay_page"}


def test_a_player_is_a_runs_player() -> None:
    # The classes: only the typed Player and its text parsed; the agents' kernel_player hook
    # (and the function that asks for it under its earlier name) keep their word.
    classes = {name for _, name in named("player") if name[0].isupper()}
    assert classes <= {"Player", "ParsedPlayer"}, classes


def test_no_class_is_only_a_run() -> None:
    # Each class around a run says which part of it it is (RunRequest, RunMeta, ...); what a
    # command did is ...Played; a run itself only where a participle says whose it is.
    ending = {name for _, name in defined_names() if name == "Run" or name.endswith("Run")}
    assert ending <= {"ComparedRun", "AddedRun"}, ending


def test_disqualified_is_a_rule_of_the_agents_own() -> None:
    from arena.protocol.agent import Disqualified
    from arena.rules.results import FORFEITS, Termination
    from connect_four_agents.llm import InvalidAnswers

    assert {name for _, name in named("disqualified")} <= {"Disqualified"}
    assert issubclass(InvalidAnswers, Disqualified) and Termination.DISQUALIFIED in FORFEITS


def test_earlier_names_are_the_new_ones() -> None:
    from arena.competitions.rounds import RoundsPlayed, RoundsRun
    from arena.competitions.sprt import SprtPlayed, SprtRun
    from arena.competitions.tournaments import TournamentPlayed, TournamentRun
    from arena.hosting.child import ChildLoop, Session
    from arena.protocol import kernel_agents
    from arena.protocol.kernel_players import RandomPlayer  # type: ignore[import-not-found]
    from arena.report.loading import Run, RunContents
    from arena.runs.planning.openings import OpeningBook, OpeningSet
    from arena.runs.playing.runner import MatchPlayed, MatchRun

    assert (OpeningBook, Session, Run, MatchRun, SprtRun, TournamentRun, RoundsRun) == (
        OpeningSet, ChildLoop, RunContents, MatchPlayed, SprtPlayed, TournamentPlayed,
        RoundsPlayed)
    assert RandomPlayer is kernel_agents.RandomKernel
