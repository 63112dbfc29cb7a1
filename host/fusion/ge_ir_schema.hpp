#pragma once
// ge_ir.proto (package ge.proto) as a table of its messages' fields, the ones GE's writers use:
// the schema by which GE graph text is printed as atc's JSON (ge_graph_text, docs/formats.md §4.6).
#include <array>
#include <cstdint>
#include <string_view>

namespace dumpcmp {
namespace ge_ir {

enum class Msg : uint8_t {
  kNone,  // not a ge_ir.proto message: fields are carried generically
  kModel,
  kGraph,
  kOp,
  kTensorDesc,
  kShape,
  kTensor,
  kAttrEntry,  // an entry of map<string, AttrDef>: key, value
  kAttr,
  kList,
  kListListInt,
  kListInt,
  kListListFloat,
  kListFloat,
  kNamedAttrs,
};

enum class Type : uint8_t {
  kMessage,
  kString,
  kBytes,  // a singular one is C-escaped by Pb2Json, a repeated one printed raw
  kInt,    // int64
  kUInt32,
  kFloat,
  kBool,
  kDataType,       // enum DataType
  kListValueType,  // enum AttrDef.ListValue.ListValueType
};

struct FieldSpec {
  std::string_view name;
  Type type;
  bool repeated = false;
  // Printed whenever set, even to its default: oneof members and map entry fields. Other proto3
  // scalars are printed only when not the default.
  bool presence = false;
  Msg message = Msg::kNone;
};

// The field `name` of message `m`, or nullptr (also for Msg::kNone).
const FieldSpec* find_field(Msg m, std::string_view name);

// GE's kOmBlackFields: never printed, in any message (weights, kernels, sizes).
bool black_listed(std::string_view name);

// AttrDef.ListValue.ListValueType's names, by value.
inline constexpr std::array<std::string_view, 11> kListValueTypes = {
    "VT_LIST_NONE",  "VT_LIST_STRING",      "VT_LIST_INT",         "VT_LIST_FLOAT",
    "VT_LIST_BOOL",  "VT_LIST_BYTES",       "VT_LIST_TENSOR_DESC", "VT_LIST_TENSOR",
    "VT_LIST_GRAPH", "VT_LIST_NAMED_ATTRS", "VT_LIST_DATA_TYPE"};

}  // namespace ge_ir
}  // namespace dumpcmp
