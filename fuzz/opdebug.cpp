// An Opdebug overflow record file (the overflow command's input) and its JSON rendering.
#include <cstddef>
#include <cstdint>
#include <string>

#include "overflow/overflow_scan.hpp"
#include "support/fuzz_input.hpp"

using namespace dumpcmp;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  fuzz::parse_or_reject([&] {
    std::string json;
    (void)parse_opdebug(data, size, "Opdebug.Node_OpDebug.1.0.1700000000000000", &json);
  });
  return 0;
}
