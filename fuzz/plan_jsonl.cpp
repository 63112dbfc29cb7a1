// A compare plan file (`--plan-only` writes it, `--plan` reads it back; docs/pipeline.md).
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "compare/plan_json.hpp"
#include "support/fuzz_input.hpp"

using namespace dumpcmp;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(fuzz::as_text(data, size)));
  fuzz::parse_or_reject([&] { (void)read_plan_jsonl(in, "fuzz.plan.jsonl"); });
  return 0;
}
