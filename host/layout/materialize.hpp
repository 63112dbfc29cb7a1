#pragma once
// Host helpers that walk a LayoutMap in order: the converted array for writers that need one
// (single-op detail, convert) and source indices for CPU chunk loops.
#include <cstdint>
#include <functional>
#include <vector>

#include "layout/layout_map.hpp"

namespace dumpcmp {

// The restored tensor as float32: element i = source[map.source_index(i)], or 0 where it is -1.
std::vector<float> materialize(const LayoutMap& map, const float* source);

// out[t] = map.source_index(begin + t) for t < n; walks the result incrementally, so a CPU chunk
// pays no per-element division.
void fill_source_indices(const LayoutMap& map, int64_t begin, int64_t n, int64_t* out);

// Whether map's innermost axis maps to evenly strided source elements with no tail: then a chunk is
// a few strided runs (NC1HWC0 -> NCHW: runs of W elements, 16 apart).
bool has_strided_runs(const LayoutMap& map);

// For a map with strided runs: calls visit(t, first, stride, length) for consecutive runs covering
// [begin, begin + n), element begin + t + r being source element first + r * stride.
using StridedRunVisitor =
    std::function<void(int64_t t, int64_t first, int64_t stride, int64_t length)>;
void for_each_strided_run(const LayoutMap& map, int64_t begin, int64_t n,
                          const StridedRunVisitor& visit);

}  // namespace dumpcmp
