#include "compare/compare_engine.hpp"

#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <deque>
#include <filesystem>
#include <memory>
#include <optional>
#include <unordered_map>

#include "compare/compare_messages.hpp"
#include "compare/compare_plan.hpp"
#include "compare/compare_scenario.hpp"
#include "compare/fusion_compare.hpp"
#include "compare/npu_pairing.hpp"
#include "compare/plan_executor.hpp"
#include "core/error.hpp"
#include "core/paths.hpp"
#include "io/ffts_merge.hpp"
#include "io/inventory.hpp"
#include "layout/layout_plan.hpp"
#include "report/result_table.hpp"
#include "tensor/tensor_elements.hpp"

namespace dumpcmp {
namespace {

bool has_suffix(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

Inventory scan_side(const std::string& path, bool ffts) {
  ScanOptions scan;
  scan.ffts = ffts;
  return std::filesystem::is_directory(path) ? Inventory::scan(path, scan)
                                             : Inventory::single_file(path);
}

std::string op_type_of(const OpDumps* op) {
  if (!op) return kNaNText;
  const DumpFileName& name = op->chosen().name;
  return name.kind == DumpNameKind::kOffline && !name.op_type.empty() ? name.op_type : kNaNText;
}

// Plans NPU vs NPU, file vs file and .npy directories: one row per paired tensor, in op order.
class NetworkPlanner {
 public:
  // bool_path: compare two bool tensors as bools (msaccucmp does for arrays it reads whole, i.e.
  // files and .npy; NPU-vs-NPU dumps are cast to float32 first).
  NetworkPlanner(const CompareOptions& options, ComparePlan& plan, OpenedDumps* opened,
                 bool bool_path)
      : options_(options), plan_(plan), builder_(plan, opened), bool_path_(bool_path) {}

  // Ops are read a window at a time on all cores (for thousands of small dumps, opening and parsing
  // files is most of the planning), then planned in table order.
  void run(const std::vector<OpPairing>& ops) {
    constexpr std::size_t kWindow = 64;
    for (std::size_t start = 0; start < ops.size(); start += kWindow) {
      const std::size_t count = std::min(kWindow, ops.size() - start);
      std::vector<LoadedOp> loaded(count);
#pragma omp parallel for schedule(dynamic) num_threads(host_threads_)
      for (std::size_t i = 0; i < count; ++i) loaded[i] = load_op(ops[start + i]);
      for (std::size_t i = 0; i < count; ++i) {
        ++plan_.ops;
        compare_op(ops[start + i], std::move(loaded[i]));
      }
    }
  }

 private:
  RowIdentity op_identity(const OpPairing& op) const {
    RowIdentity id;
    id.index = op.index;
    id.my_op = op.left ? op.name : "*";
    id.golden_op = op.right ? (op.left ? op.right->op_name : op.name) : "*";
    return id;
  }

  // Why one side's dump could not be used.
  struct LoadProblem {
    std::string file, text;
    ProblemKind kind = ProblemKind::kBadDump;
  };

  void add_op_failure(const OpPairing& op, const std::vector<std::string>& reasons) {
    builder_.add_failed(op_identity(op), reasons);
  }

  // Reads one side's dump (FFTS+ slices merged); a file that cannot be read fails the op's row.
  static std::shared_ptr<const DumpFile> load(const OpDumps& side, LoadProblem& problem,
                                              bool* slice_count_mismatch = nullptr) {
    const std::string& path = side.chosen().path;
    problem.file = path;
    try {
      OpDump dump = read_op_dump(side);
      if (slice_count_mismatch) *slice_count_mismatch = dump.slice_count_mismatch;
      problem.text = undecodable_dtype_message(*dump.file);
      problem.kind = ProblemKind::kBadTensor;
      return std::move(dump.file);
    } catch (const Error& e) {
      std::error_code ec;
      if (!has_suffix(path, ".npy") && std::filesystem::file_size(path, ec) <= 8 && !ec) {
        // msaccucmp reads a dump of at most 8 bytes as one without tensors (the counts then
        // differ).
        auto empty = std::make_shared<DumpFile>();
        empty->path = path;
        return empty;
      }
      problem.text = e.what();
      problem.kind = load_problem_kind(path);
      return nullptr;
    }
  }

  struct LoadedOp {
    std::shared_ptr<const DumpFile> left, right;
    LoadProblem problem;  // the first side that could not be read
    bool left_slice_count_mismatch = false;
  };

  static LoadedOp load_op(const OpPairing& op) {
    LoadedOp loaded;
    if (!op.left || !op.right) return loaded;
    loaded.left = load(*op.left, loaded.problem, &loaded.left_slice_count_mismatch);
    if (loaded.problem.text.empty()) loaded.right = load(*op.right, loaded.problem);
    return loaded;
  }

  void compare_op(const OpPairing& op, LoadedOp loaded) {
    if (!op.left || !op.right) return add_op_failure(op, {missing_side_message(op)});
    if (!loaded.problem.text.empty()) {
      builder_.input_problem(loaded.problem.kind, loaded.problem.file, loaded.problem.text);
      return add_op_failure(op, {loaded.problem.text});
    }
    compare_files(op, std::move(loaded.left), std::move(loaded.right),
                  loaded.left_slice_count_mismatch);
  }

  void compare_files(const OpPairing& op, std::shared_ptr<const DumpFile> left,
                     std::shared_ptr<const DumpFile> right, bool left_slice_count_mismatch) {
    OpTensorPlan plan = pair_op_tensors(op.name, *left, *right);
    // msaccucmp shows the left dump's own op name when the dump has an attr (FFTS+ slices do).
    const std::string shown = attr_op_name(*left);
    const std::string& name = shown.empty() ? op.name : shown;
    if (plan.op_failed) {
      if (left_slice_count_mismatch) {
        plan.reasons.insert(plan.reasons.begin(), msg::ffts_slice_count_mismatch());
      }
      RowIdentity id = op_identity(op);
      if (!shown.empty()) id.my_op = id.golden_op = shown;
      // The two dumps disagree (tensor counts, shapes): named, as every input problem.
      for (const std::string& reason : plan.reasons) {
        builder_.input_problem(ProblemKind::kBadTensor, left->path, reason);
      }
      builder_.add_failed(id, plan.reasons);
      return;
    }
    const std::string op_type = op_type_of(op.left);
    const std::string my_file = real_paths_(left->path);
    const std::string golden_file = real_paths_(right->path);
    for (const TensorPairing& tp : plan.tensors) {
      const TensorInfo& lt = left->group(tp.group)[static_cast<std::size_t>(tp.index)];
      const TensorInfo& rt = right->group(tp.group)[static_cast<std::size_t>(tp.index)];
      RowIdentity id = op_identity(op);
      if (!shown.empty()) id.my_op = id.golden_op = shown;
      id.op_type = op_type;
      id.my_dtype = dtype_name_or_nan(lt.dtype);
      id.golden_dtype = dtype_name_or_nan(rt.dtype);
      id.my_address = std::to_string(lt.address);
      id.golden_address = std::to_string(rt.address);
      id.tensor_index = tensor_index(op, name, tp);
      id.shape = shape_to_string(lt.shape);

      ElementSource x, y;
      const ElementCheck lc = tensor_element_source(*left, lt, x);
      const ElementCheck rc = tensor_element_source(*right, rt, y);
      std::string problem = lc.error.empty() ? rc.error : lc.error;
      if (!problem.empty()) {
        builder_.input_problem(ProblemKind::kBadTensor, lc.error.empty() ? right->path : left->path,
                               id.tensor_index + ": " + problem);
      }
      if (problem.empty()) {
        restore_layout(lt, x);
        restore_layout(rt, y);
      }
      if (problem.empty() && x.count != y.count) {
        problem = msg::shape_mismatch_after_restore(op.name, x.count, y.count);
        builder_.input_problem(ProblemKind::kBadTensor, left->path,
                               id.tensor_index + ": " + problem);
      }
      PlanRow* row = nullptr;
      if (!problem.empty()) {
        row = &builder_.add_failed(id, {problem});
      } else {
        // No -max here: msaccucmp cuts tensors only through a rule file (-f/-q); its NPU-vs-NPU
        // compare reads them whole.
        const PairContext context{shape_is_scalar_type(lt.shape), my_file, golden_file};
        row = &builder_.add_compared(id, context, {lc.note, rc.note}, left, lt, x, right, rt, y);
        row->both_bool = bool_path_ && lt.dtype == DType::kBool && rt.dtype == DType::kBool;
      }
      if (options_.overflow_detection) builder_.overflow_from(*row, left, lt);
    }
  }

  // msaccucmp restores each NPU tensor to its original format and crops the padding before it
  // compares (ConvertSingleTensorFormat); here that is a LayoutMap applied inside the load. Layouts
  // msaccucmp cannot convert stay raw, as there, so rows match it (docs/compatibility.md).
  void restore_layout(const TensorInfo& t, ElementSource& src) {
    LayoutOptions options;
    options.extensions = false;
    const LayoutPlan plan = plan_npu_restore(t, src.count, options);
    builder_.read_through(plan.map, src);
  }

  // "<op>:<input|output>:<i>"; an .npy file holds output <i> of the op its name gives.
  static std::string tensor_index(const OpPairing& op, const std::string& shown,
                                  const TensorPairing& tp) {
    const DumpFileName& name = op.left->chosen().name;
    if (name.kind == DumpNameKind::kNumpy && name.output_index >= 0) {
      return name.op_name + ":output:" + std::to_string(name.output_index);
    }
    return shown + ":" + std::string(tensor_group_name(tp.group)) + ":" + std::to_string(tp.index);
  }

  static std::string dtype_name_or_nan(DType t) {
    const std::string_view name = dtype_numpy_name(t);
    return name.empty() ? kNaNText : std::string(name);
  }

  const CompareOptions& options_;
  ComparePlan& plan_;
  PlanBuilder builder_;
  bool bool_path_;
  int host_threads_ = options_.threads > 0 ? options_.threads : omp_get_num_procs();
  RealPaths real_paths_;  // msaccucmp names files by their real path
};

}  // namespace

ComparePlan plan_without_rows(const CompareOptions& options, const Inventory& left,
                              const Inventory& right) {
  ComparePlan plan;
  plan.metrics = options.metrics;
  plan.columns.my_address = !left.has_npy();
  plan.columns.golden_address = !right.has_npy();
  plan.columns.overflow = options.overflow_detection;
  plan.columns.quantiles = options.quantiles;
  plan.columns.custom = options.custom_columns;
  return plan;
}

CompareOptions planner_options(const CompareOptions& options, const Inventory& left) {
  CompareOptions effective = options;
  if (left.has_npy()) effective.overflow_detection = false;
  return effective;
}

ComparePlan plan_compare(const CompareOptions& options, OpenedDumps* opened) {
  if (!options.fusion_rule_path.empty() || !options.quant_rule_path.empty() ||
      !options.close_fusion_rule_path.empty()) {
    return plan_fusion_compare(options, opened);
  }
  const Inventory left = scan_side(options.my_path, options.ffts);
  const Inventory right = scan_side(options.golden_path, options.ffts);
  const bool files = !std::filesystem::is_directory(options.my_path) &&
                     !std::filesystem::is_directory(options.golden_path);
  std::vector<OpPairing> ops;
  if (files) {
    // Two files: compare them with each other whatever their names.
    ops.push_back({0, left.ops().front().op_name, &left.ops().front(), &right.ops().front()});
  } else {
    // An offline dump against framework goldens needs the fusion rule: msaccucmp's message.
    if (left.kind() == DumpNameKind::kOffline && right.kind() != DumpNameKind::kOffline) {
      check_compare_scenario(left, right, options);
    }
    ops = pair_ops_by_name(left, right);
  }
  if (options.npu_file_filter) {
    std::vector<OpPairing> kept;
    for (OpPairing& op : ops) {
      if (op.left == nullptr || !options.npu_file_filter(op.left->chosen().path)) continue;
      op.index = static_cast<int64_t>(kept.size());
      kept.push_back(op);
    }
    ops = std::move(kept);
  }
  ComparePlan plan = plan_without_rows(options, left, right);
  const CompareOptions effective = planner_options(options, left);
  NetworkPlanner planner(effective, plan, opened, files || left.has_npy() || right.has_npy());
  planner.run(ops);
  add_skipped_entries(plan, options.my_path, left);
  add_skipped_entries(plan, options.golden_path, right);
  return plan;
}

CompareSummary run_plan(const ComparePlan& plan, const CompareOptions& options, Backend& backend,
                        RecordSink& writer, OpenedDumps* opened) {
  const ResultTable table = plan.table();
  writer.begin(table);
  return compare_summary(plan, execute_plan(plan, 0, plan.rows.size(), backend, writer,
                                            execute_options(options), opened));
}

CompareSummary compare_summary(const ComparePlan& plan, const ExecuteSummary& done) {
  CompareSummary summary;
  summary.ops = plan.ops;
  summary.rows = done.rows;
  summary.failed_rows = done.failed_rows;
  summary.bytes = done.bytes;
  summary.dump_match = plan.dump_match;
  summary.warnings = plan.warnings;
  summary.input_op_names = plan.input_op_names;
  summary.input_problems = done.input_problems;
  return summary;
}

ExecuteOptions execute_options(const CompareOptions& options) {
  ExecuteOptions execute;
  execute.batch_bytes = options.batch_bytes;
  execute.threads = options.threads;
  execute.rules = options.rules;
  execute.extra = options.custom_metrics;
  execute.progress = options.progress;
  return execute;
}

CompareSummary run_compare(const CompareOptions& options, Backend& backend, RecordSink& writer) {
  OpenedDumps opened;
  const ComparePlan plan = plan_compare(options, &opened);
  return run_plan(plan, options, backend, writer, &opened);
}

}  // namespace dumpcmp
