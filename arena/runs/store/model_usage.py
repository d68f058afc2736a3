"""What language models (``llm:`` agents) spent in a run's finished games, read from the
``move`` records of their transcripts (``arena.runs.store.transcripts``): moves, requests,
answers replayed from the response cache, requests asked again after server failures, invalid
answers, tokens, seconds and, when the agent was given a price, dollars. Games that did not
finish (not in games.csv) do not count; a game played again by a resumed run counts once. A
finished game's transcript that lost records (cut short, or bytes that are no record) is
named (``TranscriptDamage``), its whole records counted."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from arena.rules.results import FORFEITS, Result, Side
from arena.runs.store.files import RunFiles
from arena.runs.store.rows import GameRow, read_rows
from arena.runs.store.transcripts import MOVE, TranscriptRecords, read_records

if TYPE_CHECKING:
    import pandas as pd

MOVE_LINE = "llm-move "
"""What starts the line a language model prints for each of its moves (agents.log keeps it):
the move's record as JSON, the figures of its transcript's ``move`` record."""


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


def total_of(parts: Iterable[ModelUsage | None]) -> ModelUsage | None:
    """The sum of the totals ``parts`` (None ones left out); None when all are None."""
    total = None
    for part in parts:
        if part is not None:
            total = total or ModelUsage()
            total.merge(part)
    return total


def printed_usage(text: str) -> ModelUsage | None:
    """The totals of the moves a language model printed (``MOVE_LINE``) in ``text``, what an
    agent printed; None when it printed none."""
    usage = None
    for line in text.splitlines():
        if line.startswith(MOVE_LINE):
            usage = usage or ModelUsage()
            usage.add(MoveCost.of_record(json.loads(line[len(MOVE_LINE):])))
    return usage


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
    return set(files.llm_transcripts())


class TranscriptDamage(NamedTuple):
    """A finished game's transcript that lost records: its file and what is wrong."""

    game: int
    path: Path
    problem: str


def transcript_damage(transcript: TranscriptRecords, row: GameRow) -> str | None:
    """What is wrong with the transcript of the finished game ``row``, None when nothing is:
    bytes after its last whole record, or a player with ``move`` records (those who have any:
    the models) for fewer or more moves than it made (its last, fatal one may have none, a
    model hosted in a process stopped in the middle of it)."""
    problems = []
    if transcript.unread:
        problems.append(f"its last {transcript.unread:,} bytes are no whole record")
    recorded = made = 0
    loser = {Result.LOSS: Side.A, Result.WIN: Side.B}.get(row.result)
    for player in (1, 2):
        count = sum(1 for record in transcript.records
                    if record.get("kind") == MOVE and record.get("player") == player)
        side = row.first if player == 1 else row.first.other
        turns = row.turns_a if side is Side.A else row.turns_b
        fatal = row.termination in FORFEITS and side is loser
        if count and not turns - fatal <= count <= turns:
            recorded, made = recorded + count, made + turns
    if made:
        problems.append(f"it records {recorded} of the {made} moves its models made")
    return "; ".join(problems) or None


class ModelMoves(NamedTuple):
    """The language-model moves of a run's finished games, and the transcripts found
    damaged (their lost records left out)."""

    moves: list[ModelMove]
    damaged: list[TranscriptDamage]


def read_model_moves(files: RunFiles, length: int | None = None) -> ModelMoves:
    """Every language-model move of the finished games (games.csv's first ``length`` bytes),
    in game order, and the damaged transcripts."""
    moves: list[ModelMove] = []
    damaged: list[TranscriptDamage] = []
    games = transcript_games(files)
    if not games:
        return ModelMoves(moves, damaged)
    for row in read_rows(files.games, length, games=games):
        path = files.llm_transcript(row.game)
        transcript = read_records(path)
        problem = transcript_damage(transcript, row)
        if problem is not None:
            damaged.append(TranscriptDamage(row.game, path, problem))
        for record in transcript.records:
            if record.get("kind") != MOVE or record.get("player") not in (1, 2):
                continue
            side = row.first if record["player"] == 1 else row.first.other
            moves.append(ModelMove(row.game, row.agent_a, row.agent_b, side,
                                   MoveCost.of_record(record)))
    return ModelMoves(moves, damaged)


def damage_warning(damaged: Sequence[TranscriptDamage], left_out: str,
                   relative_to: Path | None = None) -> str | None:
    """The one line that names the damaged transcripts (the first three, their paths
    ``relative_to`` a folder if given) and says that ``left_out`` lacks what they lost; None
    when there are none."""
    if not damaged:
        return None
    named = "; ".join(
        f"{damage.path if relative_to is None else damage.path.relative_to(relative_to)} "
        f"({damage.problem})" for damage in damaged[:3])
    more = f"; and {len(damaged) - 3} more" if len(damaged) > 3 else ""
    what = "a damaged transcript" if len(damaged) == 1 else f"{len(damaged)} damaged transcripts"
    return f"{left_out} lack what {what} lost: {named}{more}"


def usage_by_pairing(files: RunFiles, length: int | None = None
                     ) -> dict[tuple[str, str], dict[Side, ModelUsage]]:
    """Each pairing's (agent A, agent B) language-model totals, by side."""
    totals: dict[tuple[str, str], dict[Side, ModelUsage]] = {}
    for move in read_model_moves(files, length).moves:
        sides = totals.setdefault((move.agent_a, move.agent_b), {})
        sides.setdefault(move.side, ModelUsage()).add(move.cost)
    return totals


def moves_table(files: RunFiles, length: int | None = None,
                read: ModelMoves | None = None) -> pd.DataFrame:
    """Every language-model move of the finished games (those of ``read`` when the run's
    were read already), one row a move: game, agent, side, then ``MoveCost``'s fields (cost
    nan without a price)."""
    import pandas as pd

    read = read or read_model_moves(files, length)
    rows = [(move.game, move.agent, move.side.value, *move.cost) for move in read.moves]
    table = pd.DataFrame(rows, columns=["game", "agent", "side", *MoveCost._fields])
    return table.astype({"column": "Int64", "cost": float})
