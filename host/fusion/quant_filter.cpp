// msaccucmp's QuantFilter (vector_cmp/fusion_manager/quant_filter.py), docs/formats.md §5.
#include <array>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "fusion/quant_rule.hpp"

namespace dumpcmp {
namespace {

// Output classes and name classes as msaccucmp numbers them (name class 5 = quant + dequant).
constexpr int kNormal = 0;
constexpr int kMiddle = 1;
constexpr int kQuant = 2;
constexpr int kDequant = 3;
constexpr int kQuantDequant = 5;

// The regexes are plain alternations of literals, so a substring search is the same match.
constexpr std::array<std::string_view, 5> kQuantMarks = {
    "_quant_layer", "/AscendQuant", "/AscendWeightQuant", ".quant", ".weight_quant"};
constexpr std::array<std::string_view, 6> kDequantMarks = {"_dequant_layer", "_anti_quant_layer",
                                                           "/AscendDequant", "/AntiQuant",
                                                           ".dequant",       ".anti_quant"};

template <size_t N>
bool contains_any(std::string_view text, const std::array<std::string_view, N>& marks) {
  for (const std::string_view mark : marks) {
    if (text.find(mark) != std::string_view::npos) return true;
  }
  return false;
}

// By op name, or failing that by the concatenated original names.
int name_class(const FusionOp& op, const std::string& joined_originals) {
  int type = kNormal;
  if (contains_any(op.name, kQuantMarks) || contains_any(joined_originals, kQuantMarks)) {
    type += kQuant;
  }
  if (contains_any(op.name, kDequantMarks) || contains_any(joined_originals, kDequantMarks)) {
    type += kDequant;
  }
  return type;
}

// The name class confirmed by the output dtype; an unconfirmed quant-looking output counts as
// a normal one (middle when inside a pair).
int output_class(int name_type, const std::string& data_type, bool in_pairs) {
  const int fallback = in_pairs ? kMiddle : kNormal;
  const bool int8 = data_type == "DT_INT8";
  const bool fp16 = data_type == "DT_FLOAT16";
  switch (name_type) {
    case kQuant:
      return int8 ? kQuant : fallback;
    case kDequant:
      return fp16 ? kDequant : fallback;
    case kQuantDequant:
      return int8 ? kQuant : fp16 ? kDequant : fallback;
    default:
      return fallback;
  }
}

using OutputClasses = std::unordered_map<std::string, std::vector<int>>;

// Fed by an output already classified quant or middle ("P:k", split at the last ':').
bool in_pairs(const FusionOp& op, const OutputClasses& classes) {
  for (const std::string& input : op.inputs) {
    const size_t colon = input.rfind(':');
    if (colon == std::string::npos) continue;
    const std::string_view index_text = std::string_view(input).substr(colon + 1);
    bool digits = !index_text.empty();
    for (const char c : index_text) digits = digits && c >= '0' && c <= '9';
    if (!digits) continue;
    const auto found = classes.find(input.substr(0, colon));
    if (found == classes.end()) continue;
    // More digits than any output count can reach: out of range, like a big index in Python.
    if (index_text.size() > 18) continue;
    const size_t index = std::stoull(std::string(index_text));
    if (index >= found->second.size()) continue;
    const int type = found->second[index];
    if (type == kQuant || type == kMiddle) return true;
  }
  return false;
}

}  // namespace

void apply_quant_filter(FusionRule& rule) {
  OutputClasses classes;
  classes.reserve(rule.ops_.size());
  for (const int index : rule.sequence_order_) {
    FusionOp& op = rule.ops_[static_cast<size_t>(index)];
    std::string joined;
    for (const std::string& name : op.original_op_names) joined += name;
    const int name_type = name_class(op, joined);
    const bool paired = in_pairs(op, classes);
    std::vector<int>& outputs = classes[op.name];
    outputs.clear();
    bool all_dequant = true;
    for (const OutputDesc& desc : op.output_desc) {
      outputs.push_back(output_class(name_type, desc.data_type, paired));
      all_dequant = all_dequant && outputs.back() == kDequant;
    }
    op.quant_filter = paired && !all_dequant;
  }
}

}  // namespace dumpcmp
