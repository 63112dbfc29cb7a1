// GE graph text (ge_proto_*.txt, a ModelDef in protobuf text form) turned into the atc JSON and
// parsed as a fusion rule, as `-f ge_proto_*.txt` does.
#include "fusion/ge_graph_text.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

#include "fusion/fusion_rule.hpp"
#include "support/fuzz_input.hpp"

using namespace dumpcmp;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  fuzz::parse_or_reject([&] {
    const std::string json = ge_text_to_atc_json(fuzz::as_text(data, size), "ge_proto_fuzz.txt");
    (void)FusionRule::parse(json, "ge_proto_fuzz.txt");
  });
  return 0;
}
