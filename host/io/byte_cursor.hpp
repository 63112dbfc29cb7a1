#pragma once
// Little-endian loads from untrusted bytes. Every read is bounds-checked first and goes through
// memcpy-free byte assembly, so neither alignment nor host byte order matters.
#include <cstddef>
#include <cstdint>

namespace dumpcmp::io_detail {

template <typename T>
T load_le(const uint8_t* p) {
  static_assert(sizeof(T) <= 8, "integers only");
  uint64_t v = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i) v |= static_cast<uint64_t>(p[i]) << (8 * i);
  return static_cast<T>(v);
}

// A read position inside [data, data + size); reads fail (return false) instead of overrunning.
class ByteCursor {
 public:
  ByteCursor(const uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  std::size_t position() const { return pos_; }
  std::size_t remaining() const { return size_ - pos_; }
  const uint8_t* here() const { return data_ + pos_; }

  template <typename T>
  bool read(T& out) {
    if (remaining() < sizeof(T)) return false;
    out = load_le<T>(data_ + pos_);
    pos_ += sizeof(T);
    return true;
  }
  bool skip(std::size_t n) {
    if (remaining() < n) return false;
    pos_ += n;
    return true;
  }

 private:
  const uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

}  // namespace dumpcmp::io_detail
