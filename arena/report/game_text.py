"""Recorded games told in text, for ``arena show`` and the replay page: the header, the
result in words, one line per move, with an oracle (the solver) every move's score against
the best one, and what a language model answered at each of its moves."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from arena.protocol.labels import shown_spec
from arena.runs.store.model_usage import MoveCost
from arena.runs.store.recorded import RecordedGame
from arena.runs.store.transcripts import MOVE, REQUEST
from arena.search.oracle import Oracle, score_text

TERMINATION_WORDS = {
    "four_in_a_row": "four in a row",
    "board_full": "a full board",
    "illegal_move": "an illegal move",
    "agent_error": "an agent error",
    "agent_crash": "an agent crash",
    "time_forfeit": "a time forfeit",
    "adjudicated": "adjudication (the solver's proof)",
    "disqualified": "a disqualification",
}
SYMBOL = {1: "X", 2: "O"}


def result_line(game: RecordedGame, names: Mapping[str, str]) -> str:
    """Who won (named by ``names``: spec -> name), how, and in how many plies."""
    row = game.row
    ending = TERMINATION_WORDS.get(row.termination, row.termination)
    plies = len(game.columns)
    if game.winner == 0:
        text = f"Draw by {ending} after {plies} plies."
    else:
        name = names[game.players[game.winner - 1]]
        text = f"{name} ({SYMBOL[game.winner]}) wins by {ending} after {plies} plies."
    return text + (f" Error: {row.error}" if row.error else "")


@dataclass(frozen=True)
class MoveScore:
    """One move judged by the oracle, from the mover's point of view (Pons' scores)."""

    ply: int  # 1-based
    column: int
    played: int  # the score of the move played
    best: int  # the score of the best move

    @property
    def verdict(self) -> str:
        """"" for a best move; "inaccuracy" when it keeps the result but wins slower or
        loses faster; "mistake" when it throws a win to a draw or a draw to a loss;
        "blunder" when it throws a win away to a loss."""
        if self.played == self.best:
            return ""
        change = _sign(self.best) - _sign(self.played)
        return ("inaccuracy", "mistake", "blunder")[change]


def _sign(score: int) -> int:
    return (score > 0) - (score < 0)


def score_moves(game: RecordedGame, oracle: Oracle, from_ply: int = 0,
                advance: Callable[[int], None] | None = None) -> list[MoveScore | None]:
    """Every move of ``game`` scored by ``oracle`` beside the best move of its position;
    None for the moves played before ``from_ply`` discs were on the board. ``advance(1)`` is
    called after each move scored."""
    scored: list[MoveScore | None] = []
    for ply, column in enumerate(game.columns):
        if ply < from_ply:
            scored.append(None)
            continue
        scores = oracle.column_scores(game.positions[ply])
        scored.append(MoveScore(ply + 1, column, scores[column], max(scores.values())))
        if advance is not None:
            advance(1)
    return scored


def header_lines(game: RecordedGame, directory: Path, names: Mapping[str, str]) -> list[str]:
    """The game's title, players (by ``names``: spec -> name, with the spec where it says
    more), opening and result."""
    first, second = (names[spec] if names[spec] == shown_spec(spec)
                     else f"{names[spec]} ({shown_spec(spec)})" for spec in game.players)
    lines = [f"Game {game.game} of {directory}, {game.rules}",
             f"X (player 1, moved first): {first}", f"O (player 2): {second}"]
    opening = game.row.opening
    if opening:
        lines.append(f"Opening: {opening} ({len(opening)} plies)")
    lines += [f"Moves: {game.row.moves or '(none)'}", result_line(game, names)]
    return lines


def move_lines(game: RecordedGame, oracle: Oracle | None = None, from_ply: int = 0,
               advance: Callable[[int], None] | None = None) -> list[str]:
    """One line per move: ply, player, column; with an oracle, the score against the best
    (from ``from_ply`` discs on; ``advance`` as in ``score_moves``)."""
    scores = score_moves(game, oracle, from_ply, advance) if oracle is not None else None
    lines = []
    for ply, column in enumerate(game.columns):
        mover = 1 + ply % 2
        line = f"{ply + 1:>3}. {SYMBOL[mover]} column {column + 1}"
        if ply < len(game.row.opening):
            line += "  (opening)"
        score = scores[ply] if scores is not None else None
        if score is not None:
            line += f"  score {score_text(score.played):>3} (best {score_text(score.best)})"
            if score.verdict:
                line += f"  {score.verdict}"
        lines.append(line)
    return lines



ANSWER_WIDTH = 160
"""Characters of a model's answer shown on its line."""


def answer_lines(records: list[dict[str, object]]) -> dict[int, list[str]]:
    """What a language model said at each of its moves, by move number, from its game's
    transcript (``arena.runs.store.transcripts``): each invalid answer's reason, then the
    answer it played and what the move cost."""
    answers: dict[tuple[object, object], str] = {}
    for record in records:
        if record.get("kind") == REQUEST:
            answers[record.get("player"), record.get("ply")] = str(record.get("answer", ""))
    lines: dict[int, list[str]] = {}
    for record in records:
        if record.get("kind") != MOVE or not isinstance(record.get("ply"), int):
            continue
        figures = MoveCost.of_record(record)
        said = lines.setdefault(figures.ply + 1, [])
        reasons = record.get("invalid")
        said += [f"       invalid: {' '.join(str(why).split())}"
                 for why in (reasons if isinstance(reasons, list) else [])]
        answer = " ".join(answers.get((record.get("player"), record.get("ply")), "").split())
        if len(answer) > ANSWER_WIDTH:
            answer = answer[:ANSWER_WIDTH - 1] + "…"
        cost = (f"{figures.requests} request{'s' * (figures.requests != 1)}, "
                f"{figures.cached} from the cache, "
                f"{figures.prompt_tokens} + {figures.completion_tokens} tokens, "
                f"{figures.seconds:.2f} s")
        said.append(f"       answer: {answer!r} ({cost})")
    return lines
