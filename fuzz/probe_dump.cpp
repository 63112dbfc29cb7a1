// A msprobe dump.json (docs/msprobe-compare.md §2.2) read, then compared with itself in the mode
// msprobe would choose, as `compare -tp -gp` does with two dumps; and the same text as a
// stack.json.
#include "probe/probe_dump.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

#include "backend/cpu_backend.hpp"
#include "probe/probe_compare.hpp"
#include "support/fuzz_input.hpp"

using namespace dumpcmp;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string name = "dump.json";
  fuzz::parse_or_reject([&] {
    const ProbeDump dump = parse_probe_dump(fuzz::as_text(data, size), name);
    const ProbeMode mode = probe_mode(dump, dump);
    CpuBackend cpu(1);
    (void)compare_probe_dumps(dump, dump, mode, nullptr, {}, {}, cpu);
  });
  fuzz::parse_or_reject([&] { (void)parse_probe_stack(fuzz::as_text(data, size), "stack.json"); });
  return 0;
}
