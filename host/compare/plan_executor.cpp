#include "compare/plan_executor.hpp"

#include <omp.h>

#include <algorithm>
#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "core/error.hpp"
#include "core/phase_trace.hpp"
#include "quantiles/error_quantiles.hpp"
#include "tensor/tensor_elements.hpp"

namespace dumpcmp {
namespace {

// A batch's dumps, read once each: the parsed file, or why it cannot be read now.
struct OpenedFile {
  std::shared_ptr<const DumpFile> dump;
  std::string problem;
};

// The planned tensor in its dump, or the reason it is not there any more.
const TensorInfo* planned_tensor(const ComparePlan& plan, const TensorSource& s,
                                 const DumpFile& dump, std::string& problem) {
  const std::string& path = plan.files[static_cast<std::size_t>(s.file)];
  const std::vector<TensorInfo>& group = dump.group(s.group);
  if (s.index < 0 || static_cast<std::size_t>(s.index) >= group.size()) {
    problem = path + ": the planned " + std::string(tensor_group_name(s.group)) + " " +
              std::to_string(s.index) + " is not in the file any more";
    return nullptr;
  }
  const TensorInfo& t = group[static_cast<std::size_t>(s.index)];
  if (t.offset != s.offset || t.size != s.size || s.offset + s.size > dump.bytes->size()) {
    problem = path + ": " + std::string(tensor_group_name(s.group)) + " " +
              std::to_string(s.index) + " changed since the compare was planned";
    return nullptr;
  }
  return &t;
}

class BatchFiles {
 public:
  BatchFiles(const ComparePlan& plan, int threads, OpenedDumps* cache)
      : plan_(plan), threads_(threads), cache_(cache) {}

  void open(const std::vector<const PlanRow*>& rows) {
    std::vector<int32_t> wanted;
    for (const PlanRow* r : rows) {
      for (const TensorSource* s : {&r->x, &r->y}) {
        if (s->file < 0 || !opened_.emplace(s->file, OpenedFile{}).second) continue;
        if (cache_) opened_[s->file].dump = cache_->take(s->file);
        if (!opened_[s->file].dump) wanted.push_back(s->file);
      }
    }
    const auto count = static_cast<int64_t>(wanted.size());
#pragma omp parallel for schedule(dynamic) num_threads(threads_)
    for (int64_t i = 0; i < count; ++i) {
      const int32_t id = wanted[static_cast<std::size_t>(i)];
      OpenedFile& f = opened_.at(id);  // the map is not modified while threads read it
      try {
        f.dump = std::make_shared<const DumpFile>(open_plan_file(plan_, id));
      } catch (const Error& e) {
        f.problem = e.what();
      }
    }
  }

  // The planned tensor in its opened dump, or the reason it is not there any more.
  const TensorInfo* find(const TensorSource& s, const DumpFile** file, std::string& problem) const {
    const OpenedFile& f = opened_.at(s.file);
    if (!f.dump) {
      problem = f.problem;
      return nullptr;
    }
    const TensorInfo* t = planned_tensor(plan_, s, *f.dump, problem);
    if (t) *file = f.dump.get();
    return t;
  }

  void clear() { opened_.clear(); }

 private:
  const ComparePlan& plan_;
  int threads_;
  OpenedDumps* cache_;
  std::unordered_map<int32_t, OpenedFile> opened_;
};

// The largest buffer index a strided map reads (its tail stages are trusted as planned).
int64_t largest_source_index(const LayoutMap& m) {
  int64_t j = 0;
  for (int k = 0; k < m.rank; ++k) {
    auto offset = [&](int64_t o) {
      return m.split[k] == 0
                 ? o * m.stride_lo[k]
                 : (o / m.split[k]) * m.stride_hi[k] + (o % m.split[k]) * m.stride_lo[k];
    };
    const int64_t last = m.dim[k] - 1;
    // Offsets grow with the block and with the place in a block: the last element, or the end of
    // the last whole block before it.
    const int64_t block_end = m.split[k] > 0 ? (last / m.split[k]) * m.split[k] - 1 : -1;
    j += std::max(offset(last), block_end >= 0 ? offset(block_end) : 0);
  }
  return j;
}

// The planned element counts fit the payload (a plan read from a file is checked like any input).
bool fits_payload(const ComparePlan& plan, const TensorSource& s) {
  const uint64_t item = dtype_storage_size(s.dtype);
  if (item == 0 || s.count < 0 || s.source_count < 0) return false;
  const auto held = static_cast<uint64_t>(s.layout >= 0 ? s.source_count : s.count);
  if (s.layout >= 0) {
    const LayoutMap& m = plan.layouts[static_cast<std::size_t>(s.layout)];
    if (m.count != s.count) return false;
    if (!m.identity && m.tail == LayoutTail::kNone && largest_source_index(m) >= s.source_count) {
      return false;
    }
  }
  uint64_t bytes = (held + 7) / 8;
  if (s.dtype != DType::kUInt1 && __builtin_mul_overflow(held, item, &bytes)) return false;
  return bytes <= s.size;
}

ElementSource element_source(const ComparePlan& plan, const DumpFile& file, const TensorSource& s) {
  ElementSource src;
  src.data = file.bytes->data() + s.offset;
  src.dtype = s.dtype;
  src.count = s.count;
  src.source_count = s.source_count;
  src.layout = s.layout >= 0 ? &plan.layouts[static_cast<std::size_t>(s.layout)] : nullptr;
  return src;
}

// A compared record with its custom columns' cells; CompareFailReason again, with the messages in
// column order after the row's notes.
void add_extra_cells(const ComparePlan& plan, const PlanRow& row,
                     const std::vector<ExtraMetrics::Cell>& cells, CompareRecord& record) {
  const std::vector<CustomColumn>& custom = plan.columns.custom;
  std::vector<std::string> reasons = row.reasons;
  std::size_t c = 0;
  for (std::size_t k = 0; k <= record.metrics.size(); ++k) {
    for (; c < custom.size() && c < cells.size() && custom[c].after <= static_cast<int>(k); ++c) {
      record.custom_cells.push_back(cells[c].text);
      reasons.push_back(cells[c].reason);
    }
    if (k < record.metrics.size()) reasons.push_back(record.metrics[k].reason);
  }
  record.fail_reason = join_reasons(reasons);
}

CompareRecord failed_record(const RowIdentity& id, const std::vector<std::string>& reasons) {
  CompareRecord record;
  record.id = id;
  record.fail_reason = join_reasons(reasons);
  return record;
}

// The row's pair as a backend job from its opened files; false, with the problem, when the plan's
// counts no longer fit them (a plan read from a file is checked like any input).
bool row_job(const ComparePlan& plan, const PlanRow& row, const DumpFile& x_file,
             const DumpFile& y_file, TensorPairJob& job, std::string& problem) {
  if (!fits_payload(plan, row.x) || !fits_payload(plan, row.y) || row.x.count != row.y.count) {
    problem = plan.files[static_cast<std::size_t>(row.x.file)] +
              ": the plan's element counts do not fit the tensors";
    return false;
  }
  job.x = element_source(plan, x_file, row.x);
  job.y = element_source(plan, y_file, row.y);
  job.both_bool = row.both_bool;
  job.need_kld = row.need_kld;
  return true;
}

}  // namespace

OpenedPair open_row_pair(const ComparePlan& plan, const PlanRow& row) {
  OpenedPair pair;
  auto open = [&](const TensorSource& s, std::shared_ptr<const DumpFile>& file) {
    if (!pair.problem.empty()) return static_cast<const TensorInfo*>(nullptr);
    try {
      file = std::make_shared<const DumpFile>(open_plan_file(plan, s.file));
    } catch (const Error& e) {
      pair.problem = e.what();
      return static_cast<const TensorInfo*>(nullptr);
    }
    return planned_tensor(plan, s, *file, pair.problem);
  };
  pair.x_tensor = open(row.x, pair.x_file);
  const TensorInfo* y = open(row.y, pair.y_file);
  if (pair.x_tensor && y) row_job(plan, row, *pair.x_file, *pair.y_file, pair.job, pair.problem);
  return pair;
}

CompareRecord compared_record(const std::vector<Metric>& metrics, const RowIdentity& id,
                              const PairStats& stats, const PairContext& context,
                              std::vector<std::string> reasons) {
  CompareRecord record;
  record.id = id;
  record.metrics.reserve(metrics.size());
  for (Metric m : metrics) {
    record.metrics.push_back(derive_metric(m, stats, context));
    if (!record.metrics.back().reason.empty()) reasons.push_back(record.metrics.back().reason);
  }
  record.fail_reason = join_reasons(reasons);
  return record;
}

namespace {

// One batch on its way through the executor: its rows, and for each row its pair as a backend
// job or the problem that keeps it from being compared.
struct Batch {
  std::vector<const PlanRow*> rows;
  std::vector<TensorPairJob> jobs;
  std::vector<int> job_of;             // per row: its job, or -1
  std::vector<InputProblem> problems;  // per row: why it cannot be compared (text empty: none)
  // Where each OverFlow cell is read from (it scans the payload: done with the records).
  std::vector<std::pair<const DumpFile*, const TensorInfo*>> overflow_of;
  std::vector<std::pair<const DumpFile*, const DumpFile*>> files_of;
  uint64_t bytes = 0;  // payload of the compared pairs
};

// Consecutive rows from `next` until the next compared pair would pass the byte budget.
std::vector<const PlanRow*> next_rows(const ComparePlan& plan, std::size_t& next, std::size_t end,
                                      uint64_t batch_bytes) {
  std::vector<const PlanRow*> rows;
  uint64_t bytes = 0;
  for (; next < end; ++next) {
    const PlanRow& r = plan.rows[next];
    if (!rows.empty() && r.compared && bytes + r.bytes() > batch_bytes) break;
    rows.push_back(&r);
    bytes += r.bytes();
  }
  return rows;
}

// Each opened row's pair as a job, or its problem.
Batch batch_jobs(const ComparePlan& plan, std::vector<const PlanRow*> rows, BatchFiles& files) {
  Batch b;
  b.rows = std::move(rows);
  const std::size_t n = b.rows.size();
  b.job_of.assign(n, -1);
  b.problems.resize(n);
  b.overflow_of.resize(n);
  b.files_of.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const PlanRow& r = *b.rows[i];
    const DumpFile* x_file = nullptr;
    const DumpFile* y_file = nullptr;
    const TensorInfo* x = r.x.file >= 0 ? files.find(r.x, &x_file, b.problems[i].text) : nullptr;
    if (r.overflow_from_x && x) b.overflow_of[i] = {x_file, x};
    if (!r.compared) continue;
    const TensorInfo* y = x ? files.find(r.y, &y_file, b.problems[i].text) : nullptr;
    if (!x || !y) continue;
    TensorPairJob job;
    if (!row_job(plan, r, *x_file, *y_file, job, b.problems[i].text)) {
      b.problems[i].kind = ProblemKind::kBadTensor;
      continue;
    }
    b.job_of[i] = static_cast<int>(b.jobs.size());
    b.files_of[i] = {x_file, y_file};
    b.jobs.push_back(job);
    b.bytes += r.bytes();
  }
  return b;
}

// A dump that shrank while it was read gave zeros for its lost bytes: its rows fail.
void fail_damaged(Batch& b) {
  for (std::size_t i = 0; i < b.rows.size(); ++i) {
    if (b.job_of[i] < 0) continue;
    const auto [x_file, y_file] = b.files_of[i];
    std::string damage = damaged_problem(*x_file);
    if (damage.empty()) damage = damaged_problem(*y_file);
    if (damage.empty()) continue;
    b.problems[i] = {ProblemKind::kBadDump, std::move(damage)};
    b.job_of[i] = -1;
    b.overflow_of[i] = {};
  }
}

// Each row's record: derived from its accumulators (and judged), or failed with its reasons.
// Independent per row: done on all cores, in row order.
std::vector<CompareRecord> batch_records(const ComparePlan& plan, const Batch& b,
                                         const std::vector<PairStats>& stats,
                                         const std::vector<PairQuantiles>& quantiles,
                                         const ExecuteOptions& options, int threads) {
  std::vector<CompareRecord> records(b.rows.size());
  const auto count = static_cast<int64_t>(b.rows.size());
#pragma omp parallel for schedule(dynamic, 64) num_threads(threads)
  for (int64_t k = 0; k < count; ++k) {
    const auto i = static_cast<std::size_t>(k);
    const PlanRow& r = *b.rows[i];
    CompareRecord& record = records[i];
    if (b.job_of[i] >= 0) {
      const auto job = static_cast<std::size_t>(b.job_of[i]);
      record = compared_record(plan.metrics, r.identity, stats[job], r.context, r.reasons);
      if (!quantiles.empty()) record.quantiles = quantiles[job];
    } else {
      record = failed_record(r.identity, b.problems[i].text.empty() || !r.compared
                                             ? r.reasons
                                             : std::vector<std::string>{b.problems[i].text});
    }
    record.row = r.id;
    if (const auto [file, tensor] = b.overflow_of[i]; tensor) {
      record.id.overflow = fp16_overflow_cell(*file, *tensor);
    }
    if (options.rules) options.rules->judge(plan.metrics, record);
  }
  if (options.extra && !plan.columns.custom.empty()) {
    for (std::size_t i = 0; i < b.rows.size(); ++i) {
      if (b.job_of[i] < 0) continue;
      const std::vector<ExtraMetrics::Cell> cells =
          options.extra->compute(b.jobs[static_cast<std::size_t>(b.job_of[i])], b.rows[i]->context);
      add_extra_cells(plan, *b.rows[i], cells, records[i]);
    }
  }
  return records;
}

}  // namespace

// Per batch, named stages: open its dumps, make its jobs, reduce, count quantiles, fail the rows
// of damaged dumps, note the new problems, derive and judge the records, write them.
ExecuteSummary execute_plan(const ComparePlan& plan, std::size_t begin, std::size_t end,
                            Backend& backend, RecordSink& sink, const ExecuteOptions& options,
                            OpenedDumps* opened) {
  const int threads = options.threads > 0 ? options.threads : omp_get_num_procs();
  ExecuteSummary summary;
  BatchFiles files(plan, threads, opened);
  std::unordered_set<std::string> problems_seen;
  end = std::min(end, plan.rows.size());
  uint64_t payload = 0;
  for (std::size_t i = begin; i < end; ++i) payload += plan.rows[i].bytes();
  backend.expect_payload(payload, plan.columns.quantiles);
  std::size_t next = begin;
  while (next < end) {
    std::vector<const PlanRow*> rows = next_rows(plan, next, end, options.batch_bytes);
    {
      const TraceScope trace("open dumps");
      files.open(rows);
    }
    Batch batch = batch_jobs(plan, std::move(rows), files);
    summary.bytes += batch.bytes;
    std::vector<PairStats> stats;
    std::vector<PairQuantiles> quantiles;
    if (!batch.jobs.empty() && plan.columns.quantiles) {
      std::vector<char> counted;
      {
        const TraceScope trace("reduce, counting quantiles", batch.bytes);
        backend.reduce_counting_quantiles(batch.jobs, stats, quantiles, counted);
      }
      const TraceScope trace("quantiles");
      compute_error_quantiles(batch.jobs, quantiles, threads, counted);
    } else if (!batch.jobs.empty()) {
      const TraceScope trace("reduce", batch.bytes);
      backend.reduce(batch.jobs, stats);
    }
    fail_damaged(batch);
    for (const InputProblem& p : batch.problems) {
      if (p.text.empty() || !problems_seen.insert(p.text).second) continue;
      summary.input_problems.push_back(p);
    }
    const TraceScope trace("records: derive, judge, write");
    for (const CompareRecord& record :
         batch_records(plan, batch, stats, quantiles, options, threads)) {
      if (!record.compared()) ++summary.failed_rows;
      ++summary.rows;
      sink.write(record);
    }
    files.clear();
    if (options.progress) {
      options.progress(static_cast<int64_t>(next - begin), static_cast<int64_t>(end - begin),
                       summary.bytes);
    }
  }
  return summary;
}

}  // namespace dumpcmp
