#include "follow.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <vector>

#include "core/error.hpp"
#include "interrupt.hpp"
#include "io/dump_file.hpp"
#include "io/dump_file_name.hpp"
#include "report/result_analysis.hpp"
#include "report/result_table.hpp"

namespace dumpcmp::cli {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

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

// A file being written: its size when last seen, and since when.
struct Growing {
  uintmax_t size = 0;
  Clock::time_point since;
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
  const std::string dir = options.my_path;
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec)) {
    throw Error(ExitCode::kUsage, "--follow watches a directory: " + dir + " is not one");
  }
  const StopOnSignal signals;
  const int watch = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  bool watching = false;  // the directory may not exist yet: the run has not started
  if (!follow.quiet) {
    std::ostringstream idle;
    idle << follow.idle_seconds;
    std::cout << "dumpcmp: following " << dir << " (Ctrl-C"
              << (follow.idle_seconds > 0 ? ", " + idle.str() + " s idle" : "")
              << (follow.until_op.empty() ? "" : " or op " + follow.until_op) << " ends it)\n"
              << std::flush;
  }
  std::set<std::string> complete, failed;
  std::map<std::string, Growing> growing;
  LiveRows rows(follow.quiet);
  bool until_seen = false;
  Clock::time_point last_new = Clock::now();
  while (!g_stop && !until_seen) {
    // A complete dump: its size unchanged for 0.3 s and it parses whole.
    std::set<std::string> fresh;
    const Clock::time_point now = Clock::now();
    if (!watching && watch >= 0 && fs::is_directory(dir, ec)) {
      watching = inotify_add_watch(watch, dir.c_str(),
                                   IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_MODIFY) >= 0;
    }
    std::error_code scan;  // a listing that fails (the directory not there yet) is tried again
    for (fs::directory_iterator it(dir, scan), end; !scan && it != end; it.increment(scan)) {
      const std::string path = it->path().string();
      std::error_code gone;  // the entry may vanish between the listing and the stat
      if (complete.count(path) || failed.count(path) || !it->is_regular_file(gone)) continue;
      if (!parse_dump_file_name(it->path().filename().string())) continue;
      const uintmax_t size = it->file_size(gone);
      if (gone) continue;
      auto [entry, added] = growing.try_emplace(path, Growing{size, now});
      if (added || entry->second.size != size) {
        entry->second = {size, now};
        continue;
      }
      if (now - entry->second.since < std::chrono::milliseconds(300)) continue;
      try {
        const DumpFile dump = read_dump_file(path);
        if (!damaged_problem(dump).empty()) continue;
      } catch (const Error&) {
        if (now - entry->second.since > std::chrono::seconds(30)) failed.insert(path);
        continue;  // still being written, or bad: the final compare names it if it stays
      }
      growing.erase(entry);
      fresh.insert(path);
    }
    if (!fresh.empty()) {
      last_new = now;
      complete.insert(fresh.begin(), fresh.end());
      CompareOptions only = options;
      only.npu_file_filter = [&fresh](const std::string& p) { return fresh.count(p) > 0; };
      only.progress = nullptr;
      run_plan(plan_compare(only), only, backend, rows);
      rows.commit();
      for (const std::string& p : fresh) {
        const auto name = parse_dump_file_name(fs::path(p).filename().string());
        if (!follow.until_op.empty() && name && name->op_name == follow.until_op) {
          until_seen = true;
        }
      }
    }
    if (follow.idle_seconds > 0 &&
        std::chrono::duration<double>(Clock::now() - last_new).count() > follow.idle_seconds) {
      break;
    }
    // Sleep until the directory changes, or 200 ms (a file still growing is looked at again).
    if (watching) {
      pollfd p{watch, POLLIN, 0};
      if (poll(&p, 1, 200) > 0) {
        char events[4096];
        while (read(watch, events, sizeof events) > 0) {
        }
      }
    } else {
      usleep(200 * 1000);
    }
  }
  if (watch >= 0) close(watch);
  if (!follow.quiet) {
    std::cout << "dumpcmp: stopped following "
              << (g_stop       ? "(interrupted)"
                  : until_seen ? "(op reached)"
                               : "(idle)")
              << ": " << complete.size() << " complete dumps\n";
  }
  return complete;
}

}  // namespace dumpcmp::cli
