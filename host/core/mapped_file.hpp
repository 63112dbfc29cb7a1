#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace dumpcmp {

// Read-only view of a whole file; move-only owner. Large files are memory-mapped (zero copies);
// files under kReadThreshold are read into a buffer instead, since for thousands of small dumps
// mmap + page faults + munmap (a TLB shootdown in a threaded process) cost more than a read.
// An empty file has no bytes.
class MappedFile {
 public:
  static constexpr std::size_t kReadThreshold = 1 << 20;

  static MappedFile open(const std::string& path);  // throws Error naming the path
  MappedFile() = default;
  MappedFile(MappedFile&& other) noexcept;
  MappedFile& operator=(MappedFile&& other) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  const uint8_t* data() const { return data_; }
  std::size_t size() const { return size_; }
  const std::string& path() const { return path_; }
  // Hint that the bytes will be read front to back once.
  void advise_sequential() const;
  // True when the file shrank under the mapping and a read past its new end got zeros instead of
  // the bytes (core/sigbus_guard.hpp): whatever was computed from it is wrong.
  bool damaged() const;

 private:
  void release();
  std::string path_;
  const uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
  bool mapped_ = false;  // else data_ is a new[] buffer
  int guard_slot_ = -1;  // the mapping's sigbus_guard slot
};

}  // namespace dumpcmp
