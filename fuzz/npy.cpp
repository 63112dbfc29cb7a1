// A .npy file (docs/formats.md §3.1) alone: magic, version, header dict, data.
#include <cstddef>
#include <cstdint>

#include "io/dump_readers.hpp"
#include "support/dump_checks.hpp"
#include "support/fuzz_input.hpp"

using namespace dumpcmp;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  fuzz::parse_or_reject([&] {
    fuzz::exercise_dump(io_detail::read_npy(fuzz::kDumpName, fuzz::owned_bytes(data, size)));
  });
  return 0;
}
