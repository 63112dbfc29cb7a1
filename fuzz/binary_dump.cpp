// The binary dump form (docs/formats.md §1.1) alone: u64 header length, DumpData, payloads.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "io/byte_sources.hpp"
#include "io/dump_readers.hpp"
#include "support/dump_checks.hpp"
#include "support/fuzz_input.hpp"

using namespace dumpcmp;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  auto bytes =
      std::make_shared<const io_detail::OwnedByteSource>(std::vector<uint8_t>(data, data + size));
  fuzz::parse_or_reject([&] {
    const io_detail::FormAttempt attempt =
        io_detail::read_binary_dump("Conv2D.conv1.2.3.1700000000000000", bytes);
    if (attempt.file) fuzz::exercise_dump(*attempt.file);
  });
  return 0;
}
