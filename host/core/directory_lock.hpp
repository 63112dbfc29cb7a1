#pragma once
// One run per output directory: an advisory lock (flock) on "<dir>/.dumpcmp.lock", held for the
// run's lifetime. The kernel releases it when the process ends, however it ends, so a lock left
// by a dead run never blocks the next one (a --resume after a kill).
#include <optional>
#include <string>

#include "core/partial_files.hpp"

namespace dumpcmp {

inline constexpr const char* kDirectoryLockName = ".dumpcmp.lock";

class DirectoryLock {
 public:
  // Takes the directory's lock and records this run as its holder. Throws Error(kInput) naming
  // the directory and the holder when another run holds it, or naming the lock file when it
  // cannot be created. On a file system that has no locks the run goes on without one.
  explicit DirectoryLock(const std::string& dir);
  ~DirectoryLock();  // removes the lock file, then releases the lock
  DirectoryLock(const DirectoryLock&) = delete;
  DirectoryLock& operator=(const DirectoryLock&) = delete;

 private:
  std::string path_;
  int fd_ = -1;
  std::optional<partial_files::Registration> removed_on_interrupt_;  // once it is ours
};

}  // namespace dumpcmp
