// What the binding files of arena.search.kernels._core share: nanobind, the numpy array
// types the kernels take, and owned_array for the arrays they return.
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <cstddef>
#include <cstdint>

#include "bitboard.hpp"
#include "streams.hpp"

namespace nb = nanobind;
using namespace nb::literals;
namespace core = arena::core;

using Int64s = nb::ndarray<const std::int64_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using Packed = nb::ndarray<const std::uint64_t, nb::shape<core::BOARD_FIELDS>, nb::c_contig,
                           nb::device::cpu>;
using Stream = nb::ndarray<std::uint64_t, nb::shape<core::STREAM_WORDS>, nb::c_contig,
                           nb::device::cpu>;
using Int8Array = nb::ndarray<nb::numpy, std::int8_t, nb::ndim<1>>;

// A new numpy array of `n` elements of T, owned by the array (freed with it).
template <typename T>
nb::ndarray<nb::numpy, T, nb::ndim<1>> owned_array(T* data, std::size_t n) {
    nb::capsule owner(data, [](void* p) noexcept { delete[] static_cast<T*>(p); });
    return nb::ndarray<nb::numpy, T, nb::ndim<1>>(data, {n}, owner);
}
