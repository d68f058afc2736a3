"""What language models (``llm:`` agents) spent in a run's finished games, read from the
``move`` records of their transcripts (``arena.runs.store.transcripts``): moves, requests,
answers replayed from the response cache, requests asked again after server failures, invalid
answers, tokens, seconds and, when the agent was given a price, dollars. Games that did not
finish (not in games.csv) do not count; a game played again by a resumed run counts once."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, NamedTuple

from arena.rules.results import Side
from arena.runs.store.files import RunFiles
from arena.runs.store.rows import read_rows
from arena.runs.store.transcripts import MOVE, read_transcript

if TYPE_CHECKING:
    import pandas as pd

TRANSCRIPT_NAME = re.compile(r"game-(\d+)\.jsonl\.gz")


class MoveCost(NamedTuple):
    """What one move cost, as its ``move`` record says (``retried`` and ``invalid`` count the
    requests asked again and the invalid answers). ``ply`` counts as everywhere (the first
    move is ply 0: docs/explanation/glossary.md); a transcript records the move's number,
    ``ply + 1``."""

    ply: int
    column: int | None
    requests: int
    cached: int
    retried: int
    invalid: int
    prompt_tokens: int
    completion_tokens: int
    seconds: float
    cost: float | None

    @classmethod
    def of_record(cls, record: dict[str, Any]) -> MoveCost:
        """The figures of a transcript's ``move`` record."""
        column, cost = record.get("column"), record.get("cost")
        return cls(int(record.get("ply", 1)) - 1, None if column is None else int(column),
                   int(record.get("requests", 0)), int(record.get("cached", 0)),
                   len(record.get("retried", ())), len(record.get("invalid", ())),
                   int(record.get("prompt_tokens", 0)), int(record.get("completion_tokens", 0)),
                   float(record.get("seconds", 0.0)), None if cost is None else float(cost))


@dataclass
class ModelUsage:
    """Totals of a language model's moves."""

    moves: int = 0
    requests: int = 0
    cached: int = 0
    retried: int = 0
    invalid: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    cost: float | None = None  # None: no price given

    def add(self, move: MoveCost) -> None:
        """Count one move."""
        self.moves += 1
        for name in ("requests", "cached", "retried", "invalid", "prompt_tokens",
                     "completion_tokens", "seconds"):
            setattr(self, name, getattr(self, name) + getattr(move, name))
        if move.cost is not None:
            self.cost = (self.cost or 0.0) + move.cost

    def merge(self, other: ModelUsage) -> None:
        """Add another total to this one."""
        for name in (f.name for f in fields(self) if f.name != "cost"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        if other.cost is not None:
            self.cost = (self.cost or 0.0) + other.cost


@dataclass(frozen=True)
class ModelMove:
    """One move of a language model in a finished game, as its transcript records it."""

    game: int
    agent_a: str
    agent_b: str
    side: Side  # the model's
    cost: MoveCost

    @property
    def agent(self) -> str:
        """The model's spec."""
        return self.agent_a if self.side is Side.A else self.agent_b


def transcript_games(files: RunFiles) -> set[int]:
    """The numbers of the games that have a transcript (none when the run has no ``llm/``)."""
    if not files.llm.is_dir():
        return set()
    names = (TRANSCRIPT_NAME.fullmatch(path.name) for path in files.llm.iterdir())
    return {int(match.group(1)) for match in names if match}


def model_moves(files: RunFiles, length: int | None = None) -> Iterator[ModelMove]:
    """Every language-model move of the finished games (games.csv's first ``length`` bytes),
    in game order."""
    games = transcript_games(files)
    if not games:
        return
    for row in read_rows(files.games, length, games=games):
        for record in read_transcript(files.llm_transcript(row.game)):
            if record.get("kind") != MOVE or record.get("player") not in (1, 2):
                continue
            side = row.first if record["player"] == 1 else row.first.other
            yield ModelMove(row.game, row.agent_a, row.agent_b, side, MoveCost.of_record(record))


def usage_by_pairing(files: RunFiles, length: int | None = None
                     ) -> dict[tuple[str, str], dict[Side, ModelUsage]]:
    """Each pairing's (agent A, agent B) language-model totals, by side."""
    totals: dict[tuple[str, str], dict[Side, ModelUsage]] = {}
    for move in model_moves(files, length):
        sides = totals.setdefault((move.agent_a, move.agent_b), {})
        sides.setdefault(move.side, ModelUsage()).add(move.cost)
    return totals


def moves_table(files: RunFiles, length: int | None = None) -> pd.DataFrame:
    """Every language-model move of the finished games, one row a move: game, agent, side,
    then ``MoveCost``'s fields (cost nan without a price)."""
    import pandas as pd

    rows = [(move.game, move.agent, move.side.value, *move.cost)
            for move in model_moves(files, length)]
    table = pd.DataFrame(rows, columns=["game", "agent", "side", *MoveCost._fields])
    return table.astype({"column": "Int64", "cost": float})
