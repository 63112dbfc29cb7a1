// Which conversion msaccucmp applies to a dumped tensor and what happens when it fails, for its
// three callers (docs/algorithms.md §6.1): the fusion-json compare, the NPU-vs-NPU restore and the
// convert subcommand.
#include <string>
#include <utility>

#include "layout/checked_math.hpp"
#include "layout/layout_messages.hpp"
#include "layout/layout_plan.hpp"

namespace dumpcmp {
namespace {

bool is_4d_format(Format f) {
  return f == Format::kNCHW || f == Format::kNHWC || f == Format::kHWCN;
}

using layout_math::mul;
using layout_math::product;

// utils.check_shape_valid_in_nz (docs/algorithms.md §6.4): the target must be the dump's
// recommended shape (leading dims, No*Ni, C1*C0) with less than one 16-tile of padding removed from
// the last two dims. Returns msaccucmp's message, or "" when valid.
std::string fractal_nz_shape_error(const Shape& target, const Shape& dump) {
  if (target.empty()) {
    return msg::nz_target_shape_missing();
  }
  if (dump.size() < 4) return msg::index_error();
  Shape recommended(dump.begin(), dump.end() - 4);
  const std::size_t r = dump.size();
  recommended.push_back(mul(dump[r - 2], dump[r - 3]));
  recommended.push_back(mul(dump[r - 1], dump[r - 4]));
  const int64_t rows = recommended[recommended.size() - 2], cols = recommended.back();
  const std::size_t t = target.size();
  // Python evaluates target[-2] only when the column test passed.
  const bool cols_bad = target[t - 1] > cols || target[t - 1] <= cols - 16;
  if (!cols_bad && t < 2) return msg::index_error();
  const bool bad = cols_bad || target[t - 2] > rows || target[t - 2] <= rows - 16;
  if (t != recommended.size() || bad) {
    return msg::nz_target_shape_invalid(target, recommended);
  }
  for (std::size_t k = 0; k + 2 < recommended.size(); ++k) {
    if (target[k] != recommended[k]) {
      return msg::nz_target_leading_dims_invalid(target, recommended);
    }
  }
  return {};
}

LayoutPlan failed(LayoutPlan plan, std::string note) {
  plan.ok = false;
  plan.note = std::move(note);
  return plan;
}

}  // namespace

LayoutPlan plan_shape_conversion(Format src, const Shape& src_shape, Format dst,
                                 const Shape& dst_shape, int group, const LayoutOptions& options) {
  if (converter_source_format(src, src_shape) == Format::kND || src == dst) {
    return identity_plan(src_shape, src);
  }
  if (src == Format::kFractalNZ && dst == Format::kND && dst_shape.size() > 2) {
    if (src_shape.size() < 4) return failed(identity_plan(src_shape, src), msg::index_error());
    Shape lead(dst_shape.begin(), dst_shape.end() - 2);
    const std::size_t r = src_shape.size();
    const int64_t expected =
        mul(mul(mul(mul(product(lead), src_shape[r - 4]), src_shape[r - 3]), src_shape[r - 2]),
            src_shape[r - 1]);
    if (expected != product(src_shape)) {
      LayoutPlan plan = identity_plan(src_shape, src);
      plan.note = msg::nz_to_nd_length_mismatch();
      return plan;
    }
  }
  if (src == Format::kFractalNZ) {
    std::string error = fractal_nz_shape_error(dst_shape, src_shape);
    if (!error.empty()) return failed(identity_plan(src_shape, src), std::move(error));
  }
  LayoutPlan plan = plan_format_convert(src, src_shape, dst, dst_shape, group, options);
  plan.format_converter = true;
  return plan;
}

LayoutPlan plan_conversion(Format src, const Shape& src_shape, Format dst, const Shape& dst_shape,
                           int group, const LayoutOptions& options) {
  return plan_conversion(src, src_shape, dst, dst_shape, dst_shape, group, options);
}

LayoutPlan plan_conversion(Format src, const Shape& src_shape, Format dst, const Shape& dst_shape,
                           const Shape& crop_shape, int group, const LayoutOptions& options) {
  const bool scalar = shape_is_scalar_type(src_shape);
  LayoutPlan plan;
  Shape target = crop_shape;
  if ((dst == Format::kND && src != Format::kFractalNZ && src != Format::kNDC1HWC0) || scalar) {
    // Not converted and not even reshaped: the flat data goes to the crop as it is, and so does
    // the ground truth's (a longer NPU tensor is then compared on its prefix: a quirk).
    plan = identity_plan({product(src_shape)}, src);
    target = {product(crop_shape)};
  } else {
    plan = plan_shape_conversion(src, src_shape, dst, dst_shape, group, options);
    if (!plan.ok) return plan;
  }
  if (src != Format::kND || (!scalar && plan.map.count != product(crop_shape))) {
    std::string error;
    if (!apply_padding_crop(plan, target, error)) {
      return failed(std::move(plan), std::move(error));
    }
  }
  return plan;
}

Format converter_source_format(Format format, const Shape& shape) {
  return is_4d_format(format) && shape.size() != 4 ? Format::kND : format;
}

LayoutPlan plan_npu_restore(const TensorInfo& tensor, int64_t element_count,
                            const LayoutOptions& options) {
  const Shape& shape = tensor.shape;
  const Shape& to = tensor.original_shape;
  const Format real = converter_source_format(tensor.format, shape);
  Format target = real;
  if (to.size() == 4) target = Format::kNCHW;
  if (to.size() == 2 || to.size() == 3) target = Format::kND;
  const bool ext_3d = options.extensions && real == Format::kFractalZ3D && to.size() == 5;
  if (ext_3d) target = Format::kNCDHW;

  const int64_t count = product(shape);
  if (element_count >= 0 && element_count != count) {
    // The payload holds fewer (or more) elements than the shape: every reshape fails, raw data.
    LayoutPlan raw = identity_plan({element_count}, tensor.format);
    raw.note = msg::cannot_reshape(element_count, msg::numpy_shape(shape));
    return raw;
  }
  if (real == target) return identity_plan(shape, tensor.format);

  LayoutPlan plan = plan_format_convert(real, shape, target, to, tensor.sub_format, options);
  if (!plan.ok && options.extensions) {
    // The original shape of these weights may be in their other layout; try it before giving up.
    Format other = Format::kMax;
    if (ext_3d) other = Format::kDHWCN;
    if (real == Format::kC1HWNCoC0 && target == Format::kNCHW) other = Format::kHWCN;
    if (other != Format::kMax) {
      LayoutPlan second = plan_format_convert(real, shape, other, to, tensor.sub_format, options);
      if (second.ok) plan = std::move(second);
    }
  }
  if (!plan.ok) {
    LayoutPlan raw = identity_plan(shape, tensor.format);
    raw.note = std::move(plan.note);
    return raw;
  }
  std::string error;
  // A failed crop keeps the uncropped conversion.
  if (!apply_padding_crop(plan, to, error)) plan.note = std::move(error);
  return plan;
}

LayoutPlan plan_tool_conversion(const TensorInfo& tensor, Format dst, const Shape& to,
                                const LayoutOptions& options) {
  const Format real = converter_source_format(tensor.format, tensor.shape);
  if (real == Format::kFractalNZ) {
    std::string error = fractal_nz_shape_error(to, tensor.shape);
    if (!error.empty()) return failed(identity_plan(tensor.shape, tensor.format), std::move(error));
  }
  if (real == dst) return identity_plan(tensor.shape, dst);
  return plan_format_convert(real, tensor.shape, dst, to, tensor.sub_format, options);
}

LayoutPlan plan_convert_command(const TensorInfo& tensor, Format dst, const Shape& shape,
                                const LayoutOptions& options) {
  const Shape& to = shape.empty() ? tensor.original_shape : shape;
  LayoutPlan plan = plan_tool_conversion(tensor, dst, to, options);
  const bool same = converter_source_format(tensor.format, tensor.shape) == dst;
  if (!plan.ok || to.empty() || same) return plan;
  std::string error;
  if (!apply_padding_crop(plan, to, error)) {
    plan.note = msg::slice_failed(plan.result_shape, to, error);
    plan.result_format = tensor.format;  // msaccucmp then names the output with the source format
  }
  return plan;
}

}  // namespace dumpcmp
