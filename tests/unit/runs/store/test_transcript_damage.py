"""What counts as a damaged transcript of a finished game: bytes that are no record, or a
model's moves recorded fewer or more times than it made them, but for the fatal move of a
forfeit, which a model stopped in its process never recorded."""

from __future__ import annotations

from arena.rules.results import Result, Side, Termination
from arena.runs.store.model_usage import transcript_damage
from arena.runs.store.rows import GameRow
from arena.runs.store.transcripts import MOVE, TranscriptRecords


def row(turns_a: int, turns_b: int, result: Result = Result.WIN,
        termination: Termination = Termination.FOUR_IN_A_ROW) -> GameRow:
    """A game of model A, who moved first, against agent B."""
    return GameRow(0, None, 0, "llm:m", "random", Side.A, "", "4" * (turns_a + turns_b),
                   result, termination, turns_a + turns_b, 0.0, 0.0, None, None, turns_a,
                   turns_b, "")


def moves(count: int, player: int = 1, unread: int = 0) -> TranscriptRecords:
    return TranscriptRecords([{"kind": MOVE, "player": player, "ply": 2 * n + player}
                              for n in range(count)], unread)


def test_a_whole_transcript_is_not_damaged() -> None:
    assert transcript_damage(moves(4), row(4, 3)) is None
    assert transcript_damage(moves(0), row(4, 3)) is None  # a game without a model's move


def test_bytes_after_the_last_record_are_damage() -> None:
    assert transcript_damage(moves(4, unread=17), row(4, 3)) == \
        "its last 17 bytes are no whole record"


def test_moves_missing_or_too_many_are_damage() -> None:
    assert transcript_damage(moves(2), row(4, 3)) == "it records 2 of the 4 moves its models made"
    assert transcript_damage(moves(5), row(4, 3)) == "it records 5 of the 4 moves its models made"


def test_the_fatal_move_of_a_forfeit_may_have_no_record() -> None:
    lost = row(4, 3, Result.LOSS, Termination.TIME_FORFEIT)
    assert transcript_damage(moves(3), lost) is None
    assert transcript_damage(moves(2), lost) == "it records 2 of the 4 moves its models made"
    won = row(4, 3, Result.WIN, Termination.TIME_FORFEIT)  # B forfeited, not the model
    assert transcript_damage(moves(3), won) == "it records 3 of the 4 moves its models made"
