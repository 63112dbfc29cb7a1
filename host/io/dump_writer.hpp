#pragma once
// Writers for the forms the readers take: used by tests, the synthetic generator and `convert`.
// Each writes through an AtomicFile (core/atomic_file.hpp), so a crash never leaves a half-written
// file under the final name.
// Failures throw Error(kInput) naming the path.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/dtype.hpp"
#include "core/format.hpp"
#include "core/shape.hpp"

namespace dumpcmp {

struct TensorSpec {
  DType dtype = DType::kFloat;
  Format format = Format::kND;
  Shape shape;
  Shape original_shape;
  uint64_t address = 0;
  std::string origin_name;  // OpOutput.original_op.name; ignored for inputs
  std::vector<uint8_t> bytes;
};

struct DumpSpec {
  std::string op_name;
  uint64_t dump_time = 0;
  std::vector<TensorSpec> inputs;
  std::vector<TensorSpec> outputs;
};

// DumpData.attr entries (name, value): FFTS+ slices carry their thread layout in one as JSON.
using DumpAttrs = std::vector<std::pair<std::string, std::string>>;

// The device writer's layout (§1.1): u64 header length, DumpData (version "2.0", size fields =
// bytes.size(), data fields empty), then the inputs' and outputs' bytes back to back.
void write_binary_dump(const std::string& path, const DumpSpec& spec, const DumpAttrs& attrs = {});
// The legacy whole-file form (§1.2): one DumpData (version "1.0") with the bytes inline.
void write_protobuf_dump(const std::string& path, const DumpSpec& spec);
// .npy v1.0 (v2.0 only if the header outgrows 64 KiB), C order, data 64-byte aligned. Throws for
// dtypes npy cannot hold (bf16, fp8, ...) and when nbytes != prod(shape) * element size.
void write_npy(const std::string& path, DType dtype, const Shape& shape, const uint8_t* data,
               std::size_t nbytes);
// The .npy descr of a dtype numpy holds natively ("<f2", "|b1", ...); empty for the others.
std::string_view npy_descr(DType t);

}  // namespace dumpcmp
