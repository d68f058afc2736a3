"""The negamax agent: root scores against minimax and solved positions, tactics, the spec."""

from __future__ import annotations

import numpy as np
import pytest

from arena.protocol.agent import Choice, GameStart, Limit
from arena.protocol.registry import make_agent
from arena.rules.board import Position, Rules
from arena.rules.errors import AgentSpecError, IllegalMoveError
from arena.rules.notation import from_moves, to_array
from arena.rules.results import Termination
from arena.runs.playing.game import play_game
from arena.search.heuristics import HEURISTICS, WIN_SCORE, positional_weights
from arena.search.kernels import negamax as kernels
from arena.search.kernels.bitboard import board_array
from arena.search.kernels.evaluation import board_windows, evaluate
from connect_four_agents import minimax
from connect_four_agents import negamax as negamax_module
from connect_four_agents.budget import PLANNED_SHARE
from connect_four_agents.negamax import DEFAULT_TIME, DeepeningNegamaxAgent, NegamaxAgent
from tests.helpers.positions import (
    EXTREME_RULES,
    blocking_positions,
    position_of,
    random_positions,
    winning_positions,
)

STANDARD = Rules()
BOARDS = (STANDARD, Rules(rows=5, cols=6, connect=4), Rules(rows=4, cols=5, connect=3),
          Rules(rows=6, cols=9, connect=5))
EXTREME_BOARDS = (*EXTREME_RULES, Rules(rows=15, cols=4, connect=3))
SWITCHES = [(ordering, tt) for ordering in (True, False) for tt in (True, False)]

# Pons' Test_L3_R1 and Test_L2_R1: moves and the exact score for the side to move.
SOLVED = (
    ("2252576253462244111563365343671351441", -1),
    ("7422341735647741166133573473242566", 1),
    ("65214673556155731566316327373221417", -1),
    ("52677675164321472411331752454", 0),
    ("233377345754465174223731671122611552", 1),
    ("5554224333234511764415115", 4),
    ("52753311433677442422121", 8),
    ("1233722555341451114725221333", -1),
    ("271713432331713132", -11),
    ("6672375354252731116762237724", -2),
    ("763452543756455357732314", -8),
    ("3455565261655364217", -10),
    ("2737772244262123677516643354", 0),
)


def root_score(position: Position, depth: int, **options: object) -> int:
    """The best root score of a negamax agent."""
    return max(NegamaxAgent(depth=depth, **options).root_scores(position).values())  # type: ignore[arg-type]


def plies_to_end(moves: str, score: int) -> int:
    """The plies until the game ends under perfect play, from a Pons score (6 x 7)."""
    plies = len(moves)
    if score > 0:  # the side to move ends with its (22 - score)th disc
        return 2 * (22 - score - plies // 2) - 1
    return 2 * (22 + score - (plies + 1) // 2)


# --- root scores ---------------------------------------------------------------------


@pytest.mark.parametrize("rules", BOARDS, ids=str)
def test_window_negamax_agrees_with_minimax(rules: Rules) -> None:
    for index, position in enumerate(random_positions(rules, 12, seed=rules.cols)):
        depth = 1 + index % 3
        for pruning in (True, False):
            scores, _ = minimax.minimax_scores(
                to_array(position), rules, position.side_to_move, depth, pruning)
            for ordering, tt in SWITCHES:
                assert root_score(position, depth, heuristic="window", ordering=ordering,
                                  tt=tt) == max(scores.values()), position.describe()


@pytest.mark.parametrize("heuristic", [*HEURISTICS, "threats*3+positional*2+live-threats"])
def test_ordering_and_table_leave_the_root_score_unchanged(heuristic: str) -> None:
    for index, position in enumerate(random_positions(STANDARD, 12, seed=len(heuristic))):
        depth = 1 + index % 7
        scores = [NegamaxAgent(depth=depth, heuristic=heuristic, ordering=ordering,
                               tt=tt).root_scores(position) for ordering, tt in SWITCHES]
        best = max(scores[0].values())
        assert all(max(s.values()) == best for s in scores), position.describe()
        ties = [{c for c, score in s.items() if score == best} for s in scores]
        assert all(t == ties[0] for t in ties), position.describe()


def test_a_reused_table_gives_the_scores_of_a_fresh_one() -> None:
    # Along one game the searches meet the same positions at other plies from the root.
    agent = NegamaxAgent(depth=6, heuristic="threats+window")
    rng = np.random.default_rng(9)
    position = Position.empty(STANDARD)
    while not position.is_terminal:
        if position.plies == 10:  # the table's generation counter wraps around
            agent._stats[1] = kernels.GENERATIONS - 1
        fresh = NegamaxAgent(depth=6, heuristic="threats+window")
        assert agent.root_scores(position) == fresh.root_scores(position), position.describe()
        position = position.play(int(rng.choice(position.legal_moves())))


@pytest.mark.parametrize("heuristic", ["none", "threats+positional", "window"])
def test_a_node_limit_stops_the_search_at_exactly_that_many_nodes(heuristic: str) -> None:
    # A search visits N nodes unlimited; with a limit L below N it stops after exactly L
    # (the limit is checked before every node, leaves included), else it is the same search.
    agent = NegamaxAgent(depth=5, heuristic=heuristic)
    searched = 0
    for position in random_positions(STANDARD, 10, seed=len(heuristic)):
        scores = agent.root_scores(position)
        visited = agent.nodes
        if visited < 20:  # a win in one or a forced reply: too few nodes to cut into
            continue
        searched += 1
        for limit in (1, 2, 7, visited // 3, visited - 1, visited, visited + 1):
            limited = agent.root_scores(position, node_limit=limit)
            assert agent.aborted == (limit < visited), (position.describe(), limit)
            assert agent.nodes == min(limit, visited), (position.describe(), limit)
            assert limited == ({} if limit < visited else scores), (position.describe(), limit)
    assert searched >= 5


@pytest.mark.parametrize(("moves", "score"), SOLVED)
def test_forced_results_within_the_depth_are_found(moves: str, score: int) -> None:
    position = from_moves(moves)
    if score == 0:
        assert root_score(position, 12) == 0
        return
    plies = plies_to_end(moves, score)
    expected = WIN_SCORE - plies if score > 0 else plies - WIN_SCORE
    assert root_score(position, plies) == expected
    assert root_score(position, plies, ordering=False, tt=False) == expected
    assert root_score(position, plies - 1) == 0  # beyond the horizon


def test_a_faster_win_scores_higher() -> None:
    position = from_moves("4455")  # x wins on its 4th disc: ply 3
    agent = NegamaxAgent(depth=5, tiebreak="first")
    scores = agent.root_scores(position)
    assert max(scores.values()) == WIN_SCORE - 3
    assert {c for c, s in scores.items() if s == WIN_SCORE - 3} == {2, 5}


# --- tactics ---------------------------------------------------------------------------


@pytest.mark.parametrize("heuristic", HEURISTICS)
def test_takes_an_immediate_win_and_blocks_a_single_threat(heuristic: str) -> None:
    rng = np.random.default_rng(0)
    wins, blocks = winning_positions(10), blocking_positions(10)
    assert len(wins) == len(blocks) == 10
    for depth in (2, 3, 4):
        for tiebreak in ("random", "first"):
            agent = NegamaxAgent(depth=depth, heuristic=heuristic, tiebreak=tiebreak)
            for position in wins:
                assert agent.choose(position, rng).column in position.winning_moves()
            for position, block in blocks:
                assert agent.choose(position, rng).column == block, position.describe()


def test_depth_one_takes_an_immediate_win() -> None:
    rng = np.random.default_rng(0)
    for position in winning_positions(10):
        choice = NegamaxAgent(depth=1).choose(position, rng)
        assert choice.column in position.winning_moves()
        assert choice.score == WIN_SCORE - 1


# --- the agent -------------------------------------------------------------------------


def test_choice_reports_nodes_depth_and_score() -> None:
    choice = NegamaxAgent(depth=3).choose(from_moves("4455"), np.random.default_rng(0))
    assert isinstance(choice, Choice)
    assert choice.column in (2, 5)
    assert choice.depth == 3
    assert choice.score == WIN_SCORE - 3
    assert choice.nodes is not None and choice.nodes > 7


def test_first_tiebreak_is_deterministic_and_random_is_not() -> None:
    def game(spec: str, seed: int) -> str:
        players = [make_agent(spec), make_agent(spec)]
        rngs = [np.random.default_rng(seed), np.random.default_rng(seed + 1)]
        return play_game(players, rngs, Position.empty(STANDARD)).move_string

    first = "negamax:depth=2,tiebreak=first"
    assert len({game(first, seed) for seed in range(3)}) == 1
    assert len({game("negamax:depth=2", seed) for seed in range(3)}) > 1


def test_first_tiebreak_plays_the_first_best_column_in_centre_first_order() -> None:
    choice = NegamaxAgent(depth=2, tiebreak="first").choose(
        Position.empty(STANDARD), np.random.default_rng(0))
    assert choice.column == 3


@pytest.mark.parametrize("rules", EXTREME_BOARDS, ids=str)
def test_plays_whole_games_on_every_board(rules: Rules) -> None:
    spec = "negamax:depth=3,heuristic=live-threats+stacked-threats+threats+positional+window"
    players = [make_agent(spec), make_agent("random")]
    rngs = [np.random.default_rng(0), np.random.default_rng(1)]
    outcome = play_game(players, rngs, Position.empty(rules))
    assert outcome.termination in (Termination.FOUR_IN_A_ROW, Termination.BOARD_FULL), outcome.error


def test_spec_strings() -> None:
    agent = make_agent("negamax:depth=3,heuristic=threats*2+positional,tt=false")
    assert isinstance(agent, NegamaxAgent)
    assert agent.depth == 3
    assert agent.terms.tolist() == [[HEURISTICS["threats"], 2, 0], [HEURISTICS["positional"], 1, 0]]


@pytest.mark.parametrize(("spec", "message"), [
    ("negamax:heuristic=speed", "unknown heuristic 'speed'"),
    ("negamax:heuristic=threats*0", "not a whole number from 1 to 1000"),
    ("negamax:heuristic=threats*1001", "not a whole number from 1 to 1000"),
    ("negamax:heuristic=threats*x", "not a whole number from 1 to 1000"),
    ("negamax:heuristic=threats+threats", "appears twice"),
    ("negamax:heuristic=live-threats*2", "takes no weight"),
])
def test_bad_heuristics_are_reported_with_the_known_names(spec: str, message: str) -> None:
    with pytest.raises(AgentSpecError, match=message) as error:
        make_agent(spec)
    if "weight" not in message and "twice" not in message:
        assert "stacked-threats" in str(error.value)


@pytest.mark.parametrize("spec", ["negamax:depth=0", "negamax:depth=65", "negamax:tiebreak=last"])
def test_bad_parameters_are_reported(spec: str) -> None:
    with pytest.raises(AgentSpecError):
        make_agent(spec)


def test_a_finished_game_is_refused() -> None:
    with pytest.raises(IllegalMoveError, match="already over"):
        NegamaxAgent().choose(from_moves("1212121"), np.random.default_rng(0))


# --- seed 002's rules, as switches --------------------------------------------------------

INFINITY = 2 * WIN_SCORE

# x to move: column 6 wins now; columns 0 and 3 make a second playable threat beside the
# one in column 6, and win on x's next move (ply 3).
QUICK_AND_SLOW_WINS = [
    ".......",
    ".......",
    ".......",
    ".o....x",
    ".oo...x",
    ".xx.oox",
]
# A drawn game (no line when the board fills); o plays the last cell, column 7.
DRAWN_GAME = "666165577462463234152541333211132724554777"


@pytest.mark.parametrize(("tiebreak", "column"), [("left", 0), ("right", 6), ("first", 3)])
def test_tiebreaks_on_the_empty_board(tiebreak: str, column: int) -> None:
    agent = NegamaxAgent(depth=1, tiebreak=tiebreak)  # type: ignore[arg-type]
    assert set(agent.root_scores(Position.empty(STANDARD)).values()) == {0}
    assert agent.choose(Position.empty(STANDARD), np.random.default_rng(0)).column == column


def test_right_tiebreak_at_depth_one_stacks_the_rightmost_column() -> None:
    agent = NegamaxAgent(depth=1, tiebreak="right", wins="flat")
    position, columns = Position.empty(STANDARD), []
    while len(columns) < 3:  # o replies in the same column: nothing is ever at stake
        columns.append(agent.choose(position, np.random.default_rng(0)).column)
        position = position.play(columns[-1]).play(columns[-1])
    assert columns == [6] * 3
    assert agent.choose(position, np.random.default_rng(0)).column == 5  # column 6 is full


def test_flat_wins_score_a_slow_win_like_a_quick_one() -> None:
    position = position_of(QUICK_AND_SLOW_WINS)
    rng = np.random.default_rng(0)
    sooner = NegamaxAgent(depth=3, tiebreak="left")
    assert sooner.choose(position, rng).column == 6
    flat = NegamaxAgent(depth=3, tiebreak="left", wins="flat")
    scores = flat.root_scores(position)
    assert {c for c, score in scores.items() if score == WIN_SCORE} == {0, 3, 6}
    assert flat.choose(position, rng).column == 0
    assert NegamaxAgent(depth=3, tiebreak="right", wins="flat").choose(position, rng).column == 6


def plain_minimax(position: Position, depth: int) -> dict[int, int]:
    """Root scores of full-width minimax from the mover's side: a win +WIN_SCORE, a loss
    -WIN_SCORE however far, 0 for a draw and at the depth limit (seed 002's rows 1-5)."""
    root = position.side_to_move

    def value(node: Position, left: int) -> int:
        if node.won:
            return WIN_SCORE if node.winner == root else -WIN_SCORE
        if left == 0 or node.is_terminal:
            return 0
        values = [value(node.play(c), left - 1) for c in node.legal_moves()]
        return max(values) if node.side_to_move == root else min(values)

    return {c: value(position.play(c), depth - 1) for c in position.legal_moves()}


def test_flat_right_left_to_right_negamax_plays_the_seeds_plain_minimax() -> None:
    rng = np.random.default_rng(0)
    for index, position in enumerate(random_positions(STANDARD, 24, seed=12)):
        depth = 1 + index % 3
        scores = plain_minimax(position, depth)
        best = max(scores.values())
        last_best = max(c for c, score in scores.items() if score == best)
        agent = NegamaxAgent(depth=depth, wins="flat", tiebreak="right",
                             move_order="left-to-right")
        choice = agent.choose(position, rng)
        assert (choice.column, choice.score) == (last_best, best), position.describe()


def reference_nodes(position: Position, depth: int, order: tuple[int, ...]) -> int:
    """The nodes the kernel visits without ordering and table, with every root tie exact:
    fail-soft alpha-beta trying columns in ``order``, mate-distance pruned as the kernel is."""
    nodes = 1

    def search(node: Position, left: int, alpha: int, beta: int, ply: int) -> int:
        nonlocal nodes
        nodes += 1
        if not node.legal_moves() or left == 0:
            return 0
        if node.winning_moves():
            return WIN_SCORE - ply - 1
        ceiling = WIN_SCORE - ply - 3
        if beta > ceiling:
            beta = ceiling
            if alpha >= beta:
                return beta
        best = -INFINITY
        for column in (c for c in order if node.can_play(c)):
            value = -search(node.play(column), left - 1, -beta, -alpha, ply + 1)
            if value > best:
                best, alpha = value, max(alpha, value)
            if alpha >= beta:
                break
        return best

    best = -INFINITY
    for column in (c for c in order if position.can_play(c)):
        if column in position.winning_moves():
            value = WIN_SCORE - 1
        else:
            value = -search(position.play(column), depth - 1, -INFINITY, -(best - 1), 1)
        best = max(best, value)
    return nodes


@pytest.mark.parametrize(("move_order", "order"), [("centre-first", (3, 2, 4, 1, 5, 0, 6)),
                                                   ("left-to-right", tuple(range(7)))])
def test_move_order_is_the_order_columns_are_tried(move_order: str, order: tuple[int, ...]
                                                   ) -> None:
    counts = set()
    for index, position in enumerate(random_positions(STANDARD, 10, seed=4)):
        depth = 3 + index % 3
        agent = NegamaxAgent(depth=depth, ordering=False, tt=False,
                             move_order=move_order)  # type: ignore[arg-type]
        scores = agent.root_scores(position)
        assert tuple(scores) == tuple(c for c in order if position.can_play(c))
        assert agent.nodes == reference_nodes(position, depth, order), position.describe()
        counts.add(agent.nodes)
    assert len(counts) > 1


def test_move_order_never_changes_the_best_columns() -> None:
    for index, position in enumerate(random_positions(STANDARD, 12, seed=5)):
        depth = 1 + index % 6
        scores = [NegamaxAgent(depth=depth, heuristic="threats+positional", tiebreak="right",
                               move_order=order).root_scores(position)  # type: ignore[arg-type]
                  for order in ("centre-first", "left-to-right")]
        best = max(scores[0].values())
        assert max(scores[1].values()) == best, position.describe()
        assert ({c for c, v in scores[0].items() if v == best}
                == {c for c, v in scores[1].items() if v == best}), position.describe()


def test_seed_scoring_evaluates_a_full_board_at_the_depth_limit() -> None:
    position = from_moves(DRAWN_GAME[:-1])  # o to move into the last cell
    final = to_array(position.play(6))
    weights = positional_weights(STANDARD)
    o_minus_x = int(weights[final == 2].sum() - weights[final == 1].sum())
    assert o_minus_x != 0
    for depth in (1, 2):
        project = NegamaxAgent(depth=depth, heuristic="positional")
        assert project.root_scores(position) == {6: 0}
    seed = NegamaxAgent(depth=1, heuristic="positional", seed_scoring=True)
    assert seed.root_scores(position) == {6: o_minus_x}
    # above the depth limit a full board is a draw, as always
    assert NegamaxAgent(depth=2, heuristic="positional",
                        seed_scoring=True).root_scores(position) == {6: 0}


@pytest.mark.parametrize("switches", [
    {"move_order": "left-to-right"}, {"wins": "flat"}, {"clearing": "always"},
    {"seed_scoring": True}, {"seed_clearing_bug": True, "clearing": "always"},
    {"seed_live_bug": True}, {"tiebreak": "left"}, {"tiebreak": "right"},
])
def test_seed_switches_combine_with_ordering_and_the_table(switches: dict[str, object]) -> None:
    heuristic = "live-threats+stacked-threats*50+threats*10+positional"
    for index, position in enumerate(random_positions(STANDARD, 8, seed=6)):
        depth = 2 + index % 4
        scores = [NegamaxAgent(depth=depth, heuristic=heuristic, ordering=ordering, tt=tt,
                               **switches).root_scores(position)  # type: ignore[arg-type]
                  for ordering, tt in SWITCHES]
        best = max(scores[0].values())
        assert all(max(s.values()) == best for s in scores), position.describe()


# x to move, searched 3 plies: below x's columns 1, 2 and 5 the opponent can be left two
# playable threats at the depth limit, which seed 002 scores as a win one ply sooner than
# it can happen; a search that bounds the best score by the soonest real win gets it wrong.
SOONER_LOSS_IN_THE_TREE = [
    "....o..",
    "....o..",
    "....o..",
    "....x..",
    "x..xx..",
    "x..xooo",
]


def full_width_scores(agent: NegamaxAgent, position: Position, full_board: bool) -> dict[int, int]:
    """Root scores of plain full-width negamax with the agent's heuristic at the depth limit
    (the kernel's ``evaluate``, checked on its own in test_kernels) and its win scoring."""
    rules = position.rules
    tables, windows = board_array(rules), board_windows(rules)
    step = int(agent.wins == "sooner")

    def leaf(node: Position, ply: int) -> int:
        return int(evaluate(np.uint64(node.current), np.uint64(node.mask), ply, step, tables,
                            agent.terms, *windows))

    def move_value(node: Position, column: int, left: int, ply: int) -> int:
        child = node.play(column)
        if child.won:
            return WIN_SCORE - step * (ply + 1)
        if child.is_terminal and not (left == 0 and full_board):
            return 0
        if left == 0:
            return -leaf(child, ply + 1)
        return -max(move_value(child, c, left - 1, ply + 1) for c in child.legal_moves())

    return {c: move_value(position, c, agent.depth - 1, 0) for c in position.legal_moves()}


@pytest.mark.parametrize(("heuristic", "switches"), [
    ("live-threats+stacked-threats*50+threats*10+positional",
     {"clearing": "always", "seed_scoring": True, "seed_live_bug": True}),
    ("threats*10+positional", {"clearing": "always", "seed_scoring": True,
                               "seed_clearing_bug": True, "wins": "flat"}),
    ("live-threats+stacked-threats+threats+positional", {}),
    ("live-threats+positional", {"seed_scoring": True, "wins": "flat"}),
])
def test_seed_rules_give_the_full_width_root_scores(heuristic: str,
                                                    switches: dict[str, object]) -> None:
    positions = random_positions(STANDARD, 40, seed=13)
    positions = [p for p in positions if p.plies >= 14][:11]  # where threats abound
    for index, position in enumerate([*positions, position_of(SOONER_LOSS_IN_THE_TREE)]):
        depth = 3 if index == len(positions) else 1 + index % 4
        agents = [NegamaxAgent(depth=depth, heuristic=heuristic, tiebreak="right",
                               ordering=ordering, tt=tt, **switches)  # type: ignore[arg-type]
                  for ordering, tt in SWITCHES]
        expected = full_width_scores(agents[0], position, bool(switches.get("seed_scoring")))
        best = max(expected.values())
        ties = {c for c, score in expected.items() if score == best}
        for agent in agents:
            scores = agent.root_scores(position)
            assert max(scores.values()) == best, (position.describe(), agent.ordering)
            assert {c for c, s in scores.items() if s == best} == ties, position.describe()


# --- iterative deepening -------------------------------------------------------------------


class FakeClock:
    """A clock for the negamax agent's ``perf_counter`` that a search advances by 1 µs a node."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def deepening_agent(monkeypatch: pytest.MonkeyPatch, limit: Limit, **params: object
                    ) -> tuple[DeepeningNegamaxAgent, FakeClock]:
    """A deepening agent playing by a fake clock that its searches advance."""
    clock = FakeClock()
    monkeypatch.setattr(negamax_module, "perf_counter", clock)
    agent = DeepeningNegamaxAgent(heuristic="threats+positional", **params)  # type: ignore[arg-type]
    agent.new_game(GameStart(STANDARD, 1, limit))
    search = agent.root_scores

    def timed(position: Position, depth: int | None = None,
              node_limit: int | None = None) -> dict[int, int]:
        scores = search(position, depth, node_limit)
        clock.now += agent.nodes * 1e-6
        return scores

    monkeypatch.setattr(agent, "root_scores", timed)
    return agent, clock


@pytest.mark.parametrize("budget", [0.005, 0.02, 0.1])
def test_deepening_stays_within_its_share_of_the_time(monkeypatch: pytest.MonkeyPatch,
                                                      budget: float) -> None:
    agent, clock = deepening_agent(monkeypatch, Limit(time=budget))
    depths = set()
    for position in random_positions(STANDARD, 12, seed=21):
        start = clock.now
        choice = agent.choose(position, np.random.default_rng(0))
        assert clock.now - start <= PLANNED_SHARE * budget + 1e-6 * choice.depth, \
            position.describe()
        depths.add(choice.depth)
    assert max(depths) > 4  # it did deepen


def test_the_deeper_the_budget_the_deeper_the_search(monkeypatch: pytest.MonkeyPatch) -> None:
    position = from_moves("4453")
    reached = []
    for budget in (0.001, 0.01, 0.1):
        agent, _ = deepening_agent(monkeypatch, Limit(time=budget))
        reached.append(agent.choose(position, np.random.default_rng(0)).depth)
    assert reached == sorted(reached) and reached[0] < reached[-1]


def test_deepening_plays_the_fixed_depth_move_of_the_depth_it_reached() -> None:
    for index, position in enumerate(random_positions(STANDARD, 8, seed=22)):
        agent = DeepeningNegamaxAgent(heuristic="threats+positional", tiebreak="first")
        agent.new_game(GameStart(STANDARD, position.side_to_move, Limit(nodes=3000 * index + 1)))
        choice = agent.choose(position, np.random.default_rng(0))
        assert choice.nodes is not None and choice.depth is not None
        fixed = NegamaxAgent(depth=choice.depth, heuristic="threats+positional",
                             tiebreak="first")
        expected = fixed.choose(position, np.random.default_rng(0))
        assert (choice.column, choice.score) == (expected.column, expected.score)
        first_depth = 8  # depth 1 always completes: at most a node per column and the root
        assert choice.nodes <= max(3000 * index + 1, first_depth), position.describe()


def test_limit_depth_and_the_depth_parameter_cap_the_search() -> None:
    agent = DeepeningNegamaxAgent(time=10.0, depth=6)
    agent.new_game(GameStart(STANDARD, 1, Limit(time=10.0, depth=4)))
    assert agent.choose(Position.empty(STANDARD), np.random.default_rng(0)).depth == 4
    agent.new_game(GameStart(STANDARD, 1, Limit(time=10.0)))
    assert agent.choose(Position.empty(STANDARD), np.random.default_rng(0)).depth == 6
    fixed = NegamaxAgent(depth=6)
    fixed.new_game(GameStart(STANDARD, 1, Limit(depth=2)))
    assert fixed.choose(Position.empty(STANDARD), np.random.default_rng(0)).depth == 2


def test_a_proven_result_ends_the_deepening() -> None:
    agent = DeepeningNegamaxAgent(time=10.0)
    agent.new_game(GameStart(STANDARD, 1))
    choice = agent.choose(from_moves("4455"), np.random.default_rng(0))  # x wins at ply 3
    assert (choice.depth, choice.score) == (3, WIN_SCORE - 3)


@pytest.mark.parametrize(("own", "limit", "expected"), [
    (None, Limit(), (DEFAULT_TIME, None)),
    (0.5, Limit(), (0.5, None)),
    (None, Limit(time=0.2), (0.2, None)),
    (0.5, Limit(time=0.2), (0.2, None)),
    (0.1, Limit(time=0.2, nodes=1000), (0.1, 1000)),
    (None, Limit(nodes=1000), (None, 1000)),
])
def test_the_budget_is_the_tightest_of_the_agents_and_the_games(
        own: float | None, limit: Limit, expected: tuple[float | None, int | None]) -> None:
    agent = DeepeningNegamaxAgent(time=own)
    agent.new_game(GameStart(STANDARD, 1, limit))
    assert agent.budget() == expected


def test_deepening_declares_its_limits_and_that_it_is_not_reproducible() -> None:
    agent = make_agent("negamax-id:time=0.05,heuristic=threats")
    assert isinstance(agent, DeepeningNegamaxAgent)
    assert not agent.reproducible and NegamaxAgent.reproducible
    assert agent.supported_limits == {"time", "depth", "nodes"}
    assert NegamaxAgent.supported_limits == {"depth"}
    with pytest.raises(AgentSpecError, match="positive number of seconds"):
        make_agent("negamax-id:time=0")
