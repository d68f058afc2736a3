// What the solver's bindings and the fused loop's share: the solver's arrays
// (kernels.solver.new_table, new_scratch, new_stats, Books) checked against the board, so that
// no search reads or writes past them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "bindings.hpp"
#include "solver.hpp"

namespace solver = core::solver;

template <typename T>
using Vector = nb::ndarray<T, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using SolverStats = nb::ndarray<std::int64_t, nb::shape<solver::STATS>, nb::c_contig,
                                nb::device::cpu>;

// Element `i` of the Books tuple as the array type A, never converted (a copy of the
// database per call would cost more than most searches).
template <typename A>
A book_array(const nb::tuple& books, std::size_t i, const char* name) {
    A array;
    if (!nb::try_cast<A>(books[i], array, false))
        throw nb::type_error((std::string("Books.") + name + " has the wrong dtype, shape or "
                              "layout").c_str());
    return array;
}

// What a search reads besides its position, checked: the board, the table, the scratch, the
// stats and the books, whose arrays it holds while the search reads them.
struct Checked {
    core::Tables t;
    int tt_bits = 0;
    solver::Books books;
    Vector<const std::uint64_t> keys;
    Vector<const std::int8_t> scores;
    Vector<const std::uint8_t> database;
    Vector<const std::int32_t> index;
};

inline int power_of_two_bits(std::size_t rows, const char* what) {
    if (rows < 1 || (rows & (rows - 1)))
        throw nb::value_error((std::string(what) + " must have a power of two rows").c_str());
    int bits = 0;
    while ((std::size_t{1} << bits) < rows) ++bits;
    return bits;
}

// The board of `packed`, the table, the scratch and the books checked into `c`.
inline void check_arrays(Checked& c, const std::uint64_t* packed, const Vector<std::uint64_t>& tt,
                         const Vector<std::int64_t>& scratch, const nb::tuple& books) {
    c.t = core::Tables::unpack(packed);
    const core::Tables& t = c.t;
    const std::int64_t rows = static_cast<std::int64_t>(t.height) - 1;
    if (t.cols < 1 || t.cols > solver::MAX_COLUMNS || !core::Tables::fits(rows, t.cols) ||
        t.connect < 1)
        throw nb::value_error(("the board is too big for the solver: at most " +
                               std::to_string(solver::MAX_COLUMNS) + " columns and 64 bits of "
                               "bitboard").c_str());
    if (!core::is_board(t, rows, t.cols, t.connect))
        throw nb::value_error("packed is not a board's board_array");
    c.tt_bits = power_of_two_bits(tt.shape(0), "the table");
    if (c.tt_bits < solver::MIN_TABLE_BITS)
        throw nb::value_error(("a solver table needs at least 2**" +
                               std::to_string(solver::MIN_TABLE_BITS) + " rows").c_str());
    const std::int64_t cells = core::popcount(t.board);
    if (static_cast<std::int64_t>(scratch.shape(0)) < (cells + 1) * solver::MAX_COLUMNS)
        throw nb::value_error("the scratch is too short for the board (new_scratch(cells))");
    if (books.size() != 5) throw nb::type_error("books must be a Books of 5 fields");
    c.keys = book_array<Vector<const std::uint64_t>>(books, 0, "keys");
    c.scores = book_array<Vector<const std::int8_t>>(books, 1, "scores");
    c.database = book_array<Vector<const std::uint8_t>>(books, 3, "database");
    c.index = book_array<Vector<const std::int32_t>>(books, 4, "database_index");
    if (c.keys.shape(0) != c.scores.shape(0))
        throw nb::value_error("Books.keys and Books.scores differ in length");
    const auto records = static_cast<std::int64_t>(c.database.shape(0)) / solver::DATABASE_RECORD;
    if (records && static_cast<std::int64_t>(c.index.shape(0)) != solver::DATABASE_BUCKETS + 1)
        throw nb::value_error("Books.database_index must hold 2**16 + 1 offsets");
    c.books.keys = c.keys.data();
    c.books.scores = c.scores.data();
    c.books.size = static_cast<std::int64_t>(c.keys.shape(0));
    c.books.depth = nb::cast<std::int64_t>(books[2]);
    c.books.database = c.database.data();
    c.books.database_size = records;
    c.books.database_index = c.index.data();
}
