#pragma once
// The two owners a DumpFile's bytes can live in: a read-only mapping of the file (the normal,
// zero-copy case) or a buffer the reader filled (whole-protobuf inline data, Fortran-order npy).
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "core/mapped_file.hpp"
#include "io/dump_file.hpp"

namespace dumpcmp::io_detail {

class MappedByteSource final : public ByteSource {
 public:
  explicit MappedByteSource(MappedFile file) : file_(std::move(file)) {}
  const uint8_t* data() const override { return file_.data(); }
  std::size_t size() const override { return file_.size(); }
  bool damaged() const override { return file_.damaged(); }

 private:
  MappedFile file_;
};

class OwnedByteSource final : public ByteSource {
 public:
  explicit OwnedByteSource(std::vector<uint8_t> bytes) : bytes_(std::move(bytes)) {}
  const uint8_t* data() const override { return bytes_.data(); }
  std::size_t size() const override { return bytes_.size(); }

 private:
  std::vector<uint8_t> bytes_;
};

// What the per-form readers parse: a mapping of the file, or bytes already in memory (fuzzing).
using SharedBytes = std::shared_ptr<const ByteSource>;

}  // namespace dumpcmp::io_detail
