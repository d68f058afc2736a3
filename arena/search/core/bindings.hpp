// What the binding files of arena.search.kernels._core share: nanobind, the numpy array
// types the kernels take, and owned_array for the arrays they return.
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "bitboard.hpp"
#include "evaluation.hpp"
#include "negamax.hpp"
#include "streams.hpp"

namespace nb = nanobind;
using namespace nb::literals;
namespace core = arena::core;

using Int64s = nb::ndarray<const std::int64_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using Packed = nb::ndarray<const std::uint64_t, nb::shape<core::BOARD_FIELDS>, nb::c_contig,
                           nb::device::cpu>;
using Stream = nb::ndarray<std::uint64_t, nb::shape<core::STREAM_WORDS>, nb::c_contig,
                           nb::device::cpu>;
using Int8Array = nb::ndarray<nb::numpy, std::int8_t, nb::ndim<1>>;

// A new numpy array of `n` elements of T, owned by the array (freed with it).
template <typename T>
nb::ndarray<nb::numpy, T, nb::ndim<1>> owned_array(T* data, std::size_t n) {
    nb::capsule owner(data, [](void* p) noexcept { delete[] static_cast<T*>(p); });
    return nb::ndarray<nb::numpy, T, nb::ndim<1>>(data, {n}, owner);
}

// --- the negamax search's arrays (negamax.search_array, new_table, new_stats, new_stack) --

namespace negamax = core::negamax;
using SearchArray = nb::ndarray<const std::uint64_t, nb::shape<core::BOARD_FIELDS +
                                negamax::SETTINGS_FIELDS>, nb::c_contig, nb::device::cpu>;
using Terms = nb::ndarray<const std::int64_t, nb::shape<-1, core::TERM_FIELDS>, nb::c_contig,
                          nb::device::cpu>;
using Lines = nb::ndarray<const std::uint64_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using Table = nb::ndarray<std::int64_t, nb::shape<-1, negamax::TT_FIELDS>, nb::c_contig,
                          nb::device::cpu>;
using Stats = nb::ndarray<std::int64_t, nb::shape<negamax::STATS>, nb::c_contig,
                          nb::device::cpu>;
using Stack = nb::ndarray<std::int64_t, nb::shape<-1, negamax::STACK_WIDTH>, nb::c_contig,
                          nb::device::cpu>;
using Int64Array = nb::ndarray<nb::numpy, std::int64_t, nb::ndim<1>>;

// The heuristic of evaluation.evaluate's arguments, its window points checked against the
// board (a window's index reaches (connect + 1)**2 - 1).
inline core::Heuristic heuristic_of(const Terms& terms, const Lines& lines, const Int64s& points,
                                    const core::Tables& t) {
    if (static_cast<std::int64_t>(points.shape(0)) < (t.connect + 1) * (t.connect + 1))
        throw nb::value_error("points must hold (connect + 1)**2 window points");
    core::Heuristic h;
    h.terms = terms.data();
    h.count = static_cast<std::int64_t>(terms.shape(0));
    h.lines = lines.data();
    h.line_count = static_cast<std::int64_t>(lines.shape(0));
    h.points = points.data();
    h.planes = core::used_planes(t);
    return h;
}

// Refuses a search that would read or write past its arrays: a board wider than a search
// holds, a table whose rows are not a power of two, a stack shallower than the depth.
inline void check_search(const core::Tables& t, const Table& tt, const Stack& stack,
                         std::int64_t depth) {
    if (t.cols < 1 || t.cols > negamax::MAX_COLUMNS)
        throw nb::value_error("the search array's board has more columns than a search holds");
    const auto rows = static_cast<std::int64_t>(tt.shape(0));
    if (rows < 1 || (rows & (rows - 1)))
        throw nb::value_error("the table must have a power of two rows (new_table)");
    if (depth < 1 || depth >= static_cast<std::int64_t>(stack.shape(0)))
        throw nb::value_error(("depth " + std::to_string(depth) + " is not from 1 to the "
                               "stack's depth, " + std::to_string(stack.shape(0) - 1)).c_str());
}
