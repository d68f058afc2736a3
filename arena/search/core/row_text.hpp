// The games.csv rows of the fused game loop's games, written as bytes (arena.runs.playing.fused,
// through arena.search.kernels.row_text), and the hashes of their move strings.
//
// The text is what Python's csv module writes for the same values: integers in decimal, an
// empty cell for a missing one, and the think times, whole microseconds held as
// round(seconds, 6), in the digits of Python's repr of that float (0.0, 5e-06, 1.2e-05,
// 0.000123, 2.5). Below 2**32 seconds a float is closer than 1e-6 to its neighbours, so the
// shortest digits that give it back (repr's) are the microseconds' own, trailing zeros dropped;
// repr turns to scientific notation below 1e-4, that is below 100 microseconds.
//
// A row's cells that many rows share (the agents, who moved first, the result, the ending, the
// opening) come as words: word w is the bytes words[starts[w]] to words[starts[w + 1] - 1].
#pragma once

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace arena::core::rows {

constexpr std::int64_t MICROS = 1'000'000;  // microseconds a second
constexpr char FIRST_COLUMN = '1';          // column 0 in a move string
constexpr std::uint64_t FNV_OFFSET = 0xCBF29CE484222325ULL;  // arena.rules.game_hash's
constexpr std::uint64_t FNV_PRIME = 0x100000001B3ULL;
// The most bytes a row takes besides its words and moves: 20 digits for each of its 8 whole
// numbers, 20 + 1 + 6 for each of its 2 think times, 16 commas and a newline.
constexpr std::int64_t FIXED_BYTES = 8 * 20 + 2 * 27 + 17;

// The words of a row and where they lie.
struct Words {
    const std::uint8_t* bytes;
    const std::int64_t* starts;
};

// The columns of the rows, one entry (or two: micros, nodes, turns) per game.
struct Games {
    const std::int64_t* games;
    const std::int64_t* pairs;   // negative: no pair, an empty cell
    const std::uint64_t* seeds;
    std::int64_t agents;         // the word of both agents' cells and the comma between
    const std::int64_t* firsts;  // the words of the first mover, opening, result, ending
    const std::int64_t* openings;
    const std::int64_t* results;
    const std::int64_t* terminations;
    const std::uint8_t* moves;   // 0-based columns, `cells` a game, from the opening's end
    std::int64_t cells;
    const std::int64_t* plies;
    const std::int64_t* micros;  // two a game, A's then B's
    const std::int64_t* nodes;   // two a game, negative: an empty cell
    const std::int64_t* turns;   // two a game
};

inline char* put_unsigned(char* at, std::uint64_t value) {
    return std::to_chars(at, at + 20, value).ptr;
}

inline char* put_optional(char* at, std::int64_t value) {
    return value < 0 ? at : put_unsigned(at, static_cast<std::uint64_t>(value));
}

inline char* put_word(char* at, const Words& w, std::int64_t word) {
    const std::int64_t begin = w.starts[word], length = w.starts[word + 1] - begin;
    std::memcpy(at, w.bytes + begin, static_cast<std::size_t>(length));
    return at + length;
}

// `micros` (>= 0) microseconds in seconds, as repr writes the float round(micros / 1e6, 6).
inline char* put_micros(char* at, std::int64_t micros) {
    if (micros == 0) {
        std::memcpy(at, "0.0", 3);
        return at + 3;
    }
    if (micros >= 100) {  // positional: whole seconds, a dot, the fraction without its zeros
        at = put_unsigned(at, static_cast<std::uint64_t>(micros / MICROS));
        *at++ = '.';
        std::int64_t fraction = micros % MICROS;
        if (fraction == 0) {
            *at = '0';
            return at + 1;
        }
        int places = 6;
        for (; fraction % 10 == 0; --places) fraction /= 10;
        for (int place = places - 1; place >= 0; --place, fraction /= 10)
            at[place] = static_cast<char>('0' + fraction % 10);
        return at + places;
    }
    // 1 to 99 microseconds: one or two significant digits, then e-05 or e-06
    int exponent = -6;
    if (micros % 10 == 0) {
        micros /= 10;
        exponent += 1;
    }
    if (micros >= 10) {
        at[0] = static_cast<char>('0' + micros / 10);
        at[1] = '.';
        at[2] = static_cast<char>('0' + micros % 10);
        at += 3;
        exponent += 1;
    } else {
        *at++ = static_cast<char>('0' + micros);
    }
    std::memcpy(at, "e-0", 3);
    at[3] = static_cast<char>('0' - exponent);
    return at + 4;
}

// The moves of game g after its opening: its plies less the opening's length.
inline std::int64_t played(const Games& g, const Words& w, std::size_t game) {
    const std::int64_t opening = g.openings[game];
    return g.plies[game] - (w.starts[opening + 1] - w.starts[opening]);
}

// The most bytes row i takes.
inline std::int64_t row_bound(const Games& g, const Words& w, std::size_t i) {
    const auto length = [&](std::int64_t word) { return w.starts[word + 1] - w.starts[word]; };
    return FIXED_BYTES + length(g.agents) + length(g.firsts[i]) + 2 * length(g.openings[i]) +
           played(g, w, i) + length(g.results[i]) + length(g.terminations[i]);
}

// Whether the rows can be written: every word is one of the `word_count` words within the
// `words_size` bytes of the words, every game's moves fit its row of `moves`, and no think time
// is negative. nullptr if so, else what is wrong.
inline const char* check(const Games& g, const Words& w, std::size_t games,
                         std::int64_t word_count, std::int64_t words_size) {
    if (w.starts[0] < 0) return "the words' starts must rise from 0 within the words";
    for (std::int64_t i = 0; i < word_count; ++i)
        if (w.starts[i + 1] < w.starts[i] || w.starts[i + 1] > words_size)
            return "the words' starts must rise from 0 within the words";
    const auto known = [&](std::int64_t word) { return word >= 0 && word < word_count; };
    if (!known(g.agents)) return "a row's word is not one of the words";
    for (std::size_t i = 0; i < games; ++i) {
        if (!known(g.firsts[i]) || !known(g.openings[i]) || !known(g.results[i]) ||
            !known(g.terminations[i]))
            return "a row's word is not one of the words";
        const std::int64_t moves = played(g, w, i);
        if (moves < 0 || moves > g.cells)
            return "a game's plies must hold its opening and fit its row of moves";
        if (g.micros[2 * i] < 0 || g.micros[2 * i + 1] < 0)
            return "think times must not be negative";
    }
    return nullptr;
}

// Write row i at `at` (room for row_bound bytes); the end of the row. `moves`: where its move
// string begins.
inline char* write_row(const Games& g, const Words& w, std::size_t i, char* at,
                       char*& moves) {
    at = put_unsigned(at, static_cast<std::uint64_t>(g.games[i]));
    *at++ = ',';
    at = put_optional(at, g.pairs[i]);
    *at++ = ',';
    at = put_unsigned(at, g.seeds[i]);
    *at++ = ',';
    at = put_word(at, w, g.agents);
    *at++ = ',';
    at = put_word(at, w, g.firsts[i]);
    *at++ = ',';
    at = put_word(at, w, g.openings[i]);
    *at++ = ',';
    moves = at;  // the opening again, then the moves played from it
    at = put_word(at, w, g.openings[i]);
    const std::int64_t played_moves = played(g, w, i);
    const std::uint8_t* columns = g.moves + static_cast<std::int64_t>(i) * g.cells;
    for (std::int64_t ply = 0; ply < played_moves; ++ply)
        at[ply] = static_cast<char>(FIRST_COLUMN + columns[ply]);
    at += played_moves;
    *at++ = ',';
    at = put_word(at, w, g.results[i]);
    *at++ = ',';
    at = put_word(at, w, g.terminations[i]);
    *at++ = ',';
    at = put_unsigned(at, static_cast<std::uint64_t>(g.plies[i]));
    for (int side = 0; side < 2; ++side) {
        *at++ = ',';
        at = put_micros(at, g.micros[2 * i + side]);
    }
    for (int side = 0; side < 2; ++side) {
        *at++ = ',';
        at = put_optional(at, g.nodes[2 * i + side]);
    }
    for (int side = 0; side < 2; ++side) {
        *at++ = ',';
        at = put_unsigned(at, static_cast<std::uint64_t>(g.turns[2 * i + side]));
    }
    at[0] = ',';  // the empty error cell
    at[1] = '\n';
    return at + 2;
}

// Write the rows of the `games` games (checked by `check`) into the `room` bytes at `out`; the
// bytes written, or -1 if they do not fit. moves_at[i]: where game i's move string begins.
// A row that might not fit the room left is written aside first, and copied if it does.
inline std::int64_t write_rows(const Games& g, const Words& w, std::size_t games, char* out,
                               std::int64_t room, std::int64_t* moves_at) {
    char* at = out;
    std::string aside;
    for (std::size_t i = 0; i < games; ++i) {
        const std::int64_t bound = row_bound(g, w, i), left = room - (at - out);
        char* moves = nullptr;
        if (bound <= left) {
            at = write_row(g, w, i, at, moves);
            moves_at[i] = moves - out;
            continue;
        }
        aside.resize(static_cast<std::size_t>(bound));
        const std::int64_t length = write_row(g, w, i, &aside[0], moves) - &aside[0];
        if (length > left) return -1;
        std::memcpy(at, aside.data(), static_cast<std::size_t>(length));
        moves_at[i] = (at - out) + (moves - &aside[0]);
        at += length;
    }
    return at - out;
}

// arena.rules.game_hash.move_hashes: FNV-1a over who moved first (firsts[g]), then the
// lengths[g] bytes of game g's move string from text[starts[g]], as int64 into `hashes`.
inline void move_hashes(const std::uint8_t* text, const std::int64_t* starts,
                        const std::int64_t* lengths, const std::int64_t* firsts,
                        std::size_t games, std::int64_t* hashes) {
    for (std::size_t g = 0; g < games; ++g) {
        std::uint64_t value = (FNV_OFFSET ^ static_cast<std::uint64_t>(firsts[g])) * FNV_PRIME;
        const std::uint8_t* move = text + starts[g];
        for (std::int64_t i = 0; i < lengths[g]; ++i) value = (value ^ move[i]) * FNV_PRIME;
        hashes[g] = static_cast<std::int64_t>(value);
    }
}

}  // namespace arena::core::rows
