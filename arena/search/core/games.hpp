// Whole games between two kernel agents, a batch in one call: the fused game loop of
// arena.search.kernels.games, move for move and draw for draw.
//
// Each game draws from its own Generator(PCG64(seed)) stream (streams.hpp), both players in
// turn, as the agents draw from numpy's. A player is a row of Settings integers and Reals
// floats; a negamax player brings its search arrays (NegamaxPlayer), an MCTS player its tree
// (mcts::Tree, with room for its iterations); a solver player and the adjudication (a game
// stopped at a number of discs and given the result the solver proves) share the solver's
// arrays (solver::Arrays). Think time is counted in
// ticks of the processor's time-stamp counter (the counter numba's llvm.readcyclecounter reads
// on x86-64), read when a player is asked for its move and when it has chosen.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>

#include "bitboard.hpp"
#include "mcts.hpp"
#include "negamax.hpp"
#include "solver.hpp"
#include "streams.hpp"

#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#include <x86intrin.h>
#endif

// The searches a player's move calls are their own dispatched code, which the loop's flattened
// copies must not take in.
#if defined(__GNUC__) || defined(__clang__)
#define ARENA_CORE_NOINLINE __attribute__((noinline))
#else
#define ARENA_CORE_NOINLINE
#endif

namespace arena::core::games {

enum Kind : std::int64_t { RANDOM, IMMEDIATE_WIN, NEGAMAX, MCTS, SOLVER, KINDS };
// A player's Settings row and Reals row (games.SETTINGS, games.REALS).
enum Setting : std::int64_t { KIND, BLOCK, DEPTH, TIEBREAK, ALL_TIES, ITERATIONS, ROLLOUT_WINS,
                              SETTINGS };
enum Real : std::int64_t { C, BLUNDER, REALS };
enum Tiebreak : std::int64_t { TIE_RANDOM, TIE_FIRST, TIE_LEFT, TIE_RIGHT };
enum Ending : std::int8_t { ONGOING, FOUR_IN_A_ROW, BOARD_FULL, ADJUDICATED };
constexpr std::int64_t NO_NODES = -1;

// The processor's time-stamp counter, or nanoseconds of a steady clock where there is none.
inline std::int64_t cycles() {
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
    return static_cast<std::int64_t>(__rdtsc());
#elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_IX86))
    return static_cast<std::int64_t>(__rdtsc());
#else
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch()).count();
#endif
}

// A negamax player's arrays (games.NegamaxArrays): its packed search array, heuristic, table,
// stats and stack, its columns in move order and room for the root scores.
struct NegamaxPlayer {
    negamax::Settings settings;
    Heuristic heuristic;
    std::int64_t* tt = nullptr;
    std::int64_t tt_rows = 0;
    std::int64_t* stats = nullptr;
    std::int64_t* stack = nullptr;
    const std::int64_t* order = nullptr;
    std::int64_t order_count = 0;
    std::int64_t* scores = nullptr;
};

// What a batch of games gives, a row per game (games.Outcomes); sides are 0 (A) and 1 (B).
struct Outcomes {
    std::int8_t* winners;   // the winning side, -1 for a draw
    std::int8_t* endings;   // FOUR_IN_A_ROW, BOARD_FULL or ADJUDICATED
    std::int64_t* plies;    // discs on the board at the end
    std::uint8_t* moves;    // the columns played after the opening, `cells` a game
    std::int64_t cells;
    std::int64_t* cycles;   // (games, 2) counter ticks each side thought
    std::int64_t* nodes;    // (games, 2) nodes each side reported, NO_NODES for none
    std::int64_t* turns;    // (games, 2) moves each side was asked for
};

// A batch: game g starts from starts[2 g], starts[2 g + 1] (the side to move's discs, all
// discs; not over), agent A moving first when firsts[g] is 0.
struct Batch {
    const std::uint64_t* seeds;
    const std::uint64_t* starts;
    const std::int64_t* firsts;
    std::size_t games;
    const std::int64_t* settings;  // (2, SETTINGS)
    const double* reals;           // (2, REALS)
    const NegamaxPlayer* negamax[2];  // null for a player of another kind
    const mcts::Tree* trees[2];       // null for a player that is not MCTS
    const solver::Arrays* solver = nullptr;  // null when no solver plays or adjudicates
    std::int64_t adjudicate = -1;  // the discs at which the solver decides the game (-1: never)
};

// The `n`-th lowest set bit of `cells`.
inline std::uint64_t nth_cell(std::uint64_t cells, std::int64_t n) {
    for (std::int64_t i = 0; i < n; ++i) cells &= cells - 1;
    return cells & (~cells + 1);
}

inline std::int64_t column_of(std::uint64_t cell, const Tables& t) {
    return popcount(cell - 1) / static_cast<std::int64_t>(t.height);
}

// The immediate-win agent's cell: a win, else (`block`) the block of a single threat, else
// any legal cell, uniformly at random among them.
inline std::uint64_t immediate_win(std::uint64_t cur, std::uint64_t mask, bool block,
                                   const Tables& t, std::uint64_t* stream) {
    const std::uint64_t moves = playable(mask, t);
    std::uint64_t candidates = winning_cells(cur, mask, t) & moves;
    if (!candidates && block) {
        const std::uint64_t threats = winning_cells(cur ^ mask, mask, t) & moves;
        if (popcount(threats) == 1) candidates = threats;
    }
    if (!candidates) candidates = moves;
    return nth_cell(candidates, bounded(stream, static_cast<std::uint64_t>(popcount(candidates))));
}

// The negamax agent's column (a best one, ties broken by its rule) and the nodes it searched.
// Not inlined: the search is its own dispatched code (negamax::score_root), which the loop's
// flattened copies must not take in.
ARENA_CORE_NOINLINE inline std::int64_t negamax_column(std::uint64_t cur, std::uint64_t mask,
                                                       const std::int64_t* row,
                                                       const NegamaxPlayer& p, const Tables& t,
                                                       std::uint64_t* stream,
                                                       std::int64_t& nodes) {
    std::int64_t* scores = p.scores;
    negamax::score_root({t, p.settings, p.heuristic, p.tt, p.tt_rows, p.stats, p.stack}, scores,
                        cur, mask, row[DEPTH], row[ALL_TIES] != 0);
    std::int64_t best = -negamax::INFINITY_SCORE, ties = 0;
    for (std::int64_t i = 0; i < p.order_count; ++i) {
        const std::int64_t score = scores[p.order[i]];
        if (score == negamax::NO_SCORE) continue;
        if (score > best) {
            best = score;
            ties = 1;
        } else if (score == best) {
            ++ties;
        }
    }
    nodes = p.stats[negamax::NODES];
    const std::int64_t tiebreak = row[TIEBREAK];
    if (ties == 1 || tiebreak == TIE_RANDOM) {  // the k-th tie in the move order
        std::int64_t pick = bounded(stream, static_cast<std::uint64_t>(ties));
        for (std::int64_t i = 0; i < p.order_count; ++i) {
            if (scores[p.order[i]] != best) continue;
            if (pick == 0) return p.order[i];
            --pick;
        }
    }
    for (std::int64_t i = 0; i < t.cols; ++i) {
        const std::int64_t column = tiebreak == TIE_FIRST ? centre_column(t, i)
                                  : tiebreak == TIE_RIGHT ? t.cols - 1 - i : i;
        if (scores[column] == best) return column;
    }
    return -1;
}

// The solver's search with a budget it never reaches, its nodes counted from 0.
inline void fresh_budget(const solver::Arrays& a) {
    a.stats[solver::NODES] = 0;
    a.stats[solver::LIMIT] = INT64_MAX;
}

// The solver agent's column (a best one at random, or with probability `blunder` any legal
// one) and the nodes it searched. Not inlined, as negamax_column.
ARENA_CORE_NOINLINE inline std::int64_t solver_column(std::uint64_t cur, std::uint64_t mask,
                                                      double blunder, const solver::Arrays& a,
                                                      const Tables& t, std::uint64_t* stream,
                                                      std::int64_t& nodes) {
    std::int64_t scores[solver::MAX_COLUMNS];
    fresh_budget(a);
    solver::search_with(a, [&](auto& s) {
        s.column_scores(cur, mask, scores);
        return 0;
    });
    nodes = a.stats[solver::NODES];
    std::int64_t legal = 0, best = -solver::NO_SCORE, ties = 0;
    for (std::int64_t c = 0; c < t.cols; ++c) {
        if (scores[c] == solver::NO_SCORE) continue;
        ++legal;
        if (legal == 1 || scores[c] > best) {
            best = scores[c];
            ties = 1;
        } else if (scores[c] == best) {
            ++ties;
        }
    }
    std::int64_t pick, wanted;
    if (blunder > 0.0 && next_double(stream) < blunder) {
        pick = bounded(stream, static_cast<std::uint64_t>(legal));
        wanted = solver::NO_SCORE;  // any legal column
    } else {
        pick = bounded(stream, static_cast<std::uint64_t>(ties));
        wanted = best;
    }
    for (std::int64_t c = 0; c < t.cols; ++c) {
        if (scores[c] == solver::NO_SCORE || (wanted != solver::NO_SCORE && scores[c] != wanted))
            continue;
        if (pick == 0) return c;
        --pick;
    }
    return -1;
}

// +1 if the side to move wins with perfect play, -1 if it loses, 0 for a draw.
ARENA_CORE_NOINLINE inline std::int64_t adjudicated_winner(std::uint64_t cur, std::uint64_t mask,
                                                           const solver::Arrays& a) {
    fresh_budget(a);
    const std::int64_t score = solver::search_with(a, [&](auto& s) {
        return s.solve(cur, mask, true);
    });
    return score > 0 ? 1 : score < 0 ? -1 : 0;
}

// The MCTS agent's column (most visits, then the best mean) after its iterations from a
// fresh root, with a splitmix64 state drawn from the game's stream, and its tree's node
// count; the tree's used rows of positions and tallies are zeroed after, so that the next
// move starts from an empty tree as a new one. A search of a malformed tree (which a fresh
// one with c >= 0 is not) leaves its error in `error` and the column -1. Not inlined: the
// search is its own dispatched code (mcts::dispatch).
ARENA_CORE_NOINLINE inline std::int64_t mcts_column(std::uint64_t cur, std::uint64_t mask,
                                                    const std::int64_t* row, const double* real,
                                                    const mcts::Tree& tree, const Tables& t,
                                                    std::uint64_t* stream, std::int64_t& nodes,
                                                    mcts::Searched& error) {
    mcts::set_root(tree, cur, mask, t);
    std::uint64_t state = half_uint64(stream);
    const mcts::Searched searched = mcts::dispatch(
        mcts::SearchJob{tree, {1, row[ITERATIONS], real[C], row[ROLLOUT_WINS] != 0}, &state},
        t);
    nodes = searched.count;
    if (searched.error != mcts::NONE) {
        error = searched;
        return -1;
    }
    std::int64_t best = -1;
    double best_visits = -1.0, best_mean = -1.0;
    for (std::int64_t column = 0; column < t.cols; ++column) {
        const std::int64_t child = tree.links[mcts::CHILDREN + column];
        if (child < 0) continue;
        const double visits = tree.tallies[child * mcts::TALLY_FIELDS + mcts::VISITS];
        const double mean = tree.tallies[child * mcts::TALLY_FIELDS + mcts::REWARD] / visits;
        if (visits > best_visits || (visits == best_visits && mean > best_mean)) {
            best = column;
            best_visits = visits;
            best_mean = mean;
        }
    }
    for (std::int64_t i = 0; i < searched.count * mcts::POSITION_FIELDS; ++i)
        tree.positions[i] = 0;
    for (std::int64_t i = 0; i < searched.count * mcts::TALLY_FIELDS; ++i)
        tree.tallies[i] = 0.0;
    return best;
}

// Every game of the batch played to its end, written to `out`; what stopped an MCTS search
// of a malformed tree, if one did (the batch then ends there).
inline mcts::Searched play_games(const Batch& b, const Tables& t, const Outcomes& out) {
    mcts::Searched error{0, 0, mcts::NONE, 0};
    std::uint64_t stream[STREAM_WORDS] = {};
    for (std::size_t g = 0; g < b.games; ++g) {
        seed_stream(stream, b.seeds[g]);
        std::uint64_t cur = b.starts[2 * g], mask = b.starts[2 * g + 1];
        std::int64_t plies = popcount(mask);
        std::int64_t side = plies % 2 == 0 ? b.firsts[g] : 1 - b.firsts[g];  // to move
        std::int64_t* nodes = out.nodes + 2 * g;
        std::int64_t* ticks = out.cycles + 2 * g;
        std::int64_t* turns = out.turns + 2 * g;
        std::uint8_t* moves = out.moves + static_cast<std::int64_t>(g) * out.cells;
        nodes[0] = nodes[1] = NO_NODES;
        ticks[0] = ticks[1] = 0;
        turns[0] = turns[1] = 0;
        out.winners[g] = -1;
        std::int64_t played = 0;
        std::int8_t ending = mask == t.board ? BOARD_FULL : ONGOING;
        while (ending == ONGOING) {
            if (b.solver && b.adjudicate >= 0 && b.adjudicate <= plies) {
                const std::int64_t winner = adjudicated_winner(cur, mask, *b.solver);
                out.winners[g] = static_cast<std::int8_t>(winner == 0 ? -1
                                                          : winner > 0 ? side : 1 - side);
                ending = ADJUDICATED;
                break;
            }
            const std::int64_t* row = b.settings + side * SETTINGS;
            const std::int64_t began = cycles();
            std::int64_t searched = NO_NODES;
            std::uint64_t cell = 0;
            if (row[KIND] == RANDOM) {
                const std::uint64_t open = playable(mask, t);
                cell = nth_cell(open, static_cast<std::int64_t>(next_double(stream) *
                                                                 popcount(open)));
            } else if (row[KIND] == IMMEDIATE_WIN) {
                cell = immediate_win(cur, mask, row[BLOCK] != 0, t, stream);
            } else if (row[KIND] == MCTS) {
                const std::int64_t column = mcts_column(cur, mask, row, b.reals + side * REALS,
                                                        *b.trees[side], t, stream, searched,
                                                        error);
                if (error.error != mcts::NONE) return error;
                cell = column < 0 ? 0 : playable(mask, t) & column_cells(t, column);
            } else {  // NEGAMAX or SOLVER: the binding refuses the kinds the loop does not play
                const std::int64_t column =
                    row[KIND] == NEGAMAX
                        ? negamax_column(cur, mask, row, *b.negamax[side], t, stream, searched)
                        : solver_column(cur, mask, b.reals[side * REALS + BLUNDER], *b.solver,
                                        t, stream, searched);
                cell = column < 0 ? 0 : playable(mask, t) & column_cells(t, column);
            }
            ticks[side] += cycles() - began;
            turns[side] += 1;
            if (searched != NO_NODES) nodes[side] = (nodes[side] > 0 ? nodes[side] : 0) + searched;
            moves[played++] = static_cast<std::uint8_t>(column_of(cell, t));
            ++plies;
            const std::uint64_t won = cell & winning_cells(cur, mask, t);
            mask |= cell;
            cur = (cur | cell) ^ mask;
            if (won) {
                out.winners[g] = static_cast<std::int8_t>(side);
                ending = FOUR_IN_A_ROW;
            } else if (mask == t.board) {
                ending = BOARD_FULL;
            }
            side = 1 - side;
        }
        out.endings[g] = ending;
        out.plies[g] = plies;
    }
    return error;
}

#if defined(ARENA_CORE_POPCNT_DISPATCH)
ARENA_CORE_POPCNT_TARGET inline mcts::Searched play_games_popcnt(const Batch& b,
                                                                 const Tables& t,
                                                                 const Outcomes& out) {
    return play_games(b, t, out);
}
#endif

// play_games with the machine's popcount where it has one (see ARENA_CORE_POPCNT_DISPATCH).
inline mcts::Searched play_batch(const Batch& b, const Tables& t, const Outcomes& out) {
#if defined(ARENA_CORE_POPCNT_DISPATCH)
    if (has_popcnt_instruction()) return play_games_popcnt(b, t, out);
#endif
    return play_games(b, t, out);
}

}  // namespace arena::core::games
