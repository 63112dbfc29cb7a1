#pragma once
// DumpData -> DumpFile, shared by the binary form (payloads follow the header) and the whole-file
// protobuf form (payloads inline in the data fields).
#include <cstdint>
#include <functional>
#include <string>

#include "io/dump_file.hpp"

namespace dumpcmp::wire {
class DumpData;
}

namespace dumpcmp::io_detail {

// Called once per tensor in payload order (inputs, outputs, buffers, workspaces) with the header's
// size field and data field; sets t.size and t.offset. Returns "" or the problem.
using PlaceTensor =
    std::function<std::string(TensorInfo& t, uint64_t size_field, const std::string& inline_data)>;

// Fills out's header fields and tensor lists (not path, encoding or bytes). Returns "" on success,
// else the problem as a phrase without the path.
std::string decode_dump_data(const wire::DumpData& header, const PlaceTensor& place, DumpFile& out);

// libprotobuf logs to stderr when it meets bad bytes (e.g. invalid UTF-8 in a string field); the
// readers report their own errors, so protobuf's logs are dropped (a fatal one also throws).
// Idempotent, thread-safe.
void quiet_protobuf_logs();

}  // namespace dumpcmp::io_detail
