"""Sets of scored positions: Pascal Pons' six benchmark sets shipped with the arena, or files.

A set file holds one position a line: a move string (``1`` = leftmost column), optionally
followed by its exact score for the side to move (Pons' convention); blank lines and lines
starting with ``#`` are skipped. A shipped set is named by its file name, with or without
the ``Test_`` prefix (``Test_L2_R1`` or ``L2_R1``).
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from arena.rules.board import DEFAULT_RULES, Position, Rules
from arena.rules.errors import ArenaError, MalformedInputError
from arena.rules.notation import from_moves

PONS_SETS = ("Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2",
             "Test_L1_R3")


@dataclass(frozen=True)
class ScoredPosition:
    """A position of a set, its move string and its score when the set gives one."""

    moves: str
    position: Position
    score: int | None = None


def shipped_set_name(name: str) -> str | None:
    """The file name of a shipped set named ``name`` (case-insensitive), or None."""
    wanted = name.lower().removeprefix("test_")
    return next((known for known in PONS_SETS if known.lower()[5:] == wanted), None)


def set_text(name_or_path: str | Path) -> tuple[str, str]:
    """The text of a shipped set or a file, and how to name it in messages."""
    shipped = shipped_set_name(str(name_or_path))
    if shipped is not None:
        data = resources.files("arena.analysis.data").joinpath("pons", shipped)
        return data.read_text(), shipped
    path = Path(name_or_path)
    try:
        return path.read_text(), str(path)
    except OSError as error:
        raise MalformedInputError(
            f"position set {str(name_or_path)!r}: not a shipped set ({', '.join(PONS_SETS)}) "
            f"and not a readable file: {error.strerror or error}") from None


def parse_set(text: str, source: str, rules: Rules = DEFAULT_RULES) -> list[ScoredPosition]:
    """The positions of a set file's text; ``source`` names it in error messages."""
    entries = []
    for number, line in enumerate(text.splitlines(), start=1):
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        where = f"{source}, line {number}"
        if len(words) > 2:
            raise MalformedInputError(f"{where}: expected a move string and an optional score, "
                                      f"got {line.strip()!r}")
        score = None
        if len(words) == 2:
            try:
                score = int(words[1])
            except ValueError:
                raise MalformedInputError(
                    f"{where}: the score {words[1]!r} is not a whole number") from None
        try:
            position = from_moves(words[0], rules)
        except ArenaError as error:
            raise MalformedInputError(f"{where}: {error}") from None
        entries.append(ScoredPosition(words[0], position, score))
    return entries


def load_set(name_or_path: str | Path, rules: Rules = DEFAULT_RULES,
             limit: int | None = None) -> list[ScoredPosition]:
    """The (first ``limit``) positions of a shipped set or a set file."""
    text, source = set_text(name_or_path)
    return parse_set(text, source, rules)[:limit]
