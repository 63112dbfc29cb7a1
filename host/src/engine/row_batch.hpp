#pragma once
// Rows of consecutive ops gathered until one backend call: the tensor pairs are reduced together,
// then every row is derived and written in table order. Shared by the whole-network compare paths.
#include <omp.h>

#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include "dumpcmp/engine/backend.hpp"
#include "dumpcmp/engine/compare_engine.hpp"
#include "dumpcmp/io/dump_file.hpp"
#include "dumpcmp/report/result_table.hpp"
#include "dumpcmp/report/verdict.hpp"

namespace dumpcmp {

// A row waiting for its tensor pair's accumulators (job >= 0), or already final.
struct PendingRow {
  RowIdentity id;
  int job = -1;
  PairContext ctx;
  std::vector<std::string> reasons;
  std::optional<CompareRecord> final_row;
};

// The record of a compared pair: every metric derived from the accumulators, the reasons (preset
// ones first) joined.
inline CompareRecord compared_record(const std::vector<Metric>& metrics, const RowIdentity& id,
                                     const PairStats& stats, const PairContext& ctx,
                                     std::vector<std::string> reasons) {
  CompareRecord record;
  record.id = id;
  record.metrics.reserve(metrics.size());
  for (Metric m : metrics) {
    record.metrics.push_back(derive_metric(m, stats, ctx));
    if (!record.metrics.back().reason.empty()) reasons.push_back(record.metrics.back().reason);
  }
  record.fail_reason = join_reasons(reasons);
  return record;
}

// A row whose metrics could not be computed.
inline CompareRecord failed_record(const RowIdentity& id, const std::vector<std::string>& reasons) {
  CompareRecord record;
  record.id = id;
  record.fail_reason = join_reasons(reasons);
  return record;
}

inline int host_threads(const CompareOptions& options) {
  return options.threads > 0 ? options.threads : omp_get_num_procs();
}

// Ops whose rows wait for one backend call; they keep their dump files (and mappings) alive.
class RowBatch {
 public:
  RowBatch(const ResultTable& table, int threads, const VerdictRules* rules)
      : table_(table), threads_(threads), rules_(rules) {}

  void keep_alive(std::shared_ptr<const DumpFile> file) { files_.push_back(std::move(file)); }
  const LayoutMap* keep_layout(const LayoutMap& map) {
    layouts_.push_back(map);
    return &layouts_.back();
  }
  void add_final(CompareRecord row) {
    rows_.push_back({RowIdentity{}, -1, {}, {}, std::move(row)});
  }
  void add_job(PendingRow row, const TensorPairJob& job, uint64_t bytes) {
    row.job = static_cast<int>(jobs_.size());
    jobs_.push_back(job);
    rows_.push_back(std::move(row));
    bytes_ += bytes;
  }
  uint64_t bytes() const { return bytes_; }
  bool empty() const { return rows_.empty(); }

  void flush(Backend& backend, RecordSink& writer, CompareSummary& summary) {
    std::vector<PairStats> stats;
    if (!jobs_.empty()) backend.reduce(jobs_, stats);
    // Deriving and judging is independent per row: done on all cores, written in order.
    const auto count = static_cast<int64_t>(rows_.size());
    std::vector<CompareRecord> rows(rows_.size());
#pragma omp parallel for schedule(dynamic, 64) num_threads(threads_)
    for (int64_t i = 0; i < count; ++i) {
      PendingRow& r = rows_[static_cast<std::size_t>(i)];
      CompareRecord& record = rows[static_cast<std::size_t>(i)];
      record = r.final_row
                   ? std::move(*r.final_row)
                   : compared_record(table_.metrics(), r.id, stats[static_cast<std::size_t>(r.job)],
                                     r.ctx, r.reasons);
      if (rules_) rules_->judge(table_.metrics(), record);
    }
    for (std::size_t i = 0; i < rows.size(); ++i) {
      if (rows_[i].job < 0) ++summary.failed_rows;
      ++summary.rows;
      writer.write(rows[i]);
    }
    summary.bytes += bytes_;
    rows_.clear();
    jobs_.clear();
    files_.clear();
    layouts_.clear();
    bytes_ = 0;
  }

 private:
  const ResultTable& table_;
  int threads_;
  const VerdictRules* rules_;
  std::vector<TensorPairJob> jobs_;
  std::vector<PendingRow> rows_;
  std::vector<std::shared_ptr<const DumpFile>> files_;
  std::deque<LayoutMap> layouts_;  // jobs point at these: a deque keeps them in place
  uint64_t bytes_ = 0;
};

}  // namespace dumpcmp
