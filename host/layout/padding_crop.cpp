// TensorConversion.slice_data (docs/algorithms.md §6.2) as an operation on a plan: the crop only
// shrinks result axes (it keeps the leading entries of each), so it composes with any conversion.
#include <cstddef>
#include <string>

#include "layout/layout_messages.hpp"
#include "layout/layout_plan.hpp"

namespace dumpcmp {
namespace {

// Product of the dims, or -1 on overflow (then it matches no other size).
int64_t product(const Shape& s) {
  const auto n = shape_element_count(s);
  return n ? *n : -1;
}

// _translate_shape_to_array: the dims that are not 1, or the shape itself when all are 1.
Shape without_ones(const Shape& s, bool& all_ones) {
  Shape out;
  for (int64_t d : s) {
    if (d != 1) out.push_back(d);
  }
  all_ones = out.empty();
  return all_ones ? s : out;
}

}  // namespace

bool apply_padding_crop(LayoutPlan& plan, const Shape& target, std::string& error) {
  const Shape& a = plan.result_shape;
  if (a.size() < target.size()) {
    // A lower-rank result is never cropped; msaccucmp only checks that the non-1 dims agree.
    bool a_ones = false, t_ones = false;
    const Shape a_dims = without_ones(a, a_ones);
    const Shape t_dims = without_ones(target, t_ones);
    if (!(a_ones && t_ones) && a_dims != t_dims) {
      error = msg::cannot_compare(a_dims, t_dims);
      return false;
    }
    return true;
  }
  std::size_t ones = 0;
  for (int64_t d : a) ones += d == 1 ? 1 : 0;
  Shape padded_a = a, padded_t = target;
  if (padded_a.size() < 4) padded_a.resize(4, 1);
  padded_t.resize(padded_a.size(), 1);
  // Equal sizes with at most one non-1 dim: already the target's data.
  if (product(target) == product(a) && (ones == a.size() || ones + 1 == a.size())) return true;

  bool crop = false;
  for (std::size_t d = 0; d < padded_a.size(); ++d) {
    if (padded_a[d] < padded_t[d]) {
      error = msg::cannot_compare(padded_a, padded_t);
      return false;
    }
    if (padded_a[d] > padded_t[d]) {
      crop = true;
      break;
    }
  }
  // msaccucmp slices only 4-D and 5-D arrays; rank >= 6 passes the check above uncropped.
  if (!crop || (padded_a.size() != 4 && padded_a.size() != 5)) return true;

  LayoutPlan cropped = plan;
  cropped.spec.axes.resize(padded_a.size());  // new unit axes: stride irrelevant
  for (std::size_t d = 0; d < padded_a.size(); ++d) {
    const int64_t dim = padded_a[d] < padded_t[d] ? padded_a[d] : padded_t[d];
    cropped.spec.axes[d].dim = dim;
    cropped.result_shape.resize(padded_a.size());
    cropped.result_shape[d] = dim;
  }
  if (!build_layout_map(cropped.spec, cropped.map)) {
    error = "the cropped layout needs more than 8 axes";
    return false;
  }
  plan = std::move(cropped);
  return true;
}

}  // namespace dumpcmp
