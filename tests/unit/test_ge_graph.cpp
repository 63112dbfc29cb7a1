// GE graph text (ge_proto_*_Build.txt) as the fusion rule and graph list: docs/formats.md §4.6.
// The real files' op and attr counts were counted independently with grep (`^  op {`,
// `key: "_datadump_original_op_names"`, `key: "_datadump_origin_name"`).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/text_format.hpp"
#include "fusion/fusion_rule.hpp"
#include "fusion/ge_graph_text.hpp"
#include "fusion/graph_summary.hpp"

namespace dumpcmp {
namespace {

using Names = std::vector<std::string>;

std::string realdata(const std::string& relative) {
  return std::string(DUMPCMP_REALDATA_DIR) + "/oam-tools/test/st/msaicerr/res/ori_data/" + relative;
}

const char* const kG1 = "complie_path_train/aic_error/ge_proto_00056_Build.txt";
const char* const kG2 = "asys_output_20230713074104794/dfx/graph/370_0/ge_proto_00000000_Build.txt";
const char* const kG3 = "asys_output_20230713074104794/dfx/graph/370_0/ge_proto_00000001_Build.txt";
const char* const kG4 = "complie_path/ge_proto_00000062_Build.txt";

#define SKIP_IF_ABSENT(path) \
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "real data absent: " << (path)

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::string to_json(const std::string& text) { return ge_text_to_atc_json(text, "g.txt"); }

size_t count_of(const std::string& haystack, const std::string& needle) {
  size_t n = 0;
  for (size_t at = haystack.find(needle); at != std::string::npos;
       at = haystack.find(needle, at + needle.size())) {
    ++n;
  }
  return n;
}

// The conversion must fail with Error(kInput) whose message contains `expected`.
void expect_text_error(const std::string& text, const std::string& expected,
                       const TextLimits& limits = {}) {
  try {
    ge_text_to_atc_json(text, "g.txt", limits);
    ADD_FAILURE() << "no error for: " << text;
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::kInput);
    EXPECT_NE(std::string(e.what()).find(expected), std::string::npos)
        << "message: " << e.what() << "\nexpected to contain: " << expected;
  }
}

// A temporary file, removed at the end of the test.
class TempFile {
 public:
  TempFile(const std::string& name, const std::string& content)
      : path_(std::filesystem::temp_directory_path() /
              ("dumpcmp_ge_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
               "_" + name)) {
    std::ofstream(path_, std::ios::binary) << content;
  }
  ~TempFile() { std::filesystem::remove(path_); }
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

// ---- The text reader ------------------------------------------------------------------------

TEST(GeTextReader, StringEscapes) {
  const std::string token = R"("a\nb\t\"q\"\\ \101\x41\x4a\u00e9\U0001F600\?\'" 'x"y' "\0z")";
  EXPECT_EQ(
      TextTree::decode_string(token),
      std::string("a\nb\t\"q\"\\ AAJ\xC3\xA9\xF0\x9F\x98\x80?'x\"y") + std::string(1, '\0') + "z");
  // Octal escapes take up to three digits; \x up to two.
  EXPECT_EQ(TextTree::decode_string(R"("\1234\x414")"), "S4A4");
}

TEST(GeTextReader, SyntaxForms) {
  // `{}` and `<>` messages, `name: {`, lists of values and of messages, `,`/`;` separators,
  // comments, numbers in every spelling.
  const std::string json = to_json(
      "# a model\n"
      "name: 'm' ; version: 0x10,\n"
      "graph: < name: \"g\" op [] op: [{name: \"a\" type: \"T\"}, <name: \"b\" type: \"T\">] >\n"
      "graph { name: \"h\" op { name: \"c\" type: \"T\" id: 017 stream_id: -0x2\n"
      "  output_desc { shape { dim: [1, 2] dim: 3 } } } }  # trailing comment\n");
  EXPECT_EQ(json, R"({"name":"m","version":16,"graph":[{"name":"g","op":[{"name":"a","type":"T"},)"
                  R"({"name":"b","type":"T"}]},{"name":"h","op":[{"name":"c","type":"T","id":15,)"
                  R"("stream_id":-2,"output_desc":[{"shape":{"dim":[1,2,3]}}]}]}]})"
                  "\n");
}

TEST(GeTextReader, Numbers) {
  int64_t i = 0;
  uint64_t u = 0;
  double d = 0;
  EXPECT_TRUE(text_to_int64("0x7fffffffffffffff", false, i));
  EXPECT_EQ(i, INT64_MAX);
  EXPECT_TRUE(text_to_int64("9223372036854775808", true, i));
  EXPECT_EQ(i, INT64_MIN);
  EXPECT_FALSE(text_to_int64("9223372036854775808", false, i));
  EXPECT_TRUE(text_to_int64("017", false, i));
  EXPECT_EQ(i, 15);
  EXPECT_FALSE(text_to_int64("019", false, i));
  EXPECT_FALSE(text_to_int64("1.5", false, i));
  EXPECT_TRUE(text_to_uint64("18446744073709551615", false, u));
  EXPECT_FALSE(text_to_uint64("18446744073709551616", false, u));
  EXPECT_FALSE(text_to_uint64("1", true, u));
  EXPECT_TRUE(text_to_double("2.5f", true, d));
  EXPECT_EQ(d, -2.5);
  EXPECT_TRUE(text_to_double(".5e1", false, d));
  EXPECT_EQ(d, 5.0);
  EXPECT_TRUE(text_to_double("inf", true, d));
  EXPECT_TRUE(std::isinf(d) && d < 0);
  EXPECT_TRUE(text_to_double("1e999", false, d));
  EXPECT_TRUE(std::isinf(d));
  EXPECT_TRUE(text_to_double("1e-999", false, d));
  EXPECT_EQ(d, 0.0);
  EXPECT_FALSE(text_to_double("1.5.3", false, d));
  EXPECT_FALSE(text_to_double("abc", false, d));
}

TEST(GeTextReader, ErrorsNameTheLine) {
  expect_text_error("graph {\n  name: \"g\n}\n", "g.txt:2: unterminated string");
  expect_text_error("graph {\n  name: \"g", "g.txt:2: unterminated string");
  expect_text_error("graph {\n  op {\n    name: \"a\"\n  }\n", "g.txt:1: unbalanced braces");
  expect_text_error("graph {\n}\n}\n", "g.txt:3: unbalanced braces: '}' closes no message");
  expect_text_error("graph <\n  name: \"a\"\n}\n", "g.txt:3: unbalanced braces: '}' where");
  expect_text_error("graph {\n  name: \"a\\q\"\n}\n", "g.txt:2: invalid escape in string: \\q");
  expect_text_error("graph {\n  name: \"\\x\"\n}\n", "g.txt:2: invalid escape");
  expect_text_error("graph {\n  name: \"\\ud800\"\n}\n", "g.txt:2: invalid escape");
  expect_text_error("graph {\n  name \"a\"\n}\n", "g.txt:2: expected ':' or '{'");
  expect_text_error("graph {\n  [ext.field]: 1\n}\n", "g.txt:2: extension and Any fields");
  expect_text_error("graph {\n  name: @\n}\n", "g.txt:2: unexpected '@'");
  expect_text_error("graph {\n  id: -abc\n}\n", "g.txt:2: expected a number after '-'");
  expect_text_error("graph {\n  input: [\"a\" \"b\"\n", "g.txt:3: expected ',' or ']'");
  expect_text_error("a: 1\n\n  : 2\n", "g.txt:3: expected a field name, found ':'");

  // Nesting: 64 levels below the top are read, 65 are not.
  std::string deep;
  for (int k = 0; k < 64; ++k) deep += "x {\n";
  std::string closing(64, '}');
  EXPECT_NO_THROW(to_json(deep + closing));
  expect_text_error("x {\n" + deep + "}" + closing, "g.txt:65: messages nested deeper than 64");
  TextLimits shallow;
  shallow.max_depth = 2;
  expect_text_error("graph { op { attr {} } }", "g.txt:1: messages nested deeper than 2", shallow);
  TextLimits small;
  small.max_bytes = 8;
  expect_text_error("graph { name: \"g\" }", "larger than 8 bytes", small);
}

// ---- The conversion to atc JSON ---------------------------------------------------------------

TEST(GeGraphText, RepeatedFieldsAreArraysEvenWithOneEntry) {
  EXPECT_EQ(to_json("graph { op { name: \"a\" type: \"T\" input: \"x:0\" attr { key: "
                    "\"_datadump_original_op_names\" value { list { s: \"conv1\" val_type: "
                    "VT_LIST_STRING } } } } }"),
            R"({"graph":[{"op":[{"name":"a","type":"T","input":["x:0"],"attr":[{"key":)"
            R"("_datadump_original_op_names","value":{"list":{"s":["conv1"],)"
            R"("val_type":"VT_LIST_STRING"}}}]}]}]})"
            "\n");
  // Fields of one name are gathered where the first stands, whatever sits between them.
  EXPECT_EQ(to_json("graph { op { input: \"a:0\" name: \"n\" input: \"b:0\" } name: \"g\" }"),
            R"({"graph":[{"op":[{"input":["a:0","b:0"],"name":"n"}],"name":"g"}]})"
            "\n");
}

TEST(GeGraphText, PrintsWhatPb2JsonPrints) {
  // Black-listed fields are dropped; unset (default) scalars are left out, oneof members kept;
  // an empty message field is left out, a message whose members all drop out is null; a
  // singular `s` is C-escaped, list.s kept raw; a singular float is "%g" text; enum numbers
  // become names.
  const std::string json = to_json(R"(
graph {
  name: "g"
  output: "net_out"
  op {
    name: "a"
    type: "T"
    id: 0
    has_out_attr: false
    workspace: 16
    attr { key: "zero" value { i: 0 } }
    attr { key: "quote" value { s: "it's a \"q\"\n\351" } }
    attr { key: "names" value { list { s: "it's" s: "\303\251" val_type: 1 } } }
    attr { key: "scale" value { f: 0.5 } }
    attr { key: "huge" value { f: -1.2345678e38 } }
    attr { key: "floats" value { list { f: [1.5, inf] } } }
    attr { key: "kernel" value { bt: "\177ELF\000" } }
    attr { key: "empty_list" value { list { } } }
    attr { key: "range" value { list_list_int { } } }
    attr { key: "nothing" value { } }
    output_desc { dtype: 2 size: 64 shape { } layout: "" }
    output_desc { }
    output_desc { size: 8 }
  }
}
)");
  EXPECT_EQ(json,
            R"({"graph":[{"name":"g","op":[{"name":"a","type":"T","attr":[)"
            R"({"key":"zero","value":{"i":0}},)"
            R"({"key":"quote","value":{"s":"it\\'s a \\\"q\\\"\\n\\351"}},)"
            R"({"key":"names","value":{"list":{"s":["it's","é"],"val_type":"VT_LIST_STRING"}}},)"
            R"({"key":"scale","value":{"f":"0.5"}},)"
            R"({"key":"huge","value":{"f":-1.23456776e+38}},)"
            R"({"key":"floats","value":{"list":{"f":[1.5,null]}}},)"
            R"({"key":"kernel","value":null},)"
            R"({"key":"empty_list","value":null},)"
            R"({"key":"range","value":null},)"
            R"({"key":"nothing"}],)"
            R"("output_desc":[{"dtype":"DT_FLOAT16"},null,null]}]}]})"
            "\n");
}

TEST(GeGraphText, UnknownFieldsAreCarried) {
  EXPECT_EQ(to_json("graph { op { name: \"a\" type: \"T\" future: 1 future: 2 extra { x: -0x10 "
                    "y: 1.5f z: true w: DT_X v: 'q' u: -inf t { } } } }"),
            R"({"graph":[{"op":[{"name":"a","type":"T","future":[1,2],"extra":{"x":-16,"y":1.5,)"
            R"("z":true,"w":"DT_X","v":"q","u":"-inf","t":{}}}]}]})"
            "\n");
  expect_text_error("future: 1.2.3", "g.txt:1: field \"future\": invalid number 1.2.3");
}

TEST(GeGraphText, MapsKeepTheLastEntryOfAKey) {
  EXPECT_EQ(to_json("attr { key: \"a\" value { i: 1 } } attr { key: \"b\" value { i: 2 } } "
                    "attr { key: \"a\" value { i: 3 } }"),
            R"({"attr":[{"key":"b","value":{"i":2}},{"key":"a","value":{"i":3}}]})"
            "\n");
}

TEST(GeGraphText, TypeErrorsNameTheLine) {
  expect_text_error("graph {\n  op {\n    id: \"7\"\n  }\n}",
                    "g.txt:3: field \"id\": expected a 64-bit integer");
  expect_text_error("graph {\n  op: 5\n}", "g.txt:2: field \"op\": expected a message");
  expect_text_error("graph {\n  name: \"a\"\n  name: \"b\"\n}",
                    "g.txt:3: field \"name\": not a repeated field, but given more than once");
  expect_text_error("graph {\n  name { }\n}", "g.txt:2: field \"name\": expected a value");
  expect_text_error("attr {\n  key: \"k\"\n  value {\n    s: \"x\"\n    i: 1\n  }\n}",
                    "g.txt:5: field \"i\": set along with \"s\", another member of the oneof");
  expect_text_error("attr { value { b: 2 } }", "field \"b\": expected true or false");
  expect_text_error("version: -1", "field \"version\": expected an unsigned 32-bit integer");
}

TEST(GeGraphText, CEscape) {
  EXPECT_EQ(c_escape("a\"b'c\\d\n\r\t\x01\x7f\xff z"), "a\\\"b\\'c\\\\d\\n\\r\\t\\001\\177\\377 z");
}

TEST(GeGraphText, DetectsTheFormat) {
  EXPECT_TRUE(is_ge_graph_text("ge_proto_00000001_Build.txt", "{ not really }"));
  EXPECT_TRUE(is_ge_graph_text("g.pbtxt", ""));
  EXPECT_FALSE(is_ge_graph_text("model.json", "graph { }"));
  EXPECT_TRUE(is_ge_graph_text("model", "\n  graph {"));
  EXPECT_TRUE(is_ge_graph_text("model", "# comment\n{"));
  EXPECT_FALSE(is_ge_graph_text("model", " \n{\"graph\":[]}"));
  EXPECT_FALSE(is_ge_graph_text("dir.txt/model", "{}"));
  EXPECT_FALSE(is_ge_graph_text("model", ""));
}

// ---- The same model as GE text and as atc JSON gives the same rule ----------------------------

// Hand-written: a Data op, a fused Conv2D+Relu (two original names, NC1HWC0 output with an origin),
// a TransData without original names, a one-to-multi pair, an L1 fusion pair, a control edge and
// an absent optional input, a second graph, and attrs the rule does not read.
const char* const kTwinText = R"(# ge_proto_00000007_Build.txt
graph {
  name: "twin_0"
  input: "data:0"
  op {
    name: "data"
    type: "Data"
    input: ""
    attr { key: "index" value { i: 0 } }
    output_desc {
      dtype: DT_FLOAT16
      shape { dim: 1 dim: 3 dim: 4 dim: 4 }
      layout: "NCHW"
      attr { key: "_datadump_origin_format" value { s: "NCHW" } }
      attr { key: "_datadump_origin_name" value { s: "data" } }
      attr { key: "_datadump_origin_output_index" value { i: 0 } }
      attr { key: "origin_shape" value { list { i: 1 i: 3 i: 4 i: 4 val_type: VT_LIST_INT } } }
      size: 96
    }
  }
  op {
    name: "trans_TransData_1"
    type: "TransData"
    input: "data:0"
    id: 1
    output_desc {
      dtype: DT_FLOAT16
      layout: "NC1HWC0"
      attr { key: "origin_format" value { s: "NCHW" } }
    }
  }
  op {
    name: "conv1conv1_relu_lxslice0"
    type: "Conv2D"
    id: 2
    input: "trans_TransData_1:0"
    input: "weight:0"
    input: ""
    input: "data:-1"
    attr { key: "_datadump_original_op_names"
           value { list { s: "conv1" s: "conv1_relu" val_type: VT_LIST_STRING } } }
    attr { key: "_op_slice_info" value { s: "{\"splitMaps\": []}" } }
    attr { key: "alpha" value { f: 0.25 } }
    input_desc { dtype: DT_FLOAT16 layout: "NC1HWC0" }
    output_desc {
      dtype: DT_FLOAT16
      shape { dim: [1, 1, 4, 4, 16] }
      layout: "NC1HWC0"
      attr { key: "_datadump_origin_format" value { s: "NCHW" } }
      attr { key: "_datadump_origin_name" value { s: "conv1_relu" } }
      attr { key: "_datadump_origin_output_index" value { i: 0 } }
      attr { key: "origin_shape" value { list { i: [1, 8, 4, 4] val_type: VT_LIST_INT } } }
    }
    output_desc { dtype: DT_FLOAT layout: "ND" }
  }
  op {
    name: "gather_const"
    type: "Const"
    id: 3
    attr { key: "_datadump_original_op_names" value { list { s: "gather" } } }
    attr { key: "value" value { t { desc { dtype: DT_INT32 } data: "\001\000\000\000" } } }
  }
  op {
    name: "gather_v2"
    type: "GatherV2"
    id: 4
    input: "conv1conv1_relu_lxslice0:0"
    input: "gather_const:0"
    attr { key: "_datadump_original_op_names" value { list { s: "gather" } } }
    attr { key: "_datadump_is_multiop" value { b: false } }
  }
  op {
    name: "l1_a"
    type: "Relu"
    id: 5
    input: "gather_v2:0"
    attr { key: "_L1_fusion_sub_graph_no" value { s: "7" } }
    attr { key: "_datadump_original_op_names" value { list { s: "relu_a" } } }
  }
  op {
    name: "l1_b"
    type: "Relu"
    id: 6
    input: "l1_a:0"
    attr { key: "_L1_fusion_sub_graph_no" value { s: "7" } }
    attr { key: "_datadump_original_op_names" value { list { s: "relu_b" } } }
    subgraph_name: "twin_1"
  }
}
graph {
  name: "twin_1"
  op {
    name: "weight"
    type: "Const"
    id: 7
    attr { key: "_datadump_original_op_names" value { list { val_type: VT_LIST_STRING } } }
  }
}
attr { key: "soc_version" value { s: "Ascend910" } }
)";

// The same model as `atc --mode=1` prints it: descriptor order, defaults and black-listed
// fields left out, list entries as arrays.
const char* const kTwinJson = R"({"attr":[{"key":"soc_version","value":{"s":"Ascend910"}}],
"graph":[{"name":"twin_0","input":["data:0"],"op":[
 {"name":"data","type":"Data","input":[""],"attr":[{"key":"index","value":{"i":0}}],
  "output_desc":[{"dtype":"DT_FLOAT16","shape":{"dim":[1,3,4,4]},"layout":"NCHW","attr":[
   {"key":"_datadump_origin_format","value":{"s":"NCHW"}},
   {"key":"_datadump_origin_name","value":{"s":"data"}},
   {"key":"_datadump_origin_output_index","value":{"i":0}},
   {"key":"origin_shape","value":{"list":{"i":[1,3,4,4],"val_type":"VT_LIST_INT"}}}]}]},
 {"name":"trans_TransData_1","type":"TransData","input":["data:0"],"id":1,
  "output_desc":[{"dtype":"DT_FLOAT16","layout":"NC1HWC0","attr":[
   {"key":"origin_format","value":{"s":"NCHW"}}]}]},
 {"name":"conv1conv1_relu_lxslice0","type":"Conv2D","input":["trans_TransData_1:0","weight:0","",
   "data:-1"],"attr":[
   {"key":"_datadump_original_op_names","value":{"list":{"s":["conv1","conv1_relu"],
    "val_type":"VT_LIST_STRING"}}},
   {"key":"_op_slice_info","value":{"s":"{\\\"splitMaps\\\": []}"}},
   {"key":"alpha","value":{"f":"0.25"}}],"id":2,
  "input_desc":[{"dtype":"DT_FLOAT16","layout":"NC1HWC0"}],
  "output_desc":[{"dtype":"DT_FLOAT16","shape":{"dim":[1,1,4,4,16]},"layout":"NC1HWC0","attr":[
    {"key":"_datadump_origin_format","value":{"s":"NCHW"}},
    {"key":"_datadump_origin_name","value":{"s":"conv1_relu"}},
    {"key":"_datadump_origin_output_index","value":{"i":0}},
    {"key":"origin_shape","value":{"list":{"i":[1,8,4,4],"val_type":"VT_LIST_INT"}}}]},
   {"dtype":"DT_FLOAT","layout":"ND"}]},
 {"name":"gather_const","type":"Const","attr":[
   {"key":"_datadump_original_op_names","value":{"list":{"s":["gather"]}}},
   {"key":"value","value":{"t":{"desc":{"dtype":"DT_INT32"}}}}],"id":3},
 {"name":"gather_v2","type":"GatherV2","input":["conv1conv1_relu_lxslice0:0","gather_const:0"],
  "attr":[{"key":"_datadump_original_op_names","value":{"list":{"s":["gather"]}}},
   {"key":"_datadump_is_multiop","value":{"b":false}}],"id":4},
 {"name":"l1_a","type":"Relu","input":["gather_v2:0"],"attr":[
   {"key":"_L1_fusion_sub_graph_no","value":{"s":"7"}},
   {"key":"_datadump_original_op_names","value":{"list":{"s":["relu_a"]}}}],"id":5},
 {"name":"l1_b","type":"Relu","input":["l1_a:0"],"attr":[
   {"key":"_L1_fusion_sub_graph_no","value":{"s":"7"}},
   {"key":"_datadump_original_op_names","value":{"list":{"s":["relu_b"]}}}],"id":6,
  "subgraph_name":["twin_1"]}]},
 {"name":"twin_1","op":[{"name":"weight","type":"Const","attr":[
   {"key":"_datadump_original_op_names","value":{"list":{"val_type":"VT_LIST_STRING"}}}],
  "id":7}]}]}
)";

void expect_same_rule(const FusionRule& a, const FusionRule& b) {
  ASSERT_EQ(a.ops().size(), b.ops().size());
  for (size_t i = 0; i < a.ops().size(); ++i) {
    const FusionOp& x = a.ops()[i];
    const FusionOp& y = b.ops()[i];
    SCOPED_TRACE(x.name);
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.type, y.type);
    EXPECT_EQ(x.op_sequence, y.op_sequence);
    EXPECT_EQ(x.inputs, y.inputs);
    EXPECT_EQ(x.original_op_names, y.original_op_names);
    EXPECT_EQ(x.have_origin, y.have_origin);
    EXPECT_EQ(x.is_multiop, y.is_multiop);
    EXPECT_EQ(x.l1_fusion_no, y.l1_fusion_no);
    EXPECT_EQ(x.quant_filter, y.quant_filter);
    EXPECT_EQ(x.group_id, y.group_id);
    ASSERT_EQ(x.output_desc.size(), y.output_desc.size());
    for (size_t k = 0; k < x.output_desc.size(); ++k) {
      EXPECT_EQ(x.output_desc[k].origin_name, y.output_desc[k].origin_name);
      EXPECT_EQ(x.output_desc[k].origin_output_index, y.output_desc[k].origin_output_index);
      EXPECT_EQ(x.output_desc[k].has_origin_output_index, y.output_desc[k].has_origin_output_index);
      EXPECT_EQ(x.output_desc[k].origin_format, y.output_desc[k].origin_format);
      EXPECT_EQ(x.output_desc[k].origin_shape, y.output_desc[k].origin_shape);
      EXPECT_EQ(x.output_desc[k].data_type, y.output_desc[k].data_type);
    }
  }
  ASSERT_EQ(a.groups().size(), b.groups().size());
  for (size_t g = 0; g < a.groups().size(); ++g) {
    EXPECT_EQ(a.groups()[g].id, b.groups()[g].id);
    EXPECT_EQ(a.groups()[g].key, b.groups()[g].key);
    EXPECT_EQ(a.groups()[g].key_is_uuid, b.groups()[g].key_is_uuid);
    EXPECT_EQ(a.groups()[g].ops, b.groups()[g].ops);
    EXPECT_EQ(a.groups()[g].relation, b.groups()[g].relation);
  }
  EXPECT_EQ(a.input_op_names(), b.input_op_names());
  EXPECT_EQ(a.ops_by_sequence(), b.ops_by_sequence());
}

TEST(GeGraphText, TextAndItsAtcJsonGiveTheSameRule) {
  const FusionRule from_json = FusionRule::parse(kTwinJson, "twin.json");
  const FusionRule from_text = FusionRule::parse(to_json(kTwinText), "twin.txt");
  expect_same_rule(from_text, from_json);

  // And the rule is the one intended.
  ASSERT_EQ(from_text.ops().size(), 8U);
  const FusionOp& conv = from_text.ops()[2];
  EXPECT_EQ(conv.name, "conv1conv1_relu");
  EXPECT_EQ(conv.inputs, (Names{"trans_TransData_1:0", "weight:0"}));
  EXPECT_EQ(conv.original_op_names, (Names{"conv1", "conv1_relu"}));
  ASSERT_EQ(conv.output_desc.size(), 1U);
  EXPECT_EQ(conv.output_desc[0].origin_name, "conv1_relu");
  EXPECT_EQ(conv.output_desc[0].origin_format, "NCHW");
  EXPECT_EQ(conv.output_desc[0].origin_shape, (Shape{1, 8, 4, 4}));
  EXPECT_EQ(conv.output_desc[0].data_type, "DT_FLOAT16");
  EXPECT_EQ(from_text.group_of(conv).relation, FusionRelation::kMultiToOne);
  EXPECT_EQ(from_text.group_of(*from_text.find_op("gather_v2")).relation,
            FusionRelation::kOneToMulti);
  EXPECT_EQ(from_text.group_of(*from_text.find_op("l1_b")).relation, FusionRelation::kL1Fusion);
  EXPECT_EQ(from_text.ops()[0].inputs, Names{});
  EXPECT_EQ(from_text.input_op_names(), Names{"data"});
  EXPECT_EQ(from_text.groups().size(), 6U);
}

TEST(GeGraphText, ParseFileReadsBothFormats) {
  const TempFile text("ge_proto_00000007_Build.txt", kTwinText);
  const TempFile sniffed("model_without_extension", kTwinText);
  const TempFile json("twin.json", kTwinJson);
  const FusionRule from_json = FusionRule::parse_file(json.path());
  expect_same_rule(FusionRule::parse_file(text.path()), from_json);
  expect_same_rule(FusionRule::parse_file(sniffed.path()), from_json);

  const TempFile broken("broken_Build.txt", "graph {\n  op {\n    name: \"a\n");
  try {
    FusionRule::parse_file(broken.path());
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              broken.path() + ":3: unterminated string (a string cannot span lines)");
  }
  // A rule-level problem names the JSON path of the converted text.
  const TempFile nameless("nameless.txt", "graph { op { type: \"T\" } }");
  try {
    FusionRule::parse_file(nameless.path());
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), nameless.path() + ": graph[0].op[0]: missing \"name\"");
  }
}

// ---- Real GE graph dumps --------------------------------------------------------------------

TEST(GeGraphRealData, G1TrainingGraph) {
  const std::string path = realdata(kG1);
  SKIP_IF_ABSENT(path);
  const FusionRule rule = FusionRule::parse_file(path);
  ASSERT_EQ(rule.ops().size(), 5U);
  size_t have_origin = 0;
  for (const FusionOp& op : rule.ops()) have_origin += op.have_origin ? 1 : 0;
  EXPECT_EQ(have_origin, 2U);
  const FusionOp& gather = *rule.find_op("GatherV2");
  EXPECT_EQ(gather.type, "GatherV2D");
  EXPECT_EQ(gather.op_sequence, 2);
  EXPECT_EQ(gather.inputs,
            (Names{"_arg_Placeholder_0_0_0_arg:0", "_arg_Placeholder_1_0_1_0_arg:0"}));
  EXPECT_EQ(gather.original_op_names, Names{"GatherV2"});
  ASSERT_EQ(gather.output_desc.size(), 1U);
  EXPECT_EQ(gather.output_desc[0].origin_name, "GatherV2");
  EXPECT_EQ(gather.output_desc[0].origin_format, "NHWC");
  EXPECT_EQ(gather.output_desc[0].origin_shape, (Shape{16, 32}));
  EXPECT_EQ(gather.output_desc[0].data_type, "DT_FLOAT");
  // The control edge from ge_global_step is dropped.
  EXPECT_EQ(rule.find_op("Node_Output")->inputs, Names{"GatherV2:0"});
  EXPECT_EQ(rule.input_op_names(),
            (Names{"_arg_Placeholder_0_0_0_arg", "_arg_Placeholder_1_0_1_0_arg"}));

  const std::vector<GeGraphSummary> graphs = list_graphs_file(path);
  ASSERT_EQ(graphs.size(), 1U);
  EXPECT_EQ(graphs[0].name, "ge_default_20200909152235_1");
  EXPECT_EQ(graphs[0].op_count, 5U);
  EXPECT_FALSE(graphs[0].has_iterator);
  EXPECT_EQ(computational_graph_name(graphs), std::nullopt);
}

TEST(GeGraphRealData, G2InitGraph) {
  const std::string path = realdata(kG2);
  SKIP_IF_ABSENT(path);
  EXPECT_EQ(FusionRule::parse_file(path).ops().size(), 6U);
  const std::vector<GeGraphSummary> graphs = list_graphs_file(path);
  ASSERT_EQ(graphs.size(), 1U);
  EXPECT_EQ(graphs[0].name, "ge_default_20230713074122_1");
  EXPECT_EQ(graphs[0].op_count, 6U);
  EXPECT_EQ(computational_graph_name(graphs), std::nullopt);
}

TEST(GeGraphRealData, G3PartitionedCallSubgraphs) {
  const std::string path = realdata(kG3);
  SKIP_IF_ABSENT(path);
  const FusionRule rule = FusionRule::parse_file(path);
  EXPECT_EQ(rule.ops().size(), 18U);
  const std::vector<GeGraphSummary> graphs = list_graphs_file(path);
  ASSERT_EQ(graphs.size(), 5U);
  const std::string root = "ge_default_20230713074125_11";
  const std::vector<std::pair<std::string, size_t>> expected = {
      {root, 5},
      {"ge_default_20230713074125_sub_0_input", 3},
      {"ge_default_20230713074125_sub_1_unknow", 2},
      {"ge_default_20230713074125_sub_2_unknow", 6},
      {"ge_default_20230713074125_sub_3_unknow", 2}};
  size_t total = 0;
  for (size_t g = 0; g < graphs.size(); ++g) {
    EXPECT_EQ(graphs[g].name, expected[g].first);
    EXPECT_EQ(graphs[g].op_count, expected[g].second);
    EXPECT_EQ(graphs[g].parent, g == 0 ? "" : root);
    EXPECT_FALSE(graphs[g].has_iterator);
    total += graphs[g].op_count;
  }
  EXPECT_EQ(total, 18U);
}

TEST(GeGraphRealData, G4ResNet50) {
  const std::string path = realdata(kG4);
  SKIP_IF_ABSENT(path);
  const FusionRule rule = FusionRule::parse_file(path);
  ASSERT_EQ(rule.ops().size(), 170U);
  size_t have_origin = 0, conv = 0;
  for (const FusionOp& op : rule.ops()) {
    have_origin += op.have_origin ? 1 : 0;
    conv += op.type == "Conv2D" ? 1 : 0;
  }
  EXPECT_EQ(have_origin, 165U);
  EXPECT_EQ(conv, 50U);
  const FusionOp& conv1 = *rule.find_op("conv1conv1_relu");
  EXPECT_EQ(conv1.original_op_names, (Names{"conv1", "bn_conv1", "scale_conv1", "conv1_relu"}));
  EXPECT_EQ(rule.group_of(conv1).relation, FusionRelation::kMultiToOne);
  ASSERT_EQ(conv1.output_desc.size(), 1U);
  EXPECT_EQ(conv1.output_desc[0].origin_name, "conv1_relu");
  EXPECT_EQ(conv1.output_desc[0].origin_shape, (Shape{1, 64, 112, 112}));

  // 53 output descs carry _datadump_origin_name; the kernel binaries (bt) are dropped.
  const std::string json = ge_text_to_atc_json(read_all(path), path);
  EXPECT_EQ(count_of(json, "\"_datadump_origin_name\""), 53U);
  EXPECT_EQ(count_of(json, "\"_datadump_original_op_names\""), 165U);
  EXPECT_EQ(count_of(json, "\"bt\""), 0U);

  const std::vector<GeGraphSummary> graphs = list_graphs_file(path);
  ASSERT_EQ(graphs.size(), 1U);
  EXPECT_EQ(graphs[0].name, "ResNet-50_0");
  EXPECT_EQ(graphs[0].op_count, 170U);
}

// ---- The computational graph ------------------------------------------------------------------

TEST(GeGraphSummary, TrainingModelHasInitAndComputationalGraphs) {
  const std::string text = R"(
graph {
  name: "ge_default_20240101115959_1"
  op { name: "Variable" type: "Variable" }
  op { name: "Variable/Assign" type: "Assign" input: "Variable:0" }
}
graph {
  name: "ge_default_20240101115959_11"
  op { name: "IteratorV2" type: "IteratorV2" }
  op { name: "MatMul" type: "MatMul" input: "IteratorV2:0" }
}
)";
  const std::vector<GeGraphSummary> graphs = list_graphs(text, "ge_proto_00000001_Build.txt");
  ASSERT_EQ(graphs.size(), 2U);
  EXPECT_FALSE(graphs[0].has_iterator);
  EXPECT_TRUE(graphs[1].has_iterator);
  EXPECT_EQ(graphs[1].op_count, 2U);
  EXPECT_EQ(computational_graph_name(graphs), "ge_default_20240101115959_11");

  // The same from atc JSON.
  const std::string json = to_json(text);
  EXPECT_EQ(computational_graph_name(list_graphs(json, "model.json")),
            "ge_default_20240101115959_11");
}

TEST(GeGraphSummary, IteratorInASubgraphNamesItsRoot) {
  const std::string json = R"({"graph":[
 {"name":"root","op":[{"name":"call","type":"PartitionedCall","subgraph_name":["root_sub_0"]}]},
 {"name":"root_sub_0","op":[{"name":"call2","type":"PartitionedCall",
   "subgraph_name":["root_sub_1"]}]},
 {"name":"root_sub_1","op":[{"name":"next","type":"GetNext"},{"name":"x","type":"Add"}]}]})";
  const std::vector<GeGraphSummary> graphs = list_graphs(json, "model.json");
  ASSERT_EQ(graphs.size(), 3U);
  EXPECT_EQ(graphs[1].parent, "root");
  EXPECT_EQ(graphs[2].parent, "root_sub_0");
  EXPECT_TRUE(graphs[2].has_iterator);
  EXPECT_EQ(computational_graph_name(graphs), "root");

  // A cycle of subgraph references ends the walk.
  const std::vector<GeGraphSummary> loop = {{"a", 1, true, "b"}, {"b", 1, false, "a"}};
  EXPECT_TRUE(computational_graph_name(loop).has_value());
}

TEST(GeGraphSummary, IteratorTypes) {
  EXPECT_TRUE(is_iterator_op_type("IteratorV2"));
  EXPECT_TRUE(is_iterator_op_type("Iterator"));
  EXPECT_TRUE(is_iterator_op_type("GetNext"));
  EXPECT_FALSE(is_iterator_op_type("GetNextV2"));
  EXPECT_FALSE(is_iterator_op_type("iteratorv2"));
}

TEST(GeGraphSummary, Errors) {
  try {
    list_graphs(R"({"graph":{}})", "m.json");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "m.json: graph: expected an array");
  }
  try {
    list_graphs("graph { op { type: 3 } }", "m.txt");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "m.txt:1: field \"type\": expected a string");
  }
  EXPECT_THROW(list_graphs("{}", "m.json"), Error);
  EXPECT_THROW(list_graphs_file("/nonexistent/ge_proto.txt"), Error);
}

}  // namespace
}  // namespace dumpcmp
