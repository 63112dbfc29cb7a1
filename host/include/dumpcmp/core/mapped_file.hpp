#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace dumpcmp {

// Read-only memory mapping of a whole file; move-only owner. An empty file maps to no bytes.
class MappedFile {
 public:
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

 private:
  void release();
  std::string path_;
  const uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace dumpcmp
