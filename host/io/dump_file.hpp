#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/dtype.hpp"
#include "core/format.hpp"
#include "core/shape.hpp"

namespace dumpcmp {

// Which on-disk form a dump came from (docs/formats.md §1, §3.1).
enum class DumpEncoding { kBinary, kProtobuf, kNano, kNpy };

// Where a tensor sits in a DumpData: the four groups in payload order.
enum class TensorGroup { kInput, kOutput, kBuffer, kWorkspace };

// Bytes a dump's tensors point into: a memory mapping or, for the whole-protobuf form, owned
// copies.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  virtual const uint8_t* data() const = 0;
  virtual std::size_t size() const = 0;
  // The file shrank while mapped and some bytes read as zeros (core/sigbus_guard.hpp).
  virtual bool damaged() const { return false; }
};

// One tensor's header fields; its bytes are [offset, offset + size) of the dump's ByteSource.
struct TensorInfo {
  TensorGroup group = TensorGroup::kOutput;
  int index = 0;                    // position within its group
  DType dtype = DType::kUndefined;  // wire code (nano codes are already mapped to proto codes)
  Format format = Format::kND;
  Shape shape;  // as dumped ([] is one element); DT_UNDEFINED bytes are already [size]
  Shape original_shape;
  int32_t sub_format = 0;
  uint64_t address = 0;
  uint64_t size = 0;        // bytes in the payload
  uint64_t offset = 0;      // byte offset of the payload in the ByteSource
  std::string origin_name;  // OpOutput.original_op.name / nano origin name (outputs only)
  uint32_t origin_output_index = 0;
};

// A parsed dump file: the header, and a handle keeping the payload bytes alive.
struct DumpFile {
  std::string path;
  DumpEncoding encoding = DumpEncoding::kBinary;
  std::string version;
  uint64_t dump_time = 0;
  std::string op_name;
  std::vector<TensorInfo> inputs;
  std::vector<TensorInfo> outputs;
  std::vector<TensorInfo> buffers;
  std::vector<TensorInfo> workspaces;
  std::vector<std::pair<std::string, std::string>> attrs;  // DumpData.attr (name, value)
  // Set when this is FFTS+ slices merged in memory (io/ffts_merge.hpp): the slice files, in merge
  // order; `path` is then msaccucmp's name for the merged dump, not a file.
  std::vector<std::string> ffts_slices;
  std::shared_ptr<const ByteSource> bytes;

  const std::vector<TensorInfo>& group(TensorGroup g) const;
  // Payload of one tensor; the pointer stays valid while this DumpFile (or a copy of `bytes`)
  // lives.
  const uint8_t* tensor_data(const TensorInfo& t) const { return bytes->data() + t.offset; }
};

// "PATH: problem" when the file shrank while mapped, so reads past its new end got zeros (whatever
// was computed from its bytes must be discarded); "" otherwise.
std::string damaged_problem(const DumpFile& file);
// The same after reading one byte of every page: a write(2) straight from the mapping fails with
// EFAULT on lost pages, where a read in this process raises the SIGBUS the guard counts. For the
// error path of such writes.
std::string damaged_problem_after_probe(const DumpFile& file);

std::string_view tensor_group_name(TensorGroup g);  // "input", "output", "buffer", "workspace"
std::string_view dump_encoding_name(DumpEncoding e);

// Reads any dump msaccucmp reads: .npy by suffix, else nano TLV (magic at offset 8), else the
// binary form (8-byte header length + DumpData + payload), else the whole-file protobuf form.
// Throws Error(kInput) naming the file and the problem when none of them fits.
DumpFile read_dump_file(const std::string& path);
// The same on bytes already at hand; `path` picks .npy and names the file in errors.
DumpFile read_dump_bytes(const std::string& path, std::shared_ptr<const ByteSource> bytes);
// A .npy file whatever its name ends with (the seed's tools take .data/.bin/.txt names).
DumpFile read_npy_file(const std::string& path);

}  // namespace dumpcmp
