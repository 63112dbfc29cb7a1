#pragma once
// Uninitialised scratch memory for large copies that live for one batch and are rewritten by the
// next: kept between uses (its pages stay mapped), never zeroed, and aligned to 2 MiB with
// transparent huge pages asked for, so a fresh one faults once per 2 MiB instead of per 4 KiB.
#include <cstddef>

namespace dumpcmp {

class ScratchBuffer {
 public:
  ScratchBuffer() = default;
  ScratchBuffer(const ScratchBuffer&) = delete;
  ScratchBuffer& operator=(const ScratchBuffer&) = delete;
  ScratchBuffer(ScratchBuffer&& other) noexcept;
  ScratchBuffer& operator=(ScratchBuffer&& other) noexcept;
  ~ScratchBuffer();

  // At least `bytes` of memory, its contents undefined (a larger request drops the old ones).
  // Throws std::bad_alloc when the memory cannot be had.
  void* reserve(std::size_t bytes);

 private:
  void* data_ = nullptr;
  std::size_t capacity_ = 0;
};

}  // namespace dumpcmp
