// Monte Carlo tree search (UCT) with random playouts: draw for draw the numba kernels of
// arena.search.kernels.mcts (whose set_root and search the fused loop of numba still calls),
// so that the same tree grows, the same playouts are played and the same moves are chosen.
//
// The tree is the caller's three arrays, a row per node, node 0 the root (mcts.new_tree):
// positions (uint64: cur, mask, the untried cells), links (int32: parent, status, then the
// child of each column, -1 until expanded) and tallies (float64: visits, total reward for the
// player who moved into the node). Randomness is a splitmix64 generator whose state the
// caller keeps in a one-element uint64 array; a kernel copies it into a local (a register)
// and writes it back when it returns, so that a search run in batches plays as one run.
//
// Where numba would read or write outside the arrays of a malformed tree (a link pointing
// outside its nodes, which numba wraps to links[-1]; an untried cell off the board) a search
// stops and says what it found (Searched::error); the bindings raise ValueError.
#pragma once

#include <atomic>
#include <cmath>
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include "bitboard.hpp"
#include "streams.hpp"
#if defined(ARENA_CORE_POPCNT_DISPATCH)
#include <cpuid.h>
#include <immintrin.h>
#endif

namespace arena::core::mcts {

enum PositionField : std::int64_t { CUR, MASK, UNTRIED, POSITION_FIELDS };
enum LinkField : std::int64_t { PARENT, STATUS, CHILDREN };
enum TallyField : std::int64_t { VISITS, REWARD, TALLY_FIELDS };
enum Status : std::int32_t { ONGOING, WON, FULL };

// What stops a search of a malformed tree before it reads outside it.
enum Error : std::int64_t {
    NONE,
    BAD_CHILD,   // a fully expanded node's child link outside (node, count)
    NO_CHILD,    // a fully expanded node with no child whose bound beats -1 (negative c, NaN)
    BAD_PARENT,  // a parent link not below its node
    OFF_BOARD,   // a node's mask or untried cell outside the board
};

// The caller's tree arrays; `capacity` rows, links CHILDREN + cols wide.
struct Tree {
    std::uint64_t* positions;
    std::int32_t* links;
    double* tallies;
    std::int64_t capacity;
    std::int64_t width;
};

// search's answer: the node count, the iterations run, and what stopped it (NONE: the
// iterations asked, or fewer if the tree filled up) at which node.
struct Searched {
    std::int64_t count;
    std::int64_t done;
    Error error;
    std::int64_t node;
};

#if defined(ARENA_CORE_POPCNT_DISPATCH)
// BMI2's parallel bit deposit: the bit of `cells` at the rank of the one bit of `bit`.
__attribute__((target("bmi2"))) inline std::uint64_t deposit(std::uint64_t bit,
                                                               std::uint64_t cells) {
    return _pdep_u64(bit, cells);
}

// Whether the machine has BMI2 and a fast pdep (3 cycles): AMD's before Zen 3 take one of
// up to hundreds of cycles, microcoded.
inline bool has_fast_pdep() {
    static const bool fast = [] {
        __builtin_cpu_init();
        if (!__builtin_cpu_supports("bmi2")) return false;
        if (!__builtin_cpu_is("amd")) return true;
        unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
        if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return false;
        const unsigned base = (eax >> 8) & 0xF;
        const unsigned family = base == 0xF ? base + ((eax >> 20) & 0xFF) : base;
        return family >= 0x19;
    }();
    return fast;
}
#endif

// One of the set bits of `cells` (not empty), uniformly at random: the k-th lowest, k the
// high 32 bits of a draw times their number, over 2**32. With SPAN > 0, `cells` has at most
// SPAN bits (one per column): the k lowest are cleared by SPAN - 1 conditional moves rather
// than a loop, whose exit at a random k the processor cannot predict; SPAN < 0 (a board of
// -SPAN columns, compiled for BMI2) takes the k-th by one pdep.
template <int SPAN = 0>
inline std::uint64_t random_cell(std::uint64_t cells, std::uint64_t& state) {
    const std::uint64_t k =
        splitmix_below(state, static_cast<std::uint64_t>(popcount(cells)));
#if defined(ARENA_CORE_POPCNT_DISPATCH)
    if constexpr (SPAN < 0) return deposit(std::uint64_t{1} << k, cells);
#endif
    if constexpr (SPAN > 0) {
        for (int i = 0; i < SPAN - 1; ++i) {
            const std::uint64_t cleared = cells & (cells - 1);
            cells = static_cast<std::uint64_t>(i) < k ? cleared : cells;
        }
    } else {
        for (std::uint64_t i = 0; i < k; ++i) cells &= cells - 1;
    }
    return cells & (~cells + 1);
}

// Whether `stones` holds a line of `connect`; of four by doubling runs on the boards where a
// line of four fits every direction.
inline bool line_in(std::uint64_t stones, const Tables& t) {
    if (t.connect == 4 && t.directions == STEPS) {
        std::uint64_t lines = 0;
        for (int d = 0; d < STEPS; ++d) {
            const std::uint64_t pairs = stones & (stones >> t.steps[d]);
            lines |= pairs & (pairs >> (2 * t.steps[d]));
        }
        return lines != 0;
    }
    return has_line(stones, t);
}

// The result of a random game from a position (not over) for its side to move: 1 a win,
// 0.5 a draw, 0 a loss. Each move is a uniformly random legal column; with IMMEDIATE_WIN a
// side that can complete a line does. SPAN: the board's columns where known (random_cell).
//
// Without IMMEDIATE_WIN, whether a move completes a line is asked of the mover's discs with
// it (line_in), cheaper than its winning cells: the same answer while neither side has a line
// yet, which holds from a position where neither has one (a side's line can only come from
// its own move, which ends the game). From a position where one has, numba's way is taken.
template <bool IMMEDIATE_WIN, int SPAN>
inline double playout(std::uint64_t cur, std::uint64_t mask, const Tables& t,
                      std::uint64_t& state) {
    bool first = true;  // the side to move at the start is moving
    if constexpr (IMMEDIATE_WIN) {
        while (true) {
            const std::uint64_t moves = playable(mask, t);
            if (!moves) return 0.5;
            if (winning_cells(cur, mask, t) & moves) return first ? 1.0 : 0.0;
            // no move wins: the random one does not either
            const std::uint64_t cell = random_cell<SPAN>(moves, state);
            mask |= cell;
            cur = (cur | cell) ^ mask;
            first = !first;
        }
    } else if (!line_in(cur, t) && !line_in(cur ^ mask, t)) {
        while (true) {
            const std::uint64_t moves = playable(mask, t);
            if (!moves) return 0.5;
            const std::uint64_t cell = random_cell<SPAN>(moves, state);
            if (line_in(cur | cell, t)) return first ? 1.0 : 0.0;
            mask |= cell;
            cur = (cur | cell) ^ mask;
            first = !first;
        }
    } else {
        while (true) {
            const std::uint64_t moves = playable(mask, t);
            if (!moves) return 0.5;
            const std::uint64_t wins = winning_cells(cur, mask, t) & moves;
            const std::uint64_t cell = random_cell<SPAN>(moves, state);
            if (cell & wins) return first ? 1.0 : 0.0;
            mask |= cell;
            cur = (cur | cell) ^ mask;
            first = !first;
        }
    }
}

// Node 0 made the root for a position (not over).
inline void set_root(const Tree& tree, std::uint64_t cur, std::uint64_t mask, const Tables& t) {
    tree.positions[CUR] = cur;
    tree.positions[MASK] = mask;
    tree.positions[UNTRIED] = playable(mask, t);
    for (std::int64_t i = 0; i < tree.width; ++i) tree.links[i] = -1;
    tree.links[STATUS] = ONGOING;
    tree.tallies[VISITS] = tree.tallies[REWARD] = 0.0;
}

// What a search is asked to do.
struct Settings {
    std::int64_t count;       // nodes in the tree, 1 to its capacity
    std::int64_t iterations;  // at least 0
    double c;                 // the UCB1 exploration constant
    bool immediate_win;
};

// The child of fully expanded `node` with the highest upper confidence bound (UCB1), or a
// negative Error when there is none or a link points outside the tree's `count` nodes.
//
// With SPAN > 0 (the board's columns known), the children's tallies are gathered first and
// their bounds computed two at a time with SSE2's packed divisions and square roots (x86-64's
// baseline; the same IEEE results as one at a time); the first highest is then picked as one
// at a time would.
template <int SPAN>
inline std::int64_t best_child(const Tree& tree, std::int64_t node, std::int64_t count,
                               std::int64_t cols, double c) {
    const double* tallies = tree.tallies;
    const std::int32_t* children = tree.links + node * tree.width + CHILDREN;
    const double scale = c * std::sqrt(std::log(tallies[node * TALLY_FIELDS + VISITS]));
    std::int64_t best = -NO_CHILD;
    double best_bound = -1.0;
    if constexpr (SPAN > 0) {
        double visits[SPAN], rewards[SPAN], bounds[SPAN];
        for (int col = 0; col < SPAN; ++col) {
            const std::int64_t child = children[col];
            if (child >= 0 && (child <= node || child >= count)) return -BAD_CHILD;
            const std::int64_t row = (child < 0 ? 0 : child) * TALLY_FIELDS;
            visits[col] = tallies[row + VISITS];
            rewards[col] = tallies[row + REWARD];
        }
        int col = 0;
#if defined(__SSE2__)
        const __m128d scales = _mm_set1_pd(scale);
        for (; col + 2 <= SPAN; col += 2) {
            const __m128d v = _mm_loadu_pd(visits + col);
            _mm_storeu_pd(bounds + col, _mm_add_pd(_mm_div_pd(_mm_loadu_pd(rewards + col), v),
                                                   _mm_div_pd(scales, _mm_sqrt_pd(v))));
        }
#endif
        for (; col < SPAN; ++col)
            bounds[col] = rewards[col] / visits[col] + scale / std::sqrt(visits[col]);
        for (col = 0; col < SPAN; ++col) {
            if (children[col] >= 0 && bounds[col] > best_bound) {
                best = children[col];
                best_bound = bounds[col];
            }
        }
        return best;
    }
    for (std::int64_t col = 0; col < cols; ++col) {
        const std::int64_t child = children[col];
        if (child < 0) continue;
        if (child <= node || child >= count) return -BAD_CHILD;
        const double visits = tallies[child * TALLY_FIELDS + VISITS];
        const double bound = tallies[child * TALLY_FIELDS + REWARD] / visits
                           + scale / std::sqrt(visits);
        if (bound > best_bound) {
            best = child;
            best_bound = bound;
        }
    }
    return best;
}

// `iterations` of UCT on the tree of `count` nodes (mcts.search): each descends by UCB1
// through fully expanded nodes, expands one untried move (at random), plays a random game
// from the new node unless its move ended the game, and adds the result to every node on
// the way back to the root. Fewer iterations when the tree is full.
template <bool IMMEDIATE_WIN, int SPAN>
inline Searched search(const Tree& tree, std::int64_t count, std::int64_t iterations,
                       double c, std::uint64_t& state_ref, const Tables& t) {
    std::uint64_t state = state_ref;
    std::uint64_t* positions = tree.positions;
    std::int32_t* links = tree.links;
    double* tallies = tree.tallies;
    const std::int64_t width = tree.width;
    Searched out{count, iterations, NONE, 0};
    for (std::int64_t done = 0; done < iterations; ++done) {
        std::int64_t node = 0;
        while (links[node * width + STATUS] == ONGOING && !positions[node * POSITION_FIELDS
                                                                     + UNTRIED]) {
            const std::int64_t child = best_child<(SPAN < 0 ? -SPAN : SPAN)>(tree, node, count,
                                                                            t.cols, c);
            if (child < 0) {
                out = {count, done, static_cast<Error>(-child), node};
                state_ref = state;
                return out;
            }
            node = child;
        }
        if (links[node * width + STATUS] == ONGOING) {
            if (count == tree.capacity) {
                out = {count, done, NONE, 0};
                state_ref = state;
                return out;
            }
            std::uint64_t* from = positions + node * POSITION_FIELDS;
            const std::uint64_t node_cur = from[CUR], node_mask = from[MASK];
            const std::uint64_t cell = random_cell<SPAN>(from[UNTRIED], state);
            if ((node_mask | cell) & ~t.board) {
                out = {count, done, OFF_BOARD, node};
                state_ref = state;
                return out;
            }
            from[UNTRIED] &= ~cell;
            const std::int64_t child = count++;
            const std::uint64_t mask = node_mask | cell;
            std::uint64_t* to = positions + child * POSITION_FIELDS;
            to[CUR] = (node_cur | cell) ^ mask;
            to[MASK] = mask;
            std::int32_t* row = links + child * width;
            for (std::int64_t i = 0; i < width; ++i) row[i] = -1;
            row[PARENT] = static_cast<std::int32_t>(node);
            if (cell & winning_cells(node_cur, node_mask, t)) {
                row[STATUS] = WON;
            } else if (mask == t.board) {
                row[STATUS] = FULL;
            } else {
                row[STATUS] = ONGOING;
                to[UNTRIED] = playable(mask, t);
            }
            const std::int64_t column = popcount(cell - 1) / static_cast<std::int64_t>(t.height);
            links[node * width + CHILDREN + column] = static_cast<std::int32_t>(child);
            node = child;
        }
        const std::int32_t status = links[node * width + STATUS];
        double reward;
        if (status == WON) {
            reward = 1.0;
        } else if (status == FULL) {
            reward = 0.5;
        } else {  // the playout's result is for the side to move: the other player
            const std::uint64_t* at = positions + node * POSITION_FIELDS;
            if (at[MASK] & ~t.board) {
                out = {count, done, OFF_BOARD, node};
                state_ref = state;
                return out;
            }
            reward = 1.0 - playout<IMMEDIATE_WIN, SPAN>(at[CUR], at[MASK], t, state);
        }
        while (node >= 0) {
            double* tally = tallies + node * TALLY_FIELDS;
            tally[VISITS] += 1.0;
            tally[REWARD] += reward;
            reward = 1.0 - reward;
            const std::int64_t parent = links[node * width + PARENT];
            if (parent >= node) {
                out = {count, done, BAD_PARENT, node};
                state_ref = state;
                return out;
            }
            node = parent;
        }
    }
    out.count = count;
    state_ref = state;
    return out;
}

// Wins, draws and losses of the side to move in `games` playouts from a position, into
// counts[0..2].
template <bool IMMEDIATE_WIN, int SPAN>
inline void playout_results(std::uint64_t cur, std::uint64_t mask, std::int64_t games,
                            std::uint64_t& state_ref, const Tables& t, std::int64_t* counts) {
    std::uint64_t state = state_ref;
    std::int64_t wins = 0, draws = 0, losses = 0;
    for (std::int64_t g = 0; g < games; ++g) {
        const double result = playout<IMMEDIATE_WIN, SPAN>(cur, mask, t, state);
        if (result == 1.0)
            ++wins;
        else if (result == 0.5)
            ++draws;
        else
            ++losses;
    }
    counts[0] = wins;
    counts[1] = draws;
    counts[2] = losses;
    state_ref = state;
}

// --- the kernels on the caller's arrays, dispatched --------------------------------------
//
// Each is compiled for the common boards of connect 4 (6 x 7, 5 x 6, 7 x 8) with their tables
// constants the compiler folds in (shifts by immediates, the loops over columns unrolled),
// twice (with BMI2's pdep for CPUs where it is fast, has_fast_pdep, and without), and for any
// board, under the popcount target where the machine has the instruction (see
// ARENA_CORE_POPCNT_DISPATCH), else for any CPU. All give the same draws and results.

// The common boards of a board's tables: 0 for none, else 1 + their index.
inline int common_board(const Tables& t) {
    if (t.connect != 4) return 0;
    if (t.height == 7 && is_board(t, 6, 7, 4)) return 1;
    if (t.height == 6 && is_board(t, 5, 6, 4)) return 2;
    if (t.height == 8 && is_board(t, 7, 8, 4)) return 3;
    return 0;
}

struct PlayoutJob {
    std::uint64_t cur, mask;
    std::int64_t games;
    bool immediate_win;
    std::uint64_t* state;
    std::int64_t* counts;
};

struct SearchJob {
    Tree tree;
    Settings settings;
    std::uint64_t* state;
};

// A job on the board `t`, of SPAN columns where known (0: any).
template <int SPAN>
inline void run(const PlayoutJob& j, const Tables& t) {
    if (j.immediate_win)
        playout_results<true, SPAN>(j.cur, j.mask, j.games, *j.state, t, j.counts);
    else
        playout_results<false, SPAN>(j.cur, j.mask, j.games, *j.state, t, j.counts);
}

template <int SPAN>
inline Searched run(const SearchJob& j, const Tables& t) {
    const Settings& s = j.settings;
    return s.immediate_win
        ? search<true, SPAN>(j.tree, s.count, s.iterations, s.c, *j.state, t)
        : search<false, SPAN>(j.tree, s.count, s.iterations, s.c, *j.state, t);
}

#if defined(ARENA_CORE_POPCNT_DISPATCH)
template <typename Job>
ARENA_CORE_POPCNT_TARGET inline auto run_popcnt(const Job& j, const Tables& t) {
    return run<0>(j, t);
}

template <std::int64_t ROWS, std::int64_t COLS, typename Job>
ARENA_CORE_POPCNT_TARGET inline auto run_fixed(const Job& j) {
    const Tables t = Tables::of_board(ROWS, COLS, 4);
    return run<static_cast<int>(COLS)>(j, t);
}

template <std::int64_t ROWS, std::int64_t COLS, typename Job>
__attribute__((target("popcnt,bmi2"), flatten)) inline auto run_fixed_pdep(const Job& j) {
    const Tables t = Tables::of_board(ROWS, COLS, 4);
    return run<-static_cast<int>(COLS)>(j, t);
}
#endif

#ifndef ARENA_CORE_ANY_CPU  // as negamax.hpp defines it
#if defined(ARENA_CORE_POPCNT_DISPATCH)
#define ARENA_CORE_ANY_CPU ARENA_CORE_FLATTEN
#else
#define ARENA_CORE_ANY_CPU
#endif
#endif

template <typename Job>
ARENA_CORE_ANY_CPU inline auto run_any_cpu(const Job& j, const Tables& t) {
    return run<0>(j, t);
}

// Which of the compiled kernels dispatch may take, for the tests to try each on any machine:
// ANY (the fastest the machine runs), NO_PDEP (not BMI2's), GENERIC (not the common boards'
// either), PORTABLE (the one for any CPU).
enum Kernels : int { ANY, NO_PDEP, GENERIC, PORTABLE };

inline std::atomic<int>& allowed_kernels() {
    static std::atomic<int> allowed{ANY};
    return allowed;
}

// A job on the board `t`, with the machine's popcount and the common boards' constants.
template <typename Job>
inline auto dispatch(const Job& j, const Tables& t) {
#if defined(ARENA_CORE_POPCNT_DISPATCH)
    const auto allowed =
        static_cast<Kernels>(allowed_kernels().load(std::memory_order_relaxed));
    if (allowed == GENERIC && has_popcnt_instruction()) return run_popcnt(j, t);
    if (allowed == ANY && has_popcnt_instruction() && has_fast_pdep()) {
        switch (common_board(t)) {
            case 1: return run_fixed_pdep<6, 7>(j);
            case 2: return run_fixed_pdep<5, 6>(j);
            case 3: return run_fixed_pdep<7, 8>(j);
            default: return run_popcnt(j, t);
        }
    }
    if (allowed != PORTABLE && has_popcnt_instruction()) {
        switch (common_board(t)) {
            case 1: return run_fixed<6, 7>(j);
            case 2: return run_fixed<5, 6>(j);
            case 3: return run_fixed<7, 8>(j);
            default: return run_popcnt(j, t);
        }
    }
#endif
    return run_any_cpu(j, t);
}

}  // namespace arena::core::mcts
