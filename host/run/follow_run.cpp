#include "run/follow_run.hpp"

#include <poll.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <map>

#include "core/error.hpp"
#include "io/dump_file.hpp"
#include "io/dump_file_name.hpp"

namespace dumpcmp {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// A file being written: its size when last seen, and since when.
struct Growing {
  uintmax_t size = 0;
  Clock::time_point since;
};

// The directory's dumps that became complete since the last look: a dump's size unchanged for
// 0.3 s and it parses whole. One that has not parsed for 30 s is given up on (the final compare
// names it if it stays bad).
class DumpWatch {
 public:
  explicit DumpWatch(std::string dir)
      : dir_(std::move(dir)), inotify_(inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) {}
  ~DumpWatch() {
    if (inotify_ >= 0) close(inotify_);
  }
  DumpWatch(const DumpWatch&) = delete;
  DumpWatch& operator=(const DumpWatch&) = delete;

  std::set<std::string> fresh() {
    std::set<std::string> found;
    const Clock::time_point now = Clock::now();
    std::error_code ec;
    if (!watching_ && inotify_ >= 0 && fs::is_directory(dir_, ec)) {
      watching_ = inotify_add_watch(inotify_, dir_.c_str(),
                                    IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_MODIFY) >= 0;
    }
    std::error_code scan;  // a listing that fails (the directory not there yet) is tried again
    for (fs::directory_iterator it(dir_, scan), end; !scan && it != end; it.increment(scan)) {
      const std::string path = it->path().string();
      std::error_code gone;  // the entry may vanish between the listing and the stat
      if (complete_.count(path) || failed_.count(path) || !it->is_regular_file(gone)) continue;
      if (!parse_dump_file_name(it->path().filename().string())) continue;
      const uintmax_t size = it->file_size(gone);
      if (gone) continue;
      auto [entry, added] = growing_.try_emplace(path, Growing{size, now});
      if (added || entry->second.size != size) {
        entry->second = {size, now};
        continue;
      }
      if (now - entry->second.since < std::chrono::milliseconds(300)) continue;
      try {
        const DumpFile dump = read_dump_file(path);
        if (!damaged_problem(dump).empty()) continue;
      } catch (const Error&) {
        if (now - entry->second.since > std::chrono::seconds(30)) failed_.insert(path);
        continue;  // still being written, or bad
      }
      growing_.erase(entry);
      found.insert(path);
    }
    complete_.insert(found.begin(), found.end());
    return found;
  }

  // Sleeps until the directory changes, or 200 ms (a file still growing is looked at again).
  void wait() const {
    if (!watching_) {
      usleep(200 * 1000);
      return;
    }
    pollfd p{inotify_, POLLIN, 0};
    if (poll(&p, 1, 200) > 0) {
      char events[4096];
      while (read(inotify_, events, sizeof events) > 0) {
      }
    }
  }

  const std::set<std::string>& complete() const { return complete_; }

 private:
  std::string dir_;
  int inotify_;
  bool watching_ = false;  // the directory may not exist yet: the run has not started
  std::set<std::string> complete_, failed_;
  std::map<std::string, Growing> growing_;
};

bool names_op(const std::set<std::string>& paths, const std::string& op) {
  for (const std::string& p : paths) {
    const auto name = parse_dump_file_name(fs::path(p).filename().string());
    if (name && name->op_name == op) return true;
  }
  return false;
}

}  // namespace

void require_followable(const std::string& dir) {
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec)) {
    throw Error(ExitCode::kUsage, "--follow watches a directory: " + dir + " is not one");
  }
}

FollowResult follow_dumps(const CompareOptions& options, const FollowRequest& request,
                          Backend& backend, RecordSink& live,
                          const std::function<bool()>& stopped) {
  require_followable(options.my_path);
  DumpWatch watch(options.my_path);
  FollowResult result;
  Clock::time_point last_new = Clock::now();
  while (true) {
    if (stopped()) {
      result.end = FollowEnd::kStopped;
      break;
    }
    const std::set<std::string> fresh = watch.fresh();
    if (!fresh.empty()) {
      last_new = Clock::now();
      CompareOptions only = options;
      only.npu_file_filter = [&fresh](const std::string& p) { return fresh.count(p) > 0; };
      only.progress = nullptr;
      run_plan(plan_compare(only), only, backend, live);
      live.commit();
      if (!request.until_op.empty() && names_op(fresh, request.until_op)) {
        result.end = FollowEnd::kOpReached;
        break;
      }
    }
    if (request.idle_seconds > 0 &&
        std::chrono::duration<double>(Clock::now() - last_new).count() > request.idle_seconds) {
      result.end = FollowEnd::kIdle;
      break;
    }
    watch.wait();
  }
  result.complete = watch.complete();
  return result;
}

}  // namespace dumpcmp
