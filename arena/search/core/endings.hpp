// How move strings end, found by playing them through: the check of a run's rows
// (arena.runs.store.validation, through arena.search.kernels.endings).
#pragma once

#include <cstddef>
#include <cstdint>

#include "bitboard.hpp"

namespace arena::core {

enum Ending : std::int8_t {
    ONGOING = 0,      // the game goes on after its last move
    WON = 1,          // its last move completed a line
    FULL = 2,         // its last move filled the board
    BAD_COLUMN = -1,  // a move off the board, or into a full column
    PAST_END = -2,    // a move after a line was completed
};

// How the moves columns[0], ..., columns[n - 1] (0-based columns) end on the board of `t`
// (made by Tables::of_board, rows rows high).
inline Ending ending_of(const std::int64_t* columns, std::size_t n, std::int64_t rows,
                        const Tables& t) {
    std::uint64_t mover = 0, other = 0;
    Ending code = ONGOING;
    for (std::size_t i = 0; i < n; ++i) {
        if (code == WON) return PAST_END;
        const std::int64_t column = columns[i];
        if (column < 0 || column >= t.cols) return BAD_COLUMN;
        const std::uint64_t base = static_cast<std::uint64_t>(column) * t.height;
        const std::uint64_t filled = mover | other;
        if (filled & (std::uint64_t{1} << (base + static_cast<std::uint64_t>(rows - 1))))
            return BAD_COLUMN;  // the column is full
        mover |= (filled + (std::uint64_t{1} << base)) & ~filled;
        if (has_line(mover, t))
            code = WON;
        else if ((mover | other) == t.board)
            code = FULL;
        const std::uint64_t swap = mover;
        mover = other;
        other = swap;
    }
    return code;
}

// How each of `games` move strings ends: game g's moves are columns[offsets[g]] up to
// columns[offsets[g + 1]] (offsets checked by the caller: non-decreasing, within columns).
inline void game_endings(const std::int64_t* columns, const std::int64_t* offsets,
                         std::size_t games, std::int64_t rows, std::int64_t cols,
                         std::int64_t connect, std::int8_t* out) {
    const Tables t = Tables::of_board(rows, cols, connect);
    for (std::size_t g = 0; g < games; ++g)
        out[g] = ending_of(columns + offsets[g],
                           static_cast<std::size_t>(offsets[g + 1] - offsets[g]), rows, t);
}

}  // namespace arena::core
