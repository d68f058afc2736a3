// The exact solver: negamax with alpha-beta and null windows on 64-bit bitboards, node for node
// the numba kernel arena.search.kernels.solver (whose solve_jit and column_scores_jit the fused
// game loop still calls): the same nodes counted, the same scores, the same table rows, the
// same stop at a node budget, the same busy marks for the threads of arena.search.parallel.
//
// Scores follow Pascal Pons' convention for the side to move (kernels/solver.py says it in
// full). The table is the caller's uint64 array of 2**bits rows in buckets of two, a row
// `hash << DATA_BITS | size << 18 | best column + 1 << 14 | upper << 7 | lower`; the books are
// the opening book's sorted keys and scores and, on 6 x 7, the published database's raw
// five-byte records with their index by the top 16 bits of a code.
//
// Several threads may search one table (and one array of busy marks) at once: every row is
// read and written whole with relaxed atomics (a plain 8-byte load or store on the machines
// the core runs on, as numba's were), and the node budget stats[LIMIT] is read afresh at
// every node, so that another thread stops a search by lowering it.
//
// The search is a template on the board: AnyBoard reads the board's tables at run time, while
// FixedBoard<ROWS, COLS> (connect 4) has them as constants the compiler folds into shifts and
// masks; and on the popcount: HW counts with the processor's popcnt instruction, which the
// portable build (no -march) does not assume, so the dispatcher (search_with) picks it at run
// time where the processor has it. Template parameters rather than a target attribute: the
// attribute does not follow the recursion, while a template does.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>

#include "bitboard.hpp"

namespace arena::core::solver {

constexpr std::uint64_t HASH_MULTIPLIER = 0x9E3779B97F4A7C15ULL;
constexpr int DATA_BITS = 20;
constexpr int MIN_TABLE_BITS = DATA_BITS + 1;
constexpr std::int64_t OFFSET = 33;
constexpr std::uint64_t FIELD = 127;
constexpr int MOVE_SHIFT = 14, UPPER_SHIFT = 7, SIZE_SHIFT = 18;
constexpr std::int64_t SYMMETRY_PLIES = 10;
constexpr std::int64_t NO_SCORE = -1000;
enum Kind : std::int64_t { UPPER, LOWER, EXACT };
enum Stat : std::int64_t { NODES, LIMIT, STATS };
constexpr std::int64_t DATABASE_PLIES = 12;
constexpr std::int64_t DATABASE_RECORD = 5;
constexpr std::int64_t DATABASE_BUCKETS = std::int64_t{1} << 16;
constexpr std::int64_t MAX_COLUMNS = 9;  // arena.rules.board.MAX_COLUMNS

// --- relaxed atomics on the shared arrays ---------------------------------------------------

template <typename T>
inline T load(const T* p) {
#if defined(__GNUC__) || defined(__clang__)
    return __atomic_load_n(p, __ATOMIC_RELAXED);
#else
    return *static_cast<const volatile T*>(p);
#endif
}

template <typename T>
inline void store(T* p, T value) {
#if defined(__GNUC__) || defined(__clang__)
    __atomic_store_n(p, value, __ATOMIC_RELAXED);
#else
    *static_cast<volatile T*>(p) = value;
#endif
}

inline void prefetch(const void* p) {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(p, 0, 3);
#else
    (void)p;
#endif
}

// --- arithmetic as Python's ---------------------------------------------------------------

// `value / 2` rounded towards zero (C's division; kernels.solver.half).
inline std::int64_t half(std::int64_t value) { return value / 2; }

// Python's floor division by a positive divisor.
inline std::int64_t floor_div(std::int64_t value, std::int64_t divisor) {
    const std::int64_t q = value / divisor;
    return (value % divisor != 0 && value < 0) ? q - 1 : q;
}

// The null window (middle, middle + 1) to search next when the score lies in [low, high]:
// halfway, or nearer 0 when 0 is nearer (kernels.solver.next_probe, for any integers).
inline std::int64_t next_probe(std::int64_t low, std::int64_t high) {
    std::int64_t middle = low + floor_div(high - low, 2);
    if (middle <= 0 && half(low) < middle)
        middle = half(low);
    else if (middle >= 0 && floor_div(high, 2) > middle)
        middle = floor_div(high, 2);
    return middle;
}

// --- popcount -------------------------------------------------------------------------------

// The set bits of `bits`: with the popcnt instruction (HW, only called where the processor has
// it) or the portable way.
template <bool HW>
inline int count_bits(std::uint64_t bits) {
#if defined(ARENA_CORE_POPCNT_DISPATCH) && defined(__x86_64__)
    if constexpr (HW) {
        std::uint64_t out;
        __asm__("popcntq %1, %0" : "=r"(out) : "r"(bits));
        return static_cast<int>(out);
    }
#endif
    return popcount(bits);
}

// --- boards ---------------------------------------------------------------------------------

// A board whose tables are read at run time (any size and connect).
struct AnyBoard {
    Tables t;
    std::uint64_t left = 0;  // the columns 0 to cols / 2, what a symmetric position searches

    explicit AnyBoard(const Tables& tables) : t(tables) {
        for (std::int64_t c = 0; c < t.cols / 2 + 1; ++c) left |= column_cells(c);
    }
    std::int64_t cols() const { return t.cols; }
    std::uint64_t board() const { return t.board; }
    std::uint64_t bottom() const { return t.bottom; }
    std::uint64_t height() const { return t.height; }
    std::uint64_t left_half() const { return left; }
    std::uint64_t column_cells(std::int64_t c) const {
        return t.column << (static_cast<std::uint64_t>(c) * t.height);
    }
    std::int64_t centre(std::int64_t i) const { return centre_column(t, i); }
    // f(i) for i from 0 to cols - 1.
    template <typename F>
    void each_column(F&& f) const {
        for (std::int64_t i = 0; i < t.cols; ++i) f(i);
    }
    std::uint64_t winning(std::uint64_t stones, std::uint64_t mask) const {
        return winning_cells(stones, mask, t);
    }
    std::uint64_t mirror(std::uint64_t bits) const {
        std::uint64_t out = 0;
        const std::uint64_t last = static_cast<std::uint64_t>(t.cols - 1);
        for (std::int64_t c = 0; c < t.cols; ++c) {
            const std::uint64_t column = (bits >> (static_cast<std::uint64_t>(c) * t.height))
                                       & t.column;
            out |= column << ((last - static_cast<std::uint64_t>(c)) * t.height);
        }
        return out;
    }
};

// A ROWS x COLS board of connect 4 (ROWS and COLS at least 4), its tables constants.
template <std::int64_t ROWS, std::int64_t COLS>
struct FixedBoard {
    static constexpr std::uint64_t H = ROWS + 1;
    static constexpr std::uint64_t COLUMN = (std::uint64_t{1} << ROWS) - 1;
    static constexpr std::uint64_t BOTTOM = [] {
        std::uint64_t b = 0;
        for (std::int64_t c = 0; c < COLS; ++c) b |= std::uint64_t{1} << (c * H);
        return b;
    }();
    static constexpr std::uint64_t BOARD = BOTTOM * COLUMN;
    static constexpr std::uint64_t LEFT = [] {
        std::uint64_t b = 0;
        for (std::int64_t c = 0; c < COLS / 2 + 1; ++c) b |= COLUMN << (c * H);
        return b;
    }();
    static_assert(ROWS >= 4 && COLS >= 4 && COLS * (ROWS + 1) <= 64 && COLS <= MAX_COLUMNS);

    explicit FixedBoard(const Tables&) {}
    static constexpr std::int64_t cols() { return COLS; }
    static constexpr std::uint64_t board() { return BOARD; }
    static constexpr std::uint64_t bottom() { return BOTTOM; }
    static constexpr std::uint64_t height() { return H; }
    static constexpr std::uint64_t left_half() { return LEFT; }
    static constexpr std::uint64_t column_cells(std::int64_t c) {
        return COLUMN << (static_cast<std::uint64_t>(c) * H);
    }
    static constexpr std::int64_t centre(std::int64_t i) {
        return COLS / 2 + (1 - 2 * (i % 2)) * ((i + 1) / 2);
    }
    // f(i) for i from 0 to COLS - 1, unrolled: each i a constant.
    template <typename F>
    static void each_column(F&& f) {
        unrolled(f, std::make_integer_sequence<std::int64_t, COLS>{});
    }
    template <typename F, std::int64_t... I>
    static void unrolled(F& f, std::integer_sequence<std::int64_t, I...>) {
        (f(I), ...);
    }
    static std::uint64_t winning(std::uint64_t s, std::uint64_t mask) {
        const std::uint64_t cells = ((s << 1) & (s << 2) & (s << 3)) | four_along(s, H)
                                  | four_along(s, H - 1) | four_along(s, H + 1);
        return cells & BOARD & ~mask;
    }
    static std::uint64_t mirror(std::uint64_t bits) {
        std::uint64_t out = 0;
        for (std::int64_t c = 0; c < COLS; ++c)
            out |= ((bits >> (c * H)) & COLUMN) << ((COLS - 1 - c) * H);
        return out;
    }
};

// --- what a search reads and writes ---------------------------------------------------------

struct Books {
    const std::uint64_t* keys = nullptr;  // ascending
    const std::int8_t* scores = nullptr;
    std::int64_t size = 0;
    std::int64_t depth = -1;  // -1: no book
    const std::uint8_t* database = nullptr;
    std::int64_t database_size = 0;  // records (0: none)
    const std::int32_t* database_index = nullptr;  // DATABASE_BUCKETS + 1 offsets
};

struct Arrays {
    const Tables& t;
    std::uint64_t* tt;
    int tt_bits;  // log2 of the table's rows
    std::int64_t* stats;
    const Books& books;
    std::uint64_t* busy = nullptr;  // only read where split_until > 0
    int busy_bits = 0;
    std::int64_t split_until = 0;
};

// The sign-extended code of a 32-bit word.
inline std::int64_t signed32(std::int64_t code) {
    return code >= (std::int64_t{1} << 31) ? code - (std::int64_t{1} << 32) : code;
}

template <class Board, bool HW>
class Search {
  public:
    explicit Search(const Arrays& a)
        : b_(a.t), tt_(a.tt), shift_(64 - a.tt_bits), stats_(a.stats), books_(a.books),
          busy_(a.busy), busy_shift_(64 - a.busy_bits), split_until_(a.split_until),
          cells_(count_bits<HW>(b_.board())), nodes_(a.stats[NODES]) {}

    // The exact score of a position that is not over (0 once the budget is spent); `weak`:
    // only its sign is sure (kernels.solver._solve).
    std::int64_t solve(std::uint64_t cur, std::uint64_t mask, bool weak) {
        const std::int64_t plies = count_bits<HW>(mask);
        if (plies == cells_) return 0;
        if (b_.winning(cur, mask) & playable(mask)) return (cells_ + 1 - plies) / 2;
        std::int64_t low = weak ? -1 : -((cells_ - plies) / 2);
        std::int64_t high = weak ? 1 : (cells_ + 1 - plies) / 2;
        while (low < high) {
            const std::int64_t middle = next_probe(low, high);
            const std::int64_t score = negamax(cur, mask, plies, middle, middle + 1);
            if (spent()) return 0;
            if (score <= middle)
                high = score;
            else
                low = score;
        }
        return low;
    }

    // Every column's exact score into `scores` (NO_SCORE for a full one), centre first.
    void column_scores(std::uint64_t cur, std::uint64_t mask, std::int64_t* scores) {
        const std::int64_t plies = count_bits<HW>(mask);
        std::fill(scores, scores + b_.cols(), NO_SCORE);
        const std::uint64_t moves = playable(mask);
        const std::uint64_t wins = b_.winning(cur, mask) & moves;
        for (std::int64_t i = 0; i < b_.cols(); ++i) {
            const std::int64_t c = b_.centre(i);
            const std::uint64_t move = moves & b_.column_cells(c);
            if (move & wins)
                scores[c] = (cells_ + 1 - plies) / 2;
            else if (move)
                scores[c] = -solve(cur ^ mask, mask | move, false);
        }
    }

    // One null-window search (kernels.solver.probe).
    std::int64_t probe(std::uint64_t cur, std::uint64_t mask, std::int64_t middle) {
        return negamax(cur, mask, count_bits<HW>(mask), middle, middle + 1);
    }

    // The nodes back into the stats array.
    void finish() { stats_[NODES] = nodes_; }

  private:
    std::uint64_t playable(std::uint64_t mask) const {
        return (mask + b_.bottom()) & b_.board();
    }

    bool spent() const { return nodes_ > load(stats_ + LIMIT); }

    // The playable cells that do not let the opponent win at once (0 if none is left).
    std::uint64_t non_losing_moves(std::uint64_t cur, std::uint64_t mask) const {
        std::uint64_t moves = playable(mask);
        const std::uint64_t threats = b_.winning(cur ^ mask, mask);
        const std::uint64_t forced = moves & threats;
        if (forced) {
            if (forced & (forced - 1)) return 0;
            moves = forced;
        }
        return moves & ~(threats >> 1);
    }

    // The book's score of a symmetry-normalised key, or NO_SCORE.
    std::int64_t book_score(std::uint64_t key) const {
        std::int64_t low = 0, high = books_.size;
        while (low < high) {
            const std::int64_t middle = (low + high) >> 1;
            if (books_.keys[middle] < key)
                low = middle + 1;
            else
                high = middle;
        }
        if (low < books_.size && books_.keys[low] == key) return books_.scores[low];
        return NO_SCORE;
    }

    // The database's code of a position whose first player holds `first`, or of its mirror.
    std::int64_t database_code(std::uint64_t first, std::uint64_t mask, bool mirrored) const {
        std::int64_t code = 0;
        const auto rows = static_cast<std::int64_t>(b_.height()) - 1;
        const std::int64_t cols = b_.cols();
        for (std::int64_t i = 0; i < cols; ++i) {
            const std::uint64_t base = static_cast<std::uint64_t>(mirrored ? cols - 1 - i : i)
                                     * b_.height();
            for (std::int64_t r = 0; r < rows; ++r) {
                const std::uint64_t bit = std::uint64_t{1}
                                        << (base + static_cast<std::uint64_t>(r));
                if (!(mask & bit)) break;
                code = static_cast<std::int64_t>(static_cast<std::uint64_t>(code) << 2)
                     | (first & bit ? 2 : 3);
            }
            code = static_cast<std::int64_t>(static_cast<std::uint64_t>(code) << 1);
        }
        code = static_cast<std::int64_t>(static_cast<std::uint64_t>(code) << 1);
        return signed32(code);
    }

    std::int64_t database_entry(std::int64_t index) const {
        const std::uint8_t* at = books_.database + index * DATABASE_RECORD;
        return signed32(std::int64_t{at[0]} << 24 | std::int64_t{at[1]} << 16
                        | std::int64_t{at[2]} << 8 | std::int64_t{at[3]});
    }

    // The database's exact score for the side to move, or NO_SCORE (the code, then its
    // mirror image's, searched among the records of its top 16 bits).
    std::int64_t database_score(std::uint64_t cur, std::uint64_t mask, std::int64_t plies) const {
        const std::uint64_t first = plies % 2 == 0 ? cur : cur ^ mask;
        const std::int64_t size = books_.database_size;
        for (int mirrored = 0; mirrored < 2; ++mirrored) {
            const std::int64_t code = database_code(first, mask, mirrored == 1);
            const std::int64_t bucket = (code >> 16) + (std::int64_t{1} << 15);
            if (bucket < 0 || bucket >= DATABASE_BUCKETS) continue;  // not a code of 32 bits
            // clamped: a damaged index finds nothing rather than reading past the records
            std::int64_t low = std::clamp<std::int64_t>(books_.database_index[bucket], 0, size);
            std::int64_t high = std::clamp<std::int64_t>(books_.database_index[bucket + 1], 0,
                                                         size);
            while (low < high) {
                const std::int64_t middle = (low + high) >> 1;
                if (database_entry(middle) < code)
                    low = middle + 1;
                else
                    high = middle;
            }
            if (low < size && database_entry(low) == code) {
                std::int64_t value = books_.database[low * DATABASE_RECORD + 4];
                if (value >= 128) value -= 256;  // for the first player
                if (value == 0) return 0;
                const std::int64_t points = floor_div(
                    cells_ + 2 - plies - (100 - (value < 0 ? -value : value)), 2);
                return (value > 0) == (plies % 2 == 0) ? points : -points;
            }
        }
        return NO_SCORE;
    }

    // A bound of `kind` and the best column into the bucket at `row`, keeping the other bound
    // of `entry` (the row `slot` that held the position, or -1 and 0).
    void put(std::int64_t row, std::int64_t slot, std::uint64_t tag, std::uint64_t entry,
             std::int64_t bound, std::int64_t kind, std::int64_t column, bool mirrored) {
        std::uint64_t lower = entry & FIELD;
        std::uint64_t upper = (entry >> UPPER_SHIFT) & FIELD;
        if (kind != UPPER) lower = static_cast<std::uint64_t>(bound + OFFSET);
        if (kind != LOWER) upper = static_cast<std::uint64_t>(bound + OFFSET);
        if (mirrored) column = b_.cols() - 1 - column;
        const std::uint64_t fresh = tag | static_cast<std::uint64_t>(column + 1) << MOVE_SHIFT
                                  | upper << UPPER_SHIFT | lower;
        if (slot >= 0) {
            store(tt_ + slot, fresh);
            return;
        }
        const std::uint64_t first = load(tt_ + row);
        if (((fresh >> SIZE_SHIFT) & 3) >= ((first >> SIZE_SHIFT) & 3)) {
            store(tt_ + row + 1, first);
            store(tt_ + row, fresh);
        } else {
            store(tt_ + row + 1, fresh);
        }
    }

    // The score of a position if it lies within (alpha, beta), else a bound beyond it
    // (kernels.solver.negamax). The side to move cannot win at once; the board is not full.
    std::int64_t negamax(std::uint64_t cur, std::uint64_t mask, std::int64_t plies,
                         std::int64_t alpha, std::int64_t beta) {
        ++nodes_;
        if (spent()) return 0;
        std::uint64_t moves = non_losing_moves(cur, mask);
        if (!moves) return -((cells_ - plies) / 2);
        if (plies >= cells_ - 2) return 0;
        const std::int64_t floor = -((cells_ - 2 - plies) / 2);
        if (alpha < floor) {
            alpha = floor;
            if (alpha >= beta) return alpha;
        }
        const std::int64_t ceiling = (cells_ - 1 - plies) / 2;
        if (beta > ceiling) {
            beta = ceiling;
            if (alpha >= beta) return beta;
        }

        std::uint64_t key = cur + mask;
        bool mirrored = false;
        if (plies <= SYMMETRY_PLIES || plies <= books_.depth) {
            const std::uint64_t image = b_.mirror(cur) + b_.mirror(mask);
            if (image == key) {
                moves &= b_.left_half();
            } else if (image < key) {
                key = image;
                mirrored = true;
            }
            if (plies <= books_.depth) {
                const std::int64_t known = book_score(key);
                if (known != NO_SCORE) return known;
            }
        }
        const std::uint64_t hashed = key * HASH_MULTIPLIER;
        const std::int64_t row = static_cast<std::int64_t>(hashed >> shift_) & ~std::int64_t{1};
        const std::uint64_t tag = hashed << DATA_BITS;
        std::int64_t slot = row;
        std::uint64_t entry = load(tt_ + row);
        std::int64_t first = -1;
        if ((entry ^ tag) >> DATA_BITS) {
            slot = row + 1;
            entry = load(tt_ + slot);
            if ((entry ^ tag) >> DATA_BITS) {
                slot = -1;
                entry = 0;
            }
        }
        if (entry) {
            const auto lower = static_cast<std::int64_t>(entry & FIELD);
            const auto upper = static_cast<std::int64_t>((entry >> UPPER_SHIFT) & FIELD);
            first = static_cast<std::int64_t>((entry >> MOVE_SHIFT) & 15) - 1;
            if (first >= 0 && mirrored) first = b_.cols() - 1 - first;
            if (lower && lower - OFFSET > alpha) {
                alpha = lower - OFFSET;
                if (alpha >= beta) return alpha;
            }
            if (upper && upper - OFFSET < beta) {
                beta = upper - OFFSET;
                if (alpha >= beta) return beta;
            }
        }
        const std::uint64_t size = static_cast<std::uint64_t>(
            std::min<std::int64_t>(3, (cells_ - plies) >> 3)) << SIZE_SHIFT;
        if (plies == DATABASE_PLIES && books_.database_size) {
            const std::int64_t known = database_score(cur, mask, plies);
            if (known != NO_SCORE) {
                put(row, slot, tag | size, entry, known, EXACT, -1, mirrored);
                return known;
            }
        }

        // The moves ranked: the table's best move, then the threats it makes, then the centre.
        const std::uint64_t other = cur ^ mask;
        std::int32_t slots[MAX_COLUMNS];
        std::int64_t count = 0;
        b_.each_column([&](std::int64_t i) {
            const std::int64_t c = b_.centre(i);
            const std::uint64_t move = moves & b_.column_cells(c);
            if (move) {
                const std::int64_t rank = c == first ? std::int64_t{1} << 20
                                        : count_bits<HW>(b_.winning(cur | move, mask | move));
                slots[count++] = static_cast<std::int32_t>(rank << 8 | (15 - i) << 4 | c);
                prefetch(tt_ + static_cast<std::int64_t>(((other + (mask | move))
                                                          * HASH_MULTIPLIER) >> shift_));
            }
        });

        const std::int64_t start = alpha;
        std::int64_t best = NO_SCORE, best_column = -1;
        const bool split = plies < split_until_;
        std::int64_t deferred = 0;  // moves left for later (in the slots already sorted)
        for (std::int64_t n = 0; n < count + deferred;) {
            std::int64_t c;
            if (n < count) {  // selection sort, as far as the cut-off
                std::int64_t pick = n;
                for (std::int64_t j = n + 1; j < count; ++j)
                    if (slots[j] > slots[pick]) pick = j;
                c = slots[pick] & 15;
                slots[pick] = slots[n];
            } else {  // then the moves another thread was searching
                c = slots[n - count];
            }
            ++n;
            const std::uint64_t move = moves & b_.column_cells(c);
            const std::uint64_t child = other + (mask | move);
            std::int64_t cell = -1;
            if (split && 1 < n && n <= count) {  // not the first move: another thread may have it
                cell = static_cast<std::int64_t>((child * HASH_MULTIPLIER) >> busy_shift_);
                if (load(busy_ + cell) == child) {
                    slots[deferred++] = static_cast<std::int32_t>(c);
                    continue;
                }
                if (load(busy_ + cell) == 0)
                    store(busy_ + cell, child);
                else
                    cell = -1;  // another thread's mark: left to it
            }
            const std::int64_t score = -negamax(other, mask | move, plies + 1, -beta, -alpha);
            if (cell >= 0 && load(busy_ + cell) == child) store(busy_ + cell, std::uint64_t{0});
            if (spent()) return 0;
            if (score > best) {
                best = score;
                best_column = c;
            }
            if (score >= beta) {
                put(row, slot, tag | size, entry, score, LOWER, best_column, mirrored);
                return score;
            }
            if (score > alpha) alpha = score;
        }
        put(row, slot, tag | size, entry, best, best <= start ? UPPER : EXACT, best_column,
            mirrored);
        return best;
    }

    const Board b_;
    std::uint64_t* const tt_;
    const int shift_;
    std::int64_t* const stats_;
    const Books& books_;
    std::uint64_t* const busy_;
    const int busy_shift_;
    const std::int64_t split_until_;
    const std::int64_t cells_;
    std::int64_t nodes_;  // stats[NODES] while the search runs (written back by finish)
};

// Runs `f(search)` on a Search of the board's kind: the 6 x 7 and 5 x 6 boards of connect 4
// with constant tables and any other board with the tables read at run time, with the popcnt
// instruction where the processor has it; then writes the nodes back.
template <typename F>
inline auto search_with(const Arrays& a, F f) {
#if defined(ARENA_CORE_POPCNT_DISPATCH) && defined(__x86_64__)
    if (has_popcnt_instruction()) {
        if (is_board(a.t, 6, 7, 4)) {
            Search<FixedBoard<6, 7>, true> s(a);
            auto out = f(s);
            s.finish();
            return out;
        }
        if (is_board(a.t, 5, 6, 4)) {
            Search<FixedBoard<5, 6>, true> s(a);
            auto out = f(s);
            s.finish();
            return out;
        }
        Search<AnyBoard, true> s(a);
        auto out = f(s);
        s.finish();
        return out;
    }
#endif
    Search<AnyBoard, false> s(a);
    auto out = f(s);
    s.finish();
    return out;
}

}  // namespace arena::core::solver
