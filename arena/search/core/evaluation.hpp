// The heuristics of the search agents at the depth limit (arena.search.kernels.evaluation in
// numba, which the fused game loop still calls): the same values term for term.
//
// A heuristic is a list of (kernel id, weight, variant bits) rows sorted by id, as
// arena.search.heuristics.terms_array makes them; values are clamped to HEURISTIC_LIMIT,
// except that live threats score wins and losses on the WIN_SCORE scale.
#pragma once

#include <algorithm>
#include <cstdint>

#include "bitboard.hpp"

namespace arena::core {

// arena.search.heuristics: the scale of scores and the kernel ids of the terms, in the order
// they are evaluated, with their variant bits.
constexpr std::int64_t WIN_SCORE = 1'000'000;
constexpr std::int64_t STACKED_SCORE = 10'000;
constexpr std::int64_t HEURISTIC_LIMIT = WIN_SCORE / 2;
enum Term : std::int64_t {
    CLEAR_ALL_LATER = 1, LIVE_THREATS, CLEAR_ABOVE_PAIRS, STACKED_THREATS, THREATS, POSITIONAL,
    WINDOW,
};
constexpr std::int64_t LOSS_SOONER = 1;      // live threats: two playable threats lose sooner
constexpr std::int64_t BOTTOM_LEFT_BUG = 2;  // live threats: column 0's bottom never playable
constexpr std::int64_t PER_PAIR = 1;         // stacked threats: the weight per stacked pair
constexpr int TERM_FIELDS = 3;

// What evaluate reads besides the position: the terms and the window heuristic's arrays
// (evaluation.board_windows: every line of `connect` cells, and the points of a window by
// own * (connect + 1) + opponent discs).
struct Heuristic {
    const std::int64_t* terms = nullptr;  // rows of TERM_FIELDS
    std::int64_t count = 0;
    const std::uint64_t* lines = nullptr;
    std::int64_t line_count = 0;
    const std::int64_t* points = nullptr;
    int planes = PLANES;  // the positional planes up to the last one with a cell (used_planes)
};

// The positional planes up to the last one that holds a cell: the others add nothing.
inline int used_planes(const Tables& t) {
    int used = PLANES;
    while (used > 0 && !t.planes[used - 1]) --used;
    return used;
}

// The number of win lines through the cells of `own`, summed, minus the same of `other`.
inline std::int64_t positional(std::uint64_t own, std::uint64_t other, const Tables& t,
                               int planes) {
    std::int64_t total = 0;
    for (int j = 0; j < planes; ++j)
        total += std::int64_t{popcount(own & t.planes[j]) - popcount(other & t.planes[j])}
                 * (std::int64_t{1} << j);
    return total;
}

// The minimax window heuristic of `own`: points per window plus 3 per centre disc.
inline std::int64_t window_score(std::uint64_t own, std::uint64_t other, const Tables& t,
                                 const Heuristic& h) {
    const std::int64_t k1 = t.connect + 1;
    std::int64_t total = 3 * popcount(own & t.centre);
    for (std::int64_t i = 0; i < h.line_count; ++i) {
        const std::uint64_t line = h.lines[i];
        total += h.points[popcount(own & line) * k1 + popcount(other & line)];
    }
    return total;
}

// Columns whose lowest stacked threat pair is mine minus theirs (`balance`), and the cells
// above those pairs (returned): per column only the lowest pair counts.
inline std::uint64_t stacked_pairs(std::uint64_t mine, std::uint64_t theirs, const Tables& t,
                                   std::int64_t& balance) {
    const std::uint64_t own_pairs = mine & (mine >> 1);
    const std::uint64_t other_pairs = theirs & (theirs >> 1);
    std::uint64_t above = 0;
    balance = 0;
    for (std::int64_t c = 0; c < t.cols; ++c) {
        const std::uint64_t column = column_cells(t, c);
        const std::uint64_t pairs = (own_pairs | other_pairs) & column;
        if (pairs) {
            const std::uint64_t lowest = pairs & (~pairs + 1);
            balance += (lowest & own_pairs) ? 1 : -1;
            above |= column & ~((lowest << 2) - 1);
        }
    }
    return above;
}

// Every cell above the lowest stacked threat pair of the board, in bit order (seed 002's
// first clearing code, later columns included).
inline std::uint64_t above_lowest_pair(std::uint64_t mine, std::uint64_t theirs,
                                       const Tables& t) {
    const std::uint64_t pairs = (mine & (mine >> 1)) | (theirs & (theirs >> 1));
    const std::uint64_t lowest = pairs & (~pairs + 1);
    return pairs ? t.board & ~((lowest << 2) - 1) : 0;
}

// The heuristic value of a position for the side to move, `ply` plies below the root (see
// evaluation.evaluate): live threats score a win `p` plies ahead as WIN_SCORE - win_step * p.
inline std::int64_t evaluate(std::uint64_t cur, std::uint64_t mask, std::int64_t ply,
                             std::int64_t win_step, const Tables& t, const Heuristic& h) {
    const std::uint64_t other = cur ^ mask;
    std::int64_t value = 0, balance = 0;
    std::uint64_t mine = 0, theirs = 0;
    if (h.count && h.terms[0] <= THREATS) {  // a threat term, as those sort first
        mine = winning_cells(cur, mask, t);
        theirs = winning_cells(other, mask, t);
    }
    for (std::int64_t i = 0; i < h.count; ++i) {
        const std::int64_t* term = h.terms + TERM_FIELDS * i;
        const std::int64_t kind = term[0], weight = term[1], variant = term[2];
        switch (kind) {
            case CLEAR_ALL_LATER: {
                const std::uint64_t above = above_lowest_pair(mine, theirs, t);
                mine &= ~above;
                theirs &= ~above;
                break;
            }
            case LIVE_THREATS: {
                std::uint64_t cells = playable(mask, t);
                if (variant & BOTTOM_LEFT_BUG) cells &= ~std::uint64_t{1};
                if (mine & cells) return WIN_SCORE - win_step * (ply + 1);
                if (popcount(theirs & cells) >= 2)
                    return win_step * (ply + ((variant & LOSS_SOONER) ? 1 : 2)) - WIN_SCORE;
                break;
            }
            case CLEAR_ABOVE_PAIRS: {
                const std::uint64_t above = stacked_pairs(mine, theirs, t, balance);
                mine &= ~above;
                theirs &= ~above;
                break;
            }
            case STACKED_THREATS:
                if (variant & PER_PAIR)
                    value += weight * (popcount(mine & (mine >> 1))
                                       - popcount(theirs & (theirs >> 1)));
                else
                    value += weight * STACKED_SCORE * balance;
                break;
            case THREATS:
                value += weight * (popcount(mine) - popcount(theirs));
                break;
            case POSITIONAL:
                value += weight * positional(cur, other, t, h.planes);
                break;
            case WINDOW:
                if (ply % 2 == 0)
                    value += weight * window_score(cur, other, t, h);
                else
                    value -= weight * window_score(other, cur, t, h);
                break;
            default:
                break;
        }
    }
    return std::max(-HEURISTIC_LIMIT, std::min(HEURISTIC_LIMIT, value));
}

}  // namespace arena::core
