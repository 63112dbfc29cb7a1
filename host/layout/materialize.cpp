#include "layout/materialize.hpp"

#include <algorithm>

namespace dumpcmp {

std::vector<float> materialize(const LayoutMap& map, const float* source) {
  std::vector<float> out(static_cast<std::size_t>(map.count));
  constexpr int64_t kChunk = 4096;
  std::vector<int64_t> index(static_cast<std::size_t>(kChunk));
  for (int64_t begin = 0; begin < map.count; begin += kChunk) {
    const int64_t n = map.count - begin < kChunk ? map.count - begin : kChunk;
    fill_source_indices(map, begin, n, index.data());
    for (int64_t t = 0; t < n; ++t) {
      const int64_t s = index[static_cast<std::size_t>(t)];
      out[static_cast<std::size_t>(begin + t)] = s < 0 ? 0.0f : source[s];
    }
  }
  return out;
}

void fill_source_indices(const LayoutMap& map, int64_t begin, int64_t n, int64_t* out) {
  if (n <= 0) return;
  if (map.identity) {
    for (int64_t t = 0; t < n; ++t) out[t] = begin + t;
    return;
  }
  // Odometer over the result coordinates; each axis keeps its (o / split, o % split) pair so a step
  // is an add and a compare instead of the divisions source_index() does.
  const int rank = map.rank;
  int64_t hi[kLayoutMaxAxes] = {}, lo[kLayoutMaxAxes] = {}, offset[kLayoutMaxAxes] = {};
  int64_t rest = begin;
  for (int k = rank - 1; k >= 0; --k) {
    const int64_t o = k > 0 ? rest % map.dim[k] : rest;
    rest = k > 0 ? rest / map.dim[k] : 0;
    if (map.split[k] == 0) {
      hi[k] = 0;
      lo[k] = o;
    } else {
      hi[k] = o / map.split[k];
      lo[k] = o % map.split[k];
    }
    offset[k] = hi[k] * map.stride_hi[k] + lo[k] * map.stride_lo[k];
  }
  int64_t j = 0;
  for (int k = 0; k < rank; ++k) j += offset[k];
  // One odometer step from axis `from` outwards (axes after it are already back at 0).
  auto advance = [&](int from) {
    for (int k = from; k >= 0; --k) {
      j -= offset[k];
      ++lo[k];
      if (map.split[k] != 0 && lo[k] == map.split[k]) {
        lo[k] = 0;
        ++hi[k];
      }
      const int64_t o = map.split[k] == 0 ? lo[k] : hi[k] * map.split[k] + lo[k];
      if (o < map.dim[k] || k == 0) {
        offset[k] = hi[k] * map.stride_hi[k] + lo[k] * map.stride_lo[k];
        j += offset[k];
        return;
      }
      hi[k] = lo[k] = offset[k] = 0;
    }
  };
  const int last = rank - 1;
  if (map.tail == LayoutTail::kNone && rank > 0 && map.split[last] == 0) {
    // Runs along the innermost axis are strided: fill them without stepping the odometer.
    const int64_t stride = map.stride_lo[last];
    for (int64_t t = 0; t < n;) {
      const int64_t run = std::min(n - t, map.dim[last] - lo[last]);
      const int64_t base = j - offset[last];
      for (int64_t r = 0; r < run; ++r) out[t + r] = base + (lo[last] + r) * stride;
      t += run;
      if (t == n) break;
      j = base;
      lo[last] = offset[last] = 0;
      if (last > 0) advance(last - 1);
    }
    return;
  }
  for (int64_t t = 0; t < n; ++t) {
    switch (map.tail) {
      case LayoutTail::kFractalZC04:
        out[t] = layout_detail::fractal_z_c04_index(map.tail_param, j);
        break;
      case LayoutTail::kToFractalZ:
        out[t] = layout_detail::to_fractal_z_index(map.tail_param, j);
        break;
      case LayoutTail::kNone:
        out[t] = j;
        break;
    }
    advance(rank - 1);
  }
}

}  // namespace dumpcmp
