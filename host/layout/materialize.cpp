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

namespace {

// Odometer over the result coordinates; each axis keeps its (o / split, o % split) pair so a step
// is an add and a compare instead of the divisions source_index() does. j is the source index of
// the current element, before the tail.
class Odometer {
 public:
  Odometer(const LayoutMap& map, int64_t begin) : map_(map) {
    int64_t rest = begin;
    for (int k = map.rank - 1; k >= 0; --k) {
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
    for (int k = 0; k < map.rank; ++k) j += offset[k];
  }

  // One step from axis `from` outwards (axes after it are already back at 0).
  void advance(int from) {
    for (int k = from; k >= 0; --k) {
      j -= offset[k];
      ++lo[k];
      if (map_.split[k] != 0 && lo[k] == map_.split[k]) {
        lo[k] = 0;
        ++hi[k];
      }
      const int64_t o = map_.split[k] == 0 ? lo[k] : hi[k] * map_.split[k] + lo[k];
      if (o < map_.dim[k] || k == 0) {
        offset[k] = hi[k] * map_.stride_hi[k] + lo[k] * map_.stride_lo[k];
        j += offset[k];
        return;
      }
      hi[k] = lo[k] = offset[k] = 0;
    }
  }

  int64_t hi[kLayoutMaxAxes] = {}, lo[kLayoutMaxAxes] = {}, offset[kLayoutMaxAxes] = {};
  int64_t j = 0;

 private:
  const LayoutMap& map_;
};

}  // namespace

bool has_strided_runs(const LayoutMap& map) {
  return !map.identity && map.tail == LayoutTail::kNone && map.rank > 0 &&
         map.split[map.rank - 1] == 0;
}

void for_each_strided_run(const LayoutMap& map, int64_t begin, int64_t n,
                          const StridedRunVisitor& visit) {
  if (n <= 0) return;
  Odometer odometer(map, begin);
  const int last = map.rank - 1;
  const int64_t stride = map.stride_lo[last];
  for (int64_t t = 0; t < n;) {
    const int64_t run = std::min(n - t, map.dim[last] - odometer.lo[last]);
    const int64_t base = odometer.j - odometer.offset[last];
    visit(t, base + odometer.lo[last] * stride, stride, run);
    t += run;
    if (t == n) break;
    odometer.j = base;
    odometer.lo[last] = odometer.offset[last] = 0;
    if (last > 0) odometer.advance(last - 1);
  }
}

void fill_source_indices(const LayoutMap& map, int64_t begin, int64_t n, int64_t* out) {
  if (n <= 0) return;
  if (map.identity) {
    for (int64_t t = 0; t < n; ++t) out[t] = begin + t;
    return;
  }
  if (has_strided_runs(map)) {
    // Runs along the innermost axis are strided: fill them without stepping the odometer.
    for_each_strided_run(map, begin, n,
                         [out](int64_t t, int64_t first, int64_t stride, int64_t length) {
                           for (int64_t r = 0; r < length; ++r) out[t + r] = first + r * stride;
                         });
    return;
  }
  Odometer odometer(map, begin);
  for (int64_t t = 0; t < n; ++t) {
    switch (map.tail) {
      case LayoutTail::kFractalZC04:
        out[t] = layout_detail::fractal_z_c04_index(map.tail_param, odometer.j);
        break;
      case LayoutTail::kToFractalZ:
        out[t] = layout_detail::to_fractal_z_index(map.tail_param, odometer.j);
        break;
      case LayoutTail::kNone:
        out[t] = odometer.j;
        break;
    }
    odometer.advance(map.rank - 1);
  }
}

}  // namespace dumpcmp
