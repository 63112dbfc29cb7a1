#pragma once
// GE graph dumps (ge_proto_<n>_<stage>.txt: ge.proto.ModelDef in protobuf text format) read as
// the atc `--mode=1` JSON of the same model, so that the one JSON reader builds the fusion rule
// and the graph list from either file (docs/formats.md §4.6).
#include <string>
#include <string_view>

#include "core/text_format.hpp"

namespace dumpcmp {

// Whether a model file is GE graph text rather than JSON: by its name (".json": no; ".txt",
// ".pbtxt", ".prototxt": yes), else by its first byte that is not white space ('{' or '[': JSON).
bool is_ge_graph_text(std::string_view path, std::string_view text);

// The JSON atc's Pb2Json would print for this ModelDef: ge_ir.proto's field names; repeated fields
// as arrays even with one entry; `attr` maps as [{"key","value"}] lists in text order; enums as
// names; black-listed fields (bt, data, size, ...) dropped; unset proto3 scalars left out; a
// singular AttrDef `s` C-escaped and a singular float as a "%g" string. Fields ge_ir.proto does not
// have are carried generically (an array when the name repeats). Throws Error(kInput)
// "NAME:LINE: problem" for a syntax error or a value of the wrong type.
std::string ge_text_to_atc_json(std::string_view text, const std::string& name_for_errors,
                                const TextLimits& limits = {});

// protobuf's CEscape: \n \r \t \" \' \\ by name, other bytes outside 0x20-0x7E as three octal
// digits. Exposed for its tests.
std::string c_escape(std::string_view bytes);

}  // namespace dumpcmp
