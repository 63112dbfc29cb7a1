#pragma once
// Entry points of the per-form readers; read_dump_file (dump_file.cpp) picks among them.
#include <optional>
#include <string>
#include <string_view>

#include "io/byte_sources.hpp"
#include "io/dump_file.hpp"

namespace dumpcmp::io_detail {

// Why a file whose mapping shrank while it was parsed is refused.
inline constexpr std::string_view kShrank =
    "the file shrank while it was read (truncated or rewritten by another process)";

// The outcome of trying to read the bytes as one form: the file, or why they are not that form
// (a phrase without the path; the dispatcher decides which problem to report).
struct FormAttempt {
  std::optional<DumpFile> file;
  std::string problem;
};

// §1.1: u64 header length, DumpData header, then the payloads back to back. Offsets index `bytes`.
FormAttempt read_binary_dump(const std::string& path, const SharedBytes& bytes);
// §1.2: the whole file is one DumpData with the tensor bytes inline; they are copied out.
FormAttempt read_whole_protobuf_dump(const std::string& path, const SharedBytes& bytes);
// §1.3: nano TLV dump. The caller has checked the magic; throws format_error on any problem.
DumpFile read_nano_dump(const std::string& path, const SharedBytes& bytes);
// §3.1: .npy; throws format_error on any problem.
DumpFile read_npy(const std::string& path, const SharedBytes& bytes);

}  // namespace dumpcmp::io_detail
