// acl.json as `dumpcmp config check` reads it (docs/formats.md, seed 000): every problem is
// reported, never thrown.
#include "config/acl_json.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

#include "support/fuzz_input.hpp"

using namespace dumpcmp;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  (void)check_acl_json(std::string(fuzz::as_text(data, size)), /*check_paths=*/false);
  return 0;
}
