// Many boards stepped in one call: the vectorized environment's kernel (arena.envs.vector),
// as arena.search.kernels.vector documents it.
//
// Every board is two bitboards with the learner to move. A step plays the learner's column on
// every board, then the opponent's reply (unless the game ended or there is no opponent), and
// starts a new game on every board whose game ended, the opponent moving first there when the
// environment's rule (or its draw) says so. The opponents draw from one splitmix64 state.
#pragma once

#include <cstddef>
#include <cstdint>

#include "bitboard.hpp"
#include "negamax.hpp"
#include "streams.hpp"

namespace arena::core::vector {

enum Opponent : std::int64_t { RANDOM, IMMEDIATE_WIN, NEGAMAX, SELF_PLAY, OPPONENTS };
enum First : std::int64_t { LEARNER_FIRST, OPPONENT_FIRST, EITHER_FIRST, FIRSTS };
constexpr std::int64_t NONE = -1;  // no column

// A whole number from 0 to n - 1 of the environment's splitmix64 `state`.
inline std::int64_t random_below(std::uint64_t& state, std::uint64_t n) {
    return static_cast<std::int64_t>(splitmix_below(state, n));
}

// The column of the `index`-th (from the left) of the one-per-column `cells`, or NONE.
inline std::int64_t nth_column(std::uint64_t cells, std::int64_t index, const Tables& t) {
    for (std::int64_t c = 0; c < t.cols; ++c) {
        if (!(cells & column_cells(t, c))) continue;
        if (index == 0) return c;
        --index;
    }
    return NONE;
}

// What the negamax opponent searches with (its board, settings, heuristic and arrays).
struct Search {
    negamax::Settings settings;
    Heuristic heuristic;
    std::int64_t* tt;
    std::int64_t tt_rows;
    std::int64_t* stats;
    std::int64_t* stack;
    std::int64_t* scores;  // room for a score per column
};

// What a step reads and writes, a row per board.
struct Boards {
    std::size_t count;
    std::uint64_t* cur;
    std::uint64_t* mask;
    const std::int64_t* actions;
    float* rewards;
    bool* terminated;
    bool* illegal;
    std::int64_t* replies;
    std::int64_t* openings;
};

// The opponent's column in a position it is to move in (not over, not full).
inline std::int64_t opponent_column(std::uint64_t cur, std::uint64_t mask, std::int64_t kind,
                                    std::int64_t depth, const Tables& t, const Search& s,
                                    std::uint64_t& state) {
    const std::uint64_t moves = playable(mask, t);
    if (kind == NEGAMAX) {  // a best column of the root's scores, ties at random
        negamax::score_root({t, s.settings, s.heuristic, s.tt, s.tt_rows, s.stats, s.stack},
                            s.scores, cur, mask, depth, true);
        std::int64_t best = s.scores[0], ties = 0;
        for (std::int64_t c = 1; c < t.cols; ++c)
            if (s.scores[c] > best) best = s.scores[c];
        for (std::int64_t c = 0; c < t.cols; ++c) ties += s.scores[c] == best;
        std::int64_t pick = random_below(state, static_cast<std::uint64_t>(ties));
        for (std::int64_t c = 0; c < t.cols; ++c) {
            if (s.scores[c] != best) continue;
            if (pick == 0) return c;
            --pick;
        }
        return NONE;
    }
    std::uint64_t cells = moves;
    if (kind == IMMEDIATE_WIN) {
        const std::uint64_t wins = winning_cells(cur, mask, t) & moves;
        if (wins) cells = wins;
    }
    return nth_column(cells, random_below(state, static_cast<std::uint64_t>(popcount(cells))),
                      t);
}

// `column` (legal) played: the next side's discs and the new mask; `won` if the mover won.
inline void drop(std::uint64_t& cur, std::uint64_t& mask, std::int64_t column, const Tables& t,
                 bool& won) {
    const std::uint64_t next = mask | (mask + (std::uint64_t{1} << (static_cast<std::uint64_t>(
                                                   column) * t.height)));
    const std::uint64_t mover = cur | (next ^ mask);
    won = has_line(mover, t);
    cur = mover ^ next;
    mask = next;
}

// Every board stepped (see the file's comment); `kind` and `first` are in range, and a
// NEGAMAX opponent's `depth` fits its stack (the binding checks).
inline void step_boards(const Tables& t, std::int64_t kind, std::int64_t depth,
                        std::int64_t first, const Search& s, std::uint64_t& state,
                        const Boards& b) {
    for (std::size_t i = 0; i < b.count; ++i) {
        std::uint64_t c = b.cur[i], m = b.mask[i];
        const std::int64_t action = b.actions[i];
        b.replies[i] = b.openings[i] = NONE;
        b.rewards[i] = 0.0f;
        bool done = false, won = false;
        const bool legal = action >= 0 && action < t.cols &&
                           (playable(m, t) & column_cells(t, action)) != 0;
        b.illegal[i] = !legal;
        if (!legal) {
            b.rewards[i] = -1.0f;
            done = true;
        } else {
            drop(c, m, action, t, won);
            if (won) {
                b.rewards[i] = 1.0f;
                done = true;
            } else if (m == t.board) {
                done = true;
            } else if (kind != SELF_PLAY) {
                const std::int64_t reply = opponent_column(c, m, kind, depth, t, s, state);
                b.replies[i] = reply;
                drop(c, m, reply, t, won);
                if (won) {
                    b.rewards[i] = -1.0f;
                    done = true;
                } else if (m == t.board) {
                    done = true;
                }
            }
        }
        b.terminated[i] = done;
        if (done) {
            c = m = 0;
            if (kind != SELF_PLAY &&
                (first == OPPONENT_FIRST || (first == EITHER_FIRST && random_below(state, 2)))) {
                const std::int64_t opening = opponent_column(c, m, kind, depth, t, s, state);
                b.openings[i] = opening;
                drop(c, m, opening, t, won);
            }
        }
        b.cur[i] = c;
        b.mask[i] = m;
    }
}

#if defined(ARENA_CORE_POPCNT_DISPATCH)
ARENA_CORE_POPCNT_TARGET inline void step_boards_popcnt(const Tables& t, std::int64_t kind,
                                                        std::int64_t depth, std::int64_t first,
                                                        const Search& s, std::uint64_t& state,
                                                        const Boards& b) {
    step_boards(t, kind, depth, first, s, state, b);
}
#endif

// step_boards with the machine's popcount where it has one (see ARENA_CORE_POPCNT_DISPATCH);
// the negamax search is dispatched on its own.
inline void step_batch(const Tables& t, std::int64_t kind, std::int64_t depth, std::int64_t first,
                       const Search& s, std::uint64_t& state, const Boards& b) {
#if defined(ARENA_CORE_POPCNT_DISPATCH)
    if (has_popcnt_instruction()) return step_boards_popcnt(t, kind, depth, first, s, state, b);
#endif
    step_boards(t, kind, depth, first, s, state, b);
}

// Every board's planes (planes + 2 rows cols i: the side to move's discs, then the other's,
// row 0 the top row) and legal columns (legal + cols i).
inline void observe(const Tables& t, std::size_t count, const std::uint64_t* cur,
                    const std::uint64_t* mask, std::int8_t* planes, bool* legal) {
    const auto rows = static_cast<std::int64_t>(t.height) - 1;
    const std::size_t plane = static_cast<std::size_t>(rows * t.cols);
    const std::uint64_t column_bits = t.column;
    for (std::size_t i = 0; i < count; ++i) {
        const std::uint64_t own = cur[i], theirs = cur[i] ^ mask[i];
        const std::uint64_t open = playable(mask[i], t);
        std::int8_t* mine = planes + 2 * plane * i;
        std::int8_t* other = mine + plane;
        for (std::int64_t col = 0; col < t.cols; ++col) {
            const std::uint64_t base = static_cast<std::uint64_t>(col) * t.height;
            legal[static_cast<std::size_t>(t.cols) * i + static_cast<std::size_t>(col)] =
                ((open >> base) & column_bits) != 0;
            for (std::int64_t row = 0; row < rows; ++row) {
                const std::uint64_t bit = base + static_cast<std::uint64_t>(row);
                const std::size_t at = static_cast<std::size_t>((rows - 1 - row) * t.cols + col);
                mine[at] = static_cast<std::int8_t>((own >> bit) & 1);
                other[at] = static_cast<std::int8_t>((theirs >> bit) & 1);
            }
        }
    }
}

}  // namespace arena::core::vector
