#include "io/protobuf_header.hpp"

#include <cstdint>
#include <limits>
#include <mutex>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "dump_data.pb.h"
#include "io/proto_wire.hpp"

namespace dumpcmp::io_detail {
namespace {

using DimList = google::protobuf::RepeatedField<uint64_t>;

std::string label(TensorGroup g, int index) {
  return std::string(tensor_group_name(g)) + " " + std::to_string(index);
}

std::string to_shape(const DimList& dims, Shape& out) {
  out.clear();
  out.reserve(static_cast<std::size_t>(dims.size()));
  for (uint64_t d : dims) {
    if (d > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return "dim " + std::to_string(d) + " does not fit in int64";
    }
    out.push_back(static_cast<int64_t>(d));
  }
  return {};
}

// msaccucmp (dump_data_object.py build_dump_tensor) reads DT_UNDEFINED bytes as int8 with the
// shape [size]; buffers and workspaces carry no dtype and are DT_UNDEFINED here. Its other rule, an
// empty shape with bytes becoming [size], never fires: the parsed shape object is always truthy, so
// a dump with shape [] is compared as one element (checked by running msaccucmp, 2026-11-22).
void apply_shape_rules(TensorInfo& t) {
  if (t.size == 0 || t.dtype != DType::kUndefined) return;
  const uint64_t max_dim = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  t.shape = {static_cast<int64_t>(t.size < max_dim ? t.size : max_dim)};
}

enum class Field7Kind { kAttr, kOldSpace, kMalformed };

// Field 7 is OpAttr{string name=1; string value=2} in current writers and the old metadef
// Workspace{enum type=1; bytes data_addr=2; uint64 size=3} in old ones: told apart by wire types.
// A Workspace of type LOG (0) has no field 1 on the wire (proto3 omits zeros), so a varint field 3
// with no field 1 also means Workspace; anything else with no field 1 is an OpAttr with no name.
Field7Kind classify_field7(const std::string& bytes) {
  static const std::string kWhere = "field 7";  // the reader's errors are not shown: kMalformed
  bool varint_size = false;
  try {
    pb::FieldReader reader(bytes, kWhere);
    while (!reader.done()) {
      const pb::Field f = reader.next();
      if (f.wire == pb::kStartGroup) return Field7Kind::kMalformed;  // neither message has groups
      if (f.number == 1 && f.wire == pb::kLength) return Field7Kind::kAttr;
      if (f.number == 1 && f.wire == pb::kVarint) return Field7Kind::kOldSpace;
      if (f.number == 3 && f.wire == pb::kVarint) varint_size = true;
    }
  } catch (const Error&) {
    return Field7Kind::kMalformed;
  }
  return varint_size ? Field7Kind::kOldSpace : Field7Kind::kAttr;
}

std::string add_tensor(TensorInfo t, uint64_t size_field, const std::string& data,
                       const PlaceTensor& place, std::vector<TensorInfo>& list) {
  t.index = static_cast<int>(list.size());
  std::string problem = place(t, size_field, data);
  if (!problem.empty()) return label(t.group, t.index) + ": " + problem;
  apply_shape_rules(t);
  list.push_back(std::move(t));
  return {};
}

std::string add_workspace(const wire::Workspace& w, const PlaceTensor& place, DumpFile& out) {
  TensorInfo t;
  t.group = TensorGroup::kWorkspace;
  t.dtype = DType::kUndefined;
  t.format = Format::kND;
  return add_tensor(std::move(t), w.size(), w.data(), place, out.workspaces);
}

// A fatal log is followed by google::protobuf::FatalException carrying the same message, which
// reaches the CLI like any other exception; nothing is lost by dropping the log itself.
void drop_log(google::protobuf::LogLevel, const char*, int, const std::string&) {}

}  // namespace

void quiet_protobuf_logs() {
  static std::once_flag once;
  std::call_once(once, [] { google::protobuf::SetLogHandler(&drop_log); });
}

std::string decode_dump_data(const wire::DumpData& header, const PlaceTensor& place,
                             DumpFile& out) {
  out.version = header.version();
  out.dump_time = header.dump_time();
  out.op_name = header.op_name();
  std::string problem;

  for (const wire::OpInput& in : header.input()) {
    TensorInfo t;
    t.group = TensorGroup::kInput;
    t.dtype = static_cast<DType>(in.data_type());
    t.format = static_cast<Format>(in.format());
    t.sub_format = in.sub_format();
    t.address = in.address();
    if (!(problem = to_shape(in.shape().dim(), t.shape)).empty() ||
        !(problem = to_shape(in.original_shape().dim(), t.original_shape)).empty()) {
      return label(TensorGroup::kInput, static_cast<int>(out.inputs.size())) + ": " + problem;
    }
    problem = add_tensor(std::move(t), in.size(), in.data(), place, out.inputs);
    if (!problem.empty()) return problem;
  }
  for (const wire::OpOutput& o : header.output()) {
    TensorInfo t;
    t.group = TensorGroup::kOutput;
    t.dtype = static_cast<DType>(o.data_type());
    t.format = static_cast<Format>(o.format());
    t.sub_format = o.sub_format();
    t.address = o.address();
    t.origin_name = o.original_op().name();
    t.origin_output_index = o.original_op().output_index();
    if (!(problem = to_shape(o.shape().dim(), t.shape)).empty() ||
        !(problem = to_shape(o.original_shape().dim(), t.original_shape)).empty()) {
      return label(TensorGroup::kOutput, static_cast<int>(out.outputs.size())) + ": " + problem;
    }
    problem = add_tensor(std::move(t), o.size(), o.data(), place, out.outputs);
    if (!problem.empty()) return problem;
  }
  for (const wire::OpBuffer& b : header.buffer()) {
    TensorInfo t;
    t.group = TensorGroup::kBuffer;
    t.dtype = DType::kUndefined;
    t.format = Format::kND;
    problem = add_tensor(std::move(t), b.size(), b.data(), place, out.buffers);
    if (!problem.empty()) return problem;
  }

  // Old-style workspaces in field 7 come before field 8's: no writer emits both.
  for (int i = 0; i < header.attr_or_old_space_size(); ++i) {
    const std::string& bytes = header.attr_or_old_space(i);
    const std::string where = "DumpData field 7 entry " + std::to_string(i);
    switch (classify_field7(bytes)) {
      case Field7Kind::kAttr: {
        wire::OpAttr attr;
        if (!attr.ParseFromString(bytes)) return where + " does not parse as OpAttr";
        out.attrs.emplace_back(attr.name(), attr.value());
        break;
      }
      case Field7Kind::kOldSpace: {
        wire::Workspace space;
        if (!space.ParseFromString(bytes)) return where + " does not parse as Workspace";
        problem = add_workspace(space, place, out);
        if (!problem.empty()) return problem;
        break;
      }
      case Field7Kind::kMalformed:
        return where + " is neither an OpAttr nor a Workspace message";
    }
  }
  for (const wire::Workspace& w : header.space()) {
    problem = add_workspace(w, place, out);
    if (!problem.empty()) return problem;
  }
  return {};
}

}  // namespace dumpcmp::io_detail
