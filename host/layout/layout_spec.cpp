// LayoutSpec -> LayoutMap: drop unit axes, resolve splits that do nothing, merge contiguous axes,
// so the per-element loop in source_index() runs over as few axes as possible.
#include <vector>

#include "core/msaccucmp_messages.hpp"
#include "layout/checked_math.hpp"
#include "layout/layout_plan.hpp"

namespace dumpcmp {
namespace {

using Axis = LayoutSpec::Axis;

void push_merged(std::vector<Axis>& axes, const Axis& a) {
  if (a.dim == 1) return;
  if (!axes.empty()) {
    Axis& last = axes.back();
    if (last.split == 0 && a.split == 0 && last.stride_lo == a.dim * a.stride_lo) {
      last.dim *= a.dim;
      last.stride_lo = a.stride_lo;
      return;
    }
  }
  axes.push_back(a);
}

}  // namespace

bool build_layout_map(const LayoutSpec& spec, LayoutMap& map) {
  int64_t count = 1;
  for (const Axis& a : spec.axes) count = layout_math::mul(count, a.dim);
  if (count < 0) return false;
  std::vector<Axis> axes;
  for (Axis a : spec.axes) {
    if (a.split != 0 && (a.dim <= a.split || a.stride_hi == a.split * a.stride_lo)) {
      a.split = 0;  // the high part is always 0, or the two parts are contiguous
    }
    if (a.split != 0 && a.dim % a.split == 0) {
      // An uncropped split axis is just two plain axes, which may merge with their neighbours.
      push_merged(axes, Axis{a.dim / a.split, 0, 0, a.stride_hi});
      push_merged(axes, Axis{a.split, 0, 0, a.stride_lo});
      continue;
    }
    push_merged(axes, a);
  }
  if (axes.size() > static_cast<std::size_t>(kLayoutMaxAxes)) return false;

  LayoutMap out;
  out.count = count;
  out.tail = spec.tail;
  for (int k = 0; k < kLayoutTailParams; ++k) out.tail_param[k] = spec.tail_param[k];
  out.zero_fill = spec.tail == LayoutTail::kToFractalZ;
  out.rank = static_cast<int32_t>(axes.size());
  for (std::size_t k = 0; k < axes.size(); ++k) {
    out.dim[k] = axes[k].dim;
    out.split[k] = axes[k].split;
    out.stride_hi[k] = axes[k].stride_hi;
    out.stride_lo[k] = axes[k].stride_lo;
  }
  const bool plain =
      axes.empty() || (axes.size() == 1 && axes[0].split == 0 && axes[0].stride_lo == 1);
  out.identity = count == 0 || (spec.tail == LayoutTail::kNone && plain);
  if (out.identity) out.zero_fill = false;
  map = out;
  return true;
}

LayoutPlan identity_plan(const Shape& shape, Format format) {
  LayoutPlan plan;
  plan.result_shape = shape;
  plan.result_format = format;
  if (layout_math::product(shape) < 0 || !layout_math::dims_fit(shape)) {
    plan.ok = false;  // no payload can hold it; the map stays empty
    plan.map.count = 0;
    plan.note = "invalid shape " + msg::shape(shape);
    return plan;
  }
  int64_t stride = 1;
  plan.spec.axes.resize(shape.size());
  for (std::size_t k = shape.size(); k-- > 0;) {
    plan.spec.axes[k] = Axis{shape[k], 0, 0, stride};
    stride *= shape[k];
  }
  build_layout_map(plan.spec, plan.map);  // contiguous axes merge into one: always fits in the map
  return plan;
}

}  // namespace dumpcmp
