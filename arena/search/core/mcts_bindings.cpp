// MCTS's bindings (mcts.hpp): set_root, search and playout_results over numpy arrays, with
// the GIL released while they search. The tree's arrays and the generator's state are the
// caller's, used in place and never converted (a converted copy would lose what is written).
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>

#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>

#include "bindings.hpp"
#include "mcts.hpp"
#include "mcts_bindings.hpp"

namespace mcts = core::mcts;

namespace {

std::string where(const char* what, std::int64_t node) {
    return std::string("the tree is malformed: ") + what + " (node " + std::to_string(node) + ")";
}

// A position of the board: discs only on its cells, stacked from the bottom of each column.
void check_position(std::uint64_t cur, std::uint64_t mask, const core::Tables& t) {
    if ((mask & ~t.board) || (cur & ~mask) || ((mask + t.bottom) & mask))
        throw nb::value_error("the position is not one of the board's (cur, mask)");
}

void set_root(Positions positions, Links links, Tallies tallies, std::uint64_t cur,
              std::uint64_t mask, const Packed& packed) {
    const core::Tables t = core::Tables::unpack(packed.data());
    check_position(cur, mask, t);
    const mcts::Tree tree = tree_of(positions, links, tallies, t);
    mcts::set_root(tree, cur, mask, t);
}

std::pair<std::int64_t, std::int64_t> search(Positions positions, Links links, Tallies tallies,
                                             std::int64_t count, std::int64_t iterations,
                                             double c, bool immediate_win, State state,
                                             const Packed& packed) {
    const core::Tables t = core::Tables::unpack(packed.data());
    const mcts::Tree tree = tree_of(positions, links, tallies, t);
    check_search(tree, count, iterations, c);
    mcts::Searched done;
    {
        nb::gil_scoped_release released;
        done = mcts::dispatch(mcts::SearchJob{tree, {count, iterations, c, immediate_win},
                                              state.data()}, t);
    }
    raise_error(done);
    return {done.count, done.done};
}

Int64Array playout_results(std::uint64_t cur, std::uint64_t mask, std::int64_t games,
                           bool immediate_win, State state, const Packed& packed) {
    const core::Tables t = core::Tables::unpack(packed.data());
    check_position(cur, mask, t);
    if (games < 0) throw nb::value_error("games must be at least 0");
    auto* counts = new std::int64_t[3]();
    {
        nb::gil_scoped_release released;
        mcts::dispatch(mcts::PlayoutJob{cur, mask, games, immediate_win, state.data(), counts},
                       t);
    }
    return owned_array(counts, 3);
}

}  // namespace

mcts::Tree tree_of(const Positions& positions, const Links& links, const Tallies& tallies,
                   const core::Tables& t) {
    const auto capacity = static_cast<std::int64_t>(positions.shape(0));
    if (capacity < 1) throw nb::value_error("the tree must have room for a node");
    if (static_cast<std::int64_t>(links.shape(0)) != capacity ||
        static_cast<std::int64_t>(tallies.shape(0)) != capacity)
        throw nb::value_error("positions, links and tallies must have a row per node");
    if (t.cols < 1 || t.cols > 64 || static_cast<std::int64_t>(links.shape(1)) !=
        mcts::CHILDREN + t.cols)
        throw nb::value_error("links must have 2 + cols columns (mcts.new_tree)");
    return {positions.data(), links.data(), tallies.data(), capacity,
            static_cast<std::int64_t>(links.shape(1))};
}

void check_search(const mcts::Tree& tree, std::int64_t count, std::int64_t iterations,
                  double c) {
    if (count < 1 || count > tree.capacity)
        throw nb::value_error(("count " + std::to_string(count) + " is not from 1 to the "
                               "tree's capacity, " + std::to_string(tree.capacity)).c_str());
    if (iterations < 0) throw nb::value_error("iterations must be at least 0");
    if (!std::isfinite(c)) throw nb::value_error("c must be a finite number");
}

void raise_error(const mcts::Searched& done) {
    switch (done.error) {
        case mcts::NONE: return;
        case mcts::BAD_CHILD:
            throw nb::value_error(where("a child link points outside the tree's nodes",
                                        done.node).c_str());
        case mcts::NO_CHILD:
            throw nb::value_error(where("a fully expanded node has no child with a bound "
                                        "above -1", done.node).c_str());
        case mcts::BAD_PARENT:
            throw nb::value_error(where("a parent link is not below its node",
                                        done.node).c_str());
        case mcts::OFF_BOARD:
            throw nb::value_error(where("a position or untried cell lies off the board",
                                        done.node).c_str());
    }
}

void bind_mcts(nb::module_& m) {
    m.attr("MCTS_CHILDREN") = static_cast<int>(mcts::CHILDREN);
    m.def("mcts_set_root", &set_root, nb::arg("positions").noconvert(),
          nb::arg("links").noconvert(), nb::arg("tallies").noconvert(), "cur"_a, "mask"_a,
          "packed"_a, "Make node 0 of the tree the root for a position (mcts.set_root).");
    m.def("mcts_search", &search, nb::arg("positions").noconvert(),
          nb::arg("links").noconvert(), nb::arg("tallies").noconvert(), "count"_a,
          "iterations"_a, "c"_a, "immediate_win"_a, nb::arg("state").noconvert(), "packed"_a,
          "``iterations`` of UCT on the tree of ``count`` nodes: (the new node count, the "
          "iterations run), fewer when the tree is full (mcts.search). The tree and the "
          "splitmix64 ``state`` are used in place; a malformed tree raises ValueError. "
          "Releases the GIL.");
    m.def("mcts_kernels", [](const std::string& allowed) {
        const char* names[] = {"any", "no-pdep", "generic", "portable"};
        for (int i = 0; i < 4; ++i)
            if (allowed == names[i]) {
                mcts::allowed_kernels().store(i, std::memory_order_relaxed);
                return;
            }
        throw nb::value_error("kernels must be any, no-pdep, generic or portable");
    }, "allowed"_a,
       "For the tests: which compiled MCTS kernels the calls may take: ``any`` (the fastest "
       "this machine runs, the default), ``no-pdep`` (not those for BMI2's pdep), ``generic`` "
       "(not those for the common boards either) or ``portable`` (those for any CPU); for "
       "every thread, from the next call on.");
    m.def("mcts_playout_results", &playout_results, "cur"_a, "mask"_a, "games"_a,
          "immediate_win"_a, nb::arg("state").noconvert(), "packed"_a,
          "Wins, draws and losses of the side to move in ``games`` random playouts "
          "(mcts.playout_results); ``state`` used in place. Releases the GIL.");
}
