// mapping.csv: the "hash,real name" rows beside hashed dump file names.
#include "io/mapping_csv.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "support/fuzz_input.hpp"

using namespace dumpcmp;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  std::vector<std::string> skipped;
  (void)parse_mapping_csv(fuzz::as_text(data, size), skipped);
  return 0;
}
