// The AMCT quantization fusion JSON (`-q`), merged into an offline-model rule as the quant compare
// does (docs/formats.md §4.2): the fuzzed text is the quant side, then the offline-model side.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fusion/fusion_rule.hpp"
#include "support/fuzz_input.hpp"

using namespace dumpcmp;

namespace {
// A small offline model whose op names a quant rule can refer to.
constexpr std::string_view kOfflineModel = R"({"name":"m","graph":[{"name":"g","op":[
{"name":"data","type":"Data","output_desc":[{"attr":[{"key":"_datadump_origin_name","value":{"s":"data"}}]}]},
{"name":"conv1","type":"Conv2D","input":["data:0"],"attr":[{"key":"_datadump_original_op_names","value":{"list":{"s":["conv1"]}}}],
 "output_desc":[{"attr":[{"key":"_datadump_origin_name","value":{"s":"conv1"}},{"key":"_datadump_origin_output_index","value":{"i":0}}]}]}]}]})";
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  static const FusionRule offline = FusionRule::parse(kOfflineModel, "model.json");
  fuzz::parse_or_reject([&] {
    const FusionRule quant = FusionRule::parse(fuzz::as_text(data, size), "quant.json");
    FusionRule merged = merge_quant_rule(offline, quant);
    apply_quant_filter(merged);
    (void)merge_close_fusion_rule(quant, offline);
  });
  return 0;
}
