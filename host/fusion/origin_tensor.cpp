// Tensor matching helpers (docs/formats.md §4.3): which ground-truth tensor an op's input or
// output maps to, following msaccucmp's get_origin_tensor / _find_pre_op / get_right_dump_data.
#include <string>
#include <string_view>

#include "fusion/fusion_messages.hpp"
#include "fusion/fusion_rule.hpp"

namespace dumpcmp {

std::optional<OriginTensor> origin_tensor(const FusionOp& op, int j, std::string& error) {
  if (op.output_desc.empty()) {
    error = msg::output_desc_empty(op.name);
    return std::nullopt;
  }
  // Quirk kept: an index past the descs falls back to desc[0].
  const size_t real =
      j >= 0 && static_cast<size_t>(j) < op.output_desc.size() ? static_cast<size_t>(j) : 0;
  const OutputDesc& desc = op.output_desc[real];
  if (desc.origin_name.empty()) {
    error = msg::origin_name_empty(op.name, j);
    return std::nullopt;
  }
  OriginTensor tensor;
  tensor.name = desc.origin_name;
  tensor.index = desc.has_origin_output_index ? desc.origin_output_index : j;
  tensor.format = desc.origin_format;
  tensor.shape = desc.origin_shape;
  return tensor;
}

namespace {

std::string_view trim(std::string_view s) {
  // Python's str.strip() on the ASCII whitespace set.
  static constexpr std::string_view kSpace = " \t\n\r\f\v\x1c\x1d\x1e\x1f";
  const size_t begin = s.find_first_not_of(kSpace);
  if (begin == std::string_view::npos) return {};
  return s.substr(begin, s.find_last_not_of(kSpace) - begin + 1);
}

// msaccucmp's get_input_tensor + get_fusion_op_list: "P:k" must split on ':' into exactly two
// parts (so "onnx::X:0" is rejected, as there), P non-empty, k all digits.
const FusionOp* producer_of(const FusionRule& rule, const FusionOp& op, int input_index,
                            int& producer_output, std::string& error) {
  if (input_index < 0 || static_cast<size_t>(input_index) >= op.inputs.size()) {
    error = msg::input_index_out_of_range(input_index, op.name, op.inputs.size());
    return nullptr;
  }
  const std::string& entry = op.inputs[static_cast<size_t>(input_index)];
  const size_t colon = entry.find(':');
  if (colon == std::string::npos || entry.find(':', colon + 1) != std::string::npos) {
    error = msg::input_not_name_and_index(entry, op.name);
    return nullptr;
  }
  const std::string_view name = trim(std::string_view(entry).substr(0, colon));
  const std::string_view index_text = trim(std::string_view(entry).substr(colon + 1));
  if (name.empty()) {
    error = msg::input_op_name_empty(entry, op.name);
    return nullptr;
  }
  bool digits = !index_text.empty();
  for (const char c : index_text) digits = digits && c >= '0' && c <= '9';
  if (!digits) {
    error = msg::input_index_not_number(entry, op.name);
    return nullptr;
  }
  if (index_text.size() > 9) {
    error = "The input index in (" + entry + ") of \"" + op.name + "\" is out of range.";
    return nullptr;
  }
  const FusionOp* producer = rule.find_op(name);
  if (producer == nullptr) {
    error = msg::op_not_in_fusion_rule(std::string(name));
    return nullptr;
  }
  producer_output = std::stoi(std::string(index_text));
  return producer;
}

bool is_pass_through(const FusionOp& op) { return op.type == "Cast" || op.type == "TransData"; }

// Follows Cast/TransData back through input `index` (msaccucmp assumes their input and output
// indexes correspond). A chain longer than the op count must revisit an op: a cycle.
const FusionOp* skip_pass_through(const FusionRule& rule, const FusionOp* op, int& index,
                                  std::string& error) {
  size_t steps = 0;
  while (op != nullptr && is_pass_through(*op)) {
    if (++steps > rule.ops().size()) {
      error = "The Cast/TransData producers starting at \"" + op->name + "\" form a cycle.";
      return nullptr;
    }
    int next_index = 0;
    op = producer_of(rule, *op, index, next_index, error);
    index = next_index;
  }
  return op;
}

}  // namespace

const FusionOp* resolve_input_producer(const FusionRule& rule, const FusionOp& op, int input_index,
                                       int& producer_output, std::string& error) {
  int index = 0;
  const FusionOp* producer = producer_of(rule, op, input_index, index, error);
  producer = skip_pass_through(rule, producer, index, error);
  if (producer != nullptr) producer_output = index;
  return producer;
}

const FusionOp* resolve_output_source(const FusionRule& rule, const FusionOp& op, int output_index,
                                      int& source_output, std::string& error) {
  int index = output_index;
  const FusionOp* source = skip_pass_through(rule, &op, index, error);
  if (source != nullptr) source_output = index;
  return source;
}

bool skips_input_compare(const FusionOp& op) {
  if (op.type == "AscendDequant") return true;
  for (const std::string_view suffix : {"_dequant_layer", "AscendDequant", "_dequant"}) {
    if (op.name.size() >= suffix.size() &&
        op.name.compare(op.name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      return true;
    }
  }
  return false;
}

bool skips_output_compare(const FusionOp& op) { return op.type == "AscendQuant"; }

bool is_inner_node(const FusionOp& op) {
  if (!op.is_multiop) return false;
  for (const OutputDesc& desc : op.output_desc) {
    if (!desc.origin_name.empty()) return false;
  }
  return true;
}

}  // namespace dumpcmp
