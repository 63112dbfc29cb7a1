// extract --model's pieces: the protobuf wire reader and writer, the choice of a sub-model, and
// the TensorFlow and Caffe formats (models built here field by field, no framework needed). The
// ONNX format is checked end to end against onnx and onnxruntime (tests/cli/test_extract_onnx.sh).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/text_format.hpp"
#include "extract/layer_graph.hpp"
#include "extract/source_model.hpp"
#include "io/proto_wire.hpp"
#include "support.hpp"

namespace dumpcmp {
namespace {

using testing::ScratchDir;

void write_text(const std::string& path, const std::string& text) {
  testing::write_bytes(path, std::vector<uint8_t>(text.begin(), text.end()));
}

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

// ---- TensorFlow -----------------------------------------------------------------------------

std::string shape_proto(const std::vector<int64_t>& dims) {
  std::string s;
  for (const int64_t d : dims) {
    std::string dim;
    pb::put_int(dim, 1, d);
    pb::put_bytes(s, 2, dim);
  }
  return s;
}

std::string attr(const std::string& key, const std::string& value) {
  std::string entry, out;
  pb::put_bytes(entry, 1, key);
  pb::put_bytes(entry, 2, value);
  pb::put_bytes(out, 5, entry);
  return out;
}

std::string type_attr(const std::string& key, int64_t type) {
  std::string v;
  pb::put_int(v, 6, type);
  return attr(key, v);
}

std::string shapes_attr(const std::vector<int64_t>& dims) {
  std::string list, v;
  pb::put_bytes(list, 7, shape_proto(dims));
  pb::put_bytes(v, 1, list);
  return attr("_output_shapes", v);
}

std::string node(const std::string& name, const std::string& op,
                 const std::vector<std::string>& inputs, const std::string& extra) {
  std::string n;
  pb::put_bytes(n, 1, name);
  pb::put_bytes(n, 2, op);
  for (const std::string& i : inputs) pb::put_bytes(n, 3, i);
  return n + extra;
}

struct TfFixture {
  std::vector<std::string> nodes;
  std::string graph;
};

TfFixture tf_model() {
  TfFixture f;
  std::string unknown;
  pb::put_int(unknown, 99, 7);  // a field no TensorFlow knows
  pb::put_bytes(unknown, 4, "/device:CPU:0");
  f.nodes = {
      node("x", "Placeholder", {}, type_attr("dtype", 1) + shapes_attr({1, 4})),
      node("w", "Const", {}, type_attr("dtype", 1)),
      node("mm", "MatMul", {"x", "w"}, type_attr("T", 1) + shapes_attr({1, 3}) + unknown),
      node("init", "NoOp", {}, ""),
      node("bias", "Const", {}, type_attr("dtype", 1)),
      node("add", "BiasAdd", {"mm:0", "bias", "^init"}, type_attr("T", 1) + unknown),
      node("relu", "Relu", {"add", "^bias"}, type_attr("T", 1) + shapes_attr({1, 3})),
      node("out", "Identity", {"relu"}, type_attr("T", 1)),
  };
  std::string versions;
  pb::put_int(versions, 1, 27);
  pb::put_bytes(f.graph, 4, versions);
  for (const std::string& n : f.nodes) pb::put_bytes(f.graph, 1, n);
  pb::put_bytes(f.graph, 2,
                std::string("\x0a\x03"
                            "lib",
                            5));  // library, kept as it is
  pb::put_int(f.graph, 50, 1);
  return f;
}

TEST(TfGraph, SubGraphWithPlaceholder) {
  ScratchDir dir;
  const TfFixture f = tf_model();
  write_text(dir.file("m.pb"), f.graph);
  const auto model = read_source_model(dir.file("m.pb"), "");
  EXPECT_EQ(model->kind(), ModelKind::kTensorFlow);
  const LayerGraph& g = model->graph();
  ASSERT_EQ(g.layers.size(), 8u);
  EXPECT_EQ(g.layers[5].inputs, (std::vector<std::string>{"mm:0", "bias:0"}));  // no control
  EXPECT_TRUE(g.layers[0].feeds_model);
  const SubModel sub = select_submodel(g, "add", "relu");
  EXPECT_EQ(sub.inputs, (std::vector<std::string>{"mm:0"}));
  std::vector<TensorType> types = {g.tensors.at("mm:0")};
  std::vector<std::string> added;
  const std::vector<ModelFile> files = model->write(sub, {types, {}}, added);
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].name, "dump.pb");

  const std::vector<pb::Field> out = pb::parse_fields(files[0].bytes, "dump.pb");
  std::vector<std::string> node_bytes;
  for (const pb::Field& x : out) {
    if (x.number == 1) node_bytes.emplace_back(x.data);
  }
  ASSERT_EQ(node_bytes.size(), 4u);  // the placeholder, bias, add, relu
  std::string dtype, shape;
  pb::put_int(dtype, 6, 1);
  pb::put_bytes(shape, 7, shape_proto({1, 3}));
  EXPECT_EQ(node_bytes[0],
            node("add_input_0", "Placeholder", {}, attr("dtype", dtype) + attr("shape", shape)));
  EXPECT_EQ(node_bytes[1], f.nodes[4]);  // bias unchanged
  // add: the input renamed, the control input from a node left out dropped, the rest as it was.
  std::string unknown;
  pb::put_int(unknown, 99, 7);
  pb::put_bytes(unknown, 4, "/device:CPU:0");
  EXPECT_EQ(node_bytes[2],
            node("add", "BiasAdd", {"add_input_0", "bias"}, type_attr("T", 1) + unknown));
  EXPECT_EQ(node_bytes[3], f.nodes[6]);  // relu keeps its control input from bias, kept
  // The graph's other fields, in their places.
  ASSERT_EQ(out.size(), 7u);
  EXPECT_EQ(out[0].number, 4u);
  EXPECT_EQ(out[5].number, 2u);
  EXPECT_EQ(out[6].number, 50u);
  ASSERT_EQ(added.size(), 1u);
  EXPECT_NE(added[0].find("op: \"Placeholder\""), std::string::npos);
  EXPECT_NE(added[0].find("type: DT_FLOAT"), std::string::npos);

  // The written graph reads back: the placeholder feeds the chosen nodes.
  write_text(dir.file("sub.pb"), files[0].bytes);
  const auto again = read_source_model(dir.file("sub.pb"), "");
  const LayerGraph& h = again->graph();
  ASSERT_EQ(h.layers.size(), 4u);
  EXPECT_TRUE(h.layers[0].feeds_model);
  EXPECT_EQ(h.tensors.at("add_input_0:0").dtype, 1);
  EXPECT_EQ(names(h, select_submodel(h, "add_input_0", "relu")),
            (std::vector<std::string>{"add_input_0", "bias", "add", "relu"}));
}

TEST(TfGraph, UnknownTypeAndMalformedNodes) {
  ScratchDir dir;
  std::string g;
  pb::put_bytes(g, 1, node("x", "Placeholder", {}, ""));
  pb::put_bytes(g, 1, node("a", "Mystery", {"x"}, ""));
  pb::put_bytes(g, 1, node("b", "Relu", {"a"}, ""));
  write_text(dir.file("m.pb"), g);
  const auto model = read_source_model(dir.file("m.pb"), "");
  const SubModel sub = select_submodel(model->graph(), "b", "b");
  std::vector<std::string> added;
  try {
    model->write(sub, {}, added);
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::kUsage);
    EXPECT_NE(std::string(e.what()).find("the type of \"a:0\" (an input of layer \"b\")"),
              std::string::npos)
        << e.what();
  }
  std::string bad;
  pb::put_bytes(bad, 1, node("a", "Relu", {"b:99999999999"}, ""));
  write_text(dir.file("bad.pb"), bad);
  EXPECT_THROW(read_source_model(dir.file("bad.pb"), ""), Error);
  write_text(dir.file("cut.pb"), g.substr(0, g.size() - 3));
  EXPECT_THROW(read_source_model(dir.file("cut.pb"), ""), Error);
}

// ---- Caffe ----------------------------------------------------------------------------------

const char* kPrototxt = R"(name: "tiny"
# the net's input, declared the old way
input: "data"
input_shape { dim: 1 dim: 3 dim: 8 dim: 8 }
force_backward: true
layer {
  name: "conv1"   # a comment inside a block stays
  type: "Convolution"
  bottom: "data"
  top: "conv1"
  convolution_param { num_output: 4 kernel_size: 3 pad: 1 }
  some_future_field: 12
}
layer { name: "relu1" type: "ReLU" bottom: "conv1" top: "conv1" }
layer {
  name: "pool1"
  type: "Pooling"
  bottom: "conv1"
  top: "pool1"
  pooling_param { pool: MAX kernel_size: 2 stride: 2 }
}
layer <name: 'side' type: "Sigmoid" bottom: "data" top: "side">
layer {
  name: "ip1"
  type: "InnerProduct"
  bottom: "pool1"
  top: "ip1"
  inner_product_param { num_output: 10 }
}
)";

// The block starting with `start`, up to its closing brace.
std::string block_at(const std::string& src, const std::string& start) {
  const size_t b = src.find(start);
  int depth = 0;
  for (size_t i = b; b != std::string::npos && i < src.size(); ++i) {
    if (src[i] == '{') ++depth;
    if (src[i] == '}' && --depth == 0) return src.substr(b, i + 1 - b);
  }
  return "";
}

std::string caffe_layer(const std::string& name, int blobs) {
  std::string l;
  pb::put_bytes(l, 1, name);
  pb::put_bytes(l, 2, "X");
  for (int b = 0; b < blobs; ++b) pb::put_bytes(l, 7, std::string("\x2a\x04\x01\x02\x03\x04", 6));
  pb::put_int(l, 77, 5);  // unknown to the tool
  return l;
}

std::string caffemodel() {
  std::string m;
  pb::put_bytes(m, 1, "tiny");
  pb::put_bytes(m, 3, "data");
  pb::put_int(m, 4, 1);
  for (const char* name : {"conv1", "relu1", "pool1", "side", "ip1", "loss"}) {
    pb::put_bytes(m, 100, caffe_layer(name, name[0] == 'c' || name[0] == 'i' ? 2 : 0));
  }
  pb::put_int(m, 6, 1);  // force_backward
  return m;
}

TEST(CaffeModel, PrototxtAndWeights) {
  ScratchDir dir;
  write_text(dir.file("net.prototxt"), kPrototxt);
  write_text(dir.file("net.caffemodel"), caffemodel());  // found by its stem
  const auto model = read_source_model(dir.file("net.prototxt"), "");
  EXPECT_EQ(model->model_name(), "tiny");
  const LayerGraph& g = model->graph();
  ASSERT_EQ(g.layers.size(), 5u);
  EXPECT_EQ(g.layers[3].name, "side");
  EXPECT_EQ(g.tensors.at("data").dims, (Shape{1, 3, 8, 8}));

  const SubModel sub = select_submodel(g, "conv1", "ip1");
  EXPECT_EQ(names(g, sub), (std::vector<std::string>{"conv1", "relu1", "pool1", "ip1"}));
  std::vector<std::string> added;
  const std::vector<ModelFile> files = model->write(sub, {{g.tensors.at("data")}, {}}, added);
  ASSERT_EQ(files.size(), 2u);
  const std::string& text = files[0].bytes;
  const std::string input =
      "name: \"conv1_input_0\"\ntype: \"Input\"\ntop: \"data\"\ninput_param {\n  shape {\n"
      "    dim: 1\n    dim: 3\n    dim: 8\n    dim: 8\n  }\n}";
  ASSERT_EQ(added, (std::vector<std::string>{input}));
  const std::string want =
      "name: \"tiny\"\nforce_backward: true\nlayer {\n  name: \"conv1_input_0\"\n  type: "
      "\"Input\"\n  top: \"data\"\n  input_param {\n    shape {\n      dim: 1\n      dim: 3\n"
      "      dim: 8\n      dim: 8\n    }\n  }\n}\n";
  EXPECT_EQ(text.substr(0, want.size()), want);
  // Each chosen layer's block exactly as written, in order; side left out.
  const std::string src = kPrototxt;
  size_t at = want.size();
  for (const char* start : {"layer {\n  name: \"conv1\"", "layer { name: \"relu1\"",
                            "layer {\n  name: \"pool1\"", "layer {\n  name: \"ip1\""}) {
    const std::string block = block_at(src, start);
    ASSERT_FALSE(block.empty()) << start;
    EXPECT_EQ(text.substr(at, block.size()), block) << start;
    at += block.size() + 1;
  }
  EXPECT_EQ(at, text.size());
  EXPECT_EQ(text.find("Sigmoid"), std::string::npos);

  // The weights: the chosen layers' records byte for byte, the net's inputs gone.
  std::string w;
  pb::put_bytes(w, 1, "tiny");
  for (const char* name : {"conv1", "relu1", "pool1", "ip1"}) {
    pb::put_bytes(w, 100, caffe_layer(name, name[0] == 'c' || name[0] == 'i' ? 2 : 0));
  }
  pb::put_int(w, 6, 1);
  EXPECT_EQ(files[1].name, "dump.caffemodel");
  EXPECT_EQ(files[1].bytes, w);

  // Text round trip: the written net reads back with the Input layer first.
  write_text(dir.file("sub.prototxt"), text);
  const auto again = read_source_model(dir.file("sub.prototxt"), dir.file("net.caffemodel"));
  const LayerGraph& h = again->graph();
  ASSERT_EQ(h.layers.size(), 5u);
  EXPECT_EQ(h.layers[0].name, "conv1_input_0");
  EXPECT_EQ(h.tensors.at("data").dims, (Shape{1, 3, 8, 8}));
  EXPECT_EQ(names(h, select_submodel(h, "conv1_input_0", "ip1")),
            (std::vector<std::string>{"conv1_input_0", "conv1", "relu1", "pool1", "ip1"}));
}

TEST(CaffeModel, InPlaceStartNeedsAShape) {
  ScratchDir dir;
  write_text(dir.file("net.prototxt"), kPrototxt);
  const auto model = read_source_model(dir.file("net.prototxt"), "");  // no weights: none written
  const SubModel sub = select_submodel(model->graph(), "relu1", "pool1");
  EXPECT_EQ(sub.inputs, (std::vector<std::string>{"conv1"}));
  std::vector<std::string> added;
  try {
    model->write(sub, {}, added);
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("the shape of blob \"conv1\" (an input of layer "
                                         "\"relu1\") is unknown"),
              std::string::npos)
        << e.what();
  }
  TensorType known;
  known.dtype = 1;
  known.has_shape = true;
  known.dims = {1, 4, 8, 8};
  const std::vector<ModelFile> files = model->write(sub, {{known}, {}}, added);
  ASSERT_EQ(files.size(), 1u);
  EXPECT_NE(files[0].bytes.find("top: \"conv1\"\n  input_param"), std::string::npos);
  EXPECT_NE(files[0].bytes.find("layer { name: \"relu1\" type: \"ReLU\" bottom: \"conv1\" top: "
                                "\"conv1\" }"),
            std::string::npos);
}

TEST(CaffeModel, MalformedFilesAreNamed) {
  ScratchDir dir;
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"layer { name: \"a\" ", ":1: unbalanced braces"},
      {"layer { name: \"a }", "unterminated string"},
      {"layers { name: \"a\" }", "V1 \"layers\""},
      {"layer { type: \"ReLU\" }", "has no name"},
      {"name \"x\"", "expected ':' or '{' after field \"name\""},
  };
  for (const auto& [text, message] : bad) {
    write_text(dir.file("bad.prototxt"), text);
    try {
      read_source_model(dir.file("bad.prototxt"), "");
      ADD_FAILURE() << text;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ExitCode::kInput);
      EXPECT_NE(std::string(e.what()).find("bad.prototxt"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
  }
  write_text(dir.file("ok.prototxt"), "layer { name: \"a\" type: \"Input\" top: \"a\" }");
  write_text(dir.file("ok.caffemodel"), std::string("\x12\x03\x0a\x01"
                                                    "a",
                                                    6));  // V1 only
  EXPECT_THROW(read_source_model(dir.file("ok.prototxt"), ""), Error);
  EXPECT_THROW(read_source_model(dir.file("m.txt"), ""), Error);
}

TEST(TextFormat, ValuesAndSpans) {
  const std::string text = "a: -1, b: [x, 'y'] c < d: \"e\" \"f\" > # end\n g { } h: \"i\" ;";
  const TextTree tree = TextTree::parse(text, "t");
  const std::vector<TextField>& f = tree.root().fields;
  ASSERT_EQ(f.size(), 6u);
  EXPECT_EQ(TextTree::values(tree.root(), "a"), (std::vector<std::string>{"-1"}));
  EXPECT_EQ(TextTree::values(tree.root(), "b"), (std::vector<std::string>{"x", "y"}));
  const auto span = [&](const TextField& field) {
    return text.substr(field.begin, field.end - field.begin);
  };
  EXPECT_EQ(span(f[0]), "a: -1");
  EXPECT_EQ(span(f[1]), "b: [x, 'y']");  // each item spans the list
  EXPECT_EQ(span(f[2]), "b: [x, 'y']");
  const TextField* c = TextTree::first_message(tree.root(), "c");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(TextTree::values(tree.message(*c), "d"), (std::vector<std::string>{"ef"}));
  EXPECT_EQ(span(*c), "c < d: \"e\" \"f\" >");
  EXPECT_EQ(span(f[4]), "g { }");
  EXPECT_EQ(span(f[5]), "h: \"i\"");  // the separator is not the field's
  EXPECT_EQ(TextTree::first_message(tree.root(), "a"), nullptr);
}

}  // namespace
}  // namespace dumpcmp
