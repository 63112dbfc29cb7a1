// §1.1 binary dump: u64 header length | DumpData header (data fields empty) | payloads.
#include <climits>
#include <cstdint>
#include <string>

#include "dump_data.pb.h"
#include "io/byte_cursor.hpp"
#include "io/dump_readers.hpp"
#include "io/protobuf_header.hpp"

namespace dumpcmp::io_detail {
namespace {

FormAttempt fail(std::string problem) { return FormAttempt{std::nullopt, std::move(problem)}; }

}  // namespace

FormAttempt read_binary_dump(const std::string& path, const SharedBytes& bytes) {
  const uint8_t* const base = bytes->data();
  const std::size_t file_size = bytes->size();
  if (file_size <= 8) {
    return fail("file has " + std::to_string(file_size) +
                " bytes, too short for a binary dump (8-byte header length, then the header)");
  }
  const uint64_t header_len = load_le<uint64_t>(base);
  if (header_len == 0) return fail("header length is 0");
  if (header_len > file_size - 8) {
    return fail("header length " + std::to_string(header_len) + " exceeds file size " +
                std::to_string(file_size) + " minus the 8-byte length field");
  }
  // protobuf parses at most INT_MAX bytes; the device writer caps headers at 2 GiB anyway.
  if (header_len > static_cast<uint64_t>(INT_MAX)) {
    return fail("header length " + std::to_string(header_len) + " exceeds the 2 GiB header limit");
  }
  quiet_protobuf_logs();
  wire::DumpData header;
  if (!header.ParseFromArray(base + 8, static_cast<int>(header_len))) {
    return fail("DumpData header does not parse as protobuf");
  }

  // Offsets are prefix sums in payload order; a total past the end is reported once, below.
  // Saturating sums keep hostile size fields from wrapping around.
  const uint64_t payload_start = 8 + header_len;
  uint64_t needed = 0;
  const PlaceTensor place = [&](TensorInfo& t, uint64_t size_field, const std::string&) {
    t.size = size_field;
    t.offset = payload_start + needed;
    needed = needed > UINT64_MAX - size_field ? UINT64_MAX : needed + size_field;
    return std::string();
  };

  DumpFile file;
  std::string problem = decode_dump_data(header, place, file);
  if (!problem.empty()) return fail(problem);
  const uint64_t available = file_size - payload_start;
  if (needed > available) {
    return fail("tensor payloads need " + std::to_string(needed) + " bytes but only " +
                std::to_string(available) + " follow the header");
  }
  // Trailing bytes after the last payload are accepted, as msaccucmp does.
  file.path = path;
  file.encoding = DumpEncoding::kBinary;
  file.bytes = bytes;
  return FormAttempt{std::move(file), {}};
}

}  // namespace dumpcmp::io_detail
