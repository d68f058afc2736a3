"""Swiss and knockout pairings, standings and formats, checked by hand."""

from __future__ import annotations

import pandas as pd
import pytest

from arena.competitions.round_tables import ROUNDS_COLUMNS, is_knockout, points_by_round
from arena.competitions.rounds import knockout_pairings, planned_games, swiss_pairings
from arena.competitions.tournaments import TournamentError, TournamentFormat


def test_a_swiss_round_pairs_neighbours_that_have_not_met() -> None:
    ranked = ["a", "b", "c", "d"]
    assert swiss_pairings(ranked, set(), set()) == ([("a", "b"), ("c", "d")], None)
    met = {frozenset("ab"), frozenset("cd")}
    assert swiss_pairings(ranked, met, set()) == ([("a", "c"), ("b", "d")], None)


def test_a_swiss_round_avoids_a_rematch_by_looking_ahead() -> None:
    # greedy a-b would leave c-d, who have met: a meets c instead
    met = {frozenset("cd")}
    assert swiss_pairings(["a", "b", "c", "d"], met, set()) == ([("a", "c"), ("b", "d")], None)


def test_a_swiss_bye_goes_to_the_lowest_without_one_and_rematches_only_when_forced() -> None:
    ranked = ["a", "b", "c"]
    assert swiss_pairings(ranked, set(), set()) == ([("a", "b")], "c")
    assert swiss_pairings(ranked, set(), {"c"}) == ([("a", "c")], "b")
    everyone = {frozenset("ab"), frozenset("ac"), frozenset("bc")}
    assert swiss_pairings(ranked, everyone, {"c"}) == ([("a", "c")], "b")


def test_a_knockout_round_pairs_first_with_last_after_the_top_seeds_fill_the_bracket() -> None:
    assert knockout_pairings(["1", "2", "3", "4"]) == ([("1", "4"), ("2", "3")], [])
    assert knockout_pairings(["1", "2"]) == ([("1", "2")], [])
    # A bracket of eight: the top three of five sit out, the top two of six, the top one of
    # seven, so that four are left after the first round.
    assert knockout_pairings(["1", "2", "3", "4", "5"]) == ([("4", "5")], ["1", "2", "3"])
    assert knockout_pairings([*"123456"]) == ([("3", "6"), ("4", "5")], ["1", "2"])
    assert knockout_pairings([*"1234567"]) == ([("2", "7"), ("3", "6"), ("4", "5")], ["1"])
    assert knockout_pairings(["1", "2", "3"]) == ([("2", "3")], ["1"])


def rounds_table(rows: list[tuple[object, ...]]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=list(ROUNDS_COLUMNS))


def test_points_after_each_round_add_up_a_swiss_with_its_byes() -> None:
    table = rounds_table([
        (1, "a", "b", 2, 1, 1, 0, 1.5, 0.5, ""), (1, "c", "", 0, 0, 0, 0, 2.0, 0.0, ""),
        (2, "c", "a", 2, 0, 0, 2, 0.0, 2.0, ""), (2, "b", "", 0, 0, 0, 0, 2.0, 0.0, ""),
    ])
    standings = points_by_round(table)
    assert standings.index.tolist() == ["a", "b", "c"]  # 3.5, 2.5, 2
    assert standings.to_numpy().tolist() == [[1.5, 3.5], [0.5, 2.5], [2.0, 2.0]]
    assert not is_knockout(table)


def test_ties_in_the_standings_keep_the_order_of_the_first_round() -> None:
    table = rounds_table([(1, "b", "a", 2, 1, 0, 1, 1.0, 1.0, "")])
    assert points_by_round(table).index.tolist() == ["b", "a"]


def test_a_knockout_table_names_who_goes_through_in_every_row() -> None:
    table = rounds_table([(1, "a", "c", 2, 0, 2, 0, 1.0, 1.0, "a"),
                          (1, "b", "", 0, 0, 0, 0, 0.0, 0.0, "b")])
    assert is_knockout(table)


def test_the_games_of_a_tournament_in_rounds_are_known_before_it_starts() -> None:
    assert planned_games(5, 4, 3) == 3 * 2 * 4  # a bye each round
    assert planned_games(4, 2, 3) == 3 * 2 * 2
    assert planned_games(5, 4, None) == 4 * 4  # each pairing puts one out
    assert planned_games(8, 2, None) == 7 * 2


@pytest.mark.parametrize(("name", "rounds", "gauntlet", "message"), [
    ("ladder", None, False, "unknown tournament format 'ladder': use one of round-robin, "
                            "gauntlet, swiss, knockout"),
    ("swiss", None, False, 'format "swiss" needs its number of rounds'),
    ("swiss", 0, False, "a Swiss tournament needs at least one round, got 0"),
    ("knockout", 2, False, "rounds \\(2\\) are for format \"swiss\" only, not 'knockout'"),
    ("round-robin", 2, False, "rounds \\(2\\) are for format \"swiss\" only"),
    ("swiss", 2, True, "gauntlet and format 'swiss': give one"),
])
def test_a_bad_format_is_refused(name: str, rounds: int | None, gauntlet: bool,
                                 message: str) -> None:
    with pytest.raises(TournamentError, match=message):
        TournamentFormat.of(name, rounds, gauntlet)


def test_a_format_says_how_it_is_played() -> None:
    assert TournamentFormat.of(gauntlet=True) == TournamentFormat("gauntlet")
    assert TournamentFormat.of("gauntlet").gauntlet and not TournamentFormat().in_rounds
    assert TournamentFormat("swiss", 3).in_rounds and TournamentFormat("knockout").in_rounds
