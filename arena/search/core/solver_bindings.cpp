// The exact solver's bindings (solver.hpp): solve, column_scores, probe and next_probe over the
// arrays of arena.search.kernels.solver (new_table, new_scratch, new_stats, Books), the GIL
// released while they search. The table, busy marks and stats are used in place, never
// converted; arrays that would let a search read or write past them are refused.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "bindings.hpp"
#include "games.hpp"
#include "solver_checks.hpp"

using core::games::cycles;

namespace {

void check_position(const core::Tables& t, std::uint64_t cur, std::uint64_t mask) {
    if ((mask & ~t.board) || (cur & ~mask) || ((mask + t.bottom) & mask))
        throw nb::value_error("cur and mask are not a position of the board (discs off the "
                              "board, floating, or cur not within mask)");
    if (core::has_line(cur ^ mask, t) || core::has_line(cur, t) || mask == t.board)
        throw nb::value_error("the game is already over in this position (a line of "
                              "connect or a full board): there is nothing to solve");
}

void check(Checked& c, std::uint64_t cur, std::uint64_t mask, const Packed& packed,
           const Vector<std::uint64_t>& tt, const Vector<std::int64_t>& scratch,
           const nb::tuple& books) {
    check_arrays(c, packed.data(), tt, scratch, books);
    check_position(c.t, cur, mask);
}

std::int64_t solve(std::uint64_t cur, std::uint64_t mask, bool weak, const Packed& packed,
                   Vector<std::uint64_t> tt, Vector<std::int64_t> scratch, SolverStats stats,
                   const nb::tuple& books) {
    Checked c;
    check(c, cur, mask, packed, tt, scratch, books);
    nb::gil_scoped_release released;
    const solver::Arrays a{c.t, tt.data(), c.tt_bits, stats.data(), c.books};
    return solver::search_with(a, [&](auto& s) { return s.solve(cur, mask, weak); });
}

Int64Array column_scores(std::uint64_t cur, std::uint64_t mask, const Packed& packed,
                         Vector<std::uint64_t> tt, Vector<std::int64_t> scratch,
                         SolverStats stats, const nb::tuple& books) {
    Checked c;
    check(c, cur, mask, packed, tt, scratch, books);
    auto* scores = new std::int64_t[static_cast<std::size_t>(c.t.cols)];
    {
        nb::gil_scoped_release released;
        const solver::Arrays a{c.t, tt.data(), c.tt_bits, stats.data(), c.books};
        solver::search_with(a, [&](auto& s) {
            s.column_scores(cur, mask, scores);
            return 0;
        });
    }
    return owned_array(scores, static_cast<std::size_t>(c.t.cols));
}

std::int64_t probe(std::uint64_t cur, std::uint64_t mask, std::int64_t middle,
                   std::int64_t split, const Packed& packed, Vector<std::uint64_t> tt,
                   Vector<std::uint64_t> busy, Vector<std::int64_t> scratch, SolverStats stats,
                   const nb::tuple& books) {
    Checked c;
    check(c, cur, mask, packed, tt, scratch, books);
    if (core::winning_cells(cur, mask, c.t) & core::playable(mask, c.t))
        throw nb::value_error("probe: the side to move wins at once (solve answers that)");
    if (middle < -64 || middle > 64)
        throw nb::value_error("probe: middle must lie within [-64, 64]");
    const int busy_bits = power_of_two_bits(busy.shape(0), "busy");
    const std::int64_t cells = core::popcount(c.t.board);
    nb::gil_scoped_release released;
    solver::Arrays a{c.t, tt.data(), c.tt_bits, stats.data(), c.books};
    a.busy = busy.data();
    a.busy_bits = busy_bits;
    a.split_until = split > 0 ? cells - split + 1 : 0;
    return solver::search_with(a, [&](auto& s) { return s.probe(cur, mask, middle); });
}

using Positions = nb::ndarray<const std::uint64_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using Out = nb::ndarray<std::int64_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

// Pons' bulk mode for benchmarks/bench_solver.py, as its numba bulk_solve: for each position,
// clear the table, read the time-stamp counter, solve, read it again; the scores, nodes and
// ticks into the three out arrays.
void solve_timed(const Positions& currents, const Positions& masks, const Packed& packed,
                 Vector<std::uint64_t> tt, Vector<std::int64_t> scratch, SolverStats stats,
                 const nb::tuple& books, Out scores, Out nodes, Out ticks) {
    const std::size_t n = currents.shape(0);
    if (masks.shape(0) != n || scores.shape(0) != n || nodes.shape(0) != n ||
        ticks.shape(0) != n)
        throw nb::value_error("every array must have a row per position");
    Checked c;
    for (std::size_t i = 0; i < n; ++i)
        check(c, currents.data()[i], masks.data()[i], packed, tt, scratch, books);
    nb::gil_scoped_release released;
    const solver::Arrays a{c.t, tt.data(), c.tt_bits, stats.data(), c.books};
    for (std::size_t i = 0; i < n; ++i) {
        std::fill(tt.data(), tt.data() + tt.shape(0), std::uint64_t{0});
        stats.data()[solver::NODES] = 0;
        const std::uint64_t cur = currents.data()[i], mask = masks.data()[i];
        const std::int64_t start = cycles();
        scores.data()[i] = solver::search_with(
            a, [&](auto& s) { return s.solve(cur, mask, false); });
        ticks.data()[i] = cycles() - start;
        nodes.data()[i] = stats.data()[solver::NODES];
    }
}

}  // namespace

void bind_solver(nb::module_& m) {
    m.attr("SOLVER_NO_SCORE") = solver::NO_SCORE;
    m.def("solve", &solve, "cur"_a, "mask"_a, "weak"_a, "packed"_a, nb::arg("tt").noconvert(),
          nb::arg("scratch").noconvert(), nb::arg("stats").noconvert(), "books"_a,
          "The exact score of a position that is not over, for the side to move (``weak``: of "
          "the right sign only), as solver.solve_jit; stats[NODES] counts the nodes (the caller "
          "resets it), past stats[LIMIT] the search gives up and returns 0. Releases the GIL.");
    m.def("column_scores", &column_scores, "cur"_a, "mask"_a, "packed"_a,
          nb::arg("tt").noconvert(), nb::arg("scratch").noconvert(),
          nb::arg("stats").noconvert(), "books"_a,
          "The exact score of every column for the side to move (NO_SCORE for a full one), as "
          "solver.column_scores_jit. Releases the GIL.");
    m.def("probe", &probe, "cur"_a, "mask"_a, "middle"_a, "split"_a, "packed"_a,
          nb::arg("tt").noconvert(), nb::arg("busy").noconvert(),
          nb::arg("scratch").noconvert(), nb::arg("stats").noconvert(), "books"_a,
          "One null-window search (middle, middle + 1) of a position the side to move cannot "
          "win at once; with split > 0 the nodes of at least ``split`` empty cells share their "
          "moves with the other threads through ``busy``. Safe from several threads at once "
          "on one table. Releases the GIL.");
    m.def("solve_timed", &solve_timed, "currents"_a, "masks"_a, "packed"_a,
          nb::arg("tt").noconvert(), nb::arg("scratch").noconvert(),
          nb::arg("stats").noconvert(), "books"_a, nb::arg("scores").noconvert(),
          nb::arg("nodes").noconvert(), nb::arg("ticks").noconvert(),
          "For benchmarks: each position solved from an empty table, its score, nodes and "
          "the time-stamp counter's ticks of the solve alone into the three int64 arrays. "
          "Releases the GIL.");
    m.def("next_probe", &solver::next_probe, "low"_a, "high"_a,
          "The middle of the null window to search next when the score lies in [low, high].");
}
