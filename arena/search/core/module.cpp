// arena.search.kernels._core: the compiled core of the search kernels (C++17, nanobind).
//
// The Python modules of arena/search/kernels call these functions and keep the signatures the
// rest of the arena uses; the headers beside this file hold the code the kernels share
// (bitboard.hpp: the board's tables and the rules; streams.hpp: numpy's PCG64 streams;
// endings.hpp: how move strings end; evaluation.hpp: the heuristics; negamax.hpp: the negamax
// search; mcts.hpp: UCT and its playouts; row_text.hpp: the fused games' rows of games.csv;
// vector.hpp: the vectorized environment's steps; solver.hpp: the exact solver). Arrays are
// numpy arrays through nanobind's ndarray; a call that loops over many games releases the GIL
// while it loops. bindings.hpp holds what the binding files share (the array types,
// owned_array); a kernel's bindings may live in a
// file of their own, NAME_bindings.cpp, with a bind_NAME(m) that NB_MODULE below calls.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "bindings.hpp"
#include "bitboard.hpp"
#include "endings.hpp"
#include "evaluation.hpp"
#include "negamax.hpp"
#include "streams.hpp"

namespace {

Int8Array game_endings(const Int64s& columns, const Int64s& offsets, std::int64_t rows,
                       std::int64_t cols, std::int64_t connect) {
    if (!core::Tables::fits(rows, cols))
        throw nb::value_error(("a " + std::to_string(rows) + " x " + std::to_string(cols) +
                               " board does not fit a 64-bit bitboard").c_str());
    if (connect < 1) throw nb::value_error("connect must be at least 1");
    if (offsets.shape(0) < 1) throw nb::value_error("offsets must hold at least one entry");
    const std::size_t games = offsets.shape(0) - 1;
    const std::int64_t* starts = offsets.data();
    const auto moves = static_cast<std::int64_t>(columns.shape(0));
    for (std::size_t g = 0; g <= games; ++g)
        if (starts[g] < 0 || starts[g] > moves || (g && starts[g] < starts[g - 1]))
            throw nb::value_error("offsets must rise from 0 up to the number of moves");
    auto* codes = new std::int8_t[games ? games : 1];
    {
        nb::gil_scoped_release released;
        core::game_endings(columns.data(), starts, games, rows, cols, connect, codes);
    }
    return owned_array(codes, games);
}

Int64Array root_scores(std::uint64_t cur, std::uint64_t mask, std::int64_t depth,
                       const SearchArray& packed, const Terms& terms, const Lines& lines,
                       const Int64s& points, Table tt, Stats stats, Stack stack,
                       bool all_ties) {
    const core::Tables t = core::Tables::unpack(packed.data());
    check_search(t, tt, stack, depth);
    const auto rows = static_cast<std::int64_t>(tt.shape(0));
    const core::Heuristic h = heuristic_of(terms, lines, points, t);
    auto* scores = new std::int64_t[static_cast<std::size_t>(t.cols)];
    {
        nb::gil_scoped_release released;
        const negamax::Settings s = negamax::Settings::unpack(packed.data());
        negamax::score_root({t, s, h, tt.data(), rows, stats.data(), stack.data()}, scores, cur,
                            mask, depth, all_ties);
    }
    return owned_array(scores, static_cast<std::size_t>(t.cols));
}

std::uint64_t checked_bound(std::int64_t n) {
    if (n < 1 || n >= (std::int64_t{1} << 32))
        throw nb::value_error(("bound " + std::to_string(n) + " is not in [1, 2**32)").c_str());
    return static_cast<std::uint64_t>(n);
}

}  // namespace

void bind_games(nb::module_& m);
void bind_row_text(nb::module_& m);
void bind_vector(nb::module_& m);
void bind_solver(nb::module_& m);
void bind_mcts(nb::module_& m);

NB_MODULE(_core, m) {
    m.doc() = "The compiled core of arena.search.kernels (C++17 and nanobind).";

    m.attr("BOARD_FIELDS") = core::BOARD_FIELDS;
    m.attr("STREAM_WORDS") = core::STREAM_WORDS;
    m.attr("ONGOING") = static_cast<int>(core::ONGOING);
    m.attr("WON") = static_cast<int>(core::WON);
    m.attr("FULL") = static_cast<int>(core::FULL);
    m.attr("BAD_COLUMN") = static_cast<int>(core::BAD_COLUMN);
    m.attr("PAST_END") = static_cast<int>(core::PAST_END);

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

    // --- evaluation.hpp and negamax.hpp -------------------------------------------------
    m.attr("NO_SCORE") = negamax::NO_SCORE;
    m.attr("STACK_WIDTH") = negamax::STACK_WIDTH;
    m.def("evaluate", [](std::uint64_t cur, std::uint64_t mask, std::int64_t ply,
                         std::int64_t win_step, const Packed& board, const Terms& terms,
                         const Lines& lines, const Int64s& points) {
        const core::Tables t = core::Tables::unpack(board.data());
        return core::evaluate(cur, mask, ply, win_step, t, heuristic_of(terms, lines, points, t));
    }, "cur"_a, "mask"_a, "ply"_a, "win_step"_a, "board"_a, "terms"_a, "lines"_a, "points"_a,
       "The heuristic value of a position for the side to move, ``ply`` plies below the root "
       "(evaluation.evaluate's).");
    m.def("root_scores", &root_scores, "cur"_a, "mask"_a, "depth"_a, "packed"_a, "terms"_a,
          "lines"_a, "points"_a, nb::arg("tt").noconvert(), nb::arg("stats").noconvert(),
          nb::arg("stack").noconvert(), "all_ties"_a,
          "Every root column's negamax score searched ``depth`` plies (NO_SCORE if illegal), "
          "as negamax.score_root gives it; ``tt``, ``stats`` and ``stack`` are used in place. "
          "Releases the GIL.");

    // --- endings.hpp ----------------------------------------------------------------------
    m.def("game_endings", &game_endings, "columns"_a, "offsets"_a, "rows"_a, "cols"_a,
          "connect"_a,
          "How each move string ends (ONGOING, WON, FULL, BAD_COLUMN, PAST_END); game g's "
          "0-based columns are columns[offsets[g]:offsets[g + 1]]. Releases the GIL.");

    bind_games(m);
    bind_row_text(m);
    bind_vector(m);
    bind_solver(m);
    bind_mcts(m);
}
