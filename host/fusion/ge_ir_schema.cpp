#include "fusion/ge_ir_schema.hpp"

#include <algorithm>

namespace dumpcmp {
namespace ge_ir {
namespace {

constexpr FieldSpec scalar(std::string_view name, Type type) { return {name, type, false, false}; }
constexpr FieldSpec repeated(std::string_view name, Type type) { return {name, type, true, false}; }
constexpr FieldSpec oneof(std::string_view name, Type type) { return {name, type, false, true}; }
constexpr FieldSpec message(std::string_view name, Msg m) {
  return {name, Type::kMessage, false, false, m};
}
constexpr FieldSpec messages(std::string_view name, Msg m) {
  return {name, Type::kMessage, true, false, m};
}

constexpr FieldSpec kModelFields[] = {
    scalar("name", Type::kString),           scalar("version", Type::kUInt32),
    scalar("custom_version", Type::kString), messages("graph", Msg::kGraph),
    messages("attr", Msg::kAttrEntry),
};
constexpr FieldSpec kGraphFields[] = {
    scalar("name", Type::kString),     repeated("input", Type::kString),
    repeated("output", Type::kString), messages("op", Msg::kOp),
    messages("attr", Msg::kAttrEntry),
};
constexpr FieldSpec kOpFields[] = {
    scalar("name", Type::kString),
    scalar("type", Type::kString),
    repeated("input", Type::kString),
    messages("attr", Msg::kAttrEntry),
    scalar("has_out_attr", Type::kBool),
    scalar("id", Type::kInt),
    scalar("stream_id", Type::kInt),
    repeated("input_name", Type::kString),
    repeated("src_name", Type::kString),
    repeated("src_index", Type::kInt),
    repeated("dst_name", Type::kString),
    repeated("dst_index", Type::kInt),
    repeated("input_i", Type::kInt),
    repeated("output_i", Type::kInt),
    repeated("workspace", Type::kInt),
    repeated("workspace_bytes", Type::kInt),
    repeated("is_input_const", Type::kBool),
    messages("input_desc", Msg::kTensorDesc),
    messages("output_desc", Msg::kTensorDesc),
    repeated("subgraph_name", Type::kString),
};
constexpr FieldSpec kTensorDescFields[] = {
    scalar("name", Type::kString),        scalar("dtype", Type::kDataType),
    message("shape", Msg::kShape),        scalar("layout", Type::kString),
    messages("attr", Msg::kAttrEntry),    scalar("has_out_attr", Type::kBool),
    scalar("size", Type::kInt),           scalar("weight_size", Type::kInt),
    scalar("reuse_input", Type::kBool),   scalar("output_tensor", Type::kBool),
    scalar("device_type", Type::kString), scalar("input_tensor", Type::kBool),
    scalar("real_dim_cnt", Type::kInt),   scalar("reuse_input_index", Type::kInt),
    scalar("data_offset", Type::kInt),    scalar("cmps_size", Type::kInt),
    scalar("cmps_tab", Type::kString),    scalar("cmps_tab_offset", Type::kInt),
};
constexpr FieldSpec kShapeFields[] = {repeated("dim", Type::kInt)};
constexpr FieldSpec kTensorFields[] = {message("desc", Msg::kTensorDesc),
                                       scalar("data", Type::kBytes)};
constexpr FieldSpec kAttrEntryFields[] = {
    {"key", Type::kString, false, true},  // a map entry's key is printed even when ""
    message("value", Msg::kAttr),
};
constexpr FieldSpec kAttrFields[] = {
    oneof("s", Type::kBytes),
    oneof("i", Type::kInt),
    oneof("f", Type::kFloat),
    oneof("b", Type::kBool),
    oneof("bt", Type::kBytes),
    message("list", Msg::kList),
    message("func", Msg::kNamedAttrs),
    message("td", Msg::kTensorDesc),
    message("t", Msg::kTensor),
    message("g", Msg::kGraph),
    message("list_list_int", Msg::kListListInt),
    oneof("dt", Type::kInt),
    message("list_list_float", Msg::kListListFloat),
};
constexpr FieldSpec kListFields[] = {
    repeated("s", Type::kBytes),
    repeated("i", Type::kInt),
    repeated("f", Type::kFloat),
    repeated("b", Type::kBool),
    repeated("bt", Type::kBytes),
    messages("td", Msg::kTensorDesc),
    messages("t", Msg::kTensor),
    messages("g", Msg::kGraph),
    messages("na", Msg::kNamedAttrs),
    repeated("dt", Type::kInt),
    scalar("val_type", Type::kListValueType),
};
constexpr FieldSpec kListListIntFields[] = {messages("list_list_i", Msg::kListInt)};
constexpr FieldSpec kListIntFields[] = {repeated("list_i", Type::kInt)};
constexpr FieldSpec kListListFloatFields[] = {messages("list_list_f", Msg::kListFloat)};
constexpr FieldSpec kListFloatFields[] = {repeated("list_f", Type::kFloat)};
constexpr FieldSpec kNamedAttrsFields[] = {scalar("name", Type::kString),
                                           messages("attr", Msg::kAttrEntry)};

template <size_t N>
const FieldSpec* find_in(const FieldSpec (&table)[N], std::string_view name) {
  for (const FieldSpec& spec : table) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

}  // namespace

const FieldSpec* find_field(Msg m, std::string_view name) {
  switch (m) {
    case Msg::kModel:
      return find_in(kModelFields, name);
    case Msg::kGraph:
      return find_in(kGraphFields, name);
    case Msg::kOp:
      return find_in(kOpFields, name);
    case Msg::kTensorDesc:
      return find_in(kTensorDescFields, name);
    case Msg::kShape:
      return find_in(kShapeFields, name);
    case Msg::kTensor:
      return find_in(kTensorFields, name);
    case Msg::kAttrEntry:
      return find_in(kAttrEntryFields, name);
    case Msg::kAttr:
      return find_in(kAttrFields, name);
    case Msg::kList:
      return find_in(kListFields, name);
    case Msg::kListListInt:
      return find_in(kListListIntFields, name);
    case Msg::kListInt:
      return find_in(kListIntFields, name);
    case Msg::kListListFloat:
      return find_in(kListListFloatFields, name);
    case Msg::kListFloat:
      return find_in(kListFloatFields, name);
    case Msg::kNamedAttrs:
      return find_in(kNamedAttrsFields, name);
    case Msg::kNone:
      break;
  }
  return nullptr;
}

bool black_listed(std::string_view name) {
  static constexpr std::array<std::string_view, 10> kBlack = {
      "output",      "data_offset", "data", "workspace", "workspace_bytes",
      "memory_size", "weight_size", "size", "bt",        "quantize_factor"};
  return std::find(kBlack.begin(), kBlack.end(), name) != kBlack.end();
}

}  // namespace ge_ir
}  // namespace dumpcmp
