"""A Connect Four Arena agent as one self-contained Kaggle ConnectX submission.

``arena export kaggle SPEC`` copies this module into one file with ``SETTINGS`` set to the
agent SPEC describes. The file needs nothing but the standard library. Kaggle loads it and
calls its last callable, ``agent(observation, configuration)``, once per move; it returns a
column, 0 the leftmost.

The searches are plain-Python ports of the arena's compiled kernels (``arena.search.kernels``) on
the same bitboards, and score positions as they do:

- ``negamax`` searches 1, 2, ... plies up to ``SETTINGS.depth``, with the arena's
  heuristics, pruning and tie-breaks, and plays the best move of its deepest complete
  search: the depth-``SETTINGS.depth`` move whenever the move's time allows it;
- ``negamax-id`` does the same up to the end of the game, until the time runs out or a
  win or a loss is proven;
- ``mcts`` grows a UCT tree with the arena's random playouts and random numbers;
- ``random`` and ``immediate-win`` are the arena's simplest agents.

A move's time is the configuration's ``actTimeout`` (or ``SETTINGS.time`` when smaller), of
which it uses ``TIME_SHARE``; the first move's time also pays for loading this file.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

LOADED = time.perf_counter()  # the first move's clock starts when this file is loaded

# The arena's score scale and heuristic ids (arena.search.heuristics; the tests check they agree).
WIN_SCORE = 1_000_000
STACKED_SCORE = 10_000
HEURISTIC_LIMIT = WIN_SCORE // 2
CLEAR_ALL_LATER, LIVE_THREATS, CLEAR_ABOVE_PAIRS, STACKED_THREATS, THREATS, POSITIONAL, WINDOW = (
    range(1, 8))
LOSS_SOONER, BOTTOM_LEFT_BUG, PER_PAIR = 1, 2, 1  # variant bits of a term

INFINITY = 2 * WIN_SCORE
EXACT, LOWER, UPPER = 0, 1, 2  # transposition table flags
MIN_TT_DEPTH = 2  # shallower nodes are searched again rather than looked up
SORT_DEPTH = 4  # shallower nodes try their moves in the move order
CLOCK_NODES = 1023  # the clock is read every 1024 nodes (and MCTS iterations / 16)
MCTS_MAX_NODES = 1 << 20
GOLDEN, MIX_1, MIX_2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
BITS_64 = (1 << 64) - 1
DEFAULT_ACT_TIMEOUT = 2.0  # seconds per move, Kaggle's ConnectX default
TIME_SHARE = 0.8  # the share of a move's time the search may use; the rest is margin


class Settings(NamedTuple):
    """What this submission plays (written by ``arena export kaggle``)."""

    agent: str = "negamax"  # negamax, negamax-id, mcts, random or immediate-win
    spec: str = "negamax"  # the arena spec string it was exported from
    depth: int = 4  # negamax: the deepest search (negamax-id: a cap)
    time: float | None = None  # seconds per move, when less than Kaggle's actTimeout
    terms: tuple[tuple[int, int, int], ...] = ()  # (heuristic id, weight, variant bits)
    tiebreak: str = "random"  # random, first (centre-first order), left or right
    move_order: str = "centre-first"  # or left-to-right
    ordering: bool = True  # skip moves that lose at once, try threat-making moves first
    tt: bool = True  # transposition table
    win_step: int = 1  # a win p plies ahead scores WIN_SCORE - win_step * p
    full_board_evaluation: bool = False  # a full board at the depth limit gets the heuristic
    soonest_win: int = 3  # plies to the soonest win a node without a win in one can score
    iterations: int = 1000  # mcts: iterations per move (with ``time``: as many as fit)
    c: float = 1.4  # mcts: the UCB1 exploration constant
    immediate_win: bool = False  # mcts playouts: a side that can win at once does
    block: bool = False  # immediate-win: block the opponent's single winning move


SETTINGS = Settings()

RNG = random.Random()  # ties and MCTS seeds; Kaggle games should not repeat


# --- the board ------------------------------------------------------------------------


class Board(NamedTuple):
    """The bitboard constants of one board size (the layout of ``arena.rules.board``: column c
    holds bits c * height ... c * height + rows - 1, bottom up, and a sentinel bit)."""

    rows: int
    cols: int
    connect: int
    height: int
    bottom: int  # the bottom cell of every column
    full: int  # every cell
    columns: tuple[int, ...]  # the cells of each column
    centre: int  # the cells of column cols // 2
    steps: tuple[int, ...]  # bit steps of the directions a line fits in
    planes: tuple[tuple[int, int], ...]  # (j, cells whose positional weight has bit j)
    lines: tuple[int, ...]  # every line of ``connect`` cells
    points: tuple[int, ...]  # window points by own * (connect + 1) + opponent discs


def make_board(rows: int, cols: int, connect: int) -> Board:
    """The constants of a ``rows`` x ``cols`` board where ``connect`` in a row wins."""
    height = rows + 1

    def bit(col: int, row: int) -> int:
        return 1 << (col * height + row)

    columns = tuple(((1 << rows) - 1) << (c * height) for c in range(cols))
    lines = []
    for col in range(cols):
        for row in range(rows):
            for dc, dr in ((0, 1), (1, 0), (1, -1), (1, 1)):
                end_col, end_row = col + dc * (connect - 1), row + dr * (connect - 1)
                if 0 <= end_col < cols and 0 <= end_row < rows:
                    lines.append(sum(bit(col + dc * i, row + dr * i) for i in range(connect)))
    tall, wide = rows >= connect, cols >= connect
    fits = ((1, tall), (height, wide), (height - 1, tall and wide), (height + 1, tall and wide))
    weights = {bit(c, r): sum(1 for line in lines if line & bit(c, r))
               for c in range(cols) for r in range(rows)}
    planes = tuple((j, sum(cell for cell, weight in weights.items() if weight >> j & 1))
                   for j in range(max(weights.values(), default=0).bit_length()))
    return Board(
        rows=rows, cols=cols, connect=connect, height=height,
        bottom=sum(bit(c, 0) for c in range(cols)), full=sum(columns), columns=columns,
        centre=columns[cols // 2], steps=tuple(step for step, fit in fits if fit),
        planes=tuple((j, plane) for j, plane in planes if plane), lines=tuple(lines),
        points=window_points(connect),
    )


def window_points(connect: int) -> tuple[int, ...]:
    """The minimax seeds' points of one window by own * (connect + 1) + opponent discs."""
    points = []
    for own in range(connect + 1):
        for other in range(connect + 1):
            empty = connect - own - other
            points.append(0 if empty < 0 else (
                100 * (own == connect) + 5 * (own == connect - 1 and empty == 1)
                + 2 * (own == connect - 2 and empty == 2)
                - 4 * (other == connect - 1 and empty == 1)))
    return tuple(points)


def from_kaggle(cells: Iterable[int], mark: int, b: Board) -> tuple[int, int]:
    """The (discs of ``mark``, all discs) bitboards of a Kaggle board (row 0 at the top)."""
    cur = mask = 0
    for index, value in enumerate(cells):
        if value:
            row, col = divmod(index, b.cols)
            cell = 1 << (col * b.height + b.rows - 1 - row)
            mask |= cell
            if value == mark:
                cur |= cell
    return cur, mask


def centre_first(cols: int) -> tuple[int, ...]:
    """The columns from the centre outwards, left before right."""
    return tuple(cols // 2 + (1 - 2 * (i % 2)) * ((i + 1) // 2) for i in range(cols))


def column_of(cell: int, b: Board) -> int:
    """The column of a one-cell bitboard."""
    return (cell.bit_length() - 1) // b.height


def winning_cells_function(b: Board) -> Callable[[int, int], int]:
    """``winning_cells(stones, mask)``: the empty cells that would complete a line."""
    full, k = b.full, b.connect
    if k == 4 and len(b.steps) == 4:
        s1, s2, s3, s4 = b.steps
        d1, d2, d3, d4 = (2 * s for s in b.steps)
        t1, t2, t3, t4 = (3 * s for s in b.steps)

        def winning_cells_4(stones: int, mask: int) -> int:
            cells = ((stones << s1) & (stones << d1) & ((stones << t1) | (stones >> s1))
                     | (stones >> s1) & (stones >> d1) & ((stones >> t1) | (stones << s1))
                     | (stones << s2) & (stones << d2) & ((stones << t2) | (stones >> s2))
                     | (stones >> s2) & (stones >> d2) & ((stones >> t2) | (stones << s2))
                     | (stones << s3) & (stones << d3) & ((stones << t3) | (stones >> s3))
                     | (stones >> s3) & (stones >> d3) & ((stones >> t3) | (stones << s3))
                     | (stones << s4) & (stones << d4) & ((stones << t4) | (stones >> s4))
                     | (stones >> s4) & (stones >> d4) & ((stones >> t4) | (stones << s4)))
            return cells & full & ~mask

        return winning_cells_4

    def winning_cells(stones: int, mask: int) -> int:
        cells = 0
        for step in b.steps:
            below = -1  # cells with stones on the `gap` cells below them along ``step``
            for gap in range(k):
                if gap:
                    below &= stones << (gap * step)
                run = -1  # cells with stones on the k - 1 - gap cells above them
                for i in range(1, k - gap):
                    run &= stones >> (i * step)
                cells |= below & run
        return cells & full & ~mask

    return winning_cells


def has_line(stones: int, b: Board) -> bool:
    """True if ``stones`` holds ``connect`` discs in a row."""
    for step in b.steps:
        run = stones
        for i in range(1, b.connect):
            run &= stones >> (i * step)
        if run:
            return True
    return False


# --- negamax --------------------------------------------------------------------------


class OutOfTime(Exception):
    """A search passed its deadline."""


def evaluation_function(b: Board, terms: tuple[tuple[int, int, int], ...],
                        win_step: int) -> Callable[[int, int, int], int]:
    """``evaluate(cur, mask, ply)``: the heuristic value of a position for the side to
    move, ``ply`` plies below the root (``arena.search.kernels.evaluation.evaluate``)."""
    winning_cells = winning_cells_function(b)
    threat_terms = bool(terms) and terms[0][0] <= THREATS
    planes, centre, lines, points, k1 = b.planes, b.centre, b.lines, b.points, b.connect + 1

    def positional(stones: int) -> int:
        return sum((stones & plane).bit_count() << j for j, plane in planes)

    def window_score(own: int, other: int) -> int:
        total = 3 * (own & centre).bit_count()
        for line in lines:
            total += points[(own & line).bit_count() * k1 + (other & line).bit_count()]
        return total

    def stacked_pairs(mine: int, theirs: int) -> tuple[int, int]:
        own_pairs, other_pairs = mine & (mine >> 1), theirs & (theirs >> 1)
        balance = above = 0
        for column in b.columns:
            pairs = (own_pairs | other_pairs) & column
            if pairs:
                lowest = pairs & -pairs
                balance += 1 if lowest & own_pairs else -1
                above |= column & ~((lowest << 2) - 1)
        return balance, above

    def evaluate(cur: int, mask: int, ply: int) -> int:
        other = cur ^ mask
        value = balance = mine = theirs = 0
        if threat_terms:
            mine, theirs = winning_cells(cur, mask), winning_cells(other, mask)
        for kind, weight, variant in terms:
            if kind == CLEAR_ALL_LATER:
                pairs = (mine & (mine >> 1)) | (theirs & (theirs >> 1))
                if pairs:
                    above = b.full & ~(((pairs & -pairs) << 2) - 1)
                    mine &= ~above
                    theirs &= ~above
            elif kind == LIVE_THREATS:
                cells = (mask + b.bottom) & b.full
                if variant & BOTTOM_LEFT_BUG:
                    cells &= ~1
                if mine & cells:
                    return WIN_SCORE - win_step * (ply + 1)
                if (theirs & cells).bit_count() >= 2:
                    return win_step * (ply + (1 if variant & LOSS_SOONER else 2)) - WIN_SCORE
            elif kind == CLEAR_ABOVE_PAIRS:
                balance, above = stacked_pairs(mine, theirs)
                mine &= ~above
                theirs &= ~above
            elif kind == STACKED_THREATS:
                if variant & PER_PAIR:
                    value += weight * ((mine & (mine >> 1)).bit_count()
                                       - (theirs & (theirs >> 1)).bit_count())
                else:
                    value += weight * STACKED_SCORE * balance
            elif kind == THREATS:
                value += weight * (mine.bit_count() - theirs.bit_count())
            elif kind == POSITIONAL:
                value += weight * (positional(cur) - positional(other))
            elif kind == WINDOW:
                if ply % 2 == 0:
                    value += weight * window_score(cur, other)
                else:
                    value -= weight * window_score(other, cur)
        return max(-HEURISTIC_LIMIT, min(HEURISTIC_LIMIT, value))

    return evaluate


def move_order(b: Board, s: Settings) -> tuple[int, ...]:
    """The order columns are tried in."""
    return centre_first(b.cols) if s.move_order == "centre-first" else tuple(range(b.cols))


class Negamax:
    """The arena's bitboard negamax (``arena.search.kernels.negamax``) for one board and
    settings: alpha-beta, fail-soft, with its pruning, move ordering and table."""

    def __init__(self, b: Board, s: Settings) -> None:
        self.board, self.settings = b, s
        self.order = move_order(b, s)
        self.winning_cells = winning_cells_function(b)
        self.evaluate = evaluation_function(b, s.terms, s.win_step)
        first_in_order = "first" if s.move_order == "centre-first" else "left"
        self.all_ties = s.tiebreak != first_in_order
        self.nodes = 0  # positions visited by the last search, the root included

    def root_scores(self, cur: int, mask: int, depth: int,
                    deadline: float = math.inf) -> dict[int, int]:
        """The score of each legal column in the move order, searched ``depth`` plies.

        The best score is exact, and so is every score that ties with it unless the
        tie-break takes the first best column in the move order anyway. Raises OutOfTime
        past ``deadline`` (a ``time.perf_counter`` time).
        """
        b, s = self.board, self.settings
        bottom, full, columns, order = b.bottom, b.full, b.columns, self.order
        winning_cells, evaluate = self.winning_cells, self.evaluate
        win_step, soonest, ordering = s.win_step, s.soonest_win, s.ordering
        full_board_evaluation = s.full_board_evaluation
        table: dict[int, tuple[int, int, int]] = {}
        use_table = s.tt
        clock = time.perf_counter
        nodes = 1

        def search(cur: int, mask: int, depth: int, alpha: int, beta: int, ply: int) -> int:
            nonlocal nodes
            nodes += 1
            if not nodes & CLOCK_NODES and clock() > deadline:
                raise OutOfTime
            if mask == full and not (depth == 0 and full_board_evaluation):
                return 0
            if depth == 0:
                return evaluate(cur, mask, ply)
            moves = (mask + bottom) & full
            if winning_cells(cur, mask) & moves:
                return WIN_SCORE - win_step * (ply + 1)
            if ordering and depth >= 2:
                threats = winning_cells(cur ^ mask, mask)
                forced = threats & moves
                if forced:
                    if forced & (forced - 1):
                        return win_step * (ply + 2) - WIN_SCORE
                    moves = forced
                moves &= ~(threats >> 1)  # a move below an opponent's threat loses at once
                if not moves:
                    return win_step * (ply + 2) - WIN_SCORE
            ceiling = WIN_SCORE - win_step * (ply + soonest)  # the best score left
            if beta > ceiling:
                beta = ceiling
                if alpha >= beta:
                    return beta
            first = -1
            store = use_table and depth >= MIN_TT_DEPTH
            key = cur + mask
            if store and key in table:
                value, flag, first = table[key]
                if flag == EXACT:
                    return value
                if flag == LOWER:
                    alpha = max(alpha, value)
                else:
                    beta = min(beta, value)
                if alpha >= beta:
                    return value
            children = [(c, moves & columns[c]) for c in order if moves & columns[c]]
            if ordering and depth >= SORT_DEPTH:
                children.sort(key=lambda child: -(1 << 20) if child[0] == first else -(
                    winning_cells(cur | child[1], mask | child[1]).bit_count()))
            floor, best, best_column, other = alpha, -INFINITY, -1, cur ^ mask
            for column, cell in children:
                value = -search(other, mask | cell, depth - 1, -beta, -alpha, ply + 1)
                if value > best:
                    best, best_column = value, column
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            break
            if store:
                flag = UPPER if best <= floor else LOWER if best >= beta else EXACT
                table[key] = (best, flag, best_column)
            return best

        moves = (mask + bottom) & full
        wins = winning_cells(cur, mask) & moves
        scores: dict[int, int] = {}
        best = -INFINITY
        try:
            for column in order:
                cell = moves & columns[column]
                if not cell:
                    continue
                if cell & wins:
                    value = WIN_SCORE - win_step
                else:
                    alpha = best - 1 if self.all_ties else best
                    value = -search(cur ^ mask, mask | cell, depth - 1, -INFINITY, -alpha, 1)
                scores[column] = value
                best = max(best, value)
        finally:
            self.nodes = nodes
        return scores

    def choose(self, scores: dict[int, int], rng: random.Random) -> int:
        """A best-scoring column, ties broken by the tie-break."""
        best = max(scores.values())
        ties = [column for column, score in scores.items() if score == best]
        if len(ties) == 1:
            return ties[0]
        if self.settings.tiebreak == "left":
            return min(ties)
        if self.settings.tiebreak == "right":
            return max(ties)
        if self.settings.tiebreak == "first":
            return min(ties, key=centre_first(self.board.cols).index)
        return rng.choice(ties)

    def deepening(self, cur: int, mask: int, deadline: float) -> tuple[dict[int, int], int]:
        """The root scores of the deepest search finished by ``deadline``, and its depth.

        Depths 1, 2, ... up to the settings' depth (negamax-id: up to the end of the game,
        stopping once a win or a loss is proven); depth 1 always finishes.
        """
        s = self.settings
        empty = (self.board.full & ~mask).bit_count()
        depths = list(range(1, min(s.depth, empty) + 1))
        if s.agent == "negamax" and s.depth > empty:
            depths[-1] = s.depth  # past the end of the game (with full_board_evaluation)
        scores: dict[int, int] = {}
        reached = 0
        for depth in depths:
            try:
                scores = self.root_scores(cur, mask, depth, deadline if scores else math.inf)
            except OutOfTime:
                break
            reached = depth
            if s.agent == "negamax-id" and abs(max(scores.values())) > HEURISTIC_LIMIT:
                break
        return scores, reached


# --- MCTS -----------------------------------------------------------------------------


def next_random(state: list[int]) -> int:
    """The next 64 random bits of the splitmix64 generator ``state`` (one number)."""
    state[0] = (state[0] + GOLDEN) & BITS_64
    z = state[0]
    z = ((z ^ (z >> 30)) * MIX_1) & BITS_64
    z = ((z ^ (z >> 27)) * MIX_2) & BITS_64
    return z ^ (z >> 31)


def random_cell(cells: int, state: list[int]) -> int:
    """One of the set bits of ``cells`` (not empty), uniformly at random."""
    for _ in range(((next_random(state) >> 32) * cells.bit_count()) >> 32):
        cells &= cells - 1
    return cells & -cells


ONGOING, WON, FULL = range(3)


def mcts(cur: int, mask: int, b: Board, s: Settings, state: list[int],
         iterations: int, deadline: float = math.inf) -> tuple[dict[int, tuple[int, float]], int]:
    """UCT as ``arena.search.kernels.mcts.search`` from a position that is not over: the
    (visits, total reward) of each root move by column, and the iterations run.

    Stops after ``iterations``, at ``deadline`` or when the tree holds MCTS_MAX_NODES.
    """
    winning_cells = winning_cells_function(b)
    bottom, full, cols, c, immediate_win = b.bottom, b.full, b.cols, s.c, s.immediate_win
    curs, masks, untried = [cur], [mask], [(mask + bottom) & full]
    parents, statuses, children = [-1], [ONGOING], [[-1] * cols]
    visits, rewards = [0.0], [0.0]
    sqrt, log = math.sqrt, math.log

    def playout(cur: int, mask: int) -> float:
        side = 0
        while True:
            moves = (mask + bottom) & full
            if not moves:
                return 0.5
            wins = winning_cells(cur, mask) & moves
            cell = wins & -wins if immediate_win and wins else random_cell(moves, state)
            if cell & wins:
                return 1.0 if side == 0 else 0.0
            mask |= cell
            cur = (cur | cell) ^ mask
            side ^= 1

    done = 0
    while done < iterations:
        if not done & 15 and done and time.perf_counter() > deadline:
            break
        node = 0
        while statuses[node] == ONGOING and not untried[node]:
            scale = c * sqrt(log(visits[node]))
            best, best_bound = -1, -1.0
            for child in children[node]:
                if child >= 0:
                    bound = rewards[child] / visits[child] + scale / sqrt(visits[child])
                    if bound > best_bound:
                        best, best_bound = child, bound
            node = best
        if statuses[node] == ONGOING:
            if len(curs) == MCTS_MAX_NODES:
                break
            node_cur, node_mask = curs[node], masks[node]
            cell = random_cell(untried[node], state)
            untried[node] &= ~cell
            child_mask = node_mask | cell
            if cell & winning_cells(node_cur, node_mask):
                status, moves = WON, 0
            elif child_mask == full:
                status, moves = FULL, 0
            else:
                status, moves = ONGOING, (child_mask + bottom) & full
            parent, node = node, len(curs)
            children[parent][column_of(cell, b)] = node
            curs.append((node_cur | cell) ^ child_mask)
            masks.append(child_mask)
            untried.append(moves)
            parents.append(parent)
            statuses.append(status)
            children.append([-1] * cols)
            visits.append(0.0)
            rewards.append(0.0)
        status = statuses[node]
        if status == WON:
            reward = 1.0
        elif status == FULL:
            reward = 0.5
        else:  # the playout's result is for the side to move: the other player
            reward = 1.0 - playout(curs[node], masks[node])
        while node >= 0:
            visits[node] += 1.0
            rewards[node] += reward
            reward = 1.0 - reward
            node = parents[node]
        done += 1
    root = {column: (int(visits[child]), rewards[child])
            for column, child in enumerate(children[0]) if child >= 0}
    return root, done


def most_visited(root: dict[int, tuple[int, float]]) -> int:
    """The column of the most visited root move (ties: the better mean, then the leftmost)."""
    return max(root, key=lambda column: (root[column][0], root[column][1] / root[column][0]))


# --- Kaggle ---------------------------------------------------------------------------


def immediate_win_column(cur: int, mask: int, b: Board, s: Settings, rng: random.Random) -> int:
    """A winning column, else (with ``block``) the block of a single threat, else random."""
    winning_cells = winning_cells_function(b)
    moves = (mask + b.bottom) & b.full
    cells = winning_cells(cur, mask) & moves
    if not cells and s.block:
        threats = winning_cells(cur ^ mask, mask) & moves
        if threats.bit_count() == 1:
            cells = threats
    return rng.choice(columns_of(cells or moves, b))


def columns_of(cells: int, b: Board) -> list[int]:
    """The columns holding a cell of ``cells``, left to right."""
    return [c for c, column in enumerate(b.columns) if cells & column]


BOARDS: dict[tuple[int, int, int], Board] = {}  # built once per board size
SEARCHES: dict[tuple[Board, Settings], Negamax] = {}


def play(cur: int, mask: int, b: Board, s: Settings, deadline: float,
         rng: random.Random) -> int:
    """The column the settings' agent plays in a position that is not over."""
    if s.agent in ("negamax", "negamax-id"):
        search = SEARCHES.get((b, s))
        if search is None:
            search = SEARCHES[b, s] = Negamax(b, s)
        scores, _ = search.deepening(cur, mask, deadline)
        return search.choose(scores, rng)
    if s.agent == "mcts":
        iterations = s.iterations if s.time is None else MCTS_MAX_NODES
        root, _ = mcts(cur, mask, b, s, [rng.getrandbits(63)], iterations, deadline)
        return most_visited(root)
    if s.agent == "immediate-win":
        return immediate_win_column(cur, mask, b, s, rng)
    return rng.choice(columns_of((mask + b.bottom) & b.full, b))


def setting(source: Any, name: str, default: Any) -> Any:
    """A field of a Kaggle observation or configuration (attribute or key)."""
    value = getattr(source, name, None)
    if value is None and isinstance(source, dict):
        value = source.get(name)
    return default if value is None else value


CLOCK = [LOADED]  # the first move's clock started when the file was loaded


def agent(observation: Any, configuration: Any) -> int:
    """Kaggle's ConnectX entry point: the column (0 = leftmost) to play."""
    start = CLOCK.pop() if CLOCK else time.perf_counter()
    rows, cols = int(setting(configuration, "rows", 6)), int(setting(configuration, "columns", 7))
    connect = int(setting(configuration, "inarow", 4))
    b = BOARDS.get((rows, cols, connect))
    if b is None:
        b = BOARDS[rows, cols, connect] = make_board(rows, cols, connect)
    cur, mask = from_kaggle(setting(observation, "board", ()), int(setting(observation, "mark", 1)),
                            b)
    seconds = float(setting(configuration, "actTimeout", DEFAULT_ACT_TIMEOUT))
    if SETTINGS.time is not None:
        seconds = min(seconds, SETTINGS.time)
    return play(cur, mask, b, SETTINGS, start + TIME_SHARE * seconds, RNG)
