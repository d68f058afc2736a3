// numpy's Generator(PCG64(seed)) rebuilt, draw for draw (numpy 1.17 and later).
//
// A game's agents draw from Generator(PCG64(seed)) (arena.runs.planning.seeds); a compiled
// game loop must draw the same numbers to play the same games. A stream is five uint64 words,
// the layout of arena.search.kernels.streams (whose numba functions draw the same): the
// 128-bit LCG state (high, low), its increment (high, low), and the 32-bit half of an output
// that numpy keeps for the next 32-bit draw, with a flag bit above it.
//
// - seed: the integer goes through numpy's SeedSequence (a pool of four 32-bit words, hashed
//   and mixed), whose first eight output words make PCG64's initial state and increment;
// - next_uint64: one step of the LCG, then the XSL-RR output of the new state;
// - next_uint32: the low half of a new 64-bit output, or the high half kept from the last one;
// - next_double (Generator.random()): the top 53 bits of a 64-bit output, times 2**-53;
// - bounded(n) (Generator.integers(n), 1 <= n < 2**32): Lemire's multiply-and-reject on 32-bit
//   outputs, and no draw at all for n == 1;
// - half_uint64 (Generator.integers(0, 2**63)): a 64-bit output shifted right once.
#pragma once

#include <cstdint>

namespace arena::core {

// splitmix64, the generator MCTS and the vector environment draw from (one uint64 of state):
// the next 64 bits, and a whole number from 0 to n - 1 (n < 2**32) made from its top 32 bits.
inline std::uint64_t splitmix64(std::uint64_t& state) {
    state += 0x9E3779B97F4A7C15ULL;
    std::uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

inline std::uint64_t splitmix_below(std::uint64_t& state, std::uint64_t n) {
    return ((splitmix64(state) >> 32) * n) >> 32;
}

constexpr int STREAM_WORDS = 5;
enum StreamWord { STATE_HIGH = 0, STATE_LOW = 1, INC_HIGH = 2, INC_LOW = 3, KEPT = 4 };
constexpr std::uint64_t HAS_KEPT = std::uint64_t{1} << 32;  // flag bit of stream[KEPT]
constexpr std::uint64_t LOW_32 = 0xFFFF'FFFFu;

namespace pcg {
// PCG's default 128-bit multiplier, as two 64-bit halves
constexpr std::uint64_t MULTIPLIER_HIGH = 2549297995355413924ULL;
constexpr std::uint64_t MULTIPLIER_LOW = 4865540595714422341ULL;
// SeedSequence's hashing and mixing constants (32-bit words)
constexpr std::uint32_t INIT_A = 0x43B0D7E5u, MULT_A = 0x931E8875u;
constexpr std::uint32_t INIT_B = 0x8B51F9DDu, MULT_B = 0x58F38DEDu;
constexpr std::uint32_t MIX_MULT_L = 0xCA01F9DDu, MIX_MULT_R = 0x4973F715u;
constexpr int XSHIFT = 16;
constexpr int POOL_SIZE = 4;
constexpr double DOUBLE_UNIT = 1.0 / 9007199254740992.0;  // 2**-53

// The high 64 bits of the 128-bit product a * b.
inline std::uint64_t high_product(std::uint64_t a, std::uint64_t b) {
#if defined(__SIZEOF_INT128__)
    return static_cast<std::uint64_t>((static_cast<unsigned __int128>(a) * b) >> 64);
#else
    const std::uint64_t a0 = a & LOW_32, a1 = a >> 32, b0 = b & LOW_32, b1 = b >> 32;
    const std::uint64_t low_high = a0 * b1, high_low = a1 * b0;
    const std::uint64_t carry = ((a0 * b0) >> 32) + (low_high & LOW_32) + (high_low & LOW_32);
    return a1 * b1 + (low_high >> 32) + (high_low >> 32) + (carry >> 32);
#endif
}

// state = state * multiplier + increment, modulo 2**128.
inline void step(std::uint64_t* s) {
    const std::uint64_t high = s[STATE_HIGH], low = s[STATE_LOW];
    const std::uint64_t product_low = low * MULTIPLIER_LOW;
    const std::uint64_t product_high =
        high_product(low, MULTIPLIER_LOW) + low * MULTIPLIER_HIGH + high * MULTIPLIER_LOW;
    const std::uint64_t sum_low = product_low + s[INC_LOW];
    s[STATE_LOW] = sum_low;
    s[STATE_HIGH] = product_high + s[INC_HIGH] + (sum_low < product_low ? 1 : 0);
}

// SeedSequence's hash of one word, which moves the hash constant on.
inline std::uint32_t hashmix(std::uint32_t value, std::uint32_t& hash_const) {
    value ^= hash_const;
    hash_const *= MULT_A;
    value *= hash_const;
    return value ^ (value >> XSHIFT);
}

// SeedSequence's mix of two words.
inline std::uint32_t mix(std::uint32_t x, std::uint32_t y) {
    const std::uint32_t result = MIX_MULT_L * x - MIX_MULT_R * y;
    return result ^ (result >> XSHIFT);
}
}  // namespace pcg

// Make the five words at `s` the stream of Generator(PCG64(seed)).
inline void seed_stream(std::uint64_t* s, std::uint64_t seed) {
    // the seed as numpy coerces it: its 32-bit words, low first, one word for a seed < 2**32
    const std::uint32_t entropy[2] = {static_cast<std::uint32_t>(seed & LOW_32),
                                      static_cast<std::uint32_t>(seed >> 32)};
    const int words = entropy[1] ? 2 : 1;
    std::uint32_t pool[pcg::POOL_SIZE];
    std::uint32_t hash_const = pcg::INIT_A;
    for (int i = 0; i < pcg::POOL_SIZE; ++i)
        pool[i] = pcg::hashmix(i < words ? entropy[i] : 0u, hash_const);
    for (int source = 0; source < pcg::POOL_SIZE; ++source)
        for (int target = 0; target < pcg::POOL_SIZE; ++target)
            if (source != target)
                pool[target] = pcg::mix(pool[target], pcg::hashmix(pool[source], hash_const));
    // generate_state(4, uint64): eight 32-bit words, paired little-endian
    std::uint64_t seeds[4] = {};
    std::uint32_t hashed = pcg::INIT_B;
    for (int i = 0; i < 8; ++i) {
        std::uint32_t value = pool[i % pcg::POOL_SIZE] ^ hashed;
        hashed *= pcg::MULT_B;
        value *= hashed;
        value ^= value >> pcg::XSHIFT;
        seeds[i / 2] |= static_cast<std::uint64_t>(value) << (32 * (i % 2));
    }
    // PCG64's seeding: state 0, increment (seeds[2:4] << 1) | 1, a step, add seeds[0:2], a step
    s[STATE_HIGH] = 0;
    s[STATE_LOW] = 0;
    s[INC_HIGH] = (seeds[2] << 1) | (seeds[3] >> 63);
    s[INC_LOW] = (seeds[3] << 1) | 1u;
    s[KEPT] = 0;
    pcg::step(s);
    const std::uint64_t low = s[STATE_LOW] + seeds[1];
    s[STATE_HIGH] += seeds[0] + (low < seeds[1] ? 1 : 0);
    s[STATE_LOW] = low;
    pcg::step(s);
}

// The next 64 bits of the stream.
inline std::uint64_t next_uint64(std::uint64_t* s) {
    pcg::step(s);
    const std::uint64_t value = s[STATE_HIGH] ^ s[STATE_LOW];
    const unsigned rotation = static_cast<unsigned>(s[STATE_HIGH] >> 58);
    return (value >> rotation) | (value << ((64u - rotation) & 63u));
}

// The next 32 bits: the high half kept from the last 64-bit output, or the low half of a new
// one (whose high half is kept).
inline std::uint32_t next_uint32(std::uint64_t* s) {
    const std::uint64_t kept = s[KEPT];
    if (kept & HAS_KEPT) {
        s[KEPT] = 0;
        return static_cast<std::uint32_t>(kept & LOW_32);
    }
    const std::uint64_t value = next_uint64(s);
    s[KEPT] = HAS_KEPT | (value >> 32);
    return static_cast<std::uint32_t>(value & LOW_32);
}

// A double in [0, 1), as Generator.random() draws it.
inline double next_double(std::uint64_t* s) {
    return static_cast<double>(next_uint64(s) >> 11) * pcg::DOUBLE_UNIT;
}

// An integer in [0, n) for 1 <= n < 2**32, as Generator.integers(n) draws it.
inline std::int64_t bounded(std::uint64_t* s, std::uint64_t n) {
    if (n == 1) return 0;
    std::uint64_t product = static_cast<std::uint64_t>(next_uint32(s)) * n;
    if ((product & LOW_32) < n) {
        const std::uint64_t threshold = (LOW_32 - (n - 1)) % n;
        while ((product & LOW_32) < threshold)
            product = static_cast<std::uint64_t>(next_uint32(s)) * n;
    }
    return static_cast<std::int64_t>(product >> 32);
}

// An integer in [0, 2**63), as Generator.integers(0, 2**63) draws it.
inline std::uint64_t half_uint64(std::uint64_t* s) { return next_uint64(s) >> 1; }

}  // namespace arena::core
