#pragma once
// A compare as data: every result row in table order, each with its identifying cells and either
// the two tensors to reduce (file, tensor, byte range, dtype, element counts, layout map) or the
// reason it cannot be compared. One planner per input kind builds it (NPU vs NPU, files and .npy
// directories in compare_engine; -f/-q/-cf and -r/-s in fusion_compare); one executor runs any
// range of its rows on any backend (plan_executor). Plans can be saved and read back as JSON lines
// (plan_json), so a run can be inspected, split or resumed.
#include <cstdint>
#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/diagnostics.hpp"
#include "io/dump_file.hpp"
#include "layout/layout_map.hpp"
#include "math/element_source.hpp"
#include "metrics/metric.hpp"
#include "metrics/metric_table.hpp"
#include "report/record.hpp"
#include "report/result_table.hpp"

namespace dumpcmp {

// One side of a tensor pair: where its elements are and how they are read.
struct TensorSource {
  int32_t file = -1;  // index into ComparePlan::files
  TensorGroup group = TensorGroup::kOutput;
  int index = 0;  // the tensor's position within its group
  DType dtype = DType::kFloat;
  uint64_t offset = 0;  // payload bytes [offset, offset + size) of the parsed dump
  uint64_t size = 0;
  int64_t count = 0;         // elements compared (after -max and the layout map)
  int64_t source_count = 0;  // elements the payload holds when a layout map reads it; else 0
  int32_t layout = -1;       // index into ComparePlan::layouts: restores a layout / crops; -1: none
};

struct PlanRow {
  int64_t id = 0;  // the row's position in the plan: stable across save and load
  RowIdentity identity;
  // Not compared: the reasons for CompareFailReason. Compared: notes that go before the metrics'
  // own messages.
  std::vector<std::string> reasons;
  bool compared = false;
  TensorSource x, y;  // my output (NPU) and ground truth; x.file is set for overflow_from_x too
  PairContext context;
  bool both_bool = false;
  bool need_kld = false;
  // The OverFlow cell comes from x's raw payload when the row runs (-overflow_detection).
  bool overflow_from_x = false;

  uint64_t bytes() const { return compared ? x.size + y.size : 0; }
};

struct ComparePlan {
  std::vector<Metric> metrics;
  TableColumns columns;
  std::vector<std::string> files;  // every dump file a row reads
  // Files that are FFTS+ slices merged in memory (io/ffts_merge.hpp): file id -> the slice files,
  // in merge order. files[id] is then msaccucmp's name for the merged dump.
  std::map<int32_t, std::vector<std::string>> ffts_slices;
  std::vector<LayoutMap> layouts;  // the rows' layout maps (a few hundred bytes each)
  std::vector<PlanRow> rows;
  // What the planner found besides rows.
  int64_t ops = 0;                           // ops (or fusion groups) visited
  bool dump_match = true;                    // false: not one op of the model had a dump
  std::vector<std::string> warnings;         // rule and selection problems, for the console
  std::vector<InputProblem> input_problems;  // each bad input file or skipped entry, once
  std::vector<std::string> input_op_names;   // the model's Data ops (the advisor's input nodes)

  ResultTable table() const { return ResultTable(metrics, columns); }
};

// Small dumps a planner has parsed, handed to the executor so that it does not read them again
// (for thousands of small files, opening and parsing is most of the work). Bounded: larger files
// and those past the budget are simply read again when their rows run.
class OpenedDumps {
 public:
  void keep(int32_t file, const std::shared_ptr<const DumpFile>& dump);
  // The dump, taken out of the cache; null when it was not kept.
  std::shared_ptr<const DumpFile> take(int32_t file);
  // Keeps other's dumps too, their file ids moved by file_offset (plans appended to one another).
  void absorb(OpenedDumps&& other, int32_t file_offset);

 private:
  static constexpr uint64_t kMaxFileBytes = 1ull << 20;
  static constexpr uint64_t kMaxBytes = 256ull << 20;
  static constexpr std::size_t kMaxFiles = 16384;
  std::unordered_map<int32_t, std::shared_ptr<const DumpFile>> dumps_;
  uint64_t bytes_ = 0;
};

// The dump file `id` of the plan: read, or its FFTS+ slices merged again. Throws Error(kInput)
// naming the file and the problem.
DumpFile open_plan_file(const ComparePlan& plan, int32_t id);

class Inventory;
// The entries of a side's directory that its inventory skipped, as input problems ("DIR/NAME:
// why"), so that a stray file is named to the user.
void add_skipped_entries(ComparePlan& plan, const std::string& dir, const Inventory& side);

// Appends the rows of `part` to `plan` (same metrics and columns): its files, layout maps and row
// ids are renumbered after plan's. Returns the file-id offset part's files got.
int32_t append_plan(ComparePlan& plan, ComparePlan&& part);

// Why a dump could not be loaded: kUnreadable when the file cannot be read at all, else kBadDump.
ProblemKind load_problem_kind(const std::string& path);

// Appends rows to a plan in table order, interning file paths. A compared row needs the KLD pass
// when the plan's metrics hold KLD.
class PlanBuilder {
 public:
  // `opened` (optional) keeps the dumps the rows read for the executor.
  explicit PlanBuilder(ComparePlan& plan, OpenedDumps* opened = nullptr)
      : plan_(plan), opened_(opened) {}

  // A row that cannot be compared.
  PlanRow& add_failed(const RowIdentity& identity, std::vector<std::string> reasons);
  // A compared pair: the tensors as validated sources into their parsed dumps.
  PlanRow& add_compared(const RowIdentity& identity, const PairContext& context,
                        std::vector<std::string> notes,
                        const std::shared_ptr<const DumpFile>& x_file, const TensorInfo& x_tensor,
                        const ElementSource& x, const std::shared_ptr<const DumpFile>& y_file,
                        const TensorInfo& y_tensor, const ElementSource& y);
  // `src` read through `map`, unless the map is the identity over all of src (a prefix crop is
  // an identity map of fewer elements). The map is kept until the next row copies it.
  void read_through(const LayoutMap& map, ElementSource& src);
  // An input problem, named by its file: "FILE: problem" (the file is put in front unless the
  // text already names it). Each text is kept once.
  void input_problem(ProblemKind kind, const std::string& file, const std::string& problem);
  // Marks the row's OverFlow cell to be read from this tensor when the row runs.
  void overflow_from(PlanRow& row, const std::shared_ptr<const DumpFile>& file,
                     const TensorInfo& tensor);

 private:
  PlanRow& new_row(const RowIdentity& identity, std::vector<std::string> reasons);
  TensorSource source(const std::shared_ptr<const DumpFile>& file, const TensorInfo& tensor,
                      const ElementSource& src);
  int32_t file_id(const std::shared_ptr<const DumpFile>& file);
  ComparePlan& plan_;
  OpenedDumps* opened_;
  std::deque<LayoutMap> pending_layouts_;  // read_through's maps, until a row copies them
  std::unordered_map<std::string, int32_t> ids_;
  std::unordered_set<std::string> problem_texts_;
  std::filesystem::path cwd_;
};

}  // namespace dumpcmp
