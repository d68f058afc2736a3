// The board's constants and the rules on 64-bit bitboards, shared by the compiled kernels.
//
// A position is two uint64 bitboards in the layout of arena.rules.board: column c owns bits
// c * (rows + 1) to c * (rows + 1) + rows - 1, bottom to top, and one empty bit above them (the
// sentinel that keeps lines from wrapping into the next column). `cur` holds the discs of the
// side to move, `mask` every disc.
//
// A `Tables` holds what a kernel needs to know of the board size. It is read from the uint64
// array of arena.search.kernels.bitboard.board_array (the layout below), or made from rows,
// columns and connect (without the positional planes, which only the heuristics use).
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(_MSC_VER)
#include <intrin.h>
#endif

namespace arena::core {

constexpr std::uint64_t ALL = ~std::uint64_t{0};
constexpr int STEPS = 4;   // line directions: vertical, horizontal, falling, rising
constexpr int PLANES = 8;  // bit planes of the positional weights
// board_array: bottom, board, centre, column, height, cols, connect, directions, the STEPS
// steps (unused ones 0), the PLANES planes.
constexpr int BOARD_FIELDS = 8 + STEPS + PLANES;

inline int popcount(std::uint64_t bits) {
#if defined(_MSC_VER)
    return static_cast<int>(__popcnt64(bits));
#else
    return __builtin_popcountll(bits);
#endif
}

// x86-64 has a popcount instruction on every CPU since 2008 but not in its baseline, which a
// portable build (no -march=native) compiles for: there __builtin_popcountll is a library
// call. A hot kernel is compiled twice instead, once for CPUs with the instruction
// (ARENA_CORE_POPCNT_TARGET, everything it calls inlined into it) and once for any, and
// picks one at run time with has_popcnt_instruction().
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#define ARENA_CORE_POPCNT_DISPATCH 1
#define ARENA_CORE_POPCNT_TARGET __attribute__((target("popcnt"), flatten))
#define ARENA_CORE_FLATTEN __attribute__((flatten))
inline bool has_popcnt_instruction() {
    static const bool has = [] {
        __builtin_cpu_init();
        return __builtin_cpu_supports("popcnt") != 0;
    }();
    return has;
}
#endif

struct Tables {
    std::uint64_t bottom = 0;  // the bottom cell of every column
    std::uint64_t board = 0;   // every cell
    std::uint64_t centre = 0;  // the cells of column cols / 2
    std::uint64_t column = 0;  // the cells of column 0
    std::uint64_t height = 0;  // bits per column: rows + 1
    std::int64_t cols = 0;
    std::int64_t connect = 0;
    std::int64_t directions = 0;         // how many of `steps` a line fits in
    std::uint64_t steps[STEPS] = {};     // bit steps of those directions, vertical first
    std::uint64_t planes[PLANES] = {};   // plane j holds the cells whose weight has bit j

    // The Tables packed by board_array (BOARD_FIELDS words).
    static Tables unpack(const std::uint64_t* packed) {
        Tables t;
        t.bottom = packed[0];
        t.board = packed[1];
        t.centre = packed[2];
        t.column = packed[3];
        t.height = packed[4];
        t.cols = static_cast<std::int64_t>(packed[5]);
        t.connect = static_cast<std::int64_t>(packed[6]);
        t.directions = static_cast<std::int64_t>(packed[7]);
        for (int i = 0; i < STEPS; ++i) t.steps[i] = packed[8 + i];
        for (int j = 0; j < PLANES; ++j) t.planes[j] = packed[8 + STEPS + j];
        return t;
    }

    // The Tables of a rows x cols board with `connect` in a row to win; the caller checks that
    // cols * (rows + 1) <= 64 (fits) and connect >= 1. No positional planes.
    static Tables of_board(std::int64_t rows, std::int64_t cols, std::int64_t connect) {
        Tables t;
        t.height = static_cast<std::uint64_t>(rows + 1);
        t.cols = cols;
        t.connect = connect;
        t.column = (std::uint64_t{1} << rows) - 1;
        for (std::int64_t c = 0; c < cols; ++c) {
            const std::uint64_t shift = static_cast<std::uint64_t>(c) * t.height;
            t.bottom |= std::uint64_t{1} << shift;
            t.board |= t.column << shift;
        }
        t.centre = t.column << (static_cast<std::uint64_t>(cols / 2) * t.height);
        const bool tall = rows >= connect, wide = cols >= connect;
        const std::uint64_t h = t.height;
        const std::uint64_t candidates[STEPS] = {1, h, h - 1, h + 1};
        const bool fits[STEPS] = {tall, wide, tall && wide, tall && wide};
        for (int i = 0; i < STEPS; ++i)
            if (fits[i]) t.steps[t.directions++] = candidates[i];
        return t;
    }

    // Whether a rows x cols board fits a bitboard.
    static bool fits(std::int64_t rows, std::int64_t cols) {
        return rows >= 1 && cols >= 1 && cols * (rows + 1) <= 64;
    }
};

// Whether `t` holds the tables of a rows x cols board of `connect` in a row (every field but the
// positional planes, which only the heuristics use): the test of a kernel compiled for one
// board, and of a packed array that claims to be a board's.
inline bool is_board(const Tables& t, std::int64_t rows, std::int64_t cols, std::int64_t connect) {
    if (!Tables::fits(rows, cols) || connect < 1) return false;
    const Tables b = Tables::of_board(rows, cols, connect);
    bool same = t.bottom == b.bottom && t.board == b.board && t.centre == b.centre
             && t.column == b.column && t.height == b.height && t.cols == b.cols
             && t.connect == b.connect && t.directions == b.directions;
    for (int i = 0; i < STEPS; ++i) same = same && t.steps[i] == b.steps[i];
    return same;
}

// The cell each column that is not full would receive next.
inline std::uint64_t playable(std::uint64_t mask, const Tables& t) {
    return (mask + t.bottom) & t.board;
}

// The cells of column `col`.
inline std::uint64_t column_cells(const Tables& t, std::int64_t col) {
    return t.column << (static_cast<std::uint64_t>(col) * t.height);
}

// The `index`-th column in centre-first order (as heuristics.centre_first).
inline std::int64_t centre_column(const Tables& t, std::int64_t index) {
    return t.cols / 2 + (1 - 2 * (index % 2)) * ((index + 1) / 2);
}

// Cells x such that x, x + step, ..., x + (length - 1) * step all hold a stone. In a direction
// where a line fits, (connect - 1) * step < 64, so no shift here reaches 64 bits.
inline std::uint64_t runs(std::uint64_t stones, std::uint64_t step, std::int64_t length) {
    std::uint64_t run = ALL;
    for (std::int64_t i = 0; i < length; ++i)
        run &= stones >> (static_cast<std::uint64_t>(i) * step);
    return run;
}

// The cells that complete a line of four along `step` (both ways), for the common case.
inline std::uint64_t four_along(std::uint64_t stones, std::uint64_t step) {
    const std::uint64_t two = step + step, three = two + step;
    const std::uint64_t up = (stones << step) & (stones << two);
    const std::uint64_t down = (stones >> step) & (stones >> two);
    return (up & ((stones << three) | (stones >> step)))
         | (down & ((stones >> three) | (stones << step)));
}

// The empty cells that would complete a line of `connect` for `stones`.
inline std::uint64_t winning_cells(std::uint64_t stones, std::uint64_t mask, const Tables& t) {
    std::uint64_t cells = 0;
    if (t.connect == 4 && t.directions == STEPS) {
        // vertical first: a line there can only be completed on its top
        cells = ((stones << 1) & (stones << 2) & (stones << 3))
              | four_along(stones, t.steps[1]) | four_along(stones, t.steps[2])
              | four_along(stones, t.steps[3]);
        return cells & t.board & ~mask;
    }
    const std::int64_t k = t.connect;
    for (std::int64_t d = 0; d < t.directions; ++d) {
        const std::uint64_t step = t.steps[d];
        std::uint64_t below = ALL;  // cells with stones on the `gap` cells below them
        for (std::int64_t gap = 0; gap < k; ++gap) {
            if (gap) below &= stones << (static_cast<std::uint64_t>(gap) * step);
            const std::int64_t above = k - 1 - gap;  // the stones needed above the cell
            cells |= below & (above ? runs(stones >> step, step, above) : ALL);
        }
    }
    return cells & t.board & ~mask;
}

// Whether `stones` holds `connect` discs in a row.
inline bool has_line(std::uint64_t stones, const Tables& t) {
    for (std::int64_t d = 0; d < t.directions; ++d)
        if (runs(stones, t.steps[d], t.connect)) return true;
    return false;
}

// The columns that are not full, left to right, written to `out` (room for t.cols); their
// number. The caller checks for a win.
inline std::size_t legal_columns(std::uint64_t mask, const Tables& t, std::int64_t* out) {
    const std::uint64_t open = playable(mask, t);
    std::size_t n = 0;
    for (std::int64_t c = 0; c < t.cols; ++c)
        if (open & column_cells(t, c)) out[n++] = c;
    return n;
}

}  // namespace arena::core
