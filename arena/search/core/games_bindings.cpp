// The fused game loop's bindings (games.hpp): play_games over numpy arrays, the GIL released
// while the games are played, and the counter its think times are read from.
#include <cstddef>
#include <cstdint>
#include <string>
#include <optional>
#include <vector>

#include "bindings.hpp"
#include "games.hpp"
#include "solver_checks.hpp"
#include "mcts_bindings.hpp"

namespace games = core::games;

namespace {

using Seeds = nb::ndarray<const std::uint64_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using Starts = nb::ndarray<const std::uint64_t, nb::shape<-1, 2>, nb::c_contig, nb::device::cpu>;
using PlayerSettings = nb::ndarray<const std::int64_t, nb::shape<2, games::SETTINGS>,
                                   nb::c_contig, nb::device::cpu>;
using PlayerReals = nb::ndarray<const double, nb::shape<2, games::REALS>, nb::c_contig,
                                nb::device::cpu>;
template <typename T>
using Column = nb::ndarray<T, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using PerSide = nb::ndarray<std::int64_t, nb::shape<-1, 2>, nb::c_contig, nb::device::cpu>;
using Moves = nb::ndarray<std::uint8_t, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
using Scores = nb::ndarray<std::int64_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

// Element `i` of a Python tuple as the array type A, never converted: the loop writes into the
// caller's arrays, and a converted copy would lose what it writes.
template <typename A>
A element(const nb::tuple& arrays, std::size_t i, const char* name) {
    A array;
    if (!nb::try_cast<A>(arrays[i], array, false))
        throw nb::type_error((std::string("NegamaxArrays.") + name + " has the wrong dtype, "
                              "shape or layout").c_str());
    return array;
}

// A negamax player from its games.NegamaxArrays, checked against the board and its depth.
// `keep` holds the arrays alive while the loop uses their data.
games::NegamaxPlayer negamax_player(const nb::tuple& a, const core::Tables& t,
                                    std::int64_t depth, std::vector<nb::object>& keep) {
    if (a.size() != 9) throw nb::type_error("NegamaxArrays must hold 9 arrays");
    for (std::size_t i = 0; i < a.size(); ++i) keep.push_back(nb::borrow(a[i]));
    const auto search = element<SearchArray>(a, 0, "search");
    const auto terms = element<Terms>(a, 1, "terms");
    const auto lines = element<Lines>(a, 2, "lines");
    const auto points = element<Int64s>(a, 3, "points");
    auto table = element<Table>(a, 4, "table");
    auto stats = element<Stats>(a, 5, "stats");
    auto stack = element<Stack>(a, 6, "stack");
    const auto order = element<Int64s>(a, 7, "order");
    auto scores = element<Scores>(a, 8, "scores");
    const core::Tables own = core::Tables::unpack(search.data());
    if (own.board != t.board || own.cols != t.cols || own.connect != t.connect)
        throw nb::value_error("a negamax player's search array is of another board");
    check_search(own, table, stack, depth);
    if (static_cast<std::int64_t>(scores.shape(0)) < t.cols)
        throw nb::value_error("NegamaxArrays.scores must have a room for every column");
    for (std::size_t i = 0; i < order.shape(0); ++i)
        if (order.data()[i] < 0 || order.data()[i] >= t.cols)
            throw nb::value_error("NegamaxArrays.order names a column the board does not have");
    games::NegamaxPlayer p;
    p.settings = negamax::Settings::unpack(search.data());
    p.heuristic = heuristic_of(terms, lines, points, own);
    p.tt = table.data();
    p.tt_rows = static_cast<std::int64_t>(table.shape(0));
    p.stats = stats.data();
    p.stack = stack.data();
    p.order = order.data();
    p.order_count = static_cast<std::int64_t>(order.shape(0));
    p.scores = scores.data();
    return p;
}

// The solver's arrays of a batch (games.SolverArrays: table, scratch, stats, books), checked
// against its board into `c`; `keep` holds them alive while the loop searches.
solver::Arrays solver_arrays(const nb::tuple& s, const std::uint64_t* packed, Checked& c,
                             std::vector<nb::object>& keep) {
    if (s.size() != 4) throw nb::type_error("SolverArrays must hold 4 fields");
    for (std::size_t i = 0; i < s.size(); ++i) keep.push_back(nb::borrow(s[i]));
    Vector<std::uint64_t> table;
    Vector<std::int64_t> scratch;
    SolverStats stats;
    if (!nb::try_cast(s[0], table, false) || !nb::try_cast(s[1], scratch, false) ||
        !nb::try_cast(s[2], stats, false))
        throw nb::type_error("SolverArrays' table, scratch or stats has the wrong dtype, shape "
                             "or layout");
    check_arrays(c, packed, table, scratch, nb::cast<nb::tuple>(s[3]));
    return solver::Arrays{c.t, table.data(), c.tt_bits, stats.data(), c.books};
}

// An MCTS player's tree from its three arrays (mcts.new_tree), checked against the board; its
// settings checked as mcts_search checks them. `keep` holds the arrays alive.
core::mcts::Tree mcts_tree(const nb::object& arrays, const core::Tables& t,
                           const std::int64_t* row, double c, std::vector<nb::object>& keep) {
    if (!nb::isinstance<nb::tuple>(arrays)) throw nb::type_error("an MCTS tree must be a tuple");
    const auto a = nb::borrow<nb::tuple>(arrays);
    if (a.size() != 3)
        throw nb::type_error("an MCTS tree must hold 3 arrays (positions, links, tallies)");
    for (std::size_t i = 0; i < a.size(); ++i) keep.push_back(nb::borrow(a[i]));
    Positions positions;
    Links links;
    Tallies tallies;
    if (!nb::try_cast<Positions>(a[0], positions, false) ||
        !nb::try_cast<Links>(a[1], links, false) || !nb::try_cast<Tallies>(a[2], tallies, false))
        throw nb::type_error("an MCTS tree's arrays have the wrong dtype, shape or layout "
                             "(mcts.new_tree's)");
    const core::mcts::Tree tree = tree_of(positions, links, tallies, t);
    check_search(tree, 1, row[games::ITERATIONS], c);
    if (c < 0) throw nb::value_error("an MCTS player's c must be at least 0");
    return tree;
}

void play_games(const Seeds& seeds, const Starts& starts, const Int64s& firsts,
                std::int64_t adjudicate, const Packed& packed, const PlayerSettings& settings,
                const PlayerReals& reals, const nb::object& negamax_a,
                const nb::object& negamax_b, const nb::object& tree_a, const nb::object& tree_b,
                const nb::object& solver_arrays_or_none,
                Column<std::int8_t> winners, Column<std::int8_t> endings,
                Column<std::int64_t> plies, Moves moves, PerSide cycles, PerSide nodes,
                PerSide turns) {
    const core::Tables t = core::Tables::unpack(packed.data());
    const std::size_t n = seeds.shape(0);
    if (starts.shape(0) != n || firsts.shape(0) != n || winners.shape(0) != n ||
        endings.shape(0) != n || plies.shape(0) != n || moves.shape(0) != n ||
        cycles.shape(0) != n || nodes.shape(0) != n || turns.shape(0) != n)
        throw nb::value_error("every array of a batch must have a row per game");
    if (static_cast<std::int64_t>(moves.shape(1)) < core::popcount(t.board))
        throw nb::value_error("moves must have room for every cell of the board");
    for (std::size_t g = 0; g < n; ++g) {
        const std::uint64_t cur = starts.data()[2 * g], mask = starts.data()[2 * g + 1];
        // discs only on the board's cells, stacked from the bottom of each column
        if ((mask & ~t.board) || (cur & ~mask) || ((mask + t.bottom) & mask) ||
            (firsts.data()[g] & ~std::int64_t{1}))
            throw nb::value_error(("game " + std::to_string(g) + " starts from a position "
                                   "that is not one of the board's").c_str());
    }
    std::vector<nb::object> keep;
    games::NegamaxPlayer players[2];
    core::mcts::Tree trees[2];
    games::Batch b{seeds.data(), starts.data(), firsts.data(), n, settings.data(), reals.data(),
                   {nullptr, nullptr}, {nullptr, nullptr}};
    Checked checked;
    std::optional<solver::Arrays> solving;
    if (!solver_arrays_or_none.is_none()) {
        solving.emplace(solver_arrays(nb::cast<nb::tuple>(solver_arrays_or_none), packed.data(),
                                      checked, keep));
        b.solver = &*solving;
        b.adjudicate = adjudicate;
    }
    const nb::object* arrays[2] = {&negamax_a, &negamax_b};
    const nb::object* tree_arrays[2] = {&tree_a, &tree_b};
    for (int side = 0; side < 2; ++side) {
        const std::int64_t* row = settings.data() + side * games::SETTINGS;
        const std::int64_t kind = row[games::KIND];
        if (kind == games::NEGAMAX) {
            if (arrays[side]->is_none())
                throw nb::value_error("a negamax player needs its NegamaxArrays");
            players[side] = negamax_player(nb::cast<nb::tuple>(*arrays[side]), t,
                                           row[games::DEPTH], keep);
            b.negamax[side] = &players[side];
        } else if (kind == games::SOLVER) {
            if (!b.solver) throw nb::value_error("a solver player needs the SolverArrays");
        } else if (kind == games::MCTS) {
            if (tree_arrays[side]->is_none())
                throw nb::value_error("an MCTS player needs its tree");
            trees[side] = mcts_tree(*tree_arrays[side], t, row,
                                    reals.data()[side * games::REALS + games::C], keep);
            b.trees[side] = &trees[side];
        } else if (kind != games::RANDOM && kind != games::IMMEDIATE_WIN) {
            throw nb::value_error(("player kind " + std::to_string(kind) + " is not one the "
                                   "compiled loop plays").c_str());
        }
    }
    const games::Outcomes out{winners.data(), endings.data(), plies.data(), moves.data(),
                              static_cast<std::int64_t>(moves.shape(1)), cycles.data(),
                              nodes.data(), turns.data()};
    core::mcts::Searched stopped;
    {
        nb::gil_scoped_release released;
        stopped = games::play_batch(b, t, out);
    }
    raise_error(stopped);
}

}  // namespace

void bind_games(nb::module_& m) {
    m.def("play_games", &play_games, "seeds"_a, "starts"_a, "firsts"_a, "adjudicate"_a,
          "packed"_a, "settings"_a, "reals"_a, "negamax_a"_a.none(), "negamax_b"_a.none(),
          "tree_a"_a.none(), "tree_b"_a.none(), "solver"_a.none(),
          nb::arg("winners").noconvert(), nb::arg("endings").noconvert(),
          nb::arg("plies").noconvert(), nb::arg("moves").noconvert(),
          nb::arg("cycles").noconvert(), nb::arg("nodes").noconvert(),
          nb::arg("turns").noconvert(),
          "Play game g from starts[g] (agent A first when firsts[g] is 0), drawing from "
          "Generator(PCG64(seeds[g])), into the outcome arrays (games.Outcomes' fields), as "
          "games.play_games does for players of the kinds RANDOM, IMMEDIATE_WIN, NEGAMAX, "
          "MCTS or SOLVER (``negamax_a``/``negamax_b``: a negamax side's NegamaxArrays, "
          "``tree_a``/``tree_b``: an MCTS side's tree, mcts.new_tree's arrays, else None; "
          "``solver``: the SolverArrays when a solver plays or adjudicates, at ``adjudicate`` "
          "discs if that is not negative); the search arrays and the trees are used in place. "
          "Releases the GIL.");
    m.def("counter", &games::cycles,
          "The counter play_games reads think times from (the processor's time-stamp counter, "
          "or a steady clock's nanoseconds where there is none).");
}
