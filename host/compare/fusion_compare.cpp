// Offline model vs framework through the fusion rule (docs/formats.md §4.3-§4.4; msaccucmp's
// compare_fusion_op.py and tensor_conversion.py): every fusion group in Index order, each op's
// dumped inputs and outputs matched to the ground-truth tensors the rule names, the NPU tensor
// converted to the ground truth's format and cropped (as a LayoutMap inside the load).
#include "compare/fusion_compare.hpp"

#include <unistd.h>

#include <algorithm>
#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <unordered_map>

#include "compare/compare_scenario.hpp"
#include "compare/fusion_match.hpp"
#include "core/error.hpp"
#include "core/paths.hpp"
#include "fusion/fusion_messages.hpp"
#include "io/dump_writer.hpp"
#include "io/ffts_merge.hpp"
#include "layout/layout_messages.hpp"
#include "layout/layout_plan.hpp"
#include "tensor/array_export.hpp"
#include "tensor/tensor_elements.hpp"

namespace dumpcmp {
namespace {

// The numpy dtype of the array msaccucmp compares (bf16 widened, fp8 decoded to Python floats,
// uint1 unpacked to bytes).
std::string array_dtype_name(DType t) {
  const std::string_view name = dtype_numpy_name(numpy_array_dtype(t));
  return name.empty() ? kNaNText : std::string(name);
}

class FusionPlanner {
 public:
  FusionPlanner(const CompareOptions& options, ComparePlan& plan, OpenedDumps* opened,
                const FusionRule& rule, const Inventory& left, const Inventory& right,
                CompareScenario scenario)
      : options_(options),
        plan_(plan),
        builder_(plan, opened),
        rule_(rule),
        left_(left),
        right_(right),
        raw_(scenario == CompareScenario::kQuantVsOrigin) {}

  void run(const std::vector<int64_t>& group_ids) {
    for (const int64_t id : group_ids) compare_group(rule_.groups()[static_cast<size_t>(id)]);
    show_ffts_producer_rows();
    plan_.dump_match = dump_match_;
  }

 private:
  const FusionOp& op_at(int i) const { return rule_.ops()[static_cast<size_t>(i)]; }

  void compare_group(const FusionGroup& group) {
    ++plan_.ops;
    switch (group.relation) {
      case FusionRelation::kOneToOne:
      case FusionRelation::kMultiToOne:
        for (const int i : group.ops) {
          const FusionOp& op = op_at(i);
          if (op.quant_filter) continue;
          const GroupNames names = any_to_one_names(op);
          std::string error;
          if (!compare_op(group, op, names, error)) op_row(group, op, names, error);
        }
        return;
      case FusionRelation::kOneToMulti:
      case FusionRelation::kMultiToMulti: {
        std::vector<const FusionOp*> ops;
        for (const int i : group.ops) ops.push_back(&op_at(i));
        return compare_any_to_multi(group, ops, true);
      }
      case FusionRelation::kL1Fusion:
        return compare_l1_fusion(group);
    }
  }

  // Every op with a dump gives rows; when none has, one NaN row carries the messages.
  void compare_any_to_multi(const FusionGroup& group, const std::vector<const FusionOp*>& ops,
                            bool skip_inner) {
    const GroupNames names = any_to_multi_names(rule_, group);
    std::vector<std::string> errors;
    bool any = false;
    for (const FusionOp* op : ops) {
      if (op->quant_filter) continue;
      if (skip_inner && is_inner_node(*op)) {
        errors.push_back(msg::inner_node_skipped(op->name));
        continue;
      }
      std::string error;
      if (!compare_op(group, *op, names, error)) {
        errors.push_back(error);
        continue;
      }
      errors.clear();
      any = true;
    }
    if (!any) op_row(group, op_at(group.ops.front()), names, join_names(errors));
  }

  // The group's ops with a dump, by their newest file's timestamp: the latest is compared, and
  // the earliest too when it maps to other original ops.
  void compare_l1_fusion(const FusionGroup& group) {
    std::vector<std::pair<uint64_t, const FusionOp*>> dumped;
    for (const int i : group.ops) {
      const OpDumps* dumps = left_.find(op_at(i).name);
      if (dumps != nullptr) dumped.emplace_back(dumps->latest_timestamp(), &op_at(i));
    }
    if (dumped.empty()) {
      return op_row(group, op_at(group.ops.front()), any_to_multi_names(rule_, group),
                    msg::fusion_op_list_empty());
    }
    std::stable_sort(dumped.begin(), dumped.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<const FusionOp*> chosen;
    if (join_names(dumped.front().second->original_op_names) !=
        join_names(dumped.back().second->original_op_names)) {
      chosen.push_back(dumped.front().second);
    }
    chosen.push_back(dumped.back().second);
    compare_any_to_multi(group, chosen, false);
  }

  // The cells every row of an op in its group starts from.
  static RowIdentity op_identity(const FusionGroup& group, const FusionOp& op,
                                 const GroupNames& names) {
    RowIdentity id;
    id.index = group.id;
    id.op_sequence = op.op_sequence;
    id.op_type = op.type;
    id.my_op = names.my;
    id.golden_op = names.golden;
    return id;
  }

  // One NaN row for an op without tensors to show.
  void op_row(const FusionGroup& group, const FusionOp& op, const GroupNames& names,
              const std::string& reason) {
    builder_.add_failed(op_identity(group, op, names), {reason});
  }

  // The op's rows; false (and the message) when its left dump cannot be had.
  bool compare_op(const FusionGroup& group, const FusionOp& op, const GroupNames& names,
                  std::string& error) {
    const OpDumps* dumps = raw_ ? left_.find(op.name, 0) : left_.find(op.name);
    std::shared_ptr<const DumpFile> file = dumps ? load(*dumps) : nullptr;
    if (!file) {
      error = msg::no_left_dump(op.name, op.type);
      return false;
    }
    dump_match_ = true;
    const std::string my_path = real_path(file->path);
    const bool ffts = is_ffts_dump(*file);
    for (const TensorGroup g : {TensorGroup::kInput, TensorGroup::kOutput}) {
      if (g == TensorGroup::kInput && skips_input_compare(op)) continue;
      if (g == TensorGroup::kOutput && skips_output_compare(op)) continue;
      const std::vector<TensorInfo>& tensors = file->group(g);
      for (size_t k = 0; k < tensors.size(); ++k) {
        RowIdentity id = op_identity(group, op, names);
        id.my_address = std::to_string(tensors[k].address);
        id.tensor_index =
            op.name + ":" + std::string(tensor_group_name(g)) + ":" + std::to_string(k);
        Golden golden;
        PlanRow& row =
            compare_tensor(op, g, static_cast<int>(k), file, my_path, std::move(id), golden);
        if (options_.overflow_detection) builder_.overflow_from(row, file, tensors[k]);
        if (!ffts) continue;
        const auto at = static_cast<std::size_t>(row.id);
        if (g == TensorGroup::kOutput) {
          ffts_outputs_[op.name].push_back(at);
        } else if (golden.source != nullptr) {
          ffts_inputs_.push_back({at, golden.source->name, golden.source_index});
        }
      }
    }
    return true;
  }

  // msaccucmp's find_pre_op: the input row of an FFTS+ op whose golden is the output of another
  // FFTS+ op shows that op's output row from Shape on. It finds the TensorIndex at a fixed column
  // (7), so this happens only in tables with one Address column and no OpSequence.
  void show_ffts_producer_rows() {
    const TableColumns& c = plan_.columns;
    if (c.my_address == c.golden_address || c.op_sequence) return;
    for (const FftsInput& in : ffts_inputs_) {
      const auto producer = ffts_outputs_.find(in.producer);
      if (producer == ffts_outputs_.end() || in.producer_output < 0 ||
          static_cast<std::size_t>(in.producer_output) >= producer->second.size()) {
        continue;
      }
      const PlanRow& from =
          plan_.rows[producer->second[static_cast<std::size_t>(in.producer_output)]];
      PlanRow& to = plan_.rows[in.row];
      to.identity.shape = from.identity.shape;
      to.reasons = from.reasons;
      to.compared = from.compared;
      to.x = from.x;
      to.y = from.y;
      to.context = from.context;
      to.both_bool = from.both_bool;
      to.need_kld = from.need_kld;
      to.overflow_from_x = from.overflow_from_x;
    }
  }

  struct Golden {
    std::shared_ptr<const DumpFile> file;
    const TensorInfo* tensor = nullptr;
    std::string format;  // the rule's origin format, or the dump's own
    Shape shape;         // the described shape: the NPU tensor's original_shape when it has one
    const FusionOp* source = nullptr;  // GoldenRef::source: set even when the golden is not found
    int source_index = 0;
  };

  // The ground-truth tensor of the NPU tensor: its file (find_golden_file), loaded, and the tensor
  // in it; the described shape is the NPU tensor's original_shape when it has one.
  bool find_golden(const FusionOp& op, TensorGroup g, int k, const TensorInfo& mine,
                   const std::string& tensor_id, Golden& golden, std::string& error) {
    GoldenRef ref;
    const bool found = find_golden_file(rule_, right_, op, g, k, tensor_id, ref, error);
    golden.source = ref.source;
    golden.source_index = ref.source_index;
    if (!found) {
      // A rule whose input names an op it does not hold is a bad input; a golden that was not
      // dumped is not.
      if (ref.bad_rule) builder_.input_problem(ProblemKind::kBadRule, rule_path(), error);
      return false;
    }
    golden.file = load(*ref.dumps);
    if (!golden.file) {
      error = load_error_;
      return false;
    }
    const auto& outputs = golden.file->outputs;
    const size_t at = ref.offline ? static_cast<size_t>(ref.origin.index) : 0;
    if (at >= outputs.size()) {
      error = msg::index_past_count(op.name, "output", ref.origin.index, outputs.size());
      builder_.input_problem(ProblemKind::kBadTensor, golden.file->path, error);
      return false;
    }
    golden.tensor = &outputs[at];
    golden.format =
        ref.offline ? std::string(format_name(golden.tensor->format)) : ref.origin.format;
    golden.shape = ref.offline ? golden.tensor->shape : ref.origin.shape;
    if (!mine.original_shape.empty()) golden.shape = mine.original_shape;
    return true;
  }

  // The tensor's row: compared with its ground truth, or failed with the reason.
  // `golden` tells where the ground truth was looked for, whatever the row's outcome.
  PlanRow& compare_tensor(const FusionOp& op, TensorGroup g, int k,
                          const std::shared_ptr<const DumpFile>& file, const std::string& my_path,
                          RowIdentity id, Golden& golden) {
    const TensorInfo& mine = file->group(g)[static_cast<size_t>(k)];
    id.shape = shape_to_string(mine.shape);
    auto fail = [&](const std::string& reason) -> PlanRow& {
      return builder_.add_failed(id, {reason});
    };
    std::string error;
    if (!find_golden(op, g, k, mine, id.tensor_index, golden, error)) return fail(error);
    ElementSource x, y;
    const ElementCheck lc = tensor_element_source(*file, mine, x);
    const ElementCheck rc = tensor_element_source(*golden.file, *golden.tensor, y);
    if (!lc.error.empty() || !rc.error.empty()) {
      const bool mine_bad = !lc.error.empty();
      const std::string& reason = mine_bad ? lc.error : rc.error;
      builder_.input_problem(ProblemKind::kBadTensor, mine_bad ? file->path : golden.file->path,
                             id.tensor_index + ": " + reason);
      return fail(reason);
    }
    // A row that fails because of an input also names the file (docs/reliability.md); its
    // CompareFailReason says why, unless msaccucmp only logs it (logged_only).
    auto bad_input = [&](const std::string& path, const std::string& reason,
                         bool logged_only = false) -> PlanRow& {
      builder_.input_problem(ProblemKind::kBadTensor, path, id.tensor_index + ": " + reason);
      return fail(logged_only ? std::string() : reason);
    };
    Shape compared_shape = mine.shape;
    std::string crop_note;
    NpuSide npu{file, &mine, x};
    if (raw_) {
      if (mine.shape != golden.tensor->shape) {
        return bad_input(
            golden.file->path,
            msg::op_prefixed(op.name, msg::cannot_compare(mine.shape, golden.tensor->shape)));
      }
    } else if (ConvertFailure why;
               !convert(op, golden, npu, compared_shape, crop_note, error, why)) {
      if (error.empty()) return fail(error);  // a custom converter's message was a warning
      return bad_input(why.shapes_differ ? golden.file->path : file->path, error, why.logged_only);
    }
    x = npu.x;
    if (x.count != y.count) {
      return bad_input(golden.file->path,
                       msg::op_prefixed(op.name, msg::cannot_compare_sizes(x.count, y.count)));
    }
    if (options_.max_cmp_size > 0) {
      x.count = std::min(x.count, options_.max_cmp_size);
      y.count = std::min(y.count, options_.max_cmp_size);
    }
    id.shape = shape_to_string(compared_shape);
    id.my_dtype = array_dtype_name(npu.tensor->dtype);  // a custom converter may change it
    id.golden_dtype = array_dtype_name(golden.tensor->dtype);
    const PairContext context{shape_is_scalar_type(compared_shape), my_path,
                              real_path(golden.file->path)};
    PlanRow& row = builder_.add_compared(id, context, {lc.note, rc.note, crop_note}, npu.file,
                                         *npu.tensor, x, golden.file, *golden.tensor, y);
    row.both_bool = mine.dtype == DType::kBool && golden.tensor->dtype == DType::kBool;
    return row;
  }

  // The NPU tensor a row compares: the dump's, or the array a custom converter returned.
  struct NpuSide {
    std::shared_ptr<const DumpFile> file;
    const TensorInfo* tensor;
    ElementSource x;
  };

  // Why convert() failed, besides its message.
  struct ConvertFailure {
    bool logged_only = false;    // msaccucmp only prints the message: the row's reason is empty
    bool shapes_differ = false;  // the ground truth's shape does not fit the NPU tensor
  };

  // TensorConversion.get_my_output_and_ground_truth_data for the NPU side: towards the ground
  // truth's format (NCHW/NHWC relabelled when the loaded array is the other one) and cropped to
  // the loaded array's shape. False with the reason in `error`.
  bool convert(const FusionOp& op, const Golden& golden, NpuSide& npu, Shape& compared,
               std::string& note, std::string& error, ConvertFailure& why) {
    const TensorInfo& mine = *npu.tensor;
    ElementSource& x = npu.x;
    Format target = mine.format;
    if (!golden.format.empty()) {
      if (!parse_format(golden.format, target)) {
        error = msg::ground_truth_format_not_supported(golden.format);
        return false;
      }
      const Shape& loaded = golden.tensor->shape;
      const Shape& d = golden.shape;
      if ((target == Format::kNCHW || target == Format::kNHWC) && d.size() == 4 &&
          loaded.size() == 4 && d != loaded) {
        const bool as_nhwc =
            d[0] == loaded[0] && d[1] == loaded[2] && d[2] == loaded[3] && d[3] == loaded[1];
        const bool as_nchw =
            d[0] == loaded[0] && d[1] == loaded[3] && d[2] == loaded[1] && d[3] == loaded[2];
        if (target == Format::kNHWC && as_nhwc) {
          target = Format::kNCHW;
        } else if (target == Format::kNCHW && as_nchw) {
          target = Format::kNHWC;
        }
      }
    }
    if (x.count != product_or_zero(mine.shape)) {
      // The shape as convert_shape_to_string spells it ("(1, 3)"), where numpy writes "(1,3)".
      error = msg::op_prefixed(op.name, msg::cannot_reshape(x.count, msg::shape(mine.shape)));
      return false;
    }
    // Layouts msaccucmp cannot convert (NC1HWC0_C04, FRACTAL_Z_3D, ...) are converted here where
    // it writes a NaN row (docs/decisions.md decision 3).
    const LayoutOptions layout;
    const LayoutPlan plan = plan_conversion(mine.format, mine.shape, target, golden.shape,
                                            golden.tensor->shape, mine.sub_format, layout);
    if (plan.format_converter && options_.custom_conversions != nullptr &&
        options_.custom_conversions->has(mine.format, target)) {
      if (custom_convert(op, golden, target, npu, compared, error)) return true;
      if (!error.empty() || !custom_unusable_) return false;
    }
    if (!plan.ok) {
      why.shapes_differ = msg::is_cannot_compare(plan.note);
      why.logged_only = plan.note_logged_only;
      error = why.shapes_differ ? msg::op_prefixed(op.name, plan.note) : plan.note;
      return false;
    }
    const bool flat = (target == Format::kND && mine.format != Format::kFractalNZ &&
                       mine.format != Format::kNDC1HWC0) ||
                      shape_is_scalar_type(mine.shape);
    if (flat && plan.map.count < x.count) {
      // msaccucmp compares the prefix of a longer flat tensor: reproduced, and said so.
      note = "Only the first " + std::to_string(plan.map.count) + " of " + std::to_string(x.count) +
             " elements of the NPU tensor were compared: its shape " +
             shape_to_tuple_string(mine.shape) + " differs from the ground truth's " +
             shape_to_tuple_string(golden.tensor->shape) + ".";
    }
    compared = plan.result_shape;
    builder_.read_through(plan.map, x);
    return true;
  }

  // The custom converter of the pair in place of the built-in one (msaccucmp's -c
  // DIR/format_convert/): its array, cut to the ground truth's loaded shape by slice_data. A
  // converter that fails leaves the row without a reason, as msaccucmp does; its message goes to
  // the console. False with an empty error and custom_unusable_ set: use the built-in converter.
  bool custom_convert(const FusionOp& op, const Golden& golden, Format target, NpuSide& npu,
                      Shape& compared, std::string& error) {
    const TensorInfo& mine = *npu.tensor;
    custom_unusable_ = false;
    const ExportedArray array = export_array(npu.file->tensor_data(mine), mine.dtype, npu.x.count);
    const CustomConversions::Result converted = options_.custom_conversions->convert(
        mine.format, target, mine.shape, golden.shape, mine.sub_format,
        {npy_descr(array.dtype), array.data, array.bytes, npu.x.count});
    if (converted.unusable) {
      custom_unusable_ = true;
      return false;
    }
    if (!converted.error.empty()) {
      add_warning(op.name + ": " + converted.error);
      return false;
    }
    std::shared_ptr<const DumpFile> file;
    try {
      file = std::make_shared<const DumpFile>(read_dump_file(converted.path));
    } catch (const Error& e) {
      error = e.what();
      return false;
    }
    if (file->outputs.empty()) {
      error = converted.path + ": the converted array is missing";
      return false;
    }
    ElementSource x;
    const ElementCheck check = tensor_element_source(*file, file->outputs[0], x);
    if (!check.error.empty()) {
      error = check.error;
      return false;
    }
    LayoutPlan plan = identity_plan(file->outputs[0].shape, target);
    if (!apply_padding_crop(plan, golden.tensor->shape, error)) {
      error = msg::op_prefixed(op.name, error);
      return false;
    }
    compared = plan.result_shape;
    builder_.read_through(plan.map, x);
    npu = {file, &file->outputs[0], x};
    return true;
  }

  // The rule file a rule problem is reported against.
  const std::string& rule_path() const {
    return options_.fusion_rule_path.empty() ? options_.quant_rule_path : options_.fusion_rule_path;
  }

  void add_warning(const std::string& text) {
    if (warned_.insert(text).second) plan_.warnings.push_back(text);
  }

  static int64_t product_or_zero(const Shape& shape) {
    return shape_element_count(shape).value_or(-1);
  }

  // The op's dump, FFTS+ slices merged (io/ffts_merge.hpp).
  std::shared_ptr<const DumpFile> load(const OpDumps& dumps) {
    const std::string& path = dumps.chosen().path;
    try {
      return read_op_dump(dumps).file;
    } catch (const Error& e) {
      load_error_ = e.what();
      builder_.input_problem(load_problem_kind(path), path, load_error_);
      return nullptr;
    }
  }

  const CompareOptions& options_;
  ComparePlan& plan_;
  PlanBuilder builder_;
  const FusionRule& rule_;
  const Inventory& left_;
  const Inventory& right_;
  bool raw_;  // quantized original vs original: the arrays as they are, shapes must agree
  bool dump_match_ = false;
  bool custom_unusable_ = false;  // the last custom_convert found the converter unusable
  std::set<std::string> warned_;
  std::string load_error_;
  // FFTS+ ops' output rows (by output index) and input rows with their golden's producer.
  struct FftsInput {
    std::size_t row;
    std::string producer;
    int producer_output;
  };
  std::unordered_map<std::string, std::vector<std::size_t>> ffts_outputs_;
  std::vector<FftsInput> ffts_inputs_;
};

}  // namespace

ComparePlan plan_fusion_compare(const CompareOptions& options, OpenedDumps* opened) {
  const FusionInputs inputs = load_fusion_inputs(options);
  const Inventory& left = inputs.left;
  const Inventory& right = inputs.right;
  const FusionRule& rule = inputs.rule;

  ComparePlan plan = plan_without_rows(options, left, right);
  std::string warning;
  const std::vector<int64_t> groups = selected_groups(rule, options, warning);
  if (!warning.empty()) plan.warnings.push_back(warning);
  plan.columns.op_sequence =
      (!options.range.empty() || !options.select.empty()) && options.op_sequence_column;
  plan.input_op_names = rule.input_op_names();
  const CompareOptions effective = planner_options(options, left);
  FusionPlanner planner(effective, plan, opened, rule, left, right, inputs.scenario);
  planner.run(groups);
  add_skipped_entries(plan, options.my_path, left);
  add_skipped_entries(plan, options.golden_path, right);
  return plan;
}

}  // namespace dumpcmp
