// The negamax search of the negamax agent: iterative alpha-beta on 64-bit bitboards, node for
// node the numba kernel arena.search.kernels.negamax (which the fused game loop and the vector
// environment still call): the same nodes counted, the same scores, the same table rows and
// the same stop at a node limit, so that games do not change.
//
// The caller's arrays are used in place: `packed` (search_array: the board's tables, then the
// Settings), the stats array (NODES, GENERATION, NODE_LIMIT, ABORTED), the transposition table
// of new_table (rows of [key, value << 32 | generation << 8 | best column << 2 | flag]) and the
// stack of new_stack (a row per ply: the fields below, the ordered columns, their scores).
#pragma once

#include <algorithm>
#include <cstdint>

#include "bitboard.hpp"
#include "evaluation.hpp"

namespace arena::core::negamax {

constexpr std::int64_t INFINITY_SCORE = 2 * WIN_SCORE;
constexpr std::int64_t NO_SCORE = -4 * WIN_SCORE;  // an illegal root column in a score array
constexpr std::uint64_t HASH_MULTIPLIER = 0x9E3779B97F4A7C15ULL;
constexpr std::int64_t EXACT = 0, LOWER = 1, UPPER = 2;
constexpr std::int64_t MIN_TT_DEPTH = 2;  // shallower nodes are searched again
constexpr std::int64_t SORT_DEPTH = 4;    // shallower nodes keep the move order
constexpr std::int64_t TT_FIELDS = 2;
constexpr std::int64_t GENERATIONS = std::int64_t{1} << 24;
constexpr std::int64_t LOW_32 = 0xFFFFFFFFLL;
constexpr std::int64_t MAX_COLUMNS = 9;  // arena.rules.board.MAX_COLUMNS
enum Slot : std::int64_t { CUR, MASK, MOVES, ALPHA, BETA, FLOOR, BEST, BEST_COLUMN, NEXT, COUNT,
                           STORE, SLOTS };
constexpr std::int64_t STACK_WIDTH = SLOTS + 2 * MAX_COLUMNS;
constexpr int COLUMN_BITS = 4;
constexpr int SETTINGS_FIELDS = 5;
enum Stat : std::int64_t { NODES, GENERATION, NODE_LIMIT, ABORTED, STATS };
constexpr std::int64_t NO_NODE_LIMIT = std::int64_t{1} << 62;

// How one agent searches: the fields after the board's in a search_array.
struct Settings {
    std::uint64_t order = 0;  // the columns in move order, COLUMN_BITS each, first lowest
    std::int64_t win_step = 1;
    std::int64_t ordering = 1;
    std::int64_t full_board_evaluation = 0;
    std::int64_t soonest_win = 3;

    static Settings unpack(const std::uint64_t* packed) {
        const std::uint64_t* f = packed + BOARD_FIELDS;
        Settings s;
        s.order = f[0];
        s.win_step = static_cast<std::int64_t>(f[1]);
        s.ordering = static_cast<std::int64_t>(f[2]);
        s.full_board_evaluation = static_cast<std::int64_t>(f[3]);
        s.soonest_win = static_cast<std::int64_t>(f[4]);
        return s;
    }

    std::int64_t nth_column(std::int64_t index) const {
        return static_cast<std::int64_t>((order >> (COLUMN_BITS * index)) & 15);
    }
};

// Shifts that may overflow a signed word, done on its bits as numba's int64 does them.
inline std::int64_t shl(std::int64_t value, int bits) {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(value) << bits);
}

// One search: the board, the agent's settings, the heuristic and the caller's arrays.
class Search {
  public:
    Search(const Tables& t, const Settings& s, const Heuristic& h, std::int64_t* tt,
           std::int64_t tt_rows, std::int64_t* stats, std::int64_t* stack)
        : t_(t), s_(s), h_(h), tt_(tt), tt_rows_(tt_rows), stats_(stats), stack_(stack),
          shift_(64 - popcount(static_cast<std::uint64_t>(tt_rows - 1))) {}

  private:
    // The negamax value of a position `ply` plies below the root searched `depth` deep
    // (negamax.search: fail-soft; past the node limit, aborted_ set and 0).
    std::int64_t search(std::uint64_t cur, std::uint64_t mask, std::int64_t depth,
                        std::int64_t alpha, std::int64_t beta, std::int64_t ply) {
        const std::int64_t top = ply;
        while (true) {
            if (nodes_ >= limit_) {
                aborted_ = true;
                return 0;
            }
            std::int64_t value = 0;
            bool opened = open(cur, mask, depth, alpha, beta, ply, value);
            if (aborted_) return 0;  // by the node limit, in frontier
            while (!opened) {
                if (ply == top) return value;
                --ply;
                ++depth;
                value = -value;
                std::int64_t* row = at(ply);
                if (value > row[BEST]) {
                    row[BEST] = value;
                    row[BEST_COLUMN] = row[SLOTS + row[NEXT]];
                    row[ALPHA] = std::max(row[ALPHA], value);
                }
                row[NEXT] += 1;
                opened = row[ALPHA] < row[BETA] && row[NEXT] < row[COUNT];
                if (!opened) value = close(ply);
            }
            const std::int64_t* row = at(ply);
            const auto parent = static_cast<std::uint64_t>(row[MASK]);
            cur = static_cast<std::uint64_t>(row[CUR]) ^ parent;
            const std::uint64_t column = column_cells(t_, row[SLOTS + row[NEXT]]);
            mask = parent | (static_cast<std::uint64_t>(row[MOVES]) & column);
            alpha = -row[BETA];
            beta = -row[ALPHA];
            --depth;
            ++ply;
        }
    }

  public:
    // negamax.score_root: every root column's score into `scores` (NO_SCORE if illegal), the
    // nodes, generation and whether the node limit stopped it into the stats array.
    void score_root(std::int64_t* scores, std::uint64_t cur, std::uint64_t mask,
                    std::int64_t depth, bool all_ties) {
        nodes_ = 1;
        aborted_ = false;
        limit_ = stats_[NODE_LIMIT];
        generation_ = stats_[GENERATION] + 1;
        if (generation_ == GENERATIONS) {
            std::fill(tt_, tt_ + TT_FIELDS * tt_rows_, std::int64_t{0});
            generation_ = 1;
        }
        stats_[GENERATION] = generation_;
        std::fill(scores, scores + t_.cols, NO_SCORE);
        const std::uint64_t moves = playable(mask, t_);
        const std::uint64_t wins = winning_cells(cur, mask, t_) & moves;
        std::int64_t best = -INFINITY_SCORE;
        for (std::int64_t i = 0; i < t_.cols; ++i) {
            const std::int64_t c = s_.nth_column(i);
            const std::uint64_t bit = moves & column_cells(t_, c);
            if (!bit) continue;
            std::int64_t value;
            if (bit & wins) {
                value = WIN_SCORE - s_.win_step;
            } else {
                const std::int64_t alpha = all_ties ? best - 1 : best;
                value = -search(cur ^ mask, mask | bit, depth - 1, -INFINITY_SCORE, -alpha, 1);
                if (aborted_) break;
            }
            scores[c] = value;
            best = std::max(best, value);
        }
        stats_[NODES] = nodes_;
        stats_[ABORTED] = aborted_;
    }

  private:
    std::int64_t* at(std::int64_t ply) const { return stack_ + STACK_WIDTH * ply; }

    std::int64_t row_of(std::uint64_t key) const {
        return static_cast<std::int64_t>((key * HASH_MULTIPLIER) >> shift_);
    }

    // The columns of `moves` into the slots of row `ply`, best first (`first` leads, then by
    // the threats a move makes, ties in the move order); their number.
    std::int64_t ordered_moves(std::uint64_t cur, std::uint64_t mask, std::uint64_t moves,
                               std::int64_t first, std::int64_t* row) const {
        std::int64_t count = 0;
        for (std::int64_t i = 0; i < t_.cols; ++i) {
            const std::int64_t c = s_.nth_column(i);
            const std::uint64_t bit = moves & column_cells(t_, c);
            if (!bit) continue;
            const std::int64_t score = c == first ? std::int64_t{1} << 20
                                     : popcount(winning_cells(cur | bit, mask | bit, t_));
            std::int64_t slot = SLOTS + count;
            while (slot > SLOTS && row[slot - 1 + MAX_COLUMNS] < score) {
                row[slot + MAX_COLUMNS] = row[slot - 1 + MAX_COLUMNS];
                row[slot] = row[slot - 1];
                --slot;
            }
            row[slot + MAX_COLUMNS] = score;
            row[slot] = c;
            ++count;
        }
        return count;
    }

    // The value of an opened node one ply above the depth limit, its children evaluated in
    // the move order until a cut-off (the nodes and the node limit of search).
    std::int64_t frontier(std::uint64_t cur, std::uint64_t mask, std::uint64_t moves,
                          std::int64_t alpha, std::int64_t beta, std::int64_t ply) {
        std::int64_t best = -INFINITY_SCORE;
        const std::uint64_t other = cur ^ mask;
        for (std::int64_t i = 0; i < t_.cols; ++i) {
            const std::uint64_t bit = moves & column_cells(t_, s_.nth_column(i));
            if (!bit) continue;
            if (nodes_ >= limit_) {
                aborted_ = true;
                return 0;
            }
            ++nodes_;
            const std::uint64_t child = mask | bit;
            const std::int64_t value = (child == t_.board && !s_.full_board_evaluation)
                ? 0 : -evaluate(other, child, ply + 1, s_.win_step, t_, h_);
            if (value > best) {
                best = value;
                alpha = std::max(alpha, value);
                if (alpha >= beta) break;
            }
        }
        return best;
    }

    // Enter a node: false with its `value` when known without children, else true with its
    // fields and ordered columns written to row `ply` of the stack.
    bool open(std::uint64_t cur, std::uint64_t mask, std::int64_t depth, std::int64_t alpha,
              std::int64_t beta, std::int64_t ply, std::int64_t& value) {
        ++nodes_;
        if (mask == t_.board && !(depth == 0 && s_.full_board_evaluation)) {
            value = 0;
            return false;
        }
        if (depth == 0) {
            value = evaluate(cur, mask, ply, s_.win_step, t_, h_);
            return false;
        }
        std::uint64_t moves = playable(mask, t_);
        if (winning_cells(cur, mask, t_) & moves) {
            value = WIN_SCORE - s_.win_step * (ply + 1);
            return false;
        }
        if (s_.ordering && depth >= 2) {
            const std::uint64_t threats = winning_cells(cur ^ mask, mask, t_);
            const std::uint64_t forced = threats & moves;
            if (forced) {
                if (forced & (forced - 1)) {
                    value = s_.win_step * (ply + 2) - WIN_SCORE;
                    return false;
                }
                moves = forced;
            }
            moves &= ~(threats >> 1);  // a move below an opponent's threat loses at once
            if (!moves) {
                value = s_.win_step * (ply + 2) - WIN_SCORE;
                return false;
            }
        }
        const std::int64_t ceiling = WIN_SCORE - s_.win_step * (ply + s_.soonest_win);
        if (beta > ceiling) {
            beta = ceiling;
            if (alpha >= beta) {
                value = beta;
                return false;
            }
        }
        if (depth == 1) {  // below MIN_TT_DEPTH and SORT_DEPTH: no table, no sorting
            value = frontier(cur, mask, moves, alpha, beta, ply);
            return false;
        }
        std::int64_t first = -1;
        const bool store = tt_rows_ > 1 && depth >= MIN_TT_DEPTH;
        if (store) {
            const std::uint64_t key = cur + mask;
            const std::int64_t* entry = tt_ + TT_FIELDS * row_of(key);
            const std::int64_t meta = entry[1];
            if (entry[0] == static_cast<std::int64_t>(key)
                && (meta & LOW_32) >> 8 == generation_) {
                const std::int64_t known = meta >> 32;
                first = (meta >> 2) & 63;
                if ((meta & 3) == EXACT) {
                    value = known;
                    return false;
                }
                if ((meta & 3) == LOWER)
                    alpha = std::max(alpha, known);
                else
                    beta = std::min(beta, known);
                if (alpha >= beta) {
                    value = known;
                    return false;
                }
            }
        }
        std::int64_t* row = at(ply);
        std::int64_t count = 0;
        if (s_.ordering && depth >= SORT_DEPTH) {
            count = ordered_moves(cur, mask, moves, first, row);
        } else {
            for (std::int64_t i = 0; i < t_.cols; ++i) {
                const std::int64_t c = s_.nth_column(i);
                if (moves & column_cells(t_, c)) row[SLOTS + count++] = c;
            }
        }
        row[CUR] = static_cast<std::int64_t>(cur);
        row[MASK] = static_cast<std::int64_t>(mask);
        row[MOVES] = static_cast<std::int64_t>(moves);
        row[ALPHA] = row[FLOOR] = alpha;
        row[BETA] = beta;
        row[BEST] = -INFINITY_SCORE;
        row[BEST_COLUMN] = -1;
        row[NEXT] = 0;
        row[COUNT] = count;
        row[STORE] = store;
        value = 0;
        return true;
    }

    // Leave the opened node of row `ply`, stored in the table if it qualifies; its value.
    std::int64_t close(std::int64_t ply) {
        const std::int64_t* row = at(ply);
        const std::int64_t best = row[BEST];
        if (row[STORE]) {
            const std::int64_t floor = row[FLOOR], beta = row[BETA];
            const std::int64_t flag = best <= floor ? UPPER : best >= beta ? LOWER : EXACT;
            const std::uint64_t key = static_cast<std::uint64_t>(row[CUR])
                                    + static_cast<std::uint64_t>(row[MASK]);
            std::int64_t* entry = tt_ + TT_FIELDS * row_of(key);
            entry[0] = static_cast<std::int64_t>(key);
            entry[1] = shl(best, 32) | shl(generation_, 8) | shl(row[BEST_COLUMN], 2)
                     | flag;
        }
        return best;
    }

    const Tables t_;
    const Settings s_;
    const Heuristic h_;
    std::int64_t* const tt_;
    const std::int64_t tt_rows_;
    std::int64_t* const stats_;
    std::int64_t* const stack_;
    const int shift_;
    // The stats of the search, kept here while it runs (written back by score_root): the
    // arrays are all int64, so the compiler would reload them after every write to the stack.
    std::int64_t nodes_ = 0, limit_ = NO_NODE_LIMIT, generation_ = 0;
    bool aborted_ = false;
};

// What score_root searches with: the board, the settings, the heuristic and the caller's arrays.
struct RootSearch {
    const Tables& t;
    const Settings& s;
    const Heuristic& h;
    std::int64_t* tt;
    std::int64_t tt_rows;
    std::int64_t* stats;
    std::int64_t* stack;
};

#if defined(ARENA_CORE_POPCNT_DISPATCH)
ARENA_CORE_POPCNT_TARGET inline void score_root_popcnt(const RootSearch& r, std::int64_t* scores,
                                                       std::uint64_t cur, std::uint64_t mask,
                                                       std::int64_t depth, bool all_ties) {
    Search(r.t, r.s, r.h, r.tt, r.tt_rows, r.stats, r.stack)
        .score_root(scores, cur, mask, depth, all_ties);
}

// The same on a ROWS x COLS board of connect 4 (those score_root names), its tables constants the
// compiler folds into the search (shifts by immediates); the positional planes the caller's.
template <std::int64_t ROWS, std::int64_t COLS>
ARENA_CORE_POPCNT_TARGET inline void score_root_fixed(const RootSearch& r, std::int64_t* scores,
                                                      std::uint64_t cur, std::uint64_t mask,
                                                      std::int64_t depth, bool all_ties) {
    Tables t = Tables::of_board(ROWS, COLS, 4);
    for (int j = 0; j < PLANES; ++j) t.planes[j] = r.t.planes[j];
    Search(t, r.s, r.h, r.tt, r.tt_rows, r.stats, r.stack)
        .score_root(scores, cur, mask, depth, all_ties);
}
#define ARENA_CORE_ANY_CPU ARENA_CORE_FLATTEN
#else
#define ARENA_CORE_ANY_CPU
#endif

ARENA_CORE_ANY_CPU inline void score_root_any_cpu(const RootSearch& r, std::int64_t* scores,
                                                  std::uint64_t cur, std::uint64_t mask,
                                                  std::int64_t depth, bool all_ties) {
    Search(r.t, r.s, r.h, r.tt, r.tt_rows, r.stats, r.stack)
        .score_root(scores, cur, mask, depth, all_ties);
}

// Search::score_root on the caller's arrays, with the machine's popcount where it has one
// (see ARENA_CORE_POPCNT_DISPATCH), on a common board with its tables as constants.
inline void score_root(const RootSearch& r, std::int64_t* scores, std::uint64_t cur,
                       std::uint64_t mask, std::int64_t depth, bool all_ties) {
#if defined(ARENA_CORE_POPCNT_DISPATCH)
    if (has_popcnt_instruction()) {
        // the standard board, 5 x 6 (the other board with shipped anchors) and 7 x 8
        if (r.t.connect == 4 && r.t.height == 7 && is_board(r.t, 6, 7, 4))
            return score_root_fixed<6, 7>(r, scores, cur, mask, depth, all_ties);
        if (r.t.connect == 4 && r.t.height == 6 && is_board(r.t, 5, 6, 4))
            return score_root_fixed<5, 6>(r, scores, cur, mask, depth, all_ties);
        if (r.t.connect == 4 && r.t.height == 8 && is_board(r.t, 7, 8, 4))
            return score_root_fixed<7, 8>(r, scores, cur, mask, depth, all_ties);
        return score_root_popcnt(r, scores, cur, mask, depth, all_ties);
    }
#endif
    score_root_any_cpu(r, scores, cur, mask, depth, all_ties);
}

}  // namespace arena::core::negamax
