// A .npy file (docs/formats.md §3.1) alone: magic, version, header dict, data.
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
    fuzz::exercise_dump(io_detail::read_npy("Conv2D.conv1.2.3.1700000000000000", bytes));
  });
  return 0;
}
