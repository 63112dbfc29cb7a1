// A statistics dump's CSV: msprobe's statistic.csv or a CANN per-op file; the first byte picks
// the file name, which tells a CANN file's op fields.
#include "stats/statistic_csv.hpp"

#include <cstddef>
#include <cstdint>

#include "support/fuzz_input.hpp"

using namespace dumpcmp;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const char* path = data[0] & 1 ? "Conv2D.conv1.2.3.1700000000000000.csv" : "statistic.csv";
  fuzz::parse_or_reject([&] { (void)parse_stats_csv(fuzz::as_text(data + 1, size - 1), path); });
  return 0;
}
