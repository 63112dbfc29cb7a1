#include "follow.hpp"

#include <signal.h>

#include <algorithm>
#include <iostream>
#include <memory>
#include <sstream>

#include "interrupt.hpp"
#include "report/result_analysis.hpp"
#include "report/result_table.hpp"
#include "run/follow_run.hpp"

namespace dumpcmp::cli {
namespace {

volatile sig_atomic_t g_stop = 0;
void on_stop(int) { g_stop = 1; }

// While watching, SIGINT and SIGTERM end the watch (the results are still written); afterwards
// they interrupt the run as usual.
class StopOnSignal {
 public:
  StopOnSignal() {
    g_stop = 0;
    struct sigaction action {};
    action.sa_handler = on_stop;
    sigemptyset(&action.sa_mask);
    for (const int sig : {SIGINT, SIGTERM}) sigaction(sig, &action, nullptr);
  }
  ~StopOnSignal() { remove_partial_files_on_interrupt(); }
};

// Prints each live row as it comes, and the first divergent op (docs/verdicts.md, the analysis's
// rule) once one has arrived. Each batch numbers its ops from 0: the analysis sees them after the
// ops of earlier batches, in arrival order.
class LiveRows final : public RecordSink {
 public:
  explicit LiveRows(bool quiet) : quiet_(quiet) {}
  void begin(const ResultTable& table) override {
    table_ = std::make_unique<ResultTable>(table);
    analysis_.begin(table);
  }
  void write(const CompareRecord& record) override {
    CompareRecord arrived = record;
    arrived.id.index += first_index_;
    next_index_ = std::max(next_index_, arrived.id.index + 1);
    analysis_.write(arrived);
    if (quiet_) return;
    std::cout << "dumpcmp: live " << record.id.tensor_index;
    const std::vector<Metric>& metrics = table_->metrics();
    if (!metrics.empty() && record.compared()) {
      std::cout << ' ' << metric_name(metrics[0]) << ' '
                << format_metric_cell(metrics[0], record.metric(0));
    }
    std::cout << ": " << verdict_name(record.verdict);
    if (!record.verdict_why.empty()) std::cout << " (" << record.verdict_why << ')';
    if (!record.fail_reason.empty()) std::cout << " - " << record.fail_reason;
    std::cout << '\n' << std::flush;
  }
  void commit() override {
    first_index_ = next_index_;
    if (announced_) return;
    const DivergentOp first = analysis_.first_divergent();
    if (!first.found || first.inherited) return;
    announced_ = true;
    if (!quiet_) {
      std::cout << "dumpcmp: first divergent op so far: " << first.op << " (" << first.why << ")\n"
                << std::flush;
    }
  }

 private:
  bool quiet_;
  bool announced_ = false;
  std::unique_ptr<ResultTable> table_;
  ResultAnalysis analysis_;
  int64_t first_index_ = 0, next_index_ = 0;  // where this batch's ops go, and the next batch's
};

}  // namespace

std::set<std::string> follow_dumps(const CompareOptions& options, const FollowOptions& follow,
                                   Backend& backend) {
  require_followable(options.my_path);
  const StopOnSignal signals;
  if (!follow.quiet) {
    std::ostringstream idle;
    idle << follow.idle_seconds;
    std::cout << "dumpcmp: following " << options.my_path << " (Ctrl-C"
              << (follow.idle_seconds > 0 ? ", " + idle.str() + " s idle" : "")
              << (follow.until_op.empty() ? "" : " or op " + follow.until_op) << " ends it)\n"
              << std::flush;
  }
  LiveRows rows(follow.quiet);
  const FollowResult result = dumpcmp::follow_dumps(options, {follow.idle_seconds, follow.until_op},
                                                    backend, rows, [] { return g_stop != 0; });
  if (!follow.quiet) {
    std::cout << "dumpcmp: stopped following "
              << (result.end == FollowEnd::kStopped     ? "(interrupted)"
                  : result.end == FollowEnd::kOpReached ? "(op reached)"
                                                        : "(idle)")
              << ": " << result.complete.size() << " complete dumps\n";
  }
  return result.complete;
}

}  // namespace dumpcmp::cli
