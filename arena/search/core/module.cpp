// arena.search.kernels._core: the compiled core of the search kernels (C++17, nanobind).
//
// The Python modules of arena/search/kernels call these functions and keep the signatures the
// rest of the arena uses; the headers beside this file hold the code the kernels share
// (bitboard.hpp: the board's tables and the rules; streams.hpp: numpy's PCG64 streams). Arrays
// are numpy arrays through nanobind's ndarray; a call that loops over many games releases the
// GIL while it loops.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "bitboard.hpp"
#include "streams.hpp"

namespace nb = nanobind;
using namespace nb::literals;
namespace core = arena::core;

namespace {

using Packed = nb::ndarray<const std::uint64_t, nb::shape<core::BOARD_FIELDS>, nb::c_contig,
                           nb::device::cpu>;
using Stream = nb::ndarray<std::uint64_t, nb::shape<core::STREAM_WORDS>, nb::c_contig,
                           nb::device::cpu>;

// A new numpy array of `n` elements of T, owned by the array (freed with it).
template <typename T>
nb::ndarray<nb::numpy, T, nb::ndim<1>> owned_array(T* data, std::size_t n) {
    nb::capsule owner(data, [](void* p) noexcept { delete[] static_cast<T*>(p); });
    return nb::ndarray<nb::numpy, T, nb::ndim<1>>(data, {n}, owner);
}

std::uint64_t checked_bound(std::int64_t n) {
    if (n < 1 || n >= (std::int64_t{1} << 32))
        throw nb::value_error(("bound " + std::to_string(n) + " is not in [1, 2**32)").c_str());
    return static_cast<std::uint64_t>(n);
}

}  // namespace

NB_MODULE(_core, m) {
    m.doc() = "The compiled core of arena.search.kernels (C++17 and nanobind).";

    m.attr("BOARD_FIELDS") = core::BOARD_FIELDS;
    m.attr("STREAM_WORDS") = core::STREAM_WORDS;

    // --- bitboard.hpp: the rules, for the Python side and the tests -----------------------
    m.def("board_tables", [](std::int64_t rows, std::int64_t cols, std::int64_t connect) {
        if (!core::Tables::fits(rows, cols) || connect < 1)
            throw nb::value_error("not a board that fits a 64-bit bitboard");
        const core::Tables t = core::Tables::of_board(rows, cols, connect);
        auto* packed = new std::uint64_t[core::BOARD_FIELDS]();
        const std::uint64_t head[8] = {t.bottom, t.board, t.centre, t.column, t.height,
                                       static_cast<std::uint64_t>(t.cols),
                                       static_cast<std::uint64_t>(t.connect),
                                       static_cast<std::uint64_t>(t.directions)};
        for (int i = 0; i < 8; ++i) packed[i] = head[i];
        for (int i = 0; i < core::STEPS; ++i) packed[8 + i] = t.steps[i];
        return owned_array(packed, core::BOARD_FIELDS);
    }, "rows"_a, "cols"_a, "connect"_a,
       "The packed tables of a board as bitboard.board_array lays them out, the positional "
       "planes left 0.");
    m.def("playable", [](std::uint64_t mask, const Packed& board) {
        return core::playable(mask, core::Tables::unpack(board.data()));
    }, "mask"_a, "board"_a, "The cell each column that is not full would receive next.");
    m.def("winning_cells", [](std::uint64_t stones, std::uint64_t mask, const Packed& board) {
        return core::winning_cells(stones, mask, core::Tables::unpack(board.data()));
    }, "stones"_a, "mask"_a, "board"_a,
       "The empty cells that would complete a line for ``stones``.");
    m.def("has_line", [](std::uint64_t stones, const Packed& board) {
        return core::has_line(stones, core::Tables::unpack(board.data()));
    }, "stones"_a, "board"_a, "True if ``stones`` holds ``connect`` discs in a row.");
    m.def("legal_columns", [](std::uint64_t mask, const Packed& board) {
        const core::Tables t = core::Tables::unpack(board.data());
        auto* columns = new std::int64_t[t.cols > 0 ? t.cols : 1];
        const std::size_t n = core::legal_columns(mask, t, columns);
        return owned_array(columns, n);
    }, "mask"_a, "board"_a, "The columns that are not full, left to right.");
    m.def("popcount", &core::popcount, "bits"_a, "The number of set bits.");

    // --- streams.hpp: `stream` is never converted (a copy would take the draws) ---------
    m.def("seed_stream", [](Stream stream, std::uint64_t seed) {
        core::seed_stream(stream.data(), seed);
    }, nb::arg("stream").noconvert(), "seed"_a,
       "Make ``stream`` the stream of ``Generator(PCG64(seed))``.");
    m.def("next_uint64", [](Stream stream) { return core::next_uint64(stream.data()); },
          nb::arg("stream").noconvert(), "The next 64 bits of the stream.");
    m.def("next_uint32", [](Stream stream) { return core::next_uint32(stream.data()); },
          nb::arg("stream").noconvert(), "The next 32 bits of the stream.");
    m.def("next_double", [](Stream stream) { return core::next_double(stream.data()); },
          nb::arg("stream").noconvert(),
          "A float in [0, 1), as ``Generator.random()`` draws it.");
    m.def("bounded", [](Stream stream, std::int64_t n) {
        return core::bounded(stream.data(), checked_bound(n));
    }, nb::arg("stream").noconvert(), "n"_a,
       "An integer in [0, n), as ``Generator.integers(n)`` draws it.");
    m.def("half_uint64", [](Stream stream) { return core::half_uint64(stream.data()); },
          nb::arg("stream").noconvert(),
          "An integer in [0, 2**63), as ``Generator.integers(0, 2**63)`` draws it.");
}
