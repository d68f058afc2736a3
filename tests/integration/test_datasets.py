"""Datasets of positions: the rows of known games, duplicates and mirror images, the solver's
labels against the Pons sets and the solver itself, the files written and read back (npz,
and Parquet with the datasets extra), and the two commands."""

from __future__ import annotations

import stat
from itertools import pairwise
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from arena.analysis.dataset_files import frame, read_dataset, write_dataset
from arena.analysis.datasets import (
    NO_SCORE,
    GameLine,
    dataset_of_games,
    label,
    planes,
    play_games,
)
from arena.analysis.scored_positions import load_set
from arena.envs.observation import planes as position_planes
from arena.rules.board import Position, Rules
from arena.rules.notation import parse_moves
from arena.search.solver import column_scores
from arena.system.files import FILE_MODE
from tests.helpers.cli import arena

SMALL = Rules(4, 5, 4)


def line(moves: str, winner: int) -> GameLine:
    return GameLine(tuple(parse_moves(moves, Rules())), winner)


def test_rows_of_a_known_game() -> None:
    # 1 2 1 2 1 2 1: the first player wins with four in column 1
    dataset = dataset_of_games([line("1212121", 1)], Rules())
    assert dataset.ply.tolist() == list(range(7))
    assert dataset.side_to_move.tolist() == [1, 2, 1, 2, 1, 2, 1]
    assert dataset.move.tolist() == [0, 1, 0, 1, 0, 1, 0]
    assert dataset.result.tolist() == [1, -1, 1, -1, 1, -1, 1]
    assert list(dataset.moves) == ["", "1", "12", "121", "1212", "12121", "121212"]
    position = Position.empty().play(0).play(1).play(0)
    assert (int(dataset.current[3]), int(dataset.mask[3])) == (position.current,
                                                                position.mask)
    assert np.array_equal(planes(dataset)[3], position_planes(position))
    drawn = dataset_of_games([line("1212121", 0)], Rules())
    assert set(drawn.result.tolist()) == {0}


def test_duplicates_and_mirror_images_are_marked_and_dropped() -> None:
    games = [line("4455", 0), line("4433", 0), line("4455", 0)]  # 4433 mirrors 4455
    dataset = dataset_of_games(games, Rules())
    # game 0: all new; game 1: "", "4", "44" seen, "443" mirrors "445"; game 2: all seen
    assert dataset.duplicate.tolist() == [False] * 4 + [True] * 4 + [True] * 4
    kept = dataset.select(~dataset.duplicate)
    assert list(kept.moves) == ["", "4", "44", "445"]
    assert dataset_of_games(games, Rules(), plies=(2, 3)).ply.tolist() == [2, 3] * 3


def test_labels_are_the_pons_scores() -> None:
    """The best column's score is the position's score given by Pons' set."""
    entries = load_set("Test_L3_R1", limit=30)
    games = [GameLine((*parse_moves(entry.moves, Rules()), entry.position.legal_moves()[0]), 0)
             for entry in entries]
    dataset = dataset_of_games(games, Rules())
    wanted = np.isin(dataset.moves, [entry.moves for entry in entries])
    labelled = label(dataset.select(wanted))
    by_moves = {entry.moves: entry.score for entry in entries}
    assert len(labelled) == len(entries)
    for moves, scores in zip(labelled.moves, labelled.scores, strict=True):
        assert scores.max() == by_moves[moves]


def test_labels_are_the_solver_column_scores() -> None:
    played: list[int] = []
    games = play_games("random", "random", 12, SMALL, seed=5, progress=played.append)
    assert played == [1] * 12
    unlabelled = dataset_of_games(games, SMALL)
    labelled: list[int] = []
    dataset = label(unlabelled, progress=labelled.append)
    assert sum(labelled) == len(unlabelled.boards()) < len(unlabelled)  # each position once
    for position, scores in zip(dataset.positions(), dataset.scores, strict=True):
        expected = column_scores(position)
        assert scores.tolist() == [expected.get(c, NO_SCORE) for c in range(SMALL.cols)]
    assert (dataset.scores == NO_SCORE).any()  # some full columns


def test_games_of_agents_are_the_games_of_a_match() -> None:
    import arena

    games = play_games("immediate-win", "random", 6, SMALL, seed=3)
    run = arena.match("immediate-win", "random", 6, seed=3, jobs=1, progress=False,
                      rules=SMALL)
    assert [parse_moves(moves, SMALL) for moves in run.games["moves"]] == \
        [list(game.moves) for game in games]


def test_npz_round_trip_and_pandas(tmp_path: Path) -> None:
    dataset = label(dataset_of_games(play_games("random", "random", 5, SMALL, 1), SMALL))
    path = tmp_path / "d.npz"
    write_dataset(dataset, path)
    assert stat.S_IMODE(path.stat().st_mode) == FILE_MODE  # as every other output, not 0600
    assert [entry.name for entry in tmp_path.iterdir()] == ["d.npz"]  # no temporary file
    again = read_dataset(path)
    assert again.rules == SMALL
    for name in ("game", "ply", "current", "mask", "move", "result", "duplicate", "scores"):
        assert np.array_equal(getattr(again, name), getattr(dataset, name))
    assert list(again.moves) == list(dataset.moves)
    assert list(read_dataset(str(path)).moves) == list(dataset.moves)  # a str path too
    table = frame(again)
    assert table["score_0"].dtype == "Int8"
    assert table["score_0"].isna().sum() == (dataset.scores[:, 0] == NO_SCORE).sum()


@pytest.mark.datasets
def test_parquet_round_trip_loads_in_pandas(tmp_path: Path) -> None:
    dataset = label(dataset_of_games(play_games("random", "random", 5, SMALL, 2), SMALL))
    path = tmp_path / "d.parquet"
    write_dataset(dataset, path)
    table = pd.read_parquet(path)
    assert list(table.columns[:9]) == ["game", "ply", "side_to_move", "current", "mask",
                                       "moves", "move", "result", "duplicate"]
    assert table["current"].dtype == np.uint64
    again = read_dataset(path)
    assert again.rules == SMALL
    assert np.array_equal(again.scores, dataset.scores)
    assert np.array_equal(again.mask, dataset.mask)


def test_commands_write_datasets_and_refuse_bad_input(tmp_path: Path) -> None:
    import arena as api

    out = tmp_path / "d.npz"
    code, output = arena("dataset", "-n", "4", "--rows", "4", "--cols", "5", "--plies", "3-20",
                         "-j", "1", "--out", str(out))
    assert code == 0, output
    assert "positions of 4 games on 4x5 connect 4" in output
    assert read_dataset(out).ply.min() >= 3
    code, output = arena("dataset", "-n", "4", "--out", str(out))
    assert code == 2 and "exists; use --force" in output
    code, output = arena("dataset", "-n", "4", "--out", str(tmp_path / "d.csv"))
    assert code == 2 and "FILE.parquet or FILE.npz" in output
    code, output = arena("dataset", "--agents", "randon", "random", "--out",
                         str(tmp_path / "e.npz"))
    assert code == 2 and "randon" in output
    run = tmp_path / "run"
    api.match("random", "random", 4, seed=1, jobs=1, progress=False, out=run, rules=SMALL)
    exported = tmp_path / "run.npz"
    code, output = arena("export", "dataset", str(run), "--no-solve", "--out", str(exported))
    assert code == 0, output
    dataset = read_dataset(exported)
    assert dataset.scores is None and dataset.rules == SMALL
    code, output = arena("export", "dataset", str(tmp_path / "none"), "--out",
                         str(tmp_path / "x.npz"))
    assert code == 2 and "not a run directory" in output


def test_a_labelling_that_may_take_long_says_so_before_it_starts(tmp_path: Path) -> None:
    """Positions of fewer than 12 discs on 5 x 6, where the solver has no database: one line
    before any is labelled, none with --plies from 12 or --max-nodes, nor on 4 x 5."""
    five_by_six = ("dataset", "-n", "2", "--rows", "5", "--cols", "6", "-j", "1", "--out")
    code, output = arena(*five_by_six, str(tmp_path / "a.npz"))
    assert code == 0, output
    first, written = output.splitlines()
    assert first.startswith("arena: ") and " positions to label have fewer than 12 discs on " \
        "5x6 connect 4, where the solver has no database" in first
    assert first.endswith("--plies 12-30 or --max-nodes N bound the time")
    assert written.startswith(f"Wrote {tmp_path / 'a.npz'}: ")
    for args in (("--plies", "12-30"), ("--max-nodes", "100000")):
        code, output = arena(*five_by_six, str(tmp_path / f"{args[0][2:]}.npz"), *args)
        assert code == 0 and output.startswith("Wrote "), output
    code, output = arena("dataset", "-n", "2", "--rows", "4", "--cols", "5", "-j", "1",
                         "--out", str(tmp_path / "small.npz"))
    assert code == 0 and output.startswith("Wrote "), output


def test_positions_past_the_node_limit_are_left_out() -> None:
    dataset = dataset_of_games(play_games("random", "random", 4, Rules(), seed=2), Rules())
    labelled = label(dataset, max_nodes=2000)
    assert 0 < len(labelled) < len(dataset)
    assert labelled.ply.min() > dataset.ply.min()  # the empty board is too hard
    for position, scores in zip(labelled.positions(), labelled.scores, strict=True):
        expected = column_scores(position)
        assert scores.tolist() == [expected.get(c, NO_SCORE) for c in range(7)]


def test_the_early_game_of_6x7_is_labelled_with_exact_scores(tmp_path: Path) -> None:
    """Plies 1 to 12 of random games on the standard board, none left out: each row's scores
    are the solver's column scores, and the score of the move played is minus the best
    score of the next row of its game."""
    out = tmp_path / "early.npz"
    code, output = arena("dataset", "-n", "3", "--plies", "1-12", "-j", "1", "--out", str(out))
    assert code == 0, output
    assert "left out" not in output
    dataset = read_dataset(out)
    assert dataset.scores is not None and dataset.rules == Rules()
    assert set(dataset.ply.tolist()) == set(range(1, 13))
    rows = list(zip(dataset.game, dataset.move, dataset.positions(), dataset.scores,
                    strict=True))
    for _, _, position, scores in rows:
        expected = column_scores(position)
        assert scores.tolist() == [expected.get(c, NO_SCORE) for c in range(7)]
    for (game, move, position, scores), (next_game, _, _, next_scores) in pairwise(rows):
        if next_game == game and not position.play(int(move)).won:
            assert scores[move] == -next_scores.max()


def test_early_labels_are_the_pons_scores() -> None:
    """Positions of 1 to 11 discs of the begin-hard set, labelled: their best column's
    score is the published score."""
    entries = [e for e in load_set("Test_L1_R3", limit=120) if e.position.plies <= 11][:40]
    games = [GameLine((*parse_moves(entry.moves, Rules()), entry.position.legal_moves()[0]), 0)
             for entry in entries]
    dataset = dataset_of_games(games, Rules())
    last = np.array([entries[game].position.plies for game in dataset.game])
    labelled = label(dataset.select(dataset.ply == last))  # each game's entry
    assert len(labelled) == len(entries) == 40
    for game, moves, scores in zip(labelled.game, labelled.moves, labelled.scores,
                                   strict=True):
        assert (moves, scores.max()) == (entries[game].moves, entries[game].score)
