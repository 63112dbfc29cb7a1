#include "scale/distributed_plan.hpp"

#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "compare/plan_executor.hpp"
#include "compare/plan_json.hpp"
#include "core/error.hpp"
#include "math/chunk_plan.hpp"
#include "quantiles/error_quantiles.hpp"
#include "scale/record_batches.hpp"
#include "scale/shares.hpp"
#include "scale/split_rows.hpp"
#include "scale/wire.hpp"
#include "tensor/tensor_elements.hpp"

namespace dumpcmp {
namespace {

// The kinds of message a rank sends rank 0 about its share.
enum class Message : uint8_t { kRecords = 1, kEnd = 2, kFailed = 3 };

// Records of this rank's share, sent to rank 0 about a mebibyte at a time.
class RemoteSink final : public RecordSink {
 public:
  explicit RemoteSink(World& world)
      : batches_(world, std::string(1, static_cast<char>(Message::kRecords))) {}
  void begin(const ResultTable&) override {}
  void write(const CompareRecord& record) override { batches_.add(record); }
  void commit() override { batches_.flush(); }

 private:
  RecordBatches batches_;
};

// Contiguous shares of the rows; the split rows weigh nothing here (every rank has a block).
std::vector<Share> row_shares(const ComparePlan& plan, const std::vector<SplitRow>& split,
                              int ranks) {
  std::vector<uint64_t> weights;
  weights.reserve(plan.rows.size());
  for (const PlanRow& r : plan.rows) weights.push_back(row_weight(r));
  for (const SplitRow& s : split) weights[s.row] = 0;
  return balanced_shares(weights, ranks);
}

// The split rows, reduced by every rank together in two rounds (first pass, then KLD with the
// whole tensors' scales); on rank 0 each row's merged accumulators, or why it failed.
class SplitReduction {
 public:
  SplitReduction(World& world, const ComparePlan& plan, std::vector<SplitRow> split)
      : world_(world),
        plan_(plan),
        split_(std::move(split)),
        pairs_(split_.size()),
        whole_(split_.size()),
        problem_(split_.size()) {
    for (const SplitRow& s : split_) rows_.insert(s.row);
  }

  void run(Backend& backend) {
    if (split_.empty()) return;
    const int rank = world_.rank();
    for (std::size_t s = 0; s < split_.size(); ++s) {
      if (split_[s].has_block(rank)) pairs_[s] = open_row_pair(plan_, plan_.rows[split_[s].row]);
    }
    // Round 1: each rank's blocks, first pass only; rank 0 merges and tells every rank.
    merge_blocks(reduce_blocks(backend, false), false);
    std::string first = encode_whole();
    world_.broadcast(first);
    decode_whole(first);
    // Round 2: the KLD pass of the blocks of tensors that need it.
    bool any = false;
    for (std::size_t s = 0; s < split_.size(); ++s) any = any || needs_kld(s);
    if (any) merge_blocks(reduce_blocks(backend, true), true);
  }

  bool is_split(std::size_t row) const { return rows_.count(row) != 0; }

  // Rank 0: the records of the split rows, by row index.
  std::map<std::size_t, CompareRecord> records(const CompareOptions& options) const {
    std::map<std::size_t, CompareRecord> out;
    for (std::size_t s = 0; s < split_.size(); ++s) {
      const PlanRow& r = plan_.rows[split_[s].row];
      CompareRecord record;
      if (problem_[s].empty()) {
        record = compared_record(plan_.metrics, r.identity, whole_[s], r.context, r.reasons);
        if (plan_.columns.quantiles) record.quantiles = whole_quantiles(s);
      } else {
        record.id = r.identity;
        record.fail_reason = join_reasons({problem_[s]});
      }
      record.row = r.id;
      if (r.overflow_from_x && pairs_[s].x_tensor) {
        record.id.overflow = fp16_overflow_cell(*pairs_[s].x_file, *pairs_[s].x_tensor);
      }
      if (options.rules) options.rules->judge(plan_.metrics, record);
      out.emplace(split_[s].row, std::move(record));
    }
    return out;
  }

  // Split row s's error distributions, computed here from the whole tensor (order statistics do
  // not merge from the ranks' blocks as the accumulators do), read through the pair this rank
  // opened for its block, or opened now if it had none.
  std::optional<PairQuantiles> whole_quantiles(std::size_t s) const {
    const OpenedPair pair =
        pairs_[s].x_file ? pairs_[s] : open_row_pair(plan_, plan_.rows[split_[s].row]);
    if (!pair.problem.empty()) return std::nullopt;
    std::vector<PairQuantiles> q;
    compute_error_quantiles({pair.job}, q, 0);
    return q.front();
  }

  // What the split rows add to a summary.
  void count(ExecuteSummary& summary) const {
    for (std::size_t s = 0; s < split_.size(); ++s) {
      ++summary.rows;
      if (!problem_[s].empty()) {
        ++summary.failed_rows;
        summary.input_problems.push_back(InputProblem{ProblemKind::kBadDump, problem_[s]});
      } else {
        summary.bytes += plan_.rows[split_[s].row].bytes();
      }
    }
  }

 private:
  bool needs_kld(std::size_t s) const {
    if (!problem_[s].empty()) return false;
    TensorPairJob job;
    job.both_bool = plan_.rows[split_[s].row].both_bool;
    job.need_kld = plan_.rows[split_[s].row].need_kld;
    return wants_kld_pass(job, whole_[s]);
  }

  // This rank's blocks as bytes: per split row with a block here, its partial or its problem.
  std::string reduce_blocks(Backend& backend, bool kld) {
    const int rank = world_.rank();
    std::vector<TensorPairJob> jobs;
    std::vector<std::size_t> job_row;
    for (std::size_t s = 0; s < split_.size(); ++s) {
      if (!split_[s].has_block(rank) || !pairs_[s].problem.empty()) continue;
      if (kld && !needs_kld(s)) continue;
      TensorPairJob job =
          slice_job(pairs_[s].job, split_[s].block_first(rank), split_[s].block_count(rank));
      job.need_kld = kld;
      job.whole = kld ? &whole_[s] : nullptr;
      jobs.push_back(job);
      job_row.push_back(s);
    }
    std::vector<PairStats> stats;
    std::string failure;
    try {
      if (!jobs.empty()) backend.reduce(jobs, stats);
    } catch (const std::exception& e) {
      failure = e.what();
    }
    ByteWriter out;
    for (std::size_t k = 0, s = 0; s < split_.size(); ++s) {
      const bool mine = k < job_row.size() && job_row[k] == s;
      std::string problem = mine ? failure : pairs_[s].problem;
      if (mine && problem.empty()) problem = damaged_problem(*pairs_[s].x_file);
      if (mine && problem.empty()) problem = damaged_problem(*pairs_[s].y_file);
      if (!mine && (problem.empty() || !split_[s].has_block(rank))) continue;
      out.i64(static_cast<int64_t>(s));
      out.text(problem);
      if (problem.empty()) write_stats(out, stats[k]);
      k += mine;
    }
    return out.take();
  }

  // Rank 0: every rank's blocks, merged pairwise in block (= rank) order.
  void merge_blocks(const std::string& mine, bool kld) {
    const std::vector<std::string> all = world_.gather(mine);
    if (world_.rank() != 0) return;
    std::vector<std::vector<PairStats>> blocks(split_.size());
    for (const std::string& bytes : all) {
      ByteReader in(bytes);
      while (!in.done()) {
        const auto s = static_cast<std::size_t>(in.i64());
        const std::string problem = in.text();
        if (!problem.empty()) {
          if (problem_[s].empty()) problem_[s] = problem;
          continue;
        }
        blocks[s].push_back(read_stats(in));
      }
    }
    for (std::size_t s = 0; s < split_.size(); ++s) {
      if (!problem_[s].empty() || (kld && !needs_kld(s))) continue;
      std::vector<PairStats>& b = blocks[s];
      if (b.size() != static_cast<std::size_t>(split_[s].blocks)) {
        problem_[s] = "a rank did not reduce its part of this tensor";
        continue;
      }
      if (kld) {
        std::vector<KldAccumulator> parts;
        for (const PairStats& p : b) parts.push_back(p.kld.value_or(KldAccumulator{}));
        merge_pairwise(parts.data(), static_cast<int64_t>(parts.size()));
        whole_[s].kld = parts.front();
        continue;
      }
      std::vector<PairAccumulator> pair;
      std::vector<BoolAccumulator> boolean;
      for (const PairStats& p : b) {
        pair.push_back(p.pair);
        boolean.push_back(p.boolean);
      }
      merge_pairwise(pair.data(), static_cast<int64_t>(pair.size()));
      merge_pairwise(boolean.data(), static_cast<int64_t>(boolean.size()));
      whole_[s].both_bool = plan_.rows[split_[s].row].both_bool;
      whole_[s].pair = pair.front();
      whole_[s].boolean = boolean.front();
    }
  }

  std::string encode_whole() const {
    ByteWriter out;
    if (world_.rank() != 0) return out.take();
    for (std::size_t s = 0; s < split_.size(); ++s) {
      out.text(problem_[s]);
      write_stats(out, whole_[s]);
    }
    return out.take();
  }

  void decode_whole(const std::string& bytes) {
    ByteReader in(bytes);
    for (std::size_t s = 0; s < split_.size(); ++s) {
      problem_[s] = in.text();
      whole_[s] = read_stats(in);
    }
  }

  World& world_;
  const ComparePlan& plan_;
  std::vector<SplitRow> split_;
  std::vector<OpenedPair> pairs_;
  std::vector<PairStats> whole_;
  std::vector<std::string> problem_;
  std::set<std::size_t> rows_;
};

// Runs rows [begin, end) except the split ones.
ExecuteSummary execute_around(const ComparePlan& plan, const Share& share,
                              const SplitReduction& split, Backend& backend, RecordSink& sink,
                              const ExecuteOptions& execute, OpenedDumps* opened) {
  ExecuteSummary total;
  std::size_t at = share.begin;
  while (at < share.end) {
    std::size_t end = at;
    while (end < share.end && !split.is_split(end)) ++end;
    if (end > at) {
      total.add(execute_plan(plan, at, end, backend, sink, execute, opened));
    }
    at = end + 1;  // past the split row
  }
  return total;
}

// Rank 0's sink: each split row's record goes in before the first record after it.
class WithSplitRows final : public RecordSink {
 public:
  WithSplitRows(RecordSink& sink, std::map<std::size_t, CompareRecord> split)
      : sink_(sink), split_(std::move(split)) {}
  void begin(const ResultTable&) override {}
  void write(const CompareRecord& record) override {
    flush_before(static_cast<std::size_t>(record.row));
    sink_.write(record);
  }
  void commit() override { flush_before(SIZE_MAX); }

 private:
  void flush_before(std::size_t row) {
    while (!split_.empty() && split_.begin()->first < row) {
      sink_.write(split_.begin()->second);
      split_.erase(split_.begin());
    }
  }
  RecordSink& sink_;
  std::map<std::size_t, CompareRecord> split_;
};

// A worker: its share of the plan rank 0 broadcast, records to rank 0.
CompareSummary run_share(World& world, const CompareOptions& options, Backend& backend) {
  std::string text;
  world.broadcast(text);
  ByteWriter end;
  ExecuteSummary done;
  std::istringstream in(text);
  const ComparePlan plan = read_plan_jsonl(in, "the plan from rank 0");
  text.clear();
  const std::vector<SplitRow> rows = plan_split_rows(plan, world.size());
  SplitReduction split(world, plan, rows);
  split.run(backend);
  try {
    const Share share =
        row_shares(plan, rows, world.size())[static_cast<std::size_t>(world.rank())];
    RemoteSink sink(world);
    ExecuteOptions execute = execute_options(options);
    execute.progress = nullptr;
    done = execute_around(plan, share, split, backend, sink, execute, nullptr);
    sink.commit();
    end.u8(static_cast<uint8_t>(Message::kEnd));
    write_execute_summary(end, done);
  } catch (const std::exception& e) {
    end.u8(static_cast<uint8_t>(Message::kFailed));
    write_error(end, e);
  }
  world.send(0, end.take());
  world.finish_sends();
  return compare_summary(plan, done);
}

}  // namespace

CompareSummary run_plan_on_world(World& world, const ComparePlan* plan,
                                 const CompareOptions& options, Backend& backend, RecordSink* sink,
                                 OpenedDumps* opened) {
  if (world.rank() != 0) return run_share(world, options, backend);
  // A world of one has nothing to split or send: the plan runs as it is.
  if (world.size() == 1) return run_plan(*plan, options, backend, *sink, opened);
  {
    std::ostringstream text;
    write_plan_jsonl(*plan, text);
    std::string bytes = text.str();
    world.broadcast(bytes);
  }
  const std::vector<SplitRow> rows = plan_split_rows(*plan, world.size());
  SplitReduction split(world, *plan, rows);
  split.run(backend);
  const std::vector<Share> shares = row_shares(*plan, rows, world.size());
  const ResultTable table = plan->table();
  sink->begin(table);
  WithSplitRows writer(*sink, split.records(options));
  ExecuteOptions execute = execute_options(options);
  const auto total = static_cast<int64_t>(plan->rows.size());
  const auto own_rows = static_cast<int64_t>(shares[0].end);
  if (options.progress) {
    execute.progress = [&](int64_t done, int64_t, uint64_t bytes) {
      options.progress(done, total, bytes);
    };
  }
  ExecuteSummary own = execute_around(*plan, shares[0], split, backend, writer, execute, opened);
  split.count(own);
  ExecuteSummary all = own;
  int64_t written = own_rows;
  // The other shares follow in rank order: rank r's records are rows [shares[r].begin, end).
  for (int r = 1; r < world.size(); ++r) {
    for (;;) {
      const std::string bytes = world.receive(r);
      ByteReader in(bytes);
      const auto kind = static_cast<Message>(in.u8());
      if (kind == Message::kRecords) {
        while (!in.done()) {
          writer.write(read_record(in));
          ++written;
        }
        if (options.progress) options.progress(written, total, all.bytes);
        continue;
      }
      if (kind == Message::kFailed) throw read_error(in, r);
      all.add(read_execute_summary(in));
      if (options.progress) options.progress(written, total, all.bytes);
      break;
    }
  }
  writer.commit();  // the split rows after the last record
  CompareSummary summary = compare_summary(*plan, all);
  summary.split_rows = static_cast<int64_t>(rows.size());
  return summary;
}

}  // namespace dumpcmp
