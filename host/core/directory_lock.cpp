#include "core/directory_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/error.hpp"
#include "core/timestamp.hpp"

namespace dumpcmp {
namespace {

std::string read_holder(int fd) {
  std::string text(512, '\0');
  const ssize_t n = ::pread(fd, text.data(), text.size(), 0);
  text.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\0')) text.pop_back();
  return text.empty() ? "a run that has not written its name yet" : text;
}

std::string holder_text() {
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0) std::strcpy(host, "unknown host");
  return "dumpcmp pid " + std::to_string(::getpid()) + " on " + host + ", started " +
         local_timestamp() + "\n";
}

}  // namespace

DirectoryLock::DirectoryLock(const std::string& dir) : path_(dir + "/" + kDirectoryLockName) {
  // The holder removes the file before it releases the lock, so a lock taken on a file that is
  // no longer the one at the path is taken again on the new file.
  for (;;) {
    fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) {
      throw Error(ExitCode::kInput,
                  path_ + ": cannot create the output directory's lock: " + std::strerror(errno));
    }
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      const bool held_elsewhere = errno == EWOULDBLOCK;
      const std::string holder = held_elsewhere ? read_holder(fd_) : std::string();
      ::close(fd_);
      fd_ = -1;
      if (held_elsewhere) {
        throw Error(ExitCode::kInput, dir +
                                          ": another run is writing into this output directory (" +
                                          holder + "); wait for it to end or choose another -out");
      }
      // A file system without locks (ENOLCK, EINVAL): the run goes on unguarded, as before locks.
      return;
    }
    struct stat held {};
    struct stat named {};
    if (::fstat(fd_, &held) == 0 && ::stat(path_.c_str(), &named) == 0 &&
        held.st_ino == named.st_ino && held.st_dev == named.st_dev) {
      break;
    }
    ::close(fd_);
  }
  removed_on_interrupt_.emplace(path_);
  const std::string holder = holder_text();
  if (::ftruncate(fd_, 0) == 0) {
    [[maybe_unused]] const ssize_t written = ::pwrite(fd_, holder.data(), holder.size(), 0);
  }
}

DirectoryLock::~DirectoryLock() {
  if (fd_ < 0) return;  // not held: the file may be another run's
  ::unlink(path_.c_str());
  ::close(fd_);
}

}  // namespace dumpcmp
