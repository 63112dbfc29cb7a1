#pragma once
// The device backends' kernels: one functor per chunk reduction (pair, bool, KLD), run by
// thrust::transform over a pass's chunk tasks. Each reads its chunk straight from the staged
// payload, decoding the dtype and gathering through the layout map inside the load, and folds it
// with the same lifts as the CPU backend (math/accumulator.hpp), so both agree exactly.
#include <cstdint>

#include "core/host_device.hpp"
#include "layout/layout_map.hpp"
#include "math/accumulator.hpp"
#include "math/element_source.hpp"

namespace dumpcmp::device {

// One chunk's work, uploaded per pass (plain data).
struct ChunkTask {
  int64_t x_offset = 0, y_offset = 0;  // staging bytes where the chunk's range starts
  int64_t local_begin = 0;             // first element of the chunk within its range
  int64_t count = 0;
  DType x_dtype = DType::kFloat, y_dtype = DType::kFloat;
  int32_t x_layout = -1, y_layout = -1;  // index into the pass's layout maps, -1: none
  KldScale sx, sy;
};

// Element i of a staged range, decoded (and, with a layout map, gathered) at the load: no
// converted copy ever exists.
struct DecodingView {
  const uint8_t* data;
  DType dtype;
  int64_t begin;
  const LayoutMap* layout;
  DUMPCMP_HD float operator[](int64_t i) const {
    return load_element(data, dtype, layout, begin + i);
  }
};

// The same with the dtype fixed at compile time, so the decode switch folds away in the hot loop.
template <DType T>
struct TypedView {
  const uint8_t* data;
  int64_t begin;
  DUMPCMP_HD float operator[](int64_t i) const { return decode_element(data, T, begin + i); }
};

// Which views a task's elements are read through: typed ones for the common same-type pairs
// without a layout map, decoding ones otherwise.
enum class ViewKind { kFloat, kFloat16, kBFloat16, kDecoding };

DUMPCMP_HD inline ViewKind view_kind(const ChunkTask& t) {
  if (t.x_layout >= 0 || t.y_layout >= 0 || t.x_dtype != t.y_dtype) return ViewKind::kDecoding;
  switch (t.x_dtype) {
    case DType::kFloat:
      return ViewKind::kFloat;
    case DType::kFloat16:
      return ViewKind::kFloat16;
    case DType::kBFloat16:
      return ViewKind::kBFloat16;
    default:
      return ViewKind::kDecoding;
  }
}

// Calls f(x_view, y_view) with views of kind K (which must be view_kind(t)): one instantiation, so
// a GPU kernel per kind holds only the registers its own loads need.
template <ViewKind K, typename F>
DUMPCMP_HD auto with_kind_views(const uint8_t* staging, const LayoutMap* layouts,
                                const ChunkTask& t, F f) {
  const uint8_t* x = staging + t.x_offset;
  const uint8_t* y = staging + t.y_offset;
  if constexpr (K == ViewKind::kFloat) {
    return f(TypedView<DType::kFloat>{x, t.local_begin},
             TypedView<DType::kFloat>{y, t.local_begin});
  } else if constexpr (K == ViewKind::kFloat16) {
    return f(TypedView<DType::kFloat16>{x, t.local_begin},
             TypedView<DType::kFloat16>{y, t.local_begin});
  } else if constexpr (K == ViewKind::kBFloat16) {
    return f(TypedView<DType::kBFloat16>{x, t.local_begin},
             TypedView<DType::kBFloat16>{y, t.local_begin});
  } else {
    return f(
        DecodingView{x, t.x_dtype, t.local_begin, t.x_layout >= 0 ? layouts + t.x_layout : nullptr},
        DecodingView{y, t.y_dtype, t.local_begin,
                     t.y_layout >= 0 ? layouts + t.y_layout : nullptr});
  }
}

// Calls f(x_view, y_view) with the views of the task's kind.
template <typename F>
DUMPCMP_HD auto with_views(const uint8_t* staging, const LayoutMap* layouts, const ChunkTask& t,
                           F f) {
  switch (view_kind(t)) {
    case ViewKind::kFloat:
      return with_kind_views<ViewKind::kFloat>(staging, layouts, t, f);
    case ViewKind::kFloat16:
      return with_kind_views<ViewKind::kFloat16>(staging, layouts, t, f);
    case ViewKind::kBFloat16:
      return with_kind_views<ViewKind::kBFloat16>(staging, layouts, t, f);
    default:
      return with_kind_views<ViewKind::kDecoding>(staging, layouts, t, f);
  }
}

struct PairLift {
  int64_t n;
  template <typename X, typename Y>
  DUMPCMP_HD PairAccumulator operator()(const X& x, const Y& y) const {
    return lift_pair_chunk(x, y, n);
  }
};

struct BoolLift {
  int64_t n;
  template <typename X, typename Y>
  DUMPCMP_HD BoolAccumulator operator()(const X& x, const Y& y) const {
    return lift_bool_chunk(x, y, n);
  }
};

struct KldLift {
  int64_t n;
  KldScale sx, sy;
  template <typename X, typename Y>
  DUMPCMP_HD KldAccumulator operator()(const X& x, const Y& y) const {
    return lift_kld_chunk(x, y, n, sx, sy);
  }
};

struct LiftPairTask {
  const uint8_t* staging;
  const ChunkTask* tasks;
  const LayoutMap* layouts;
  DUMPCMP_HD PairAccumulator operator()(int64_t c) const {
    return with_views(staging, layouts, tasks[c], PairLift{tasks[c].count});
  }
};

struct LiftBoolTask {
  const uint8_t* staging;
  const ChunkTask* tasks;
  const LayoutMap* layouts;
  DUMPCMP_HD BoolAccumulator operator()(int64_t c) const {
    return with_views(staging, layouts, tasks[c], BoolLift{tasks[c].count});
  }
};

struct LiftKldTask {
  const uint8_t* staging;
  const ChunkTask* tasks;
  const LayoutMap* layouts;
  DUMPCMP_HD KldAccumulator operator()(int64_t c) const {
    const ChunkTask& t = tasks[c];
    return with_views(staging, layouts, t, KldLift{t.count, t.sx, t.sy});
  }
};

}  // namespace dumpcmp::device
