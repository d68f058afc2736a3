"""Swiss and knockout pairings, checked by hand."""

from __future__ import annotations

from arena.competitions.rounds import knockout_pairings, swiss_pairings


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


def test_a_knockout_round_pairs_first_with_last_and_the_top_seed_sits_out() -> None:
    assert knockout_pairings(["1", "2", "3", "4"]) == ([("1", "4"), ("2", "3")], None)
    assert knockout_pairings(["1", "2", "3", "4", "5"]) == ([("2", "5"), ("3", "4")], "1")
    assert knockout_pairings(["1", "2"]) == ([("1", "2")], None)
