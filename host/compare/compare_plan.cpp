#include "compare/compare_plan.hpp"

#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "io/ffts_merge.hpp"
#include "io/inventory.hpp"

namespace dumpcmp {

void OpenedDumps::keep(int32_t file, const std::shared_ptr<const DumpFile>& dump) {
  const uint64_t size = dump->bytes ? dump->bytes->size() : 0;
  if (size > kMaxFileBytes || bytes_ + size > kMaxBytes || dumps_.size() >= kMaxFiles) return;
  if (dumps_.emplace(file, dump).second) bytes_ += size;
}

std::shared_ptr<const DumpFile> OpenedDumps::take(int32_t file) {
  const auto it = dumps_.find(file);
  if (it == dumps_.end()) return nullptr;
  std::shared_ptr<const DumpFile> dump = std::move(it->second);
  dumps_.erase(it);
  bytes_ -= dump->bytes ? dump->bytes->size() : 0;
  return dump;
}

void OpenedDumps::absorb(OpenedDumps&& other, int32_t file_offset) {
  for (auto& [file, dump] : other.dumps_) keep(file + file_offset, dump);
  other.dumps_.clear();
  other.bytes_ = 0;
}

int32_t append_plan(ComparePlan& plan, ComparePlan&& part) {
  const auto file_offset = static_cast<int32_t>(plan.files.size());
  const auto layout_offset = static_cast<int32_t>(plan.layouts.size());
  for (std::string& f : part.files) plan.files.push_back(std::move(f));
  for (auto& [id, slices] : part.ffts_slices)
    plan.ffts_slices[id + file_offset] = std::move(slices);
  for (LayoutMap& l : part.layouts) plan.layouts.push_back(std::move(l));
  for (PlanRow& r : part.rows) {
    r.id = static_cast<int64_t>(plan.rows.size());
    for (TensorSource* side : {&r.x, &r.y}) {
      if (side->file >= 0) side->file += file_offset;
      if (side->layout >= 0) side->layout += layout_offset;
    }
    plan.rows.push_back(std::move(r));
  }
  plan.ops += part.ops;
  return file_offset;
}

DumpFile open_plan_file(const ComparePlan& plan, int32_t id) {
  const std::string& path = plan.files[static_cast<std::size_t>(id)];
  const auto slices = plan.ffts_slices.find(id);
  return slices == plan.ffts_slices.end() ? read_dump_file(path)
                                          : merge_ffts_slices(path, slices->second);
}

// Plans name files by absolute path, so a saved plan runs from any directory.
int32_t PlanBuilder::file_id(const std::shared_ptr<const DumpFile>& file) {
  const auto [it, added] = ids_.emplace(file->path, static_cast<int32_t>(plan_.files.size()));
  if (added) {
    if (cwd_.empty()) cwd_ = std::filesystem::current_path();
    auto absolute = [this](const std::string& p) {
      return std::filesystem::path(p).is_absolute() ? p : (cwd_ / p).lexically_normal().string();
    };
    plan_.files.push_back(absolute(file->path));
    if (!file->ffts_slices.empty()) {
      std::vector<std::string>& slices = plan_.ffts_slices[it->second];
      for (const std::string& s : file->ffts_slices) slices.push_back(absolute(s));
    }
    if (opened_) opened_->keep(it->second, file);
  }
  return it->second;
}

TensorSource PlanBuilder::source(const std::shared_ptr<const DumpFile>& file,
                                 const TensorInfo& tensor, const ElementSource& src) {
  TensorSource s;
  s.file = file_id(file);
  s.group = tensor.group;
  s.index = tensor.index;
  s.dtype = src.dtype;
  s.offset = static_cast<uint64_t>(src.data - file->bytes->data());
  s.size = tensor.size;
  s.count = src.count;
  s.source_count = src.source_count;
  if (src.layout) {
    s.layout = static_cast<int32_t>(plan_.layouts.size());
    plan_.layouts.push_back(*src.layout);
    // The plan's map reads the elements compared: with -max, the first `count` of the restored
    // tensor (msaccucmp slices the converted array), not all of them.
    LayoutMap& map = plan_.layouts.back();
    map.count = std::min(map.count, src.count);
  }
  return s;
}

void add_skipped_entries(ComparePlan& plan, const std::string& dir, const Inventory& side) {
  for (const std::string& entry : side.skipped()) {
    // msaccucmp's own bookkeeping files are expected beside dumps: not a problem to report.
    if (entry.find(": msaccucmp bookkeeping file") != std::string::npos) continue;
    plan.input_problems.push_back(
        InputProblem{ProblemKind::kSkipped, (std::filesystem::path(dir) / entry).string()});
  }
}

void PlanBuilder::input_problem(ProblemKind kind, const std::string& file,
                                const std::string& problem) {
  std::string text = problem.find(file) == std::string::npos ? file + ": " + problem : problem;
  if (!problem_texts_.insert(text).second) return;
  plan_.input_problems.push_back(InputProblem{kind, std::move(text)});
}

ProblemKind load_problem_kind(const std::string& path) {
  return access(path.c_str(), R_OK) == 0 ? ProblemKind::kBadDump : ProblemKind::kUnreadable;
}

void PlanBuilder::read_through(const LayoutMap& map, ElementSource& src) {
  if (map.identity && map.count == src.count) return;
  pending_layouts_.push_back(map);  // copied into the plan row; kept until then
  src.layout = &pending_layouts_.back();
  src.source_count = src.count;
  src.count = map.count;
}

PlanRow& PlanBuilder::new_row(const RowIdentity& identity, std::vector<std::string> reasons) {
  PlanRow& row = plan_.rows.emplace_back();
  row.id = static_cast<int64_t>(plan_.rows.size()) - 1;
  row.identity = identity;
  row.reasons = std::move(reasons);
  return row;
}

PlanRow& PlanBuilder::add_failed(const RowIdentity& identity, std::vector<std::string> reasons) {
  pending_layouts_.clear();  // the pair's maps are not needed
  return new_row(identity, std::move(reasons));
}

PlanRow& PlanBuilder::add_compared(const RowIdentity& identity, const PairContext& context,
                                   std::vector<std::string> notes,
                                   const std::shared_ptr<const DumpFile>& x_file,
                                   const TensorInfo& x_tensor, const ElementSource& x,
                                   const std::shared_ptr<const DumpFile>& y_file,
                                   const TensorInfo& y_tensor, const ElementSource& y) {
  PlanRow& row = new_row(identity, std::move(notes));
  row.compared = true;
  row.context = context;
  row.x = source(x_file, x_tensor, x);
  row.y = source(y_file, y_tensor, y);
  row.need_kld = std::find(plan_.metrics.begin(), plan_.metrics.end(),
                           Metric::kKullbackLeiblerDivergence) != plan_.metrics.end();
  pending_layouts_.clear();  // copied into the row by source()
  return row;
}

void PlanBuilder::overflow_from(PlanRow& row, const std::shared_ptr<const DumpFile>& file,
                                const TensorInfo& tensor) {
  row.overflow_from_x = true;
  if (row.compared) return;  // x is that tensor already
  row.x.file = file_id(file);
  row.x.group = tensor.group;
  row.x.index = tensor.index;
  row.x.dtype = tensor.dtype;
  row.x.offset = tensor.offset;
  row.x.size = tensor.size;
}

}  // namespace dumpcmp
