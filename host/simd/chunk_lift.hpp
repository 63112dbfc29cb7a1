#pragma once
// The CPU backend's chunk lifts as vector code, written once with Highway and compiled for every
// SIMD target the build allows; the best one the CPU runs is picked at run time (simd_target.hpp).
// Each returns the same bits as the scalar templates in math/accumulator.hpp (which the device
// backends run): the same 8 lanes, the same operations per lane, the lanes summed in order.
#include <cstdint>

#include "math/accumulator.hpp"
#include "math/element_source.hpp"

namespace dumpcmp::simd {

// lift_pair_chunk over n elements a side, at any alignment: float32 values, or binary16 or
// bfloat16 bits converted in registers (the same bits as decoding them into float32 first).
PairAccumulator lift_pair_chunk(ChunkSide x, ChunkSide y, int64_t n);
PairAccumulator lift_pair_chunk(Float32Bytes x, Float32Bytes y, int64_t n);

// lift_kld_chunk over n elements a side, as above (finite data, as kld_pass_possible guarantees).
KldAccumulator lift_kld_chunk(ChunkSide x, ChunkSide y, int64_t n, KldScale sx, KldScale sy);
KldAccumulator lift_kld_chunk(Float32Bytes x, Float32Bytes y, int64_t n, KldScale sx, KldScale sy);

// The Highway target bit of the copy the kernels above dispatch to now, as that copy reports it.
int64_t dispatched_target();

}  // namespace dumpcmp::simd
