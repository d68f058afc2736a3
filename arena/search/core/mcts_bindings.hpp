// What the bindings of MCTS share with the fused loop's (games_bindings.cpp): the tree's
// array types and their checks.
#pragma once

#include <cstdint>

#include "bindings.hpp"
#include "mcts.hpp"

using Positions = nb::ndarray<std::uint64_t, nb::shape<-1, core::mcts::POSITION_FIELDS>,
                              nb::c_contig, nb::device::cpu>;
using Links = nb::ndarray<std::int32_t, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
using Tallies = nb::ndarray<double, nb::shape<-1, core::mcts::TALLY_FIELDS>, nb::c_contig,
                            nb::device::cpu>;
using State = nb::ndarray<std::uint64_t, nb::shape<1>, nb::c_contig, nb::device::cpu>;

// The tree of mcts.new_tree's three arrays on the board `t`, checked: a row per node in each,
// at least one, and links CHILDREN + cols wide.
core::mcts::Tree tree_of(const Positions& positions, const Links& links, const Tallies& tallies,
                         const core::Tables& t);

// Refuses a search of `count` nodes (1 to the capacity), negative iterations, a c not finite.
void check_search(const core::mcts::Tree& tree, std::int64_t count, std::int64_t iterations,
                  double c);

// Raises ValueError for the error that stopped a search, if any.
void raise_error(const core::mcts::Searched& done);
