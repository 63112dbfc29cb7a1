// The atc --mode=1 fusion JSON (`-f`, docs/formats.md §4.2), then what the fusion compare asks of
// every op: its origin tensors and the producers of its inputs and outputs.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fusion/fusion_rule.hpp"
#include "support/fuzz_input.hpp"

using namespace dumpcmp;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  fuzz::parse_or_reject([&] {
    const FusionRule rule = FusionRule::parse(fuzz::as_text(data, size), "fuzz.json");
    for (const FusionOp& op : rule.ops()) {
      (void)rule.group_of(op);
      (void)rule.find_op(op.name);
      std::string error;
      int index = 0;
      for (int j = 0; j <= static_cast<int>(op.output_desc.size()); ++j) {
        (void)origin_tensor(op, j, error);
        (void)resolve_output_source(rule, op, j, index, error);
      }
      for (int j = 0; j < static_cast<int>(op.inputs.size()); ++j) {
        (void)resolve_input_producer(rule, op, j, index, error);
      }
    }
  });
  return 0;
}
