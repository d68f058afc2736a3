"""Recorded games read back from a run directory, and told in text for ``arena show``.

A game's rows in games.csv say who played (agent A and B, who moved first), the moves, the
result from A's point of view and how the game ended; the board size comes from the run's
meta.json. An oracle (the solver), when given, scores every move against the best one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from arena.rules.board import DEFAULT_RULES, Position, Rules
from arena.rules.errors import ArenaError
from arena.rules.notation import parse_moves, play_moves
from arena.runs.directory import GAMES_FILE, META_FILE, read_meta
from arena.runs.rows import load_games
from arena.search.oracle import Oracle, score_text

TERMINATION_WORDS = {
    "four_in_a_row": "four in a row",
    "board_full": "a full board",
    "illegal_move": "an illegal move",
    "agent_error": "an agent error",
    "agent_crash": "an agent crash",
    "time_forfeit": "a time forfeit",
    "adjudicated": "adjudication (the solver's proof)",
}
SYMBOL = {1: "X", 2: "O"}


class NotARunError(ArenaError):
    """A directory that holds no readable games.csv."""


class UnknownGameError(ArenaError):
    """A game index that the run does not hold."""


@dataclass(frozen=True)
class RecordedGame:
    """One game of a run, as games.csv recorded it."""

    game: int
    agent_a: str
    agent_b: str
    first: str  # "a" or "b": the agent that moved first (player 1, X)
    opening: str
    moves: str
    result: str  # win, draw or loss for agent A
    termination: str
    error: str
    rules: Rules

    @property
    def players(self) -> tuple[str, str]:
        """The specs of player 1 (X, moved first) and player 2 (O)."""
        if self.first == "a":
            return self.agent_a, self.agent_b
        return self.agent_b, self.agent_a

    @property
    def winner(self) -> int:
        """The winning player (1 or 2), 0 for a draw."""
        if self.result == "draw":
            return 0
        a_player = 1 if self.first == "a" else 2
        return a_player if self.result == "win" else 3 - a_player

    @cached_property
    def columns(self) -> list[int]:
        """The moves as 0-based columns."""
        return parse_moves(self.moves, self.rules)

    @cached_property
    def positions(self) -> list[Position]:
        """The position after each ply, from the empty board (index = plies played)."""
        positions = [Position.empty(self.rules)]
        for column in self.columns:
            positions.append(positions[-1].play(column))
        return positions

    def result_line(self) -> str:
        """Who won, how, and in how many plies."""
        ending = TERMINATION_WORDS.get(self.termination, self.termination)
        plies = len(self.columns)
        if self.winner == 0:
            text = f"Draw by {ending} after {plies} plies."
        else:
            name = self.players[self.winner - 1]
            text = f"{name} ({SYMBOL[self.winner]}) wins by {ending} after {plies} plies."
        return text + (f" Error: {self.error}" if self.error else "")


def load_recorded_games(directory: Path, games: Sequence[int] | None = None
                        ) -> list[RecordedGame]:
    """The games of a run directory (all of them, or the indices ``games`` in that order)."""
    directory = Path(directory)
    path = directory / GAMES_FILE
    if not path.is_file():
        what = "does not exist" if not directory.exists() else f"has no {GAMES_FILE}"
        raise NotARunError(f"{directory} is not a run directory: it {what}")
    try:
        table = load_games(path)
    except (ValueError, KeyError) as error:
        raise NotARunError(f"{path} cannot be read as a games table: {error}") from None
    if table.empty:
        raise NotARunError(f"{path} holds no games yet")
    rules = _run_rules(directory)
    rows = {int(row["game"]): row for row in table.to_dict("records")}
    wanted = list(rows) if games is None else list(games)
    missing = [game for game in wanted if game not in rows]
    if missing:
        raise UnknownGameError(
            f"game {missing[0]} is not in {directory}: it holds {len(rows)} game(s), "
            f"numbered {min(rows)} to {max(rows)}")
    return [_recorded(rows[game], rules, path) for game in wanted]


def _run_rules(directory: Path) -> Rules:
    """The board of a run, from meta.json (the standard board when it does not say)."""
    if not (directory / META_FILE).is_file():
        return DEFAULT_RULES
    board = read_meta(directory).get("run", {}).get("board")
    if not isinstance(board, dict):
        return DEFAULT_RULES
    return Rules(**{key: int(board[key]) for key in ("rows", "cols", "connect") if key in board})


def _recorded(row: Mapping[Any, Any], rules: Rules, path: Path) -> RecordedGame:
    text = {key: str(row[key]) for key in ("agent_a", "agent_b", "first", "opening", "moves",
                                           "result", "termination", "error")}
    game = RecordedGame(game=int(row["game"]), rules=rules, **text)
    try:
        play_moves(Position.empty(rules), game.columns, game.moves)
    except ArenaError as error:
        raise NotARunError(f"{path}, game {game.game}: {error}") from None
    return game


# --------------------------------------------------------------------------- text


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


def header_lines(game: RecordedGame, directory: Path) -> list[str]:
    """The game's title, players, opening and result."""
    first, second = game.players
    lines = [f"Game {game.game} of {directory}, {game.rules}",
             f"X (player 1, moved first): {first}", f"O (player 2): {second}"]
    if game.opening:
        lines.append(f"Opening: {game.opening} ({len(game.opening)} plies)")
    lines += [f"Moves: {game.moves or '(none)'}", game.result_line()]
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
        if ply < len(game.opening):
            line += "  (opening)"
        score = scores[ply] if scores is not None else None
        if score is not None:
            line += f"  score {score_text(score.played):>3} (best {score_text(score.best)})"
            if score.verdict:
                line += f"  {score.verdict}"
        lines.append(line)
    return lines

