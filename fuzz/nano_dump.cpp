// The nano TLV dump form (docs/formats.md §1.3) alone.
#include <cstddef>
#include <cstdint>

#include "io/dump_readers.hpp"
#include "support/dump_checks.hpp"
#include "support/fuzz_input.hpp"

using namespace dumpcmp;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  fuzz::parse_or_reject([&] {
    fuzz::exercise_dump(io_detail::read_nano_dump(fuzz::kDumpName, fuzz::owned_bytes(data, size)));
  });
  return 0;
}
