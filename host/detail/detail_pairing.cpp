// Which tensor pair `compare -op` details, and how it is converted (msaccucmp's
// compare_detail.py: DetailComparison through the fusion rule, DumpDetailComparison for two NPU
// dumps; TensorConversion with is_detail=True).
#include <algorithm>
#include <filesystem>
#include <memory>

#include "compare/compare_scenario.hpp"
#include "compare/fusion_match.hpp"
#include "core/error.hpp"
#include "detail/detail_messages.hpp"
#include "detail/single_op_detail.hpp"
#include "fusion/fusion_messages.hpp"
#include "io/dump_file.hpp"
#include "io/ffts_merge.hpp"
#include "layout/layout_messages.hpp"
#include "layout/layout_plan.hpp"

namespace dumpcmp {
namespace {

[[noreturn]] void fail(const std::string& message) { throw Error(ExitCode::kInput, message); }

bool has_depth(Format f) {
  return f == Format::kNDHWC || f == Format::kNCDHW || f == Format::kDHWCN ||
         f == Format::kNDC1HWC0;
}

std::string spaced(const std::string& letters) {
  std::string out;
  for (char c : letters) {
    if (!out.empty()) out += ' ';
    out += c;
  }
  return out;
}

std::string commas_to_spaces(std::string s) {
  std::replace(s.begin(), s.end(), ',', ' ');
  return s;
}

const TensorInfo& pick_tensor(const DumpFile& file, const DetailRequest& request) {
  const std::vector<TensorInfo>& tensors = request.input ? file.inputs : file.outputs;
  if (request.index < 0 || static_cast<size_t>(request.index) >= tensors.size()) {
    fail(msg::index_past_count(request.op_name, request.input ? "input" : "output", request.index,
                               tensors.size()));
  }
  return tensors[static_cast<size_t>(request.index)];
}

LayoutMap flat_map(int64_t count) {
  LayoutMap map;
  map.count = count;
  return map;
}

int64_t elements_of(const DumpFile& file, const TensorInfo& t) {
  const size_t width = dtype_storage_size(t.dtype);
  if (width == 0) fail(file.path + ": the tensor's data type cannot be decoded");
  const int64_t want = shape_element_count(t.shape).value_or(-1);
  const int64_t have = t.dtype == DType::kUInt1 ? static_cast<int64_t>(t.size * 8)
                                                : static_cast<int64_t>(t.size / width);
  if (want < 0 || want > have) {
    fail(file.path + ": the payload holds " + std::to_string(have) + " elements, the shape " +
         shape_to_tuple_string(t.shape) + " needs " + std::to_string(want));
  }
  return want;
}

struct Loaded {
  std::shared_ptr<const DumpFile> my_file, golden_file;
  DetailPair pair;
};

// Two NPU dumps of the same op: identical shape and format, compared raw.
Loaded npu_pair(const CompareOptions& options, const DetailRequest& request) {
  const Inventory left = Inventory::scan(options.my_path);
  const Inventory right = Inventory::scan(options.golden_path);
  const OpDumps* l = left.find(request.op_name);
  if (!l) fail(msg::op_dump_not_found(request.op_name, "-m"));
  const OpDumps* r = right.find(request.op_name);
  if (!r) fail(msg::op_dump_not_found(request.op_name, "-g"));
  Loaded out;
  out.my_file = read_op_dump(*l).file;
  out.golden_file = read_op_dump(*r).file;
  const TensorInfo& mine = pick_tensor(*out.my_file, request);
  const TensorInfo& golden = pick_tensor(*out.golden_file, request);
  if (mine.shape != golden.shape) {
    fail(msg::detail_shape_mismatch(mine.shape, golden.shape));
  }
  if (mine.format != golden.format) {
    fail(msg::detail_format_mismatch());
  }
  DetailPair& p = out.pair;
  p.mine = {out.my_file->tensor_data(mine), mine.dtype, flat_map(elements_of(*out.my_file, mine))};
  p.golden = {out.golden_file->tensor_data(golden), golden.dtype,
              flat_map(elements_of(*out.golden_file, golden))};
  p.shape = mine.shape;
  p.my_ops = p.golden_ops = request.op_name;
  p.format = has_depth(mine.format) ? "N C D H W" : (mine.shape.empty() ? "ID" : "N C H W");
  p.dump_file = std::filesystem::path(out.my_file->path).filename().string();
  return out;
}

// The rule's op -op names, if it has dumps of its own to detail.
const FusionOp& detailed_op(const FusionRule& rule, const DetailRequest& request) {
  const FusionOp* op = rule.find_op(request.op_name);
  if (!op) {
    throw Error(ExitCode::kUsage, msg::op_not_in_fusion_rule(request.op_name));
  }
  if (is_inner_node(*op)) {
    fail(msg::detail_inner_node_skipped(op->name));
  }
  if (op->quant_filter) {
    fail(msg::quant_pair_op_selected(op->name));
  }
  return *op;
}

// The axes' names on the detail's header line.
std::string detail_format(const TensorInfo& mine, const std::string& golden_format) {
  if (has_depth(mine.format)) return "N C D H W";
  if (mine.format == Format::kFractalZ) return spaced(golden_format);
  return mine.shape.empty() ? "ID" : "N C H W";
}

// Both sides converted to NCHW (NCDHW for 3-D formats; the golden's format for FRACTAL_Z
// weights), the NPU side cropped to the golden; `p`'s maps start as identities.
void convert_to_golden(const FusionOp& op, const TensorInfo& mine, const TensorInfo& golden,
                       const std::string& golden_format, const Shape& described, DetailPair& p) {
  Format golden_fmt = mine.format;
  if (!golden_format.empty() && !parse_format(golden_format, golden_fmt)) {
    fail(msg::ground_truth_format_not_supported(golden_format));
  }
  Format my_dest = Format::kNCHW, golden_dest = Format::kNCHW;
  if (has_depth(mine.format)) {
    my_dest = golden_dest = Format::kNCDHW;
  } else if (mine.format == Format::kFractalZ) {
    my_dest = golden_dest = golden_fmt;
  }
  LayoutPlan my_plan = identity_plan({p.mine.map.count}, mine.format);
  LayoutPlan golden_plan = identity_plan({p.golden.map.count}, golden_fmt);
  const LayoutOptions layout;  // the conversions msaccucmp lacks are used (decision 3)
  if (!shape_is_scalar_type(mine.shape)) {
    my_plan =
        plan_shape_conversion(mine.format, mine.shape, my_dest, described, mine.sub_format, layout);
    if (!my_plan.ok) fail(msg::op_prefixed(op.name, my_plan.note));
    golden_plan =
        plan_shape_conversion(golden_fmt, golden.shape, golden_dest, golden.shape,
                              golden.sub_format ? golden.sub_format : mine.sub_format, layout);
    if (!golden_plan.ok) fail(msg::op_prefixed(op.name, golden_plan.note));
  }
  if (mine.format != Format::kND ||
      (!shape_is_scalar_type(mine.shape) && my_plan.map.count != golden_plan.map.count)) {
    std::string error;
    if (!apply_padding_crop(my_plan, golden_plan.result_shape, error)) {
      fail(msg::op_prefixed(op.name, error));
    }
  }
  if (my_plan.map.count != golden_plan.map.count) {
    fail(msg::op_prefixed(op.name,
                          msg::cannot_compare_sizes(my_plan.map.count, golden_plan.map.count)));
  }
  p.mine.map = my_plan.map;
  p.golden.map = golden_plan.map;
  p.shape = my_plan.result_shape;
}

// The NPU op of the fusion rule and its golden, compared raw (quant against origin) or through
// convert_to_golden.
Loaded fusion_pair(const CompareOptions& options, const DetailRequest& request) {
  const FusionInputs inputs = load_fusion_inputs(options);
  const Inventory& left = inputs.left;
  const Inventory& right = inputs.right;
  const FusionRule& rule = inputs.rule;
  const FusionOp* op = &detailed_op(rule, request);
  const bool raw = inputs.scenario == CompareScenario::kQuantVsOrigin;
  const OpDumps* dumps = raw ? left.find(op->name, 0) : left.find(op->name);
  if (!dumps) fail(msg::no_left_dump(op->name, op->type));
  Loaded out;
  out.my_file = read_op_dump(*dumps).file;
  const TensorInfo& mine = pick_tensor(*out.my_file, request);

  GoldenRef ref;
  std::string error;
  if (!find_golden_file(rule, right, *op,
                        request.input ? TensorGroup::kInput : TensorGroup::kOutput, request.index,
                        request.tensor_id(), ref, error)) {
    fail(error);
  }
  out.golden_file = read_op_dump(*ref.dumps).file;
  const size_t at = ref.offline ? static_cast<size_t>(ref.origin.index) : 0;
  if (at >= out.golden_file->outputs.size()) {
    fail(msg::index_past_count(op->name, "output", ref.origin.index,
                               out.golden_file->outputs.size()));
  }
  const TensorInfo& golden = out.golden_file->outputs[at];
  const std::string golden_format =
      ref.offline ? std::string(format_name(golden.format)) : ref.origin.format;
  Shape described = ref.offline ? golden.shape : ref.origin.shape;
  if (!mine.original_shape.empty()) described = mine.original_shape;

  DetailPair& p = out.pair;
  const GroupNames names = any_to_multi_names(rule, rule.group_of(*op));
  p.my_ops = commas_to_spaces(names.my);
  p.golden_ops = names.golden.empty() ? "*" : commas_to_spaces(names.golden);
  p.format = detail_format(mine, golden_format);
  p.dump_file = std::filesystem::path(out.my_file->path).filename().string();

  const int64_t my_count = elements_of(*out.my_file, mine);
  const int64_t golden_count = elements_of(*out.golden_file, golden);
  p.mine = {out.my_file->tensor_data(mine), mine.dtype, flat_map(my_count)};
  p.golden = {out.golden_file->tensor_data(golden), golden.dtype, flat_map(golden_count)};
  p.shape = {my_count};
  if (raw) {
    if (mine.shape != golden.shape) {
      fail(msg::op_prefixed(op->name, msg::cannot_compare(mine.shape, golden.shape)));
    }
    p.shape = mine.shape;
    return out;
  }

  convert_to_golden(*op, mine, golden, golden_format, described, p);
  return out;
}

std::string damaged(const Loaded& loaded) {
  for (const auto& file : {loaded.my_file, loaded.golden_file}) {
    if (std::string damage = file ? damaged_problem(*file) : ""; !damage.empty()) return damage;
  }
  return "";
}

}  // namespace

DetailSummary run_single_op_detail(const CompareOptions& options, const DetailRequest& request) {
  const bool fusion = !options.fusion_rule_path.empty() || !options.quant_rule_path.empty() ||
                      !options.close_fusion_rule_path.empty();
  const Loaded loaded = fusion ? fusion_pair(options, request) : npu_pair(options, request);
  DetailSummary summary;
  try {
    summary = write_single_op_detail(request, loaded.pair);
  } catch (const Error&) {
    if (damaged(loaded).empty()) throw;  // else the shrunk file is the cause, said below
  }
  // A dump that shrank while it was read gave zeros for its lost bytes: nothing written stays.
  if (const std::string damage = damaged(loaded); !damage.empty()) {
    std::error_code ec;
    for (const std::string& path : summary.outputs) std::filesystem::remove(path, ec);
    remove_single_op_detail_files(request);
    throw Error(ExitCode::kInput, damage);
  }
  return summary;
}

}  // namespace dumpcmp
