// msprobe's dump.json read as msprobe reads it (docs/msprobe-compare.md §2.2, §4.1); the whole
// compare against msprobe's own files is tests/cli/test_probe_compare.sh.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "core/error.hpp"
#include "probe/probe_dump.hpp"
#include "probe/probe_text.hpp"
#include "probe/py_value.hpp"
#include "support.hpp"

namespace dumpcmp {
namespace {

using testing::ScratchDir;

std::string write(const ScratchDir& dir, const std::string& text) {
  const std::string path = dir.file("dump.json");
  std::ofstream(path) << text;
  return path;
}

TEST(ProbeText, PythonMeanings) {
  EXPECT_EQ(crc32_hex(""), "00000000");
  EXPECT_EQ(crc32_hex("2"), "1ad5be0d");  // format(zlib.crc32(b"2"), "08x")
  EXPECT_EQ(split("a..b", '.').size(), 3u);
  EXPECT_EQ(replace_all("x.y.x", "x", ""), ".y.");
  EXPECT_TRUE(is_formula_like("=1+1"));
  EXPECT_TRUE(is_formula_like("a;@b"));
  EXPECT_TRUE(
      is_formula_like("\xEF\xBC\x8B"
                      "1"));  // a full-width plus
  EXPECT_FALSE(is_formula_like("a-b"));
  EXPECT_EQ(py_repr_string("it's"), "\"it's\"");
  EXPECT_EQ(py_repr_string("a\n'\"\\"), "'a\\n\\'\"\\\\'");
}

TEST(ProbeJson, BareNonFiniteTokensOutsideStringsOnly) {
  const PyJson json = PyJson::parse(
      R"({"a": NaN, "b": [Infinity, -Infinity], "c": "NaN Infinity", "d": 1e-05})", "t.json");
  EXPECT_EQ(py_str(json.root()), "{'a': nan, 'b': [inf, -inf], 'c': 'NaN Infinity', 'd': 1e-05}");
  EXPECT_THROW(PyJson::parse("{\"a\": }", "t.json"), Error);
}

TEST(ProbeDump, RowsNamesAndOrder) {
  ScratchDir dir;
  const std::string path = write(dir, R"({"task": "statistics", "framework": "pytorch", "data": {
    "Module.fc.Linear.forward.0": {
      "output": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2], "Max": NaN,
                  "Min": 0, "Mean": 0.5, "Norm": 1.0, "requires_grad": true}],
      "parameters": {"weight": {"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2, 2],
                                "Max": 1, "Min": 0, "Mean": 0.5, "Norm": 1.0}},
      "input_kwargs": {"alpha": {"type": "float", "value": 2.5}, "b": null},
      "input_args": [[{"type": "int", "value": 3}], {"type": "torch.Size", "value": [2, 3]}]},
    "Functional.relu.4.backward": {"input": [{"type": "torch.Tensor", "dtype": "torch.float16",
      "shape": [1], "Max": 1, "Min": 1, "Mean": 1, "Norm": 1,
      "data_name": "Functional.relu.4.backward.input.0.pt"}]},
    "Functional.relu.9.backward": {"input": [{"type": "torch.Tensor", "dtype": "torch.float16",
      "shape": [1], "Max": 1, "Min": 1, "Mean": 1, "Norm": 1}]},
    "no_direction": {"input": [{"type": "int", "value": 1}]}}})");
  const ProbeDump dump = read_probe_dump(path);
  ASSERT_EQ(dump.ops.size(), 3u);  // the key without forward/backward is skipped
  const ProbeOp& fc = dump.ops[0];
  EXPECT_EQ(fc.op_no_number, "Module.fc.Linear");
  EXPECT_EQ(fc.call_direction, "forward.0");
  ASSERT_EQ(fc.rows.size(), 6u);
  // Inputs (args, then kwargs), then parameters, then outputs.
  EXPECT_EQ(fc.rows[0].name, "Module.fc.Linear.forward.0.input.0.0");
  EXPECT_EQ(*fc.rows[0].dtype, "<class 'int'>");
  EXPECT_EQ(fc.rows[0].stats[0].text, "3");
  EXPECT_EQ(fc.rows[1].name, "Module.fc.Linear.forward.0.input.1");
  EXPECT_EQ(*fc.rows[1].shape, "[2, 3]");
  EXPECT_EQ(fc.rows[2].name, "Module.fc.Linear.forward.0.input.alpha");
  EXPECT_EQ(fc.rows[3].name, "Module.fc.Linear.forward.0.input.b");
  EXPECT_FALSE(fc.rows[3].dtype.has_value());  // null: msprobe's None
  EXPECT_EQ(fc.rows[4].name, "Module.fc.Linear.forward.0.parameters.weight");
  EXPECT_EQ(fc.rows[5].suffix, ".output.0");
  EXPECT_EQ(fc.rows[5].stats[0].text, "Nan");
  EXPECT_EQ(*fc.rows[5].requires_grad, "True");
  // Backward calls are counted per op in dump order; a data_name names the row.
  EXPECT_EQ(dump.ops[1].backward_call_order, 0);
  EXPECT_EQ(dump.ops[2].backward_call_order, 1);
  EXPECT_EQ(dump.ops[1].rows[0].name, "Functional.relu.4.backward.input.0");
}

TEST(ProbeDump, RefusalsNameTheFile) {
  ScratchDir dir;
  for (const std::string& text :
       {std::string(R"({"task": "statistics"})"), std::string(R"({"data": [1]})"),
        std::string(R"({"data": {"=cmd.0.forward": {}}})"),
        std::string(
            R"({"data": {"A.b.0.forward": {"input_args": [{"type": "str", "value": "-1"}]}}})")}) {
    const std::string path = write(dir, text);
    try {
      read_probe_dump(path);
      ADD_FAILURE() << text;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ExitCode::kInput);
      EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace dumpcmp
