// The binary dump form (docs/formats.md §1.1) alone: u64 header length, DumpData, payloads.
#include <cstddef>
#include <cstdint>

#include "io/dump_readers.hpp"
#include "support/dump_checks.hpp"
#include "support/fuzz_input.hpp"

using namespace dumpcmp;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  fuzz::parse_or_reject([&] {
    const io_detail::FormAttempt read =
        io_detail::read_binary_dump(fuzz::kDumpName, fuzz::owned_bytes(data, size));
    if (read.file) fuzz::exercise_dump(*read.file);
  });
  return 0;
}
