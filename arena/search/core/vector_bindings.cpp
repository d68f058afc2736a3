// The vectorized environment's bindings (vector.hpp): step_boards and observe over numpy
// arrays, written in place (never converted: a converted copy would lose what they write), the
// GIL released while the boards are stepped or drawn.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "vector.hpp"

namespace vec = core::vector;

namespace {

template <typename T>
using Column = nb::ndarray<T, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using State = nb::ndarray<std::uint64_t, nb::shape<1>, nb::c_contig, nb::device::cpu>;
using Planes = nb::ndarray<std::int8_t, nb::ndim<4>, nb::c_contig, nb::device::cpu>;
using Legal = nb::ndarray<bool, nb::ndim<2>, nb::c_contig, nb::device::cpu>;

// The board of a board_array (or a search array, which begins with one), checked.
core::Tables board_of(const std::uint64_t* packed, std::size_t words) {
    if (words < static_cast<std::size_t>(core::BOARD_FIELDS))
        throw nb::value_error("packed must begin with a board_array's words");
    const core::Tables t = core::Tables::unpack(packed);
    const auto rows = static_cast<std::int64_t>(t.height) - 1;
    if (!core::is_board(t, rows, t.cols, t.connect))
        throw nb::value_error("packed does not hold a board's tables (bitboard.board_array)");
    return t;
}

void require_length(std::size_t length, std::size_t boards, const char* name) {
    if (length != boards)
        throw nb::value_error((std::string(name) + " must have a row for each of the " +
                               std::to_string(boards) + " boards").c_str());
}

void step_boards(const SearchArray& packed, std::int64_t kind, std::int64_t depth,
                 std::int64_t first, const Terms& terms, const Lines& lines,
                 const Int64s& points, Table tt, Stats stats, Stack stack, State state,
                 Column<std::uint64_t> cur, Column<std::uint64_t> mask,
                 const Column<const std::int64_t>& actions, Column<float> rewards,
                 Column<bool> terminated, Column<bool> illegal, Column<std::int64_t> replies,
                 Column<std::int64_t> openings) {
    const core::Tables t = board_of(packed.data(), packed.shape(0));
    if (kind < 0 || kind >= vec::OPPONENTS)
        throw nb::value_error(("opponent kind " + std::to_string(kind) + " is not one of "
                               "RANDOM, IMMEDIATE_WIN, NEGAMAX, SELF_PLAY").c_str());
    if (first < 0 || first >= vec::FIRSTS)
        throw nb::value_error(("first " + std::to_string(first) + " is not one of "
                               "LEARNER_FIRST, OPPONENT_FIRST, EITHER_FIRST").c_str());
    const std::size_t boards = cur.shape(0);
    require_length(mask.shape(0), boards, "mask");
    require_length(actions.shape(0), boards, "actions");
    require_length(rewards.shape(0), boards, "rewards");
    require_length(terminated.shape(0), boards, "terminated");
    require_length(illegal.shape(0), boards, "illegal");
    require_length(replies.shape(0), boards, "replies");
    require_length(openings.shape(0), boards, "openings");
    std::vector<std::int64_t> scores(static_cast<std::size_t>(t.cols > 0 ? t.cols : 1));
    vec::Search search{negamax::Settings::unpack(packed.data()), {}, tt.data(),
                       static_cast<std::int64_t>(tt.shape(0)), stats.data(), stack.data(),
                       scores.data()};
    if (kind == vec::NEGAMAX) {
        check_search(t, tt, stack, depth);
        search.heuristic = heuristic_of(terms, lines, points, t);
    }
    const vec::Boards b{boards, cur.data(), mask.data(), actions.data(), rewards.data(),
                        terminated.data(), illegal.data(), replies.data(), openings.data()};
    std::uint64_t seed = state.data()[0];
    {
        nb::gil_scoped_release released;
        vec::step_batch(t, kind, depth, first, search, seed, b);
    }
    state.data()[0] = seed;
}

void observe(const Column<const std::uint64_t>& packed, const Column<const std::uint64_t>& cur,
             const Column<const std::uint64_t>& mask, Planes planes, Legal legal) {
    const core::Tables t = board_of(packed.data(), packed.shape(0));
    const std::size_t boards = cur.shape(0);
    const auto rows = static_cast<std::size_t>(t.height - 1);
    const auto cols = static_cast<std::size_t>(t.cols);
    require_length(mask.shape(0), boards, "mask");
    if (planes.shape(0) != boards || planes.shape(1) != 2 || planes.shape(2) != rows ||
        planes.shape(3) != cols)
        throw nb::value_error(("planes must have shape (" + std::to_string(boards) + ", 2, " +
                               std::to_string(rows) + ", " + std::to_string(cols) +
                               ")").c_str());
    if (legal.shape(0) != boards || legal.shape(1) != cols)
        throw nb::value_error(("legal must have shape (" + std::to_string(boards) + ", " +
                               std::to_string(cols) + ")").c_str());
    nb::gil_scoped_release released;
    vec::observe(t, boards, cur.data(), mask.data(), planes.data(), legal.data());
}

}  // namespace

void bind_vector(nb::module_& m) {
    m.def("step_boards", &step_boards, "packed"_a, "kind"_a, "depth"_a, "first"_a, "terms"_a,
          "lines"_a, "points"_a, nb::arg("tt").noconvert(), nb::arg("stats").noconvert(),
          nb::arg("stack").noconvert(), nb::arg("state").noconvert(),
          nb::arg("cur").noconvert(), nb::arg("mask").noconvert(), "actions"_a,
          nb::arg("rewards").noconvert(), nb::arg("terminated").noconvert(),
          nb::arg("illegal").noconvert(), nb::arg("replies").noconvert(),
          nb::arg("openings").noconvert(),
          "Step every board as vector.step_boards documents it, in place. Releases the GIL.");
    m.def("observe", &observe, "packed"_a, "cur"_a, "mask"_a, nb::arg("planes").noconvert(),
          nb::arg("legal").noconvert(),
          "Write every board's planes and legal columns, as vector.observe documents it. "
          "Releases the GIL.");
}
