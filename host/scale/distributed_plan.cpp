#include "scale/distributed_plan.hpp"

#include <sstream>

#include "compare/plan_executor.hpp"
#include "compare/plan_json.hpp"
#include "core/error.hpp"
#include "scale/shares.hpp"
#include "scale/wire.hpp"

namespace dumpcmp {
namespace {

// The kinds of message a rank sends rank 0 about its share.
enum class Message : uint8_t { kRecords = 1, kEnd = 2, kFailed = 3 };

// Records of this rank's share, sent to rank 0 about a mebibyte at a time.
class RemoteSink final : public RecordSink {
 public:
  explicit RemoteSink(World& world) : world_(world) {}
  void begin(const ResultTable&) override {}
  void write(const CompareRecord& record) override {
    if (count_ == 0) out_.u8(static_cast<uint8_t>(Message::kRecords));
    write_record(out_, record);
    if (++count_ >= kMaxRecords || out_.bytes().size() >= kFlushBytes) flush();
  }
  void commit() override { flush(); }

 private:
  static constexpr std::size_t kFlushBytes = 1 << 20;
  static constexpr int kMaxRecords = 4096;
  void flush() {
    if (count_ == 0) return;
    world_.send(0, out_.take());
    count_ = 0;
  }
  World& world_;
  ByteWriter out_;
  int count_ = 0;
};

ExecuteOptions execute_options(const CompareOptions& options) {
  ExecuteOptions execute;
  execute.batch_bytes = options.batch_bytes;
  execute.threads = options.threads;
  execute.rules = options.rules;
  execute.progress = options.progress;
  return execute;
}

std::vector<Share> row_shares(const ComparePlan& plan, int ranks) {
  std::vector<uint64_t> weights;
  weights.reserve(plan.rows.size());
  for (const PlanRow& r : plan.rows) weights.push_back(row_weight(r));
  return balanced_shares(weights, ranks);
}

// A worker: its share of the plan rank 0 broadcast, records to rank 0.
CompareSummary run_share(World& world, const CompareOptions& options, Backend& backend) {
  std::string text;
  world.broadcast(text);
  ByteWriter end;
  CompareSummary summary;
  try {
    std::istringstream in(text);
    const ComparePlan plan = read_plan_jsonl(in, "the plan from rank 0");
    text.clear();
    const Share share = row_shares(plan, world.size())[static_cast<std::size_t>(world.rank())];
    RemoteSink sink(world);
    ExecuteOptions execute = execute_options(options);
    execute.progress = nullptr;
    const ExecuteSummary done =
        execute_plan(plan, share.begin, share.end, backend, sink, execute, nullptr);
    sink.commit();
    summary.rows = done.rows;
    summary.failed_rows = done.failed_rows;
    summary.bytes = done.bytes;
    end.u8(static_cast<uint8_t>(Message::kEnd));
    end.i64(done.rows);
    end.i64(done.failed_rows);
    end.i64(static_cast<int64_t>(done.bytes));
  } catch (const std::exception& e) {
    const auto* error = dynamic_cast<const Error*>(&e);
    end.u8(static_cast<uint8_t>(Message::kFailed));
    end.i64(static_cast<int64_t>(error ? error->code() : ExitCode::kInternal));
    end.text(e.what());
  }
  world.send(0, end.take());
  world.finish_sends();
  return summary;
}

}  // namespace

CompareSummary run_plan_on_world(World& world, const ComparePlan* plan,
                                 const CompareOptions& options, Backend& backend, RecordSink* sink,
                                 OpenedDumps* opened) {
  if (world.rank() != 0) return run_share(world, options, backend);
  if (world.size() > 1) {
    std::ostringstream text;
    write_plan_jsonl(*plan, text);
    std::string bytes = text.str();
    world.broadcast(bytes);
  }
  const std::vector<Share> shares = row_shares(*plan, world.size());
  const ResultTable table = plan->table();
  sink->begin(table);
  ExecuteOptions execute = execute_options(options);
  const auto total = static_cast<int64_t>(plan->rows.size());
  const auto own_rows = static_cast<int64_t>(shares[0].end);
  if (options.progress) {
    execute.progress = [&](int64_t done, int64_t, uint64_t bytes) {
      options.progress(done, total, bytes);
    };
  }
  const ExecuteSummary own =
      execute_plan(*plan, shares[0].begin, shares[0].end, backend, *sink, execute, opened);
  CompareSummary summary;
  summary.ops = plan->ops;
  summary.rows = own.rows;
  summary.failed_rows = own.failed_rows;
  summary.bytes = own.bytes;
  summary.dump_match = plan->dump_match;
  summary.warnings = plan->warnings;
  summary.input_op_names = plan->input_op_names;
  int64_t written = own_rows;
  // The other shares follow in rank order: rank r's records are rows [shares[r].begin, end).
  for (int r = 1; r < world.size(); ++r) {
    for (;;) {
      const std::string bytes = world.receive(r);
      ByteReader in(bytes);
      const auto kind = static_cast<Message>(in.u8());
      if (kind == Message::kRecords) {
        while (!in.done()) {
          sink->write(read_record(in));
          ++written;
        }
        if (options.progress) options.progress(written, total, summary.bytes);
        continue;
      }
      if (kind == Message::kFailed) {
        const auto code = static_cast<ExitCode>(in.i64());
        throw Error(code, "rank " + std::to_string(r) + ": " + in.text());
      }
      summary.rows += in.i64();
      summary.failed_rows += in.i64();
      summary.bytes += static_cast<uint64_t>(in.i64());
      if (options.progress) options.progress(written, total, summary.bytes);
      break;
    }
  }
  return summary;
}

}  // namespace dumpcmp
