// extract --model's pieces: the protobuf wire reader and writer, and the choice of a sub-model.
// The ONNX format is checked end to end against onnx and onnxruntime
// (tests/cli/test_extract_onnx.sh).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "extract/layer_graph.hpp"
#include "extract/proto_wire.hpp"

namespace dumpcmp {
namespace {

// ---- wire --------------------------------------------------------------------------------

TEST(ProtoWire, FieldsRoundTrip) {
  std::string m;
  pb::put_int(m, 1, 300);
  pb::put_bytes(m, 2, "abc");
  pb::put_int(m, 2000, -1);                     // a big field number, a 10-byte varint
  m += std::string("\x1d\x01\x02\x03\x04", 5);  // field 3, fixed32
  m += std::string("\x23\x08\x05\x24", 4);      // field 4, a group holding field 1 = 5
  const std::vector<pb::Field> f = pb::parse_fields(m, "t");
  ASSERT_EQ(f.size(), 5u);
  EXPECT_EQ(f[0].varint, 300u);
  EXPECT_EQ(f[1].data, "abc");
  EXPECT_EQ(f[2].number, 2000u);
  EXPECT_EQ(static_cast<int64_t>(f[2].varint), -1);
  EXPECT_EQ(f[3].wire, pb::kFixed32);
  EXPECT_EQ(f[4].wire, pb::kStartGroup);
  EXPECT_EQ(f[4].data, std::string("\x08\x05", 2));
  std::string again;
  for (const pb::Field& x : f) again.append(x.raw);
  EXPECT_EQ(again, m);  // the raw spans cover the message exactly
  std::string packed;
  pb::put_varint(packed, 7);
  pb::put_varint(packed, 128);
  std::string p;
  pb::put_bytes(p, 9, packed);
  pb::put_int(p, 9, 3);
  EXPECT_EQ(pb::ints_of(pb::parse_fields(p, "t"), 9, "t"), (std::vector<int64_t>{7, 128, 3}));
}

TEST(ProtoWire, MalformedBytesAreErrorsNamingTheFile) {
  const std::vector<std::string> bad = {
      std::string("\x08", 1),  // varint cut
      std::string("\x12\x05"
                  "ab",
                  4),                  // length past the end
      std::string("\x0f\x00", 2),      // wire type 7
      std::string("\x00\x00", 2),      // field number 0
      std::string("\x23\x08\x05", 3),  // group never ended
      std::string("\x23\x2c", 2),      // group ended by another number
      std::string("\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 12),  // 11-byte varint
  };
  for (const std::string& b : bad) {
    try {
      pb::parse_fields(b, "m.pb: graph");
      ADD_FAILURE() << "accepted " << ::testing::PrintToString(b);
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ExitCode::kInput);
      EXPECT_NE(std::string(e.what()).find("m.pb: graph: "), std::string::npos) << e.what();
    }
  }
}

TEST(ProtoWire, RandomBytesNeverCrash) {
  uint64_t state = 12345;
  int accepted = 0;
  for (int round = 0; round < 5000; ++round) {
    std::string bytes(static_cast<size_t>(round % 40), '\0');
    for (char& c : bytes) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      c = static_cast<char>(state >> 56);
    }
    try {
      std::string again;
      for (const pb::Field& f : pb::parse_fields(bytes, "r")) again.append(f.raw);
      EXPECT_EQ(again, bytes);
      ++accepted;
    } catch (const Error&) {
    }
  }
  EXPECT_GT(accepted, 0);
}

// ---- choosing the sub-model -----------------------------------------------------------------

LayerGraph chain() {
  // in -> a -> b (in place on a's blob) -> c -> d;  a -> side;  k (a constant) -> c
  LayerGraph g;
  g.source = "net";
  g.layers = {{"in", "Input", {}, {"x"}, true}, {"a", "Conv", {"x", "w"}, {"t"}},
              {"b", "ReLU", {"t"}, {"t"}},      {"side", "Sigmoid", {"t"}, {"s"}},
              {"k", "Const", {}, {"kk"}},       {"c", "Add", {"t", "kk"}, {"u"}},
              {"d", "Mul", {"u", "x"}, {"v"}}};
  g.constants = {"w"};
  return g;
}

std::vector<std::string> names(const LayerGraph& g, const SubModel& s) {
  std::vector<std::string> out;
  for (const int i : s.layers) out.push_back(g.layers[static_cast<size_t>(i)].name);
  return out;
}

TEST(SelectSubmodel, PathsConstantsAndInputs) {
  const LayerGraph g = chain();
  const SubModel s = select_submodel(g, "a", "d");
  // side reads a's blob before b rewrote it, so it is not on the path; the constant k feeds c.
  EXPECT_EQ(names(g, s), (std::vector<std::string>{"a", "b", "k", "c", "d"}));
  EXPECT_EQ(s.inputs, (std::vector<std::string>{"x"}));  // w is a constant
  EXPECT_EQ(s.input_consumers, (std::vector<std::string>{"a"}));
  EXPECT_EQ(s.outputs, (std::vector<std::string>{"v"}));
  const SubModel t = select_submodel(g, "b", "c");
  EXPECT_EQ(names(g, t), (std::vector<std::string>{"b", "k", "c"}));
  EXPECT_EQ(t.inputs, (std::vector<std::string>{"t"}));
  // d also reads the model input x: a second input.
  const SubModel u = select_submodel(g, "c", "d");
  EXPECT_EQ(u.inputs, (std::vector<std::string>{"t", "x"}));
  EXPECT_EQ(u.input_consumers, (std::vector<std::string>{"c", "d"}));
  EXPECT_EQ(u.input_slots, (std::vector<int>{0, 1}));
}

void expect_usage(const LayerGraph& g, const std::string& start, const std::string& end,
                  const std::string& message) {
  try {
    select_submodel(g, start, end);
    ADD_FAILURE() << start << " " << end;
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::kUsage);
    EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
  }
}

TEST(SelectSubmodel, RefusalsNameTheLayer) {
  const LayerGraph g = chain();
  expect_usage(g, "zz", "d", "the start layer \"zz\" is not in the model net");
  expect_usage(g, "a", "zz", "the end layer \"zz\" is not in the model net");
  expect_usage(g, "d", "a", "the end layer comes before the start layer");
  expect_usage(g, "side", "d", "they are not connected");
}

}  // namespace
}  // namespace dumpcmp
