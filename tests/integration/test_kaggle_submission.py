"""Kaggle submissions out: the template's plain-Python searches against the arena's own
agents, the generated file, ``arena export kaggle``, and games under kaggle_environments."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import textwrap
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from arena.kaggle import template as template
from arena.kaggle.submission import (
    EXPORTABLE,
    SubmissionError,
    submission_settings,
    submission_source,
    write_submission,
)
from arena.kaggle.template import Board, Negamax
from arena.protocol.agent import GameStart, Limit, as_choice
from arena.protocol.registry import make_agent
from arena.rules.board import Position, Rules, threat_cells
from arena.rules.errors import AgentSpecError
from arena.rules.notation import from_moves, to_flat
from arena.search import heuristics
from arena.search.heuristics import ThreatRules, centre_first, parse_heuristic, terms_array
from arena.search.kernels import bitboard, evaluation
from tests.helpers.cli import invoke
from tests.helpers.paths import DATA, PONS
from tests.helpers.positions import position_of, random_positions

STANDARD = Rules()
OTHER_RULES = (Rules(rows=5, cols=6, connect=4), Rules(rows=7, cols=8, connect=4),
               Rules(rows=6, cols=9, connect=5), Rules(rows=4, cols=5, connect=3))
HEURISTICS = ("none", "positional", "threats", "threats+positional", "window",
              "live-threats+stacked-threats+threats*10+positional", "stacked-threats*3+threats")


def pons(name: str, count: int) -> list[Position]:
    """The first ``count`` positions of one of Pons' benchmark sets."""
    lines = (PONS / name).read_text().splitlines()[:count]
    return [from_moves(line.split()[0]) for line in lines]


@cache
def standard_positions() -> tuple[Position, ...]:
    """Pons' Test_L3_R1 and Test_L2_R1 (openings to endgames) and random game positions."""
    return tuple(pons("Test_L3_R1", 150) + pons("Test_L2_R1", 100)
                 + random_positions(STANDARD, 100, seed=21))


@cache
def board(rules: Rules) -> Board:
    return template.make_board(rules.rows, rules.cols, rules.connect)


def exported(spec: str) -> Negamax:
    """The template's negamax with the settings ``arena export kaggle spec`` writes."""
    return Negamax(board(STANDARD), submission_settings(spec))


def assert_same_search(spec: str, positions: Any, depth: int) -> None:
    """The template and the arena's agent agree on every position: the best score, the
    columns that share it (exact when the tie-break needs them all) and the move played."""
    arena_agent = make_agent(spec)
    checked = 0
    for position in positions:
        if position.is_terminal:
            continue
        search = Negamax(board(position.rules), submission_settings(spec))
        ours = search.root_scores(position.current, position.mask, search.settings.depth)
        theirs = arena_agent.root_scores(position, depth)
        best = max(theirs.values())
        where = f"{spec} at {position.describe()}"
        assert max(ours.values()) == best, where
        assert list(ours) == list(theirs), where  # the same columns in the same order
        if search.all_ties:
            assert ({c for c, v in ours.items() if v == best}
                    == {c for c, v in theirs.items() if v == best}), where
        if search.settings.tiebreak != "random":
            rng = np.random.default_rng(0)
            assert search.choose(ours, template.RNG) == arena_agent.choose(position, rng).column
        checked += 1
    assert checked


# --- the template's parts against the arena's --------------------------------------------


def test_the_template_shares_the_arena_scale_and_heuristic_ids() -> None:
    for name in ("WIN_SCORE", "STACKED_SCORE", "HEURISTIC_LIMIT", "CLEAR_ALL_LATER",
                 "LIVE_THREATS", "CLEAR_ABOVE_PAIRS", "STACKED_THREATS", "THREATS", "POSITIONAL",
                 "WINDOW", "LOSS_SOONER", "BOTTOM_LEFT_BUG", "PER_PAIR"):
        assert getattr(template, name) == getattr(heuristics, name), name
    for cols in range(1, 10):
        assert template.centre_first(cols) == centre_first(cols)


@pytest.mark.parametrize("rules", (STANDARD, *OTHER_RULES, Rules(rows=63, cols=1, connect=3)),
                         ids=str)
def test_the_board_constants_are_the_arena_s(rules: Rules) -> None:
    b, geometry = board(rules), rules.geometry
    assert (b.bottom, b.full, b.columns) == (geometry.bottom, geometry.board, geometry.columns)
    assert b.lines == geometry.lines
    assert b.points == tuple(heuristics.window_points(rules.connect).ravel().tolist())
    weights = heuristics.positional_weights(rules)
    for col in range(rules.cols):
        for row in range(rules.rows):
            cell = rules.cell_bit(col, row)
            assert sum(1 << j for j, plane in b.planes if plane & cell) == weights[row, col]


@settings(max_examples=200, deadline=None)
@given(st.from_type(Position))
def test_winning_cells_and_lines_agree_with_the_rules(position: Position) -> None:
    b = board(position.rules)
    winning_cells = template.winning_cells_function(b)
    for player in (1, 2):
        stones = position.stones(player)
        assert winning_cells(stones, position.mask) == threat_cells(stones, position.mask,
                                                                     position.rules)
        assert template.has_line(stones, b) == (position.won and player != position.side_to_move)


@settings(max_examples=100, deadline=None)
@given(st.from_type(Position))
def test_kaggle_boards_read_as_the_arena_s_positions(position: Position) -> None:
    b = board(position.rules)
    cur, mask = template.from_kaggle(to_flat(position), position.side_to_move, b)
    assert (cur, mask) == (position.current, position.mask)


THREAT_RULES = (ThreatRules(), ThreatRules("always"), ThreatRules(seed_scoring=True),
                ThreatRules("always", True, True, True), ThreatRules(seed_live_bug=True),
                ThreatRules(seed_clearing_bug=True))
EVALUATIONS = [(heuristic, rules) for heuristic in (*HEURISTICS, "live-threats+threats")
               for rules in THREAT_RULES]


def assert_same_evaluation(position: Position, heuristic: str, rules: ThreatRules, ply: int,
                           win_step: int) -> None:
    terms = terms_array(parse_heuristic(heuristic), rules)
    cur, mask = np.uint64(position.current), np.uint64(position.mask)
    expected = evaluation.evaluate(cur, mask, ply, win_step, bitboard.board_array(position.rules),
                                   terms, *evaluation.board_windows(position.rules))
    evaluate = template.evaluation_function(board(position.rules),
                                            tuple(map(tuple, terms.tolist())), win_step)
    assert evaluate(position.current, position.mask, ply) == expected, (heuristic, rules)


@settings(max_examples=300, deadline=None)
@given(st.from_type(Position), st.sampled_from(EVALUATIONS), st.integers(0, 5),
       st.sampled_from((0, 1)))
def test_the_evaluation_is_the_kernel_s(position: Position, case: tuple[str, ThreatRules],
                                        ply: int, win_step: int) -> None:
    assume(not position.is_terminal)
    assert_same_evaluation(position, *case, ply, win_step)


def test_the_evaluation_is_the_kernel_s_on_game_positions() -> None:
    for position in random_positions(STANDARD, 300, seed=22):
        for heuristic, rules in EVALUATIONS:
            assert_same_evaluation(position, heuristic, rules, position.plies % 3, 1)


# --- negamax: the same scores and moves as the arena's ------------------------------------


@pytest.mark.parametrize("heuristic", HEURISTICS)
def test_negamax_plays_as_the_arena_s_at_depth_4(heuristic: str) -> None:
    assert_same_search(f"negamax:depth=4,heuristic={heuristic},tiebreak=first",
                       standard_positions(), 4)


@pytest.mark.parametrize("heuristic", ("none", "threats+positional", "window",
                                       "live-threats+stacked-threats+threats*10+positional"))
def test_negamax_plays_as_the_arena_s_deeper(heuristic: str) -> None:
    assert_same_search(f"negamax:depth=7,heuristic={heuristic},tiebreak=first",
                       standard_positions()[::3], 7)


@pytest.mark.parametrize("switches", (
    "tiebreak=left", "tiebreak=right", "tiebreak=random", "move_order=left-to-right",
    "move_order=left-to-right,tiebreak=left", "wins=flat", "ordering=false", "tt=false",
    "heuristic=threats,clearing=always",
    "heuristic=live-threats+stacked-threats*5+threats,seed_scoring=true",
    "heuristic=threats*10+positional,clearing=always,seed_clearing_bug=true",
    "heuristic=live-threats+threats,seed_live_bug=true,seed_clearing_bug=true",
    "heuristic=live-threats+stacked-threats+threats*10+positional,wins=flat,seed_scoring=true,"
    "clearing=always,seed_clearing_bug=true,seed_live_bug=true,move_order=left-to-right,"
    "tiebreak=right",
))
def test_negamax_switches_play_as_the_arena_s(switches: str) -> None:
    assert_same_search(f"negamax:depth=5,{switches}", standard_positions()[::3], 5)


@pytest.mark.parametrize("rules", OTHER_RULES, ids=str)
def test_negamax_plays_as_the_arena_s_on_other_boards(rules: Rules) -> None:
    positions = random_positions(rules, 40, seed=rules.cols)
    assert_same_search("negamax:depth=5,heuristic=live-threats+threats+positional,tiebreak=first",
                       positions, 5)
    assert_same_search("negamax:depth=3,heuristic=window,tiebreak=left", positions, 3)


def test_a_search_past_the_end_of_the_game_searches_the_agent_s_depth() -> None:
    # With seed_scoring a full board at the depth limit gets the heuristic, elsewhere 0:
    # deeper than the game lasts is not the same search as to its end.
    spec = "negamax:depth=6,heuristic=positional,seed_scoring=true,tiebreak=first"
    near_the_end = [p for p in pons("Test_L3_R1", 400) if p.plies >= 39 and not p.is_terminal]
    assert_same_search(spec, near_the_end, 6)
    arena_agent = make_agent(spec)
    assert any(arena_agent.root_scores(p, 6) != arena_agent.root_scores(p, 42 - p.plies)
               for p in near_the_end)


def test_deepening_reaches_the_depth_and_stops_once_a_result_is_proven() -> None:
    spec = "negamax-id:depth=6,heuristic=threats+positional,tiebreak=first"
    arena_agent = make_agent(spec)
    arena_agent.new_game(GameStart(STANDARD, 1, Limit(nodes=10**12)))  # no clock: depth bound
    search = exported(spec)
    for position in standard_positions()[::10]:
        scores, depth = search.deepening(position.current, position.mask, float("inf"))
        choice = as_choice(arena_agent.choose(position, np.random.default_rng(0)))
        assert (depth, search.choose(scores, template.RNG)) == (choice.depth, choice.column)
        assert depth <= 6


def test_a_search_past_its_deadline_stops_and_the_deepest_finished_one_is_played() -> None:
    search = exported("negamax:depth=12,heuristic=threats+positional,tiebreak=first")
    with pytest.raises(template.OutOfTime):
        search.root_scores(0, 0, 12, deadline=0.0)
    scores, depth = search.deepening(0, 0, deadline=0.0)  # every search past its deadline
    assert 1 <= depth < 12  # depth 1 always finishes; small ones finish before the clock
    assert scores == search.root_scores(0, 0, depth)


# --- MCTS and the simple agents ---------------------------------------------------------


@pytest.mark.parametrize("spec", ("mcts:iterations=300", "mcts:iterations=300,c=0.7,"
                                  "rollout=immediate-win"))
def test_mcts_grows_the_arena_s_tree_from_the_same_random_numbers(spec: str) -> None:
    s = submission_settings(spec)
    for seed, position in enumerate(random_positions(STANDARD, 12, seed=31)
                                    + random_positions(Rules(5, 6, 4), 4, seed=32)):
        choice = as_choice(make_agent(spec).choose(position, np.random.default_rng(seed)))
        state = int(np.random.default_rng(seed).integers(0, 2**63, size=1, dtype=np.int64)[0])
        root, done = template.mcts(position.current, position.mask, board(position.rules), s,
                                   [state], s.iterations)
        column = template.most_visited(root)
        visits, reward = root[column]
        assert (column, done) == (choice.column, choice.playouts)
        assert (visits / done, reward / visits) == (choice.visit_share, choice.score)


def test_immediate_win_takes_a_win_and_blocks_a_single_threat() -> None:
    b = board(STANDARD)
    wins = position_of([".......", ".......", ".......", ".......", "oo.....", "xxx...o"])
    block = position_of([".......", ".......", ".......", ".......", "x......", "ooo.x.x"])
    plain = submission_settings("immediate-win")
    blocking = submission_settings("immediate-win:block=true")
    for seed in range(10):
        rng = template.random.Random(seed)
        assert template.immediate_win_column(wins.current, wins.mask, b, plain, rng) == 3
        assert template.immediate_win_column(block.current, block.mask, b, blocking, rng) == 3
    random_columns = {template.play(block.current, block.mask, b, submission_settings("random"),
                                    0.0, template.random.Random(seed)) for seed in range(40)}
    assert random_columns == set(block.legal_moves())


# --- the submission file ----------------------------------------------------------------


def observation(position: Position) -> dict[str, Any]:
    return {"board": to_flat(position), "mark": position.side_to_move, "step": position.plies,
            "remainingOverageTime": 60}


def configuration(rules: Rules, act_timeout: float = 2.0) -> dict[str, Any]:
    return {"rows": rules.rows, "columns": rules.cols, "inarow": rules.connect,
            "actTimeout": act_timeout, "episodeSteps": 1000, "agentTimeout": 60, "timeout": 2}


def load(source: str) -> Any:
    """The submission's agent, loaded as Kaggle does: its last callable."""
    namespace: dict[str, Any] = {}
    exec(compile(source, "main.py", "exec"), namespace)
    return [value for value in namespace.values() if callable(value)][-1]


def test_the_file_is_the_template_with_the_spec_s_settings() -> None:
    spec = "negamax:depth=5,heuristic=threats*2+positional,tiebreak=first"
    source = submission_source(submission_settings(spec))
    assert source.startswith("# Kaggle ConnectX submission exported by Connect Four Arena")
    assert "arena export kaggle 'negamax:depth=5,heuristic=threats*2+positional,tiebreak=first'"\
        in source
    imported = {alias.name.split(".")[0] for node in ast.walk(ast.parse(source))
                if isinstance(node, ast.Import | ast.ImportFrom)
                for alias in ([ast.alias(node.module or "")] if isinstance(node, ast.ImportFrom)
                              else node.names)}
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}
    agent = load(source)
    assert agent.__name__ == "agent"
    assert agent.__globals__["SETTINGS"] == submission_settings(spec)
    arena_agent = make_agent(spec)
    for position in standard_positions()[::25]:
        if not position.is_terminal:
            expected = arena_agent.choose(position, np.random.default_rng(0)).column
            assert agent(observation(position), configuration(STANDARD)) == expected


def test_the_file_plays_any_board_and_either_side_with_attribute_access() -> None:
    class Struct(dict):  # kaggle_environments' observations read as attributes and keys
        __getattr__ = dict.get

    agent = load(submission_source(submission_settings("negamax:depth=4,tiebreak=first")))
    arena_agent = make_agent("negamax:depth=4,tiebreak=first")
    for rules in OTHER_RULES:
        for position in random_positions(rules, 6, seed=41):
            expected = arena_agent.choose(position, np.random.default_rng(0)).column
            assert agent(Struct(observation(position)), Struct(configuration(rules))) == expected


def test_the_file_runs_without_the_arena_or_any_installed_package(tmp_path: Path) -> None:
    path = tmp_path / "main.py"
    write_submission("negamax:depth=6,heuristic=threats+positional,tiebreak=first", path)
    position = from_moves("4453")
    script = textwrap.dedent(f"""
        import json, sys
        namespace = {{}}
        exec(compile(open({str(path)!r}).read(), "main.py", "exec"), namespace)
        agent = [value for value in namespace.values() if callable(value)][-1]
        print(json.dumps([agent({observation(position)!r}, {configuration(STANDARD)!r}),
                          sorted(m for m in sys.modules if m.split(".")[0] in
                                 ("numpy", "numba", "arena", "agents"))]))
    """)
    # -I -S: no site-packages (no numpy, numba or arena), no environment, no current directory
    finished = subprocess.run([sys.executable, "-I", "-S", "-c", script], cwd=tmp_path,
                              capture_output=True, text=True, timeout=60, check=True)
    column, foreign = json.loads(finished.stdout)
    expected = make_agent("negamax:depth=6,heuristic=threats+positional,tiebreak=first")
    assert column == expected.choose(position, np.random.default_rng(0)).column
    assert foreign == []


def test_agents_that_cannot_be_exported_are_refused_with_the_list() -> None:
    for spec, reason in (("minimax", "negamax:heuristic=window"), ("human", "person"),
                         (f"{DATA / 'play_agents.py'}:Sleeper", "built-in")):
        with pytest.raises(SubmissionError, match=reason) as error:
            submission_settings(spec)
        assert "exportable: " + ", ".join(EXPORTABLE) in str(error.value)
    for spec in ("nonsense", "negamax:depth=0", "negamax:heuristic=bogus", "mcts:c=-1"):
        with pytest.raises(AgentSpecError):
            submission_settings(spec)


def test_an_agent_of_the_users_is_refused_before_any_of_its_code_runs(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    bot = tmp_path / "bot.py"
    bot.write_text(f"open({str(marker)!r}, 'w').close()\n\n\ndef play(position, rng):\n"
                   "    return 0\n")
    (tmp_path / "main.py").write_text(bot.read_text())
    for spec, named in ((f"{bot}:play", f"{bot}:play"), (f"{bot}:play:x=1", f"{bot}:play"),
                        (f"kaggle:{tmp_path / 'main.py'}", f"kaggle:{tmp_path / 'main.py'}")):
        result = invoke("export", "kaggle", spec, "-o", str(tmp_path / "out.py"))
        assert result.exit_code == 2
        assert result.stderr == (f"arena: error: agent {named!r} cannot be exported to Kaggle: "
                                 "only the arena's built-in agents ported to plain Python can "
                                 f"be exported; exportable: {', '.join(EXPORTABLE)}\n")
    assert not marker.exists() and not (tmp_path / "out.py").exists()


def test_every_exportable_agent_writes_a_file_that_moves() -> None:
    position = from_moves("44")
    for spec in ("negamax", "negamax-id:time=0.05", "mcts:iterations=50", "mcts:time=0.05",
                 "random", "immediate-win:block=true"):
        agent = load(submission_source(submission_settings(spec)))
        assert agent(observation(position), configuration(STANDARD)) in position.legal_moves()


def test_the_command_writes_refuses_to_overwrite_and_explains(tmp_path: Path) -> None:
    out = tmp_path / "main.py"
    args = ["export", "kaggle", "negamax-id:heuristic=threats+positional", "-o", str(out)]
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    assert f"Wrote {out}: negamax-id:heuristic=threats+positional" in result.output
    assert load(out.read_text()).__globals__["SETTINGS"].agent == "negamax-id"
    out.write_text("mine")
    result = invoke(*args)
    assert result.exit_code == 2
    assert result.output.strip() == f"arena: error: {out} exists; use --force to overwrite it"
    assert out.read_text() == "mine"
    assert invoke(*args, "--force").exit_code == 0
    assert "SETTINGS = Settings(" in out.read_text()
    result = invoke("export", "kaggle", "minimax", "-o", str(tmp_path / "x.py"))
    assert result.exit_code == 2
    assert result.output.startswith("arena: error: agent 'minimax' cannot be exported")
    assert len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "x.py").exists()
    result = invoke("export", "kaggle", "random", "-o", str(tmp_path))
    assert result.output.strip() == f"arena: error: {tmp_path} is a directory; name the file " \
                                    "to write"


# --- games under kaggle_environments ------------------------------------------------------

EVALUATE = """
import json, random, sys
from kaggle_environments import evaluate
random.seed(0)  # Kaggle's negamax breaks its ties with the random module: the same games
seat = int(sys.argv[1])
agents = ["main.py", "negamax"] if seat == 0 else ["negamax", "main.py"]
rewards = evaluate("connectx", agents, num_episodes=int(sys.argv[2]))
print(json.dumps([episode[seat] for episode in rewards]))
"""


@pytest.mark.slow
@pytest.mark.kaggle
def test_the_exported_agent_beats_kaggle_s_negamax(tmp_path: Path) -> None:
    # Deterministic on both sides (our ties to the centre, Kaggle's seeded), so the same 16
    # games every time; benchmarks/bench_export.py evaluate plays more, unseeded.
    write_submission("negamax:depth=6,heuristic=threats+positional,tiebreak=first",
                     tmp_path / "main.py")
    (tmp_path / "evaluate_seat.py").write_text(EVALUATE)
    episodes = 8
    # fresh processes, one per seat, in parallel (kaggle_environments on sys.path can hide
    # the arena's own ``agents`` package, so it never runs in the test process)
    runs = [subprocess.Popen([sys.executable, "evaluate_seat.py", str(seat), str(episodes)],
                             cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True) for seat in (0, 1)]
    rewards = []
    for run in runs:
        out, err = run.communicate(timeout=300)
        assert run.returncode == 0, err
        rewards += json.loads(out.strip().splitlines()[-1])
    assert len(rewards) == 2 * episodes
    assert None not in rewards, rewards  # no error, no timeout
    assert rewards.count(1) >= 0.9 * len(rewards), rewards
