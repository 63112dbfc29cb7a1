#pragma once
// Planning the restore of a dumped tensor with msaccucmp's dispatch rules (docs/algorithms.md §6):
// which conversion applies, the converted shape, the padding crop, and msaccucmp's messages when
// it fails. The result is a LayoutMap; nothing is converted here.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/format.hpp"
#include "core/shape.hpp"
#include "io/dump_file.hpp"
#include "layout/layout_map.hpp"

namespace dumpcmp {

struct LayoutOptions {
  // Convert the layouts msaccucmp cannot (docs/decisions.md decision 3): NC1HWC0_C04,
  // FRACTAL_Z_C04, FRACTAL_Z_3D, C1HWNCoC0. Off: they are "Not supported", as in msaccucmp.
  bool extensions = true;
};

// The map before simplification: one axis per result dimension (axes[k] describes result_shape[k]),
// so a later padding crop can shrink axes. build_layout_map() turns it into a LayoutMap.
struct LayoutSpec {
  struct Axis {
    int64_t dim = 1;
    int64_t split =
        0;  // 0: offset o * stride_lo; else (o / split) * stride_hi + (o % split) * stride_lo
    int64_t stride_hi = 0;
    int64_t stride_lo = 0;
  };
  std::vector<Axis> axes;
  LayoutTail tail = LayoutTail::kNone;
  std::array<int64_t, kLayoutTailParams> tail_param{};
};

struct LayoutPlan {
  // false: the conversion failed and the tensor cannot be restored (note says why); map is then
  // the identity over the source so a caller that falls back to raw data can still use it.
  bool ok = true;
  bool extension = false;  // used a conversion msaccucmp lacks (LayoutOptions::extensions)
  // Reached msaccucmp's FormatManager.execute_format_convert (where a custom converter of the
  // format pair, -c DIR/format_convert/, would run instead), whether or not it succeeded.
  bool format_converter = false;
  LayoutMap map;
  Shape result_shape;  // numpy shape of the restored array
  Format result_format = Format::kND;
  // msaccucmp's message when it fell back or failed ("Not supported from X to Y.", a crop that is
  // impossible...), or a warning it prints while still converting; empty otherwise.
  std::string note;
  // msaccucmp only prints the note (FormatManager's "Not supported from X to Y."): a row that
  // fails on it has an empty CompareFailReason there.
  bool note_logged_only = false;
  LayoutSpec spec;  // the map before simplification, aligned with result_shape
};

// Row-major identity over `shape` (a reshape): the raw data as msaccucmp keeps it.
LayoutPlan identity_plan(const Shape& shape, Format format);

// FormatManager.execute_format_convert: the built-in converter for (src, dst) only, no generic
// rules and no crop. `group` is the dump's sub_format (>= 2: grouped; non-FRACTAL_Z targets then
// fail like msaccucmp, which passes the group to converters that do not take it).
LayoutPlan plan_format_convert(Format src, const Shape& src_shape, Format dst,
                               const Shape& dst_shape, int group,
                               const LayoutOptions& options = {});

// ShapeConversion.convert_shape: the generic rules (ND source and non-4-D NCHW/NHWC/HWCN are only
// reshaped, src == dst is a reshape, FRACTAL_NZ -> ND length rule, FRACTAL_NZ shape check), then
// plan_format_convert. No crop.
LayoutPlan plan_shape_conversion(Format src, const Shape& src_shape, Format dst,
                                 const Shape& dst_shape, int group,
                                 const LayoutOptions& options = {});

// TensorConversion.slice_data applied to a plan: crops the padding so that the result matches
// `target` ("keep the leading T_d entries of each axis", ranks 4 and 5 only). Returns false with
// msaccucmp's message in `error` (plan unchanged) when an axis is smaller than the target's.
bool apply_padding_crop(LayoutPlan& plan, const Shape& target, std::string& error);

// The fusion-json compare path for the NPU tensor (TensorConversion._convert_shape + slice_data):
// no conversion when dst is ND and src is neither FRACTAL_NZ nor NDC1HWC0 or the source shape is
// scalar-like, else plan_shape_conversion; then the crop to dst_shape when src is not ND or the
// sizes differ. Any failure gives ok == false (msaccucmp writes a NaN row).
LayoutPlan plan_conversion(Format src, const Shape& src_shape, Format dst, const Shape& dst_shape,
                           int group, const LayoutOptions& options = {});
// The same with the crop target given apart: msaccucmp converts towards the ground truth's
// described shape (dst_shape) and crops to the shape of the ground-truth array it loaded.
LayoutPlan plan_conversion(Format src, const Shape& src_shape, Format dst, const Shape& dst_shape,
                           const Shape& crop_shape, int group, const LayoutOptions& options = {});

// The NPU-vs-NPU restore (ConvertSingleTensorFormat): target NCHW for a 4-D original_shape, ND for
// 2-D or 3-D, else the tensor's own format (with extensions, FRACTAL_Z_3D with a 5-D original shape
// goes to NCDHW); any conversion failure falls back to the raw data, a failed crop keeps the
// uncropped conversion. Always ok; note says what fell back. `element_count` is how many elements
// the payload really holds (-1: prod(shape)); a short payload cannot be reshaped, so it stays raw.
LayoutPlan plan_npu_restore(const TensorInfo& tensor, int64_t element_count = -1,
                            const LayoutOptions& options = {});

// The format msaccucmp's converters take a tensor to be in: a 4-D format (NCHW, NHWC, HWCN) on a
// tensor of another rank is ND.
Format converter_source_format(Format format, const Shape& shape);

// The seed's shape_conversion tool (ShapeConversionMain): a 4-D format with another rank is ND,
// the FRACTAL_NZ shape check, then the built-in converter to `dst` with the target shape `to`
// (-shape), no crop. The same format gives the identity.
LayoutPlan plan_tool_conversion(const TensorInfo& tensor, Format dst, const Shape& to,
                                const LayoutOptions& options = {});

// `msaccucmp convert -f`: plan_tool_conversion towards `shape` (-s) or else the tensor's
// original_shape, then the padding crop to it; a failed conversion gives ok == false; a failed
// crop keeps the uncropped conversion and reports the source format as result_format, as
// msaccucmp names its output file.
LayoutPlan plan_convert_command(const TensorInfo& tensor, Format dst, const Shape& shape,
                                const LayoutOptions& options = {});

// Simplifies a spec into the GPU-usable map. Returns false (map untouched) when more than
// kLayoutMaxAxes axes remain, which no built-in conversion produces.
bool build_layout_map(const LayoutSpec& spec, LayoutMap& map);

}  // namespace dumpcmp
