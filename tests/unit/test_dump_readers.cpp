// Dump file readers and writers: round trips through every writer, hand-built files for the
// layouts the writers do not produce (buffers, workspaces, field 7, nano, odd npy headers), the
// real nano dump D1, and malformed inputs that must fail with the path and a specific phrase.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "dump_data.pb.h"
#include "io/dump_file.hpp"
#include "io/dump_writer.hpp"
#include "io/inspect.hpp"
#include "support.hpp"

namespace dumpcmp {
namespace {

using testing::ScratchDir;
using testing::write_bytes;
using Bytes = std::vector<uint8_t>;

// ---------------------------------------------------------------------------------------------
// Byte builders

template <typename T>
void put_le(Bytes& out, T v) {
  for (std::size_t i = 0; i < sizeof(T); ++i) {
    out.push_back(static_cast<uint8_t>(static_cast<uint64_t>(v) >> (8 * i)));
  }
}

void append(Bytes& out, const Bytes& more) { out.insert(out.end(), more.begin(), more.end()); }
void append(Bytes& out, const std::string& more) {
  out.insert(out.end(), more.begin(), more.end());
}

Bytes pattern(std::size_t n, uint32_t seed) {
  Bytes out(n);
  uint32_t x = seed * 2654435761u + 1;
  for (auto& b : out) {
    x = x * 1664525u + 1013904223u;
    b = static_cast<uint8_t>(x >> 24);
  }
  return out;
}

Bytes slice(const DumpFile& f, const TensorInfo& t) {
  return Bytes(f.tensor_data(t), f.tensor_data(t) + t.size);
}

// Protobuf wire pieces, for messages the generated code cannot express (field 7's two shapes).
void put_varint(Bytes& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<uint8_t>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<uint8_t>(v));
}
void put_len_field(Bytes& out, uint8_t tag, const std::string& value) {
  out.push_back(tag);
  put_varint(out, value.size());
  append(out, value);
}

// A binary dump from a hand-filled header: u64 length, header, payload, then `trailing` bytes.
Bytes binary_file(const wire::DumpData& header, const Bytes& payload, std::size_t trailing = 0) {
  const std::string h = header.SerializeAsString();
  Bytes out;
  put_le<uint64_t>(out, h.size());
  append(out, h);
  append(out, payload);
  append(out, pattern(trailing, 99));
  return out;
}

// ---------------------------------------------------------------------------------------------
// Error checks

void expect_read_error(const std::string& path, const std::string& phrase) {
  try {
    (void)read_dump_file(path);
    ADD_FAILURE() << path << " was read without error; expected '" << phrase << "'";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.code(), ExitCode::kInput) << what;
    EXPECT_NE(what.find(path), std::string::npos) << what;
    EXPECT_NE(what.find(phrase), std::string::npos) << "'" << what << "' lacks '" << phrase << "'";
  }
}

// ---------------------------------------------------------------------------------------------
// Round trips through the binary and whole-protobuf writers, for every decodable dtype

std::vector<DType> decodable_dtypes() {
  std::vector<DType> out;
  for (int32_t code = 0; code <= 42; ++code) {
    if (dtype_is_decodable(static_cast<DType>(code))) out.push_back(static_cast<DType>(code));
  }
  return out;
}

DumpSpec make_spec(DType dtype) {
  const std::size_t es = dtype_storage_size(dtype);
  DumpSpec spec;
  spec.op_name = "Default/Conv2D-op" + std::to_string(static_cast<int>(dtype));
  spec.dump_time = 1700000000123456u;
  TensorSpec a{dtype, Format::kNC1HWC0, {1, 1, 2, 2, 16}, {1, 16, 2, 2}, 0x1000, "", {}};
  a.bytes = pattern(64 * es, 1);
  TensorSpec b{dtype, Format::kND, {3}, {3}, 0x2000, "", pattern(3 * es, 2)};
  TensorSpec c{dtype, Format::kFractalNZ, {1, 1, 16, 16}, {7, 9}, 0x3000, "conv1", {}};
  c.bytes = pattern(256 * es, 3);
  TensorSpec empty{dtype, Format::kND, {0, 5}, {0, 5}, 0, "conv1", {}};
  spec.inputs = {a, b};
  spec.outputs = {c, empty};
  return spec;
}

void expect_matches(const DumpFile& f, const DumpSpec& spec, uint64_t first_offset, bool packed) {
  ASSERT_EQ(f.inputs.size(), spec.inputs.size());
  ASSERT_EQ(f.outputs.size(), spec.outputs.size());
  EXPECT_EQ(f.op_name, spec.op_name);
  EXPECT_EQ(f.dump_time, spec.dump_time);
  uint64_t offset = first_offset;
  for (TensorGroup g : {TensorGroup::kInput, TensorGroup::kOutput}) {
    const auto& specs = g == TensorGroup::kInput ? spec.inputs : spec.outputs;
    const auto& infos = f.group(g);
    for (std::size_t i = 0; i < specs.size(); ++i) {
      SCOPED_TRACE(std::string(tensor_group_name(g)) + " " + std::to_string(i));
      const TensorInfo& t = infos[i];
      const TensorSpec& s = specs[i];
      EXPECT_EQ(t.group, g);
      EXPECT_EQ(t.index, static_cast<int>(i));
      EXPECT_EQ(t.dtype, s.dtype);
      EXPECT_EQ(t.format, s.format);
      // DT_UNDEFINED with bytes is read as int8 with the shape [size] (§1.6).
      const bool undefined_rule = s.dtype == DType::kUndefined && !s.bytes.empty();
      EXPECT_EQ(t.shape, undefined_rule ? Shape{static_cast<int64_t>(s.bytes.size())} : s.shape);
      EXPECT_EQ(t.original_shape, s.original_shape);
      EXPECT_EQ(t.address, s.address);
      EXPECT_EQ(t.origin_name, g == TensorGroup::kOutput ? s.origin_name : "");
      EXPECT_EQ(t.size, s.bytes.size());
      if (packed) {
        EXPECT_EQ(t.offset, offset);
        offset += t.size;
      }
      EXPECT_EQ(slice(f, t), s.bytes);
    }
  }
}

class WriterRoundTrip : public ::testing::TestWithParam<DType> {};

TEST_P(WriterRoundTrip, BinaryForm) {
  ScratchDir dir;
  const std::string path = dir.file("Conv2D.conv1.3.0.1700000000123456");
  const DumpSpec spec = make_spec(GetParam());
  write_binary_dump(path, spec);
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
  const DumpFile f = read_dump_file(path);
  EXPECT_EQ(f.encoding, DumpEncoding::kBinary);
  EXPECT_EQ(f.version, "2.0");
  EXPECT_EQ(f.path, path);
  const Bytes raw = testing::read_bytes(path);
  uint64_t header_len = 0;
  for (int i = 7; i >= 0; --i) header_len = header_len << 8 | raw[static_cast<std::size_t>(i)];
  expect_matches(f, spec, 8 + header_len, true);
  // The payloads fill the file exactly: the device writer's layout.
  EXPECT_EQ(f.outputs.back().offset + f.outputs.back().size, raw.size());
}

TEST_P(WriterRoundTrip, WholeProtobufForm) {
  ScratchDir dir;
  const std::string path = dir.file("Conv2D.conv1.3.0.1700000000123456");
  const DumpSpec spec = make_spec(GetParam());
  write_protobuf_dump(path, spec);
  const DumpFile f = read_dump_file(path);
  EXPECT_EQ(f.encoding, DumpEncoding::kProtobuf);
  EXPECT_EQ(f.version, "1.0");
  expect_matches(f, spec, 0, false);
}

INSTANTIATE_TEST_SUITE_P(DecodableDTypes, WriterRoundTrip, ::testing::ValuesIn(decodable_dtypes()),
                         [](const ::testing::TestParamInfo<DType>& param_info) {
                           return std::string(dtype_wire_name(param_info.param));
                         });

// ---------------------------------------------------------------------------------------------
// Binary form details

TEST(BinaryDump, OffsetsCoverBuffersAndWorkspacesAndToleratesTrailingBytes) {
  wire::DumpData h;
  h.set_version("2.0");
  h.set_op_name("Add");
  auto* in = h.add_input();
  in->set_data_type(1);
  in->mutable_shape()->add_dim(1);
  in->set_size(5);
  for (uint64_t size : {3u, 7u}) {
    auto* out = h.add_output();
    out->set_data_type(3);
    out->mutable_shape()->add_dim(size);
    out->set_size(size);
  }
  h.add_buffer()->set_size(11);
  h.add_space()->set_size(13);
  const Bytes payload = pattern(5 + 3 + 7 + 11 + 13, 7);

  ScratchDir dir;
  const std::string path = dir.file("Add.add.1.2.3");
  write_bytes(path, binary_file(h, payload, 17));
  const DumpFile f = read_dump_file(path);
  const uint64_t base = 8 + h.ByteSizeLong();
  const std::vector<std::pair<const TensorInfo*, uint64_t>> expected = {
      {&f.inputs.at(0), 0},   {&f.outputs.at(0), 5},     {&f.outputs.at(1), 8},
      {&f.buffers.at(0), 15}, {&f.workspaces.at(0), 26},
  };
  for (const auto& [t, rel] : expected) {
    EXPECT_EQ(t->offset, base + rel);
    EXPECT_EQ(slice(f, *t), Bytes(payload.begin() + static_cast<long>(rel),
                                  payload.begin() + static_cast<long>(rel + t->size)));
  }
  EXPECT_EQ(f.outputs[1].index, 1);
  EXPECT_EQ(f.buffers[0].group, TensorGroup::kBuffer);
  EXPECT_EQ(f.workspaces[0].group, TensorGroup::kWorkspace);
  // Buffers and workspaces carry no dtype or shape: DT_UNDEFINED, read as [size] int8.
  EXPECT_EQ(f.buffers[0].dtype, DType::kUndefined);
  EXPECT_EQ(f.buffers[0].shape, Shape{11});
  EXPECT_EQ(f.workspaces[0].shape, Shape{13});
}

TEST(BinaryDump, EmptyShapeStaysAndUndefinedBecomesSize) {
  wire::DumpData h;
  h.set_version("2.0");
  auto* scalar = h.add_output();  // fp32, no shape, 4 bytes: msaccucmp compares one element
  scalar->set_data_type(1);
  scalar->set_size(4);
  auto* undefined = h.add_output();  // DT_UNDEFINED keeps no shape of its own
  undefined->set_data_type(0);
  undefined->mutable_shape()->add_dim(2);
  undefined->mutable_shape()->add_dim(3);
  undefined->set_size(6);
  auto* nothing = h.add_output();  // no bytes: the empty shape stays
  nothing->set_data_type(1);

  ScratchDir dir;
  const std::string path = dir.file("x.y.0.0.1");
  write_bytes(path, binary_file(h, pattern(10, 1)));
  const DumpFile f = read_dump_file(path);
  EXPECT_EQ(f.outputs.at(0).shape, Shape{});
  EXPECT_EQ(f.outputs.at(1).shape, Shape{6});
  EXPECT_EQ(f.outputs.at(2).shape, Shape{});
}

TEST(BinaryDump, UnknownEnumCodesAndFieldsSurvive) {
  wire::DumpData h;
  h.set_version("2.0");
  auto* out = h.add_output();
  out->set_data_type(77);
  out->set_format(300);
  out->set_sub_format(-5);
  out->mutable_shape()->add_dim(2);
  out->set_size(2);
  out->mutable_original_op()->set_name("orig");
  out->mutable_original_op()->set_output_index(3);
  std::string header = h.SerializeAsString();
  header += std::string("\xA0\x06\x2A", 3);  // unknown field 100, varint 42
  Bytes file;
  put_le<uint64_t>(file, header.size());
  append(file, header);
  append(file, pattern(2, 1));

  ScratchDir dir;
  const std::string path = dir.file("a.b.0.0.1");
  write_bytes(path, file);
  const DumpFile f = read_dump_file(path);
  const TensorInfo& t = f.outputs.at(0);
  EXPECT_EQ(static_cast<int>(t.dtype), 77);
  EXPECT_EQ(static_cast<int>(t.format), 300);
  EXPECT_EQ(t.sub_format, -5);
  EXPECT_EQ(t.origin_output_index, 3u);
  EXPECT_NE(describe_dump_table(f).find("DT_77"), std::string::npos);
}

// Field 7 is OpAttr{name=1, value=2} now and Workspace{type=1 varint, data=2, size=3} in the old
// metadef proto; the reader tells them apart on the wire.
TEST(BinaryDump, Field7AttrsAndOldStyleWorkspaces) {
  Bytes attr;
  put_len_field(attr, 0x0A, "threadMode");
  put_len_field(attr, 0x12, "{\"threadMode\": 1}");
  Bytes unnamed_attr;  // only a value: OpAttr with an empty name
  put_len_field(unnamed_attr, 0x12, "v");
  Bytes old_space;  // type LOG written explicitly, size 6
  old_space.push_back(0x08);
  put_varint(old_space, 0);
  old_space.push_back(0x18);
  put_varint(old_space, 6);
  Bytes old_space_implicit;  // type LOG omitted, as proto3 writers do; size 4
  old_space_implicit.push_back(0x18);
  put_varint(old_space_implicit, 4);

  wire::DumpData h;
  h.set_version("2.0");
  auto* out = h.add_output();
  out->set_data_type(4);
  out->mutable_shape()->add_dim(3);
  out->set_size(3);
  for (const Bytes* b : {&attr, &old_space, &unnamed_attr, &old_space_implicit}) {
    h.add_attr_or_old_space(std::string(b->begin(), b->end()));
  }
  h.add_space()->set_size(2);  // field 8 workspaces follow field 7's
  const Bytes payload = pattern(3 + 6 + 4 + 2, 5);

  ScratchDir dir;
  const std::string path = dir.file("a.b.0.0.1");
  write_bytes(path, binary_file(h, payload));
  const DumpFile f = read_dump_file(path);
  ASSERT_EQ(f.attrs.size(), 2u);
  EXPECT_EQ(f.attrs[0].first, "threadMode");
  EXPECT_EQ(f.attrs[0].second, "{\"threadMode\": 1}");
  EXPECT_EQ(f.attrs[1].first, "");
  EXPECT_EQ(f.attrs[1].second, "v");
  ASSERT_EQ(f.workspaces.size(), 3u);
  const uint64_t base = 8 + h.ByteSizeLong();
  const uint64_t sizes[] = {6, 4, 2};
  uint64_t rel = 3;
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(f.workspaces[i].index, static_cast<int>(i));
    EXPECT_EQ(f.workspaces[i].size, sizes[i]);
    EXPECT_EQ(f.workspaces[i].offset, base + rel);
    rel += sizes[i];
  }
}

TEST(BinaryDump, MalformedField7EntryIsReported) {
  wire::DumpData h;
  h.set_version("2.0");
  h.add_attr_or_old_space(std::string("\x0F\x01", 2));  // wire type 7 does not exist
  h.add_output()->set_size(1);
  ScratchDir dir;
  const std::string path = dir.file("a.b.0.0.1");
  write_bytes(path, binary_file(h, pattern(1, 1)));
  expect_read_error(path, "field 7 entry 0 is neither an OpAttr nor a Workspace");
}

// ---------------------------------------------------------------------------------------------
// Nano form

struct NanoTensor {
  int32_t dtype = 1;
  int32_t format = 2;
  std::vector<uint64_t> shape;
  std::vector<uint64_t> original_shape;
  std::string origin_name;
  uint64_t size = 0;
};

void put_sub_tlv(Bytes& out, uint32_t tag, const Bytes& value) {
  put_le<uint32_t>(out, tag);
  put_le<uint32_t>(out, static_cast<uint32_t>(value.size()));
  append(out, value);
}

Bytes dims_bytes(const std::vector<uint64_t>& dims) {
  Bytes out;
  for (uint64_t d : dims) put_le<uint64_t>(out, d);
  return out;
}

Bytes nano_list(const std::vector<NanoTensor>& tensors, bool output) {
  Bytes value;
  put_le<uint32_t>(value, static_cast<uint32_t>(tensors.size()));
  for (const NanoTensor& t : tensors) {
    put_le<int32_t>(value, t.dtype);
    put_le<int32_t>(value, t.format);
    put_le<int32_t>(value, 3);  // address_type
    if (output) {
      put_le<int32_t>(value, 0);  // original_index
      put_le<int32_t>(value, t.dtype);
      put_le<int32_t>(value, t.format);
    }
    put_le<uint64_t>(value, 0x12340000);  // address
    put_le<uint64_t>(value, 0);           // device offset
    put_le<uint64_t>(value, t.size);
    Bytes subs;
    put_sub_tlv(subs, 0, dims_bytes(t.shape));
    put_sub_tlv(subs, 1, dims_bytes(t.original_shape));
    if (output) put_sub_tlv(subs, 2, Bytes(t.origin_name.begin(), t.origin_name.end()));
    put_sub_tlv(subs, 9, {1, 2, 3});  // an unknown sub-TLV is skipped
    put_le<uint32_t>(value, static_cast<uint32_t>(subs.size()));
    append(value, subs);
  }
  return value;
}

Bytes nano_file(const std::vector<NanoTensor>& ins, const std::vector<NanoTensor>& outs,
                std::size_t payload_bytes) {
  Bytes head;
  put_le<uint32_t>(head, 0x5A5A5A5A);
  put_le<uint32_t>(head, 7);  // version
  put_sub_tlv(head, 4, nano_list(ins, false));
  put_sub_tlv(head, 5, nano_list(outs, true));
  Bytes file;
  put_le<uint64_t>(file, head.size());
  append(file, head);
  append(file, pattern(payload_bytes, 11));
  return file;
}

TEST(NanoDump, RealConcatV2DFile) {
  const std::string path = std::string(DUMPCMP_REALDATA_DIR) +
                           "/msprobe/test/msprobe_test/msaccucmp_ut/resource/"
                           "ConcatV2D.concatv2.0.0.550288648";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "real data absent: " << path;
  const DumpFile f = read_dump_file(path);
  EXPECT_EQ(f.encoding, DumpEncoding::kNano);
  EXPECT_EQ(f.op_name, "concatv2");
  EXPECT_EQ(f.dump_time, 550288648u);
  ASSERT_EQ(f.inputs.size(), 2u);
  ASSERT_EQ(f.outputs.size(), 1u);
  EXPECT_EQ(f.inputs[0].dtype, DType::kFloat16);
  EXPECT_EQ(f.inputs[1].dtype, DType::kFloat16);
  EXPECT_EQ(f.outputs[0].dtype, DType::kFloat16);
  EXPECT_EQ(f.inputs[0].shape, (Shape{1, 14652}));
  EXPECT_EQ(f.inputs[1].shape, (Shape{1, 30}));
  EXPECT_EQ(f.outputs[0].shape, (Shape{1, 14682}));
  EXPECT_EQ(f.inputs[0].original_shape, (Shape{1, 14652}));
  EXPECT_EQ(f.outputs[0].origin_name, "concatv2");
  EXPECT_EQ(f.inputs[0].size, 29304u);
  EXPECT_EQ(f.inputs[0].offset, 332u);
  Bytes concat = slice(f, f.inputs[0]);
  append(concat, slice(f, f.inputs[1]));
  EXPECT_EQ(slice(f, f.outputs[0]), concat);
}

TEST(NanoDump, SyntheticFileMapsDTypesAndOffsets) {
  NanoTensor in0{0, 2, {2, 3}, {6}, "", 24};       // nano 0 = FLOAT
  NanoTensor in1{23, 2, {4}, {4}, "", 32};         // nano 23 (RESOURCE) = INT64
  NanoTensor out0{28, 2, {5}, {5}, "orig/op", 5};  // nano 28 (UNDEFINED): unmapped
  ScratchDir dir;
  const std::string path = dir.file("Op.my_op.1.2.12345");
  const Bytes file = nano_file({in0, in1}, {out0}, 24 + 32 + 5);
  write_bytes(path, file);
  const DumpFile f = read_dump_file(path);
  EXPECT_EQ(f.version, "7");
  EXPECT_EQ(f.op_name, "my_op");
  EXPECT_EQ(f.inputs.at(0).dtype, DType::kFloat);
  EXPECT_EQ(f.inputs.at(0).original_shape, Shape{6});
  EXPECT_EQ(f.inputs.at(1).dtype, DType::kInt64);
  EXPECT_FALSE(dtype_is_decodable(f.outputs.at(0).dtype));
  EXPECT_EQ(static_cast<int>(f.outputs.at(0).dtype), 1028);
  EXPECT_EQ(f.outputs.at(0).origin_name, "orig/op");
  const uint64_t data_start = file.size() - (24 + 32 + 5);
  EXPECT_EQ(f.inputs[0].offset, data_start);
  EXPECT_EQ(f.inputs[1].offset, data_start + 24);
  EXPECT_EQ(f.outputs[0].offset, data_start + 56);
  EXPECT_EQ(f.outputs[0].offset + f.outputs[0].size, file.size());
}

// ---------------------------------------------------------------------------------------------
// .npy

// An npy file from its parts; the header is padded with spaces to `align` (0: no padding).
Bytes npy_file(uint8_t major, const std::string& header, const Bytes& data, std::size_t align) {
  const std::size_t preamble = major == 1 ? 10 : 12;
  std::string text = header;
  if (align != 0) {
    while ((preamble + text.size() + 1) % align != 0) text += ' ';
  }
  text += '\n';
  Bytes out = {0x93, 'N', 'U', 'M', 'P', 'Y', major, 0};
  if (major == 1) {
    put_le<uint16_t>(out, static_cast<uint16_t>(text.size()));
  } else {
    put_le<uint32_t>(out, static_cast<uint32_t>(text.size()));
  }
  append(out, text);
  append(out, data);
  return out;
}

struct NpyDtypeCase {
  const char* descr;
  DType dtype;
  std::size_t size;
};

TEST(Npy, EveryAcceptedDescr) {
  const NpyDtypeCase cases[] = {
      {"<f2", DType::kFloat16, 2},   {"<f4", DType::kFloat, 4},        {"<f8", DType::kDouble, 8},
      {"|i1", DType::kInt8, 1},      {"<i2", DType::kInt16, 2},        {"<i4", DType::kInt32, 4},
      {"<i8", DType::kInt64, 8},     {"|u1", DType::kUInt8, 1},        {"<u2", DType::kUInt16, 2},
      {"<u4", DType::kUInt32, 4},    {"<u8", DType::kUInt64, 8},       {"|b1", DType::kBool, 1},
      {"<c8", DType::kComplex64, 8}, {"<c16", DType::kComplex128, 16}, {"=f4", DType::kFloat, 4},
      {"=i8", DType::kInt64, 8},     {"<i1", DType::kInt8, 1},         {"=u1", DType::kUInt8, 1},
      {">b1", DType::kBool, 1},      {"|f8", DType::kDouble, 8},
  };
  ScratchDir dir;
  for (const NpyDtypeCase& c : cases) {
    SCOPED_TRACE(c.descr);
    const std::string path = dir.file(std::string("t") + std::to_string(&c - cases) + ".npy");
    const Bytes data = pattern(6 * c.size, 3);
    write_bytes(path, npy_file(1,
                               std::string("{'descr': '") + c.descr +
                                   "', 'fortran_order': False, 'shape': (2, 3), }",
                               data, 64));
    const DumpFile f = read_dump_file(path);
    EXPECT_EQ(f.encoding, DumpEncoding::kNpy);
    ASSERT_EQ(f.outputs.size(), 1u);
    EXPECT_TRUE(f.inputs.empty());
    EXPECT_EQ(f.outputs[0].dtype, c.dtype);
    EXPECT_EQ(f.outputs[0].format, Format::kND);
    EXPECT_EQ(f.outputs[0].shape, (Shape{2, 3}));
    EXPECT_EQ(f.outputs[0].size, data.size());
    EXPECT_EQ(f.outputs[0].offset, 128u);  // as numpy pads it
    EXPECT_EQ(slice(f, f.outputs[0]), data);
  }
}

TEST(Npy, RejectedDescrs) {
  const std::pair<const char*, const char*> cases[] = {
      {"'>f4'", "big-endian descr '>f4'"},
      {"'>i8'", "big-endian descr '>i8'"},
      {"'|O'", "object arrays"},
      {"'<V2'", "void/record descr '<V2'"},
      {"[('a', '<f4'), ('b', '<i4')]", "structured (record) dtypes"},
      {"'<U3'", "unsupported descr '<U3'"},
      {"'<M8[ns]'", "unsupported descr '<M8[ns]'"},
      {"'<f16'", "unsupported descr '<f16'"},
  };
  ScratchDir dir;
  int n = 0;
  for (const auto& [descr, phrase] : cases) {
    const std::string path = dir.file("r" + std::to_string(n++) + ".npy");
    write_bytes(path, npy_file(1,
                               std::string("{'descr': ") + descr +
                                   ", 'fortran_order': False, 'shape': (4,), }",
                               pattern(64, 1), 64));
    expect_read_error(path, phrase);
  }
}

TEST(Npy, VersionsKeyOrderWhitespaceAndAlignment) {
  struct Case {
    uint8_t major;
    std::string header;
    std::size_t align;
  };
  const Case cases[] = {
      {1, "{'descr': '<i4', 'fortran_order': False, 'shape': (3, 2), }", 64},
      {1, "{'descr':'<i4','fortran_order':False,'shape':(3,2)}", 16},
      {2, "{'shape': (3, 2), 'fortran_order': False, 'descr': '<i4'}", 64},
      {3, "{ \"descr\" : \"<i4\" ,\n 'shape' : ( 3 , 2 , ) , 'fortran_order' : False , }", 0},
      {1, "{'descr': '<i4', 'fortran_order': False, 'shape': (3L, 2L), }", 0},
  };
  ScratchDir dir;
  const Bytes data = pattern(24, 4);
  int n = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.header);
    const std::string path = dir.file("v" + std::to_string(n++) + ".npy");
    const Bytes file = npy_file(c.major, c.header, data, c.align);
    write_bytes(path, file);
    const DumpFile f = read_dump_file(path);
    EXPECT_EQ(f.version, std::to_string(c.major) + ".0");
    EXPECT_EQ(f.outputs.at(0).shape, (Shape{3, 2}));
    EXPECT_EQ(f.outputs.at(0).offset, file.size() - data.size());
    EXPECT_EQ(slice(f, f.outputs.at(0)), data);
  }
}

TEST(Npy, ScalarAndEmptyShapes) {
  ScratchDir dir;
  const std::string scalar = dir.file("s.npy");
  write_bytes(scalar, npy_file(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (), }",
                               pattern(8, 1), 64));
  const DumpFile s = read_dump_file(scalar);
  EXPECT_EQ(s.outputs.at(0).shape, Shape{});  // npy scalars keep the empty shape
  EXPECT_EQ(s.outputs.at(0).size, 8u);

  const std::string empty = dir.file("e.npy");
  write_bytes(empty,
              npy_file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 3), }", {}, 64));
  const DumpFile e = read_dump_file(empty);
  EXPECT_EQ(e.outputs.at(0).shape, (Shape{0, 3}));
  EXPECT_EQ(e.outputs.at(0).size, 0u);
}

TEST(Npy, FortranOrderComesBackInCOrder) {
  // Logical array a[i][j][k] = 100*i + 10*j + k with shape (2, 3, 4), stored column-major.
  const int64_t d0 = 2, d1 = 3, d2 = 4;
  Bytes fortran;
  for (int64_t k = 0; k < d2; ++k) {
    for (int64_t j = 0; j < d1; ++j) {
      for (int64_t i = 0; i < d0; ++i)
        put_le<int16_t>(fortran, static_cast<int16_t>(100 * i + 10 * j + k));
    }
  }
  Bytes c_order;
  for (int64_t i = 0; i < d0; ++i) {
    for (int64_t j = 0; j < d1; ++j) {
      for (int64_t k = 0; k < d2; ++k)
        put_le<int16_t>(c_order, static_cast<int16_t>(100 * i + 10 * j + k));
    }
  }
  ScratchDir dir;
  const std::string path = dir.file("f.npy");
  write_bytes(path, npy_file(1, "{'descr': '<i2', 'fortran_order': True, 'shape': (2, 3, 4), }",
                             fortran, 64));
  const DumpFile f = read_dump_file(path);
  EXPECT_EQ(f.outputs.at(0).shape, (Shape{2, 3, 4}));
  EXPECT_EQ(slice(f, f.outputs.at(0)), c_order);

  // One dimension: Fortran and C order are the same bytes.
  const std::string one = dir.file("f1.npy");
  write_bytes(
      one, npy_file(1, "{'descr': '<i2', 'fortran_order': True, 'shape': (24,), }", fortran, 64));
  const DumpFile f1 = read_dump_file(one);
  EXPECT_EQ(slice(f1, f1.outputs.at(0)), fortran);
}

TEST(Npy, WriterRoundTripsEveryNpyDtype) {
  const DType types[] = {DType::kFloat16,   DType::kFloat,     DType::kDouble, DType::kInt8,
                         DType::kInt16,     DType::kInt32,     DType::kInt64,  DType::kUInt8,
                         DType::kUInt16,    DType::kUInt32,    DType::kUInt64, DType::kBool,
                         DType::kComplex64, DType::kComplex128};
  const Shape shapes[] = {{}, {0}, {7}, {2, 3, 4}, {1, 1, 1, 1, 1, 1, 5}};
  ScratchDir dir;
  for (DType t : types) {
    for (const Shape& shape : shapes) {
      SCOPED_TRACE(std::string(dtype_wire_name(t)) + " " + shape_to_string(shape));
      const std::string path = dir.file("w.npy");
      const std::size_t n = static_cast<std::size_t>(*shape_element_count(shape));
      const Bytes data = pattern(n * dtype_storage_size(t), 9);
      write_npy(path, t, shape, data.data(), data.size());
      EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
      const Bytes raw = testing::read_bytes(path);
      EXPECT_EQ((raw.size() - data.size()) % 64, 0u);  // data 64-byte aligned
      EXPECT_EQ(raw[6], 1);                            // v1.0
      const DumpFile f = read_dump_file(path);
      EXPECT_EQ(f.outputs.at(0).dtype, t);
      EXPECT_EQ(f.outputs.at(0).shape, shape);
      EXPECT_EQ(slice(f, f.outputs.at(0)), data);
    }
  }
}

TEST(Npy, WriterRejectsWhatNpyCannotHold) {
  ScratchDir dir;
  const std::string path = dir.file("bad.npy");
  const Bytes data(4);
  for (DType t : {DType::kBFloat16, DType::kFloat8E4M3FN, DType::kHiFloat8, DType::kUndefined}) {
    try {
      write_npy(path, t, {2}, data.data(), data.size());
      ADD_FAILURE() << "wrote " << dtype_wire_name(t);
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("npy cannot hold " + std::string(dtype_wire_name(t))),
                std::string::npos)
          << e.what();
    }
  }
  EXPECT_THROW(write_npy(path, DType::kFloat, {3}, data.data(), data.size()), Error);
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
}

// ---------------------------------------------------------------------------------------------
// Malformed inputs

TEST(BadInput, EachFailsWithPathAndSpecificPhrase) {
  ScratchDir dir;
  const auto make = [&](const std::string& name, const Bytes& bytes) {
    const std::string path = dir.file(name);
    write_bytes(path, bytes);
    return path;
  };

  expect_read_error(make("Op.empty.0.0.1", {}), "empty file");
  expect_read_error(make("empty.npy", {}), "empty file");
  expect_read_error(make("Op.tiny.0.0.1", {1, 2, 3}), "file has 3 bytes");

  Bytes past_end;
  put_le<uint64_t>(past_end, 4096);
  append(past_end, pattern(92, 1));
  expect_read_error(make("Op.past.0.0.1", past_end), "header length 4096 exceeds file size 100");

  Bytes garbage;
  put_le<uint64_t>(garbage, 6);
  append(garbage, Bytes{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF});
  expect_read_error(make("Op.garbage.0.0.1", garbage),
                    "DumpData header does not parse as protobuf");

  wire::DumpData h;
  h.set_version("2.0");
  h.add_input()->set_size(700);
  h.add_output()->set_size(500);
  expect_read_error(make("Op.trunc.0.0.1", binary_file(h, pattern(1000, 2))),
                    "tensor payloads need 1200 bytes but only 1000 follow the header");

  NanoTensor t{1, 2, {4}, {4}, "x", 8};
  expect_read_error(make("Op.nano.0.0.1", nano_file({t}, {t}, 15)), "file size");
  expect_read_error(make("Op.nano.0.0.1", nano_file({t}, {t}, 15)), "does not match");
  expect_read_error(make("Op.nano.0.0.2", nano_file({t}, {t}, 17)), "does not match");
  expect_read_error(make("nano.short", nano_file({t}, {t}, 16)), "at least 5 dot-separated fields");
  Bytes cut = nano_file({t}, {t}, 16);
  cut[8 + 8 + 4] = 0xFF;  // input TLV length now runs past the header
  expect_read_error(make("Op.cut.0.0.1", cut), "overruns the header");

  expect_read_error(
      make("trunc.npy", npy_file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }",
                                 pattern(23, 1), 64)),
      "npy data is truncated");
  Bytes bad_magic =
      npy_file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", pattern(4, 1), 64);
  bad_magic[1] = 'X';
  expect_read_error(make("magic.npy", bad_magic), "not an npy file (bad magic)");
  expect_read_error(
      make("ver.npy", npy_file(4, "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }",
                               pattern(4, 1), 64)),
      "unsupported npy format version 4.0");
  expect_read_error(
      make("keys.npy", npy_file(1, "{'descr': '<f4', 'shape': (1,), }", pattern(4, 1), 64)),
      "lacks one of");
  expect_read_error(
      make("extra.npy",
           npy_file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1}",
                    pattern(4, 1), 64)),
      "unexpected key 'x'");
  expect_read_error(
      make("syntax.npy", npy_file(1, "{'descr': '<f4', 'shape': (1,", pattern(4, 1), 0)),
      "npy header");
  Bytes npy_past_end = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, 0xFF, 0x00, '{'};
  expect_read_error(make("len.npy", npy_past_end), "npy header length 255 exceeds file size");
  expect_read_error(dir.file("missing.bin"), "cannot open");
}

TEST(BadInput, GarbageThatIsNotEvenProtobufReportsTheBinaryProblem) {
  // Header length 4 points at bytes that parse, but the payload is short; the whole-file
  // protobuf fallback does not parse either, so the binary form's problem is reported.
  wire::DumpData h;
  h.add_output()->set_size(50);
  ScratchDir dir;
  const std::string path = dir.file("Op.x.0.0.1");
  write_bytes(path, binary_file(h, pattern(10, 3)));
  expect_read_error(path, "tensor payloads need 50 bytes but only 10 follow the header");
}

// Every truncation and many single-byte corruptions of a valid file of each form either read or
// throw dumpcmp::Error: no crash, no other exception (run under ASan/UBSan in CI).
TEST(BadInput, TruncationsAndCorruptionsOnlyThrowError) {
  wire::DumpData h;
  h.set_version("2.0");
  h.set_op_name("op");
  auto* in = h.add_input();
  in->set_data_type(1);
  in->mutable_shape()->add_dim(2);
  in->set_size(8);
  auto* out = h.add_output();
  out->set_data_type(2);
  out->mutable_shape()->add_dim(3);
  out->set_size(6);
  out->mutable_original_op()->set_name("orig");
  h.add_attr_or_old_space(std::string("\x18\x02", 2));
  h.add_space()->set_size(2);
  DumpSpec spec = make_spec(DType::kFloat);
  spec.inputs.resize(1);
  const NanoTensor t{1, 2, {2, 2}, {4}, "name", 8};
  const std::pair<std::string, Bytes> seeds[] = {
      {"Op.bin.0.0.1", binary_file(h, pattern(18, 1))},
      {"Op.nano.0.0.1", nano_file({t}, {t, t}, 24)},
      {"f.npy", npy_file(1, "{'descr': '<i2', 'fortran_order': True, 'shape': (2, 3), }",
                         pattern(12, 1), 64)},
  };
  ScratchDir dir;
  const std::string proto_path = dir.file("proto");
  write_protobuf_dump(proto_path, spec);
  std::vector<std::pair<std::string, Bytes>> all(std::begin(seeds), std::end(seeds));
  all.emplace_back("Op.proto.0.0.1", testing::read_bytes(proto_path));

  int reads = 0;
  const auto attempt = [&](const std::string& name, const Bytes& bytes) {
    const std::string path = dir.file(name);
    write_bytes(path, bytes);
    try {
      const DumpFile f = read_dump_file(path);
      for (TensorGroup g : {TensorGroup::kInput, TensorGroup::kOutput, TensorGroup::kBuffer,
                            TensorGroup::kWorkspace}) {
        for (const TensorInfo& info : f.group(g)) {
          ASSERT_LE(info.offset + info.size, f.bytes->size()) << name;
        }
      }
      ++reads;
    } catch (const Error&) {
    }
  };
  for (const auto& [name, seed] : all) {
    for (std::size_t len = 0; len < seed.size(); ++len) {
      attempt(name, Bytes(seed.begin(), seed.begin() + static_cast<long>(len)));
    }
    for (std::size_t pos = 0; pos < seed.size(); ++pos) {
      for (uint8_t value : {uint8_t{0x00}, uint8_t{0x7F}, uint8_t{0x80}, uint8_t{0xFF}}) {
        Bytes bad = seed;
        bad[pos] = value;
        attempt(name, bad);
      }
    }
  }
  EXPECT_GT(reads, 0);  // some corruptions (payload bytes) still read
}

// ---------------------------------------------------------------------------------------------
// inspect

// Minimal JSON syntax check (RFC 8259 grammar, no semantic checks).
class JsonChecker {
 public:
  explicit JsonChecker(const std::string& s) : s_(s) {}
  bool valid() {
    ws();
    if (!value()) return false;
    ws();
    return i_ == s_.size();
  }

 private:
  void ws() {
    while (i_ < s_.size() && std::strchr(" \t\r\n", s_[i_]) && s_[i_] != '\0') ++i_;
  }
  bool lit(const char* w) {
    const std::size_t n = std::strlen(w);
    if (s_.compare(i_, n, w) != 0) return false;
    i_ += n;
    return true;
  }
  bool value() {
    ws();
    if (i_ >= s_.size()) return false;
    const char c = s_[i_];
    if (c == '{') return container('}', true);
    if (c == '[') return container(']', false);
    if (c == '"') return string();
    if (c == '-' || (c >= '0' && c <= '9')) return number();
    return lit("true") || lit("false") || lit("null");
  }
  bool container(char close, bool object) {
    ++i_;
    ws();
    if (i_ < s_.size() && s_[i_] == close) return ++i_, true;
    for (;;) {
      ws();
      if (object) {
        if (!string()) return false;
        ws();
        if (i_ >= s_.size() || s_[i_++] != ':') return false;
      }
      if (!value()) return false;
      ws();
      if (i_ >= s_.size()) return false;
      if (s_[i_] == close) return ++i_, true;
      if (s_[i_++] != ',') return false;
    }
  }
  bool string() {
    if (i_ >= s_.size() || s_[i_] != '"') return false;
    for (++i_; i_ < s_.size(); ++i_) {
      const auto c = static_cast<unsigned char>(s_[i_]);
      if (c == '"') return ++i_, true;
      if (c < 0x20) return false;
      if (c == '\\') {
        ++i_;
        if (i_ >= s_.size()) return false;
        if (s_[i_] == 'u') {
          for (int k = 0; k < 4; ++k) {
            if (++i_ >= s_.size() || !std::isxdigit(static_cast<unsigned char>(s_[i_]))) {
              return false;
            }
          }
        } else if (!std::strchr("\"\\/bfnrt", s_[i_])) {
          return false;
        }
      }
    }
    return false;
  }
  bool number() {
    const std::size_t start = i_;
    if (s_[i_] == '-') ++i_;
    while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
    return i_ > start;
  }
  const std::string& s_;
  std::size_t i_ = 0;
};

TEST(Inspect, TableAndJsonDescribeEveryTensor) {
  DumpSpec spec = make_spec(DType::kFloat16);
  spec.op_name = "quote\" back\\slash \x01 utf8 \xe4\xb8\xad";
  ScratchDir dir;
  const std::string path = dir.file("Conv2D.conv1.3.0.1");
  write_binary_dump(path, spec);
  DumpFile f = read_dump_file(path);
  // proto3 refuses invalid UTF-8 in string fields, so that case goes in after reading.
  f.outputs[0].origin_name = "bad\xff";

  const std::string table = describe_dump_table(f);
  EXPECT_NE(table.find("encoding: binary"), std::string::npos) << table;
  EXPECT_NE(table.find("version: 2.0"), std::string::npos);
  EXPECT_NE(table.find("dump_time: 1700000000123456"), std::string::npos);
  EXPECT_NE(table.find("DT_FLOAT16"), std::string::npos);
  EXPECT_NE(table.find("NC1HWC0"), std::string::npos);
  EXPECT_NE(table.find("[1,1,2,2,16]"), std::string::npos);
  EXPECT_NE(table.find("0x3000"), std::string::npos);
  EXPECT_NE(table.find("conv1"), std::string::npos);
  EXPECT_NE(table.find("op: quote\" back\\slash \\x01 utf8"), std::string::npos) << table;
  // Header lines, a column-title line, then one line per tensor, columns aligned.
  std::vector<std::string> lines;
  for (std::size_t pos = 0, next; pos < table.size(); pos = next + 1) {
    next = table.find('\n', pos);
    lines.push_back(table.substr(pos, next - pos));
  }
  ASSERT_EQ(lines.size(), 2u + 1u + 4u);
  const std::size_t dtype_col = lines[2].find("dtype");
  for (std::size_t i = 3; i < lines.size(); ++i) EXPECT_EQ(lines[i].find("DT_FLOAT16"), dtype_col);

  const std::string json = describe_dump_json(f);
  EXPECT_TRUE(JsonChecker(json).valid()) << json;
  EXPECT_NE(json.find("\"encoding\":\"binary\""), std::string::npos);
  EXPECT_NE(json.find("quote\\\" back\\\\slash \\u0001 utf8 \xe4\xb8\xad"), std::string::npos)
      << json;
  EXPECT_NE(json.find("\"origin_name\":\"bad\\u00ff\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"shape\":[1,1,16,16]"), std::string::npos);
  EXPECT_NE(json.find("\"original_shape\":[7,9]"), std::string::npos);
  EXPECT_NE(json.find("\"address\":\"0x1000\""), std::string::npos);
  EXPECT_NE(json.find("\"group\":\"output\",\"index\":1"), std::string::npos);
}

TEST(Inspect, NpyFileDescribes) {
  ScratchDir dir;
  const std::string path = dir.file("a.npy");
  const Bytes data = pattern(12, 1);
  write_npy(path, DType::kInt32, {3}, data.data(), data.size());
  const DumpFile f = read_dump_file(path);
  EXPECT_TRUE(JsonChecker(describe_dump_json(f)).valid());
  EXPECT_NE(describe_dump_table(f).find("encoding: npy"), std::string::npos);
  EXPECT_NE(describe_dump_json(f).find("\"format\":\"ND\""), std::string::npos);
}

}  // namespace
}  // namespace dumpcmp
