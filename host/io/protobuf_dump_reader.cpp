// §1.2 whole-file protobuf dump: one DumpData with every tensor's bytes inline in its data field.
#include <climits>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dump_data.pb.h"
#include "io/dump_readers.hpp"
#include "io/protobuf_header.hpp"

namespace dumpcmp::io_detail {
namespace {

FormAttempt fail(std::string problem) { return FormAttempt{std::nullopt, std::move(problem)}; }

}  // namespace

FormAttempt read_whole_protobuf_dump(const std::string& path, const SharedBytes& bytes) {
  const std::size_t file_size = bytes->size();
  if (file_size > static_cast<std::size_t>(INT_MAX)) {
    return fail("file is larger than protobuf's 2 GiB message limit");
  }
  quiet_protobuf_logs();
  wire::DumpData message;
  if (!message.ParseFromArray(bytes->data(), static_cast<int>(file_size))) {
    return fail("file does not parse as a DumpData message");
  }
  // Random bytes sometimes parse; a dump worth comparing has at least one input or output.
  if (message.input_size() == 0 && message.output_size() == 0) {
    return fail("DumpData message has no inputs or outputs");
  }

  // The inline fields are copied into one owned buffer so the DumpFile does not keep the parsed
  // message alive; the form is legacy and rare, so the copy is acceptable.
  std::size_t total = 0;
  for (const auto& in : message.input()) total += in.data().size();
  for (const auto& out : message.output()) total += out.data().size();
  for (const auto& buf : message.buffer()) total += buf.data().size();
  for (const auto& space : message.space()) total += space.data().size();
  std::vector<uint8_t> payload;
  payload.reserve(total);
  const PlaceTensor place = [&](TensorInfo& t, uint64_t size_field, const std::string& data) {
    if (size_field != 0 && size_field != data.size()) {
      return "size field says " + std::to_string(size_field) + " bytes but the inline data holds " +
             std::to_string(data.size());
    }
    t.size = data.size();
    t.offset = payload.size();
    payload.insert(payload.end(), data.begin(), data.end());
    return std::string();
  };

  DumpFile file;
  std::string problem = decode_dump_data(message, place, file);
  if (!problem.empty()) return fail(problem);
  file.path = path;
  file.encoding = DumpEncoding::kProtobuf;
  file.bytes = std::make_shared<OwnedByteSource>(std::move(payload));
  return FormAttempt{std::move(file), {}};
}

}  // namespace dumpcmp::io_detail
