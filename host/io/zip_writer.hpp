#pragma once
// A zip archive of stored (uncompressed) entries written in order into an AtomicFile: torch.save's
// .pt files (each entry's data 64-byte aligned by a padding extra field, as torch's own writer
// aligns it, so that torch can also map it) and xlsx workbooks. Offsets and sizes are 32-bit: no
// zip64, the caller keeps an archive under 4 GiB.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/atomic_file.hpp"

namespace dumpcmp {

class ZipWriter {
 public:
  // `align`: 0 for no padding, else each entry's data starts at a multiple of it (torch: 64).
  explicit ZipWriter(AtomicFile& file, std::size_t align = 0) : file_(file), align_(align) {}

  void add(const std::string& name, const void* data, std::size_t size);
  void add(const std::string& name, const std::string& data) {
    add(name, data.data(), data.size());
  }
  // The central directory and its end record.
  void finish();

  // Bytes written so far.
  std::size_t size() const { return offset_; }

 private:
  struct Entry {
    std::string name;
    uint32_t crc;
    std::size_t size, offset;
  };
  AtomicFile& file_;
  std::size_t align_;
  std::vector<Entry> entries_;
  std::size_t offset_ = 0;
};

}  // namespace dumpcmp
