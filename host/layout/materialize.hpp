#pragma once
// Host helpers that walk a LayoutMap in order: the converted array for writers that need one
// (single-op detail, convert) and source indices for CPU chunk loops.
#include <cstdint>
#include <vector>

#include "layout/layout_map.hpp"

namespace dumpcmp {

// The restored tensor as float32: element i = source[map.source_index(i)], or 0 where it is -1.
std::vector<float> materialize(const LayoutMap& map, const float* source);

// out[t] = map.source_index(begin + t) for t < n; walks the result incrementally, so a CPU chunk
// pays no per-element division.
void fill_source_indices(const LayoutMap& map, int64_t begin, int64_t n, int64_t* out);

}  // namespace dumpcmp
