// DumpFile helpers and read_dump_file: picks the reader the way msaccucmp does (§1.1-1.3, §3.1).
#include "io/dump_file.hpp"

#include <memory>
#include <string>

#include "core/error.hpp"
#include "core/mapped_file.hpp"
#include "io/byte_cursor.hpp"
#include "io/byte_sources.hpp"
#include "io/dump_readers.hpp"

namespace dumpcmp {

const std::vector<TensorInfo>& DumpFile::group(TensorGroup g) const {
  switch (g) {
    case TensorGroup::kInput:
      return inputs;
    case TensorGroup::kOutput:
      return outputs;
    case TensorGroup::kBuffer:
      return buffers;
    case TensorGroup::kWorkspace:
      return workspaces;
  }
  return outputs;  // unreachable for valid enum values
}

std::string_view tensor_group_name(TensorGroup g) {
  switch (g) {
    case TensorGroup::kInput:
      return "input";
    case TensorGroup::kOutput:
      return "output";
    case TensorGroup::kBuffer:
      return "buffer";
    case TensorGroup::kWorkspace:
      return "workspace";
  }
  return "unknown";
}

std::string_view dump_encoding_name(DumpEncoding e) {
  switch (e) {
    case DumpEncoding::kBinary:
      return "binary";
    case DumpEncoding::kProtobuf:
      return "protobuf";
    case DumpEncoding::kNano:
      return "nano";
    case DumpEncoding::kNpy:
      return "npy";
  }
  return "unknown";
}

namespace {

using io_detail::kShrank;

DumpFile read_any_form(const std::string& path, const io_detail::SharedBytes& bytes) {
  using namespace io_detail;
  const std::size_t size = bytes->size();
  if (size == 0) throw format_error(path, "empty file");

  constexpr std::string_view kNpySuffix = ".npy";
  if (path.size() >= kNpySuffix.size() &&
      path.compare(path.size() - kNpySuffix.size(), kNpySuffix.size(), kNpySuffix) == 0) {
    return read_npy(path, bytes);
  }
  constexpr uint32_t kNanoMagic = 0x5A5A5A5A;
  if (size > 12 && load_le<uint32_t>(bytes->data() + 8) == kNanoMagic) {
    return read_nano_dump(path, bytes);
  }
  FormAttempt binary = read_binary_dump(path, bytes);
  if (binary.file) return std::move(*binary.file);
  // The whole-file protobuf form is legacy; it is tried only when the binary form does not fit,
  // and the binary form's problem is the one reported, since that is what current tools write.
  FormAttempt whole = read_whole_protobuf_dump(path, bytes);
  if (whole.file) return std::move(*whole.file);
  throw format_error(path, binary.problem);
}

}  // namespace

std::string damaged_problem(const DumpFile& file) {
  if (!file.bytes || !file.bytes->damaged()) return "";
  return file.path + ": " + std::string(kShrank);
}

std::string damaged_problem_after_probe(const DumpFile& file) {
  if (file.bytes) {
    const volatile uint8_t* data = file.bytes->data();
    uint8_t sum = 0;
    for (std::size_t i = 0; i < file.bytes->size(); i += 4096) sum = sum + data[i];
    (void)sum;
  }
  return damaged_problem(file);
}

DumpFile read_dump_file(const std::string& path) {
  return read_dump_bytes(
      path, std::make_shared<const io_detail::MappedByteSource>(MappedFile::open(path)));
}

DumpFile read_dump_bytes(const std::string& path, std::shared_ptr<const ByteSource> bytes) {
  // Past a shrunk file's new end the parser read zeros: what it made of them (a header or an
  // error) is not the file's.
  try {
    DumpFile file = read_any_form(path, bytes);
    if (!bytes->damaged()) return file;
  } catch (const Error&) {
    if (!bytes->damaged()) throw;
  }
  throw format_error(path, std::string(kShrank));
}

}  // namespace dumpcmp
