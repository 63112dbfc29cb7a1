#include "core/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "core/error.hpp"
#include "core/sigbus_guard.hpp"

namespace dumpcmp {

MappedFile MappedFile::open(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw format_error(path, std::string("cannot open: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw format_error(path, "not a regular file");
  }
  MappedFile file;
  file.path_ = path;
  file.size_ = static_cast<std::size_t>(st.st_size);
  if (file.size_ > 0 && file.size_ < kReadThreshold) {
    auto* buffer = new uint8_t[file.size_];
    std::size_t done = 0;
    while (done < file.size_) {
      const ssize_t got = ::pread(fd, buffer + done, file.size_ - done, static_cast<off_t>(done));
      if (got <= 0) {
        const int err = got < 0 ? errno : EIO;
        delete[] buffer;
        ::close(fd);
        throw format_error(path, std::string("cannot read: ") + std::strerror(err));
      }
      done += static_cast<std::size_t>(got);
    }
    file.data_ = buffer;
  } else if (file.size_ > 0) {
    void* p = ::mmap(nullptr, file.size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      const int err = errno;
      ::close(fd);
      throw format_error(path, std::string("cannot map: ") + std::strerror(err));
    }
    file.data_ = static_cast<const uint8_t*>(p);
    file.mapped_ = true;
    file.guard_slot_ = sigbus_guard::watch(p, file.size_);
  }
  ::close(fd);
  return file;
}

MappedFile::MappedFile(MappedFile&& other) noexcept
    : path_(std::move(other.path_)),
      data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      mapped_(std::exchange(other.mapped_, false)),
      guard_slot_(std::exchange(other.guard_slot_, -1)) {}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept {
  if (this != &other) {
    release();
    path_ = std::move(other.path_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    mapped_ = std::exchange(other.mapped_, false);
    guard_slot_ = std::exchange(other.guard_slot_, -1);
  }
  return *this;
}

MappedFile::~MappedFile() { release(); }

bool MappedFile::damaged() const { return sigbus_guard::damaged(guard_slot_); }

void MappedFile::release() {
  sigbus_guard::unwatch(std::exchange(guard_slot_, -1));
  if (data_ && mapped_) ::munmap(const_cast<uint8_t*>(data_), size_);
  if (data_ && !mapped_) delete[] data_;
  data_ = nullptr;
  size_ = 0;
}

void MappedFile::advise_sequential() const {
  if (!data_ || !mapped_) return;
  ::madvise(const_cast<uint8_t*>(data_), size_, MADV_SEQUENTIAL);
  ::madvise(const_cast<uint8_t*>(data_), size_, MADV_WILLNEED);
}

}  // namespace dumpcmp
