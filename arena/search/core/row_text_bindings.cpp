// The bindings of row_text.hpp: fused_rows and move_hashes, which arena.search.kernels.row_text
// gives the fused loop's rows (arena.runs.playing.fused) under the same names.
#include <cstddef>
#include <cstdint>
#include <string>

#include "bindings.hpp"
#include "row_text.hpp"

namespace {

namespace rows = core::rows;
using Bytes = nb::ndarray<const std::uint8_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using UInt64s = nb::ndarray<const std::uint64_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using Pairs = nb::ndarray<const std::int64_t, nb::shape<-1, 2>, nb::c_contig, nb::device::cpu>;
using Moves = nb::ndarray<const std::uint8_t, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
using Out = nb::ndarray<std::uint8_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using Where = nb::ndarray<std::int64_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

// A ValueError unless `array` has an entry per game.
template <typename Array>
void per_game(const Array& array, std::size_t games, const char* name) {
    if (array.shape(0) != games)
        throw nb::value_error((std::string(name) + " must have a row per game (" +
                               std::to_string(games) + "), not " +
                               std::to_string(array.shape(0))).c_str());
}

std::int64_t fused_rows(const Int64s& games, const Int64s& pairs, const UInt64s& seeds,
                        std::int64_t agents, const Int64s& firsts, const Int64s& openings,
                        const Int64s& results, const Int64s& terminations, const Bytes& words,
                        const Int64s& starts, const Moves& moves, const Int64s& plies,
                        const Pairs& micros, const Pairs& nodes, const Pairs& turns, Out out,
                        Where moves_at) {
    const std::size_t n = games.shape(0);
    per_game(pairs, n, "pairs");
    per_game(seeds, n, "seeds");
    per_game(firsts, n, "firsts");
    per_game(openings, n, "openings");
    per_game(results, n, "results");
    per_game(terminations, n, "terminations");
    per_game(moves, n, "moves");
    per_game(plies, n, "plies");
    per_game(micros, n, "micros");
    per_game(nodes, n, "nodes");
    per_game(turns, n, "turns");
    per_game(moves_at, n, "moves_at");
    if (starts.shape(0) < 1) throw nb::value_error("starts must hold at least one entry");
    const rows::Games g{games.data(), pairs.data(), seeds.data(), agents, firsts.data(),
                        openings.data(), results.data(), terminations.data(), moves.data(),
                        static_cast<std::int64_t>(moves.shape(1)), plies.data(),
                        micros.data(), nodes.data(), turns.data()};
    const rows::Words w{words.data(), starts.data()};
    const char* wrong = nullptr;
    std::int64_t written = 0;
    {
        nb::gil_scoped_release released;
        wrong = rows::check(g, w, n, static_cast<std::int64_t>(starts.shape(0)) - 1,
                            static_cast<std::int64_t>(words.shape(0)));
        if (!wrong)
            written = rows::write_rows(g, w, n, reinterpret_cast<char*>(out.data()),
                                       static_cast<std::int64_t>(out.shape(0)),
                                       moves_at.data());
    }
    if (wrong) throw nb::value_error(wrong);
    if (written < 0) throw nb::value_error("the output array is too small for the rows");
    return written;
}

nb::ndarray<nb::numpy, std::int64_t, nb::ndim<1>> move_hashes(const Bytes& text,
                                                              const Int64s& starts,
                                                              const Int64s& lengths,
                                                              const Int64s& firsts) {
    const std::size_t n = starts.shape(0);
    per_game(lengths, n, "lengths");
    per_game(firsts, n, "firsts");
    const auto size = static_cast<std::int64_t>(text.shape(0));
    for (std::size_t g = 0; g < n; ++g)
        if (starts.data()[g] < 0 || lengths.data()[g] < 0 ||
            lengths.data()[g] > size - starts.data()[g])
            throw nb::value_error("a move string runs outside the text");
    auto* hashes = new std::int64_t[n ? n : 1];
    {
        nb::gil_scoped_release released;
        rows::move_hashes(text.data(), starts.data(), lengths.data(), firsts.data(), n, hashes);
    }
    return owned_array(hashes, n);
}

}  // namespace

void bind_row_text(nb::module_& m) {
    m.def("fused_rows", &fused_rows, "games"_a, "pairs"_a, "seeds"_a, "agents"_a, "firsts"_a,
          "openings"_a, "results"_a, "terminations"_a, "words"_a, "starts"_a, "moves"_a,
          "plies"_a, "micros"_a, "nodes"_a, "turns"_a, nb::arg("out").noconvert(),
          nb::arg("moves_at").noconvert(),
          "Write the games.csv rows of the games into ``out``; the bytes written "
          "(row_text.fused_rows). ``moves_at`` receives where each move string begins. "
          "Releases the GIL.");
    m.def("move_hashes", &move_hashes, "text"_a, "starts"_a, "lengths"_a, "firsts"_a,
          "The FNV-1a hash of who moved first and each game's move string, as int64 "
          "(arena.rules.game_hash.move_hashes). Releases the GIL.");
}
