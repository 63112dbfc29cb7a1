#include "core/scratch_buffer.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <new>
#include <utility>

namespace dumpcmp {
namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;

}  // namespace

ScratchBuffer::ScratchBuffer(ScratchBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), capacity_(std::exchange(other.capacity_, 0)) {}

ScratchBuffer& ScratchBuffer::operator=(ScratchBuffer&& other) noexcept {
  if (this != &other) {
    std::free(data_);
    data_ = std::exchange(other.data_, nullptr);
    capacity_ = std::exchange(other.capacity_, 0);
  }
  return *this;
}

ScratchBuffer::~ScratchBuffer() { std::free(data_); }

void* ScratchBuffer::reserve(std::size_t bytes) {
  if (bytes <= capacity_ && data_ != nullptr) return data_;
  std::free(data_);
  data_ = nullptr;
  capacity_ = 0;
  // Whole huge pages, at least one (aligned_alloc wants a multiple of the alignment).
  const std::size_t capacity = std::max(kHugePage, (bytes + kHugePage - 1) / kHugePage * kHugePage);
  data_ = std::aligned_alloc(kHugePage, capacity);
  if (data_ == nullptr) throw std::bad_alloc();
  capacity_ = capacity;
  // Advice only: without transparent huge pages the memory is the same, in 4 KiB pages.
  ::madvise(data_, capacity_, MADV_HUGEPAGE);
  return data_;
}

}  // namespace dumpcmp
