#include "io/dump_writer.hpp"

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "dump_data.pb.h"
#include "io/proto_wire.hpp"

namespace dumpcmp {
namespace {

// A byte range to write; the file is assembled from pieces so payloads are never copied.
struct Piece {
  const void* data;
  std::size_t size;
};

void write_atomically(const std::string& path, const std::vector<Piece>& pieces) {
  AtomicFile file(path);
  for (const Piece& p : pieces) file.write(p.data, p.size);
  file.commit();
}

void set_shape(const std::string& path, const Shape& shape, wire::Shape& out) {
  for (int64_t dim : shape) {
    if (dim < 0) throw format_error(path, "cannot write negative dim " + std::to_string(dim));
    out.add_dim(static_cast<uint64_t>(dim));
  }
}

// OpAttr{name = 1, value = 2}, written by hand: field 7 is opaque bytes in the project's schema.
std::string op_attr(const std::string& name, const std::string& value) {
  std::string out;
  pb::put_bytes(out, 1, name);
  pb::put_bytes(out, 2, value);
  return out;
}

// Fills the header; with `inline_data` the bytes go into the data fields (whole-file form).
wire::DumpData make_header(const std::string& path, const DumpSpec& spec, const char* version,
                           bool inline_data) {
  wire::DumpData header;
  header.set_version(version);
  header.set_dump_time(spec.dump_time);
  header.set_op_name(spec.op_name);
  for (const TensorSpec& t : spec.inputs) {
    wire::OpInput* in = header.add_input();
    in->set_data_type(static_cast<int32_t>(t.dtype));
    in->set_format(static_cast<int32_t>(t.format));
    set_shape(path, t.shape, *in->mutable_shape());
    set_shape(path, t.original_shape, *in->mutable_original_shape());
    in->set_size(t.bytes.size());
    in->set_address(t.address);
    if (inline_data) in->set_data(t.bytes.data(), t.bytes.size());
  }
  for (const TensorSpec& t : spec.outputs) {
    wire::OpOutput* out = header.add_output();
    out->set_data_type(static_cast<int32_t>(t.dtype));
    out->set_format(static_cast<int32_t>(t.format));
    set_shape(path, t.shape, *out->mutable_shape());
    set_shape(path, t.original_shape, *out->mutable_original_shape());
    out->set_size(t.bytes.size());
    out->set_address(t.address);
    if (!t.origin_name.empty()) out->mutable_original_op()->set_name(t.origin_name);
    if (inline_data) out->set_data(t.bytes.data(), t.bytes.size());
  }
  return header;
}

std::string serialize(const std::string& path, const wire::DumpData& header) {
  std::string out;
  if (!header.SerializeToString(&out)) throw format_error(path, "cannot serialise DumpData");
  return out;
}

}  // namespace

std::string_view npy_descr(DType t) {
  switch (t) {
    case DType::kFloat16:
      return "<f2";
    case DType::kFloat:
      return "<f4";
    case DType::kDouble:
      return "<f8";
    case DType::kInt8:
      return "|i1";
    case DType::kInt16:
      return "<i2";
    case DType::kInt32:
      return "<i4";
    case DType::kInt64:
      return "<i8";
    case DType::kUInt8:
      return "|u1";
    case DType::kUInt16:
      return "<u2";
    case DType::kUInt32:
      return "<u4";
    case DType::kUInt64:
      return "<u8";
    case DType::kBool:
      return "|b1";
    case DType::kComplex64:
      return "<c8";
    case DType::kComplex128:
      return "<c16";
    default:
      return {};
  }
}

void write_binary_dump(const std::string& path, const DumpSpec& spec, const DumpAttrs& attrs) {
  wire::DumpData fields = make_header(path, spec, "2.0", false);
  for (const auto& [name, value] : attrs) fields.add_attr_or_old_space(op_attr(name, value));
  const std::string header = serialize(path, fields);
  uint8_t length[8];
  for (std::size_t i = 0; i < 8; ++i) {
    length[i] = static_cast<uint8_t>(static_cast<uint64_t>(header.size()) >> (8 * i));
  }
  std::vector<Piece> pieces{{length, sizeof length}, {header.data(), header.size()}};
  for (const auto* list : {&spec.inputs, &spec.outputs}) {
    for (const TensorSpec& t : *list) pieces.push_back({t.bytes.data(), t.bytes.size()});
  }
  write_atomically(path, pieces);
}

void write_protobuf_dump(const std::string& path, const DumpSpec& spec) {
  const std::string message = serialize(path, make_header(path, spec, "1.0", true));
  write_atomically(path, {{message.data(), message.size()}});
}

void write_npy(const std::string& path, DType dtype, const Shape& shape, const uint8_t* data,
               std::size_t nbytes) {
  const std::string_view descr = npy_descr(dtype);
  if (descr.empty()) {
    const std::string_view name = dtype_wire_name(dtype);
    throw format_error(
        path, "npy cannot hold " + (name.empty() ? "DT_" + std::to_string(static_cast<int>(dtype))
                                                 : std::string(name)));
  }
  const std::optional<int64_t> count = shape_element_count(shape);
  uint64_t expected = 0;
  if (!count ||
      __builtin_mul_overflow(static_cast<uint64_t>(*count), dtype_storage_size(dtype), &expected) ||
      expected != nbytes) {
    throw format_error(path, "npy data has " + std::to_string(nbytes) + " bytes but shape " +
                                 shape_to_string(shape) + " of " + std::string(descr) + " needs " +
                                 (count ? std::to_string(expected) : "too many"));
  }

  // numpy's own spelling: (n,) for one dim, () for a scalar.
  std::string dims;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i) dims += ", ";
    dims += std::to_string(shape[i]);
  }
  if (shape.size() == 1) dims += ',';
  std::string header =
      "{'descr': '" + std::string(descr) + "', 'fortran_order': False, 'shape': (" + dims + "), }";
  // Pad with spaces and end with '\n' so that the data starts 64-byte aligned.
  const auto padded_len = [&](std::size_t preamble) {
    return (preamble + header.size() + 1 + 63) / 64 * 64 - preamble;
  };
  const bool v1 = padded_len(10) <= 65535;  // v1.0 stores the header length in a u16
  const std::size_t len = padded_len(v1 ? 10 : 12);
  header.append(len - header.size() - 1, ' ');
  header += '\n';

  std::vector<uint8_t> head = {0x93, 'N', 'U', 'M', 'P', 'Y', static_cast<uint8_t>(v1 ? 1 : 2), 0};
  for (std::size_t i = 0; i < (v1 ? 2u : 4u); ++i)
    head.push_back(static_cast<uint8_t>(len >> (8 * i)));
  write_atomically(path,
                   {{head.data(), head.size()}, {header.data(), header.size()}, {data, nbytes}});
}

}  // namespace dumpcmp
