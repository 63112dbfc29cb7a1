// The JSON text -da writes, against what Python 3.11's json.dumps(value, indent=2) wrote for the
// same value.
#include <gtest/gtest.h>

#include <string>

#include "probe/py_json_dump.hpp"

namespace dumpcmp {
namespace {

TEST(PyJsonDump, WritesAsPythonsJsonDumpsWithIndent) {
  JsonTree value = JsonTree::object();
  value.set("a", JsonTree::string("\xC3\xA9\xE4\xB8\xAD\xF0\x9F\x98\x80\x01\n\t\"\\ \x7F"));
  value.set("b", JsonTree::array());
  value.set("c", JsonTree::object());
  JsonTree list = JsonTree::array();
  list.items.push_back(JsonTree::number("1"));
  JsonTree inner = JsonTree::object();
  inner.set("x", JsonTree::null());
  inner.set("y", JsonTree::boolean(true));
  list.items.push_back(inner);
  value.set("d", list);
  value.set("e", JsonTree::number("NaN"));
  value.set("f", JsonTree::number("-Infinity"));
  value.set("g", JsonTree::number("1e-05"));
  const std::string expected =
      "{\n"
      "  \"a\": \"\\u00e9\\u4e2d\\ud83d\\ude00\\u0001\\n\\t\\\"\\\\ \\u007f\",\n"
      "  \"b\": [],\n"
      "  \"c\": {},\n"
      "  \"d\": [\n"
      "    1,\n"
      "    {\n"
      "      \"x\": null,\n"
      "      \"y\": true\n"
      "    }\n"
      "  ],\n"
      "  \"e\": NaN,\n"
      "  \"f\": -Infinity,\n"
      "  \"g\": 1e-05\n"
      "}";
  EXPECT_EQ(python_json_dump(value, 2), expected);
}

TEST(PyJsonDump, SetReplacesInPlaceAsADict) {
  JsonTree value = JsonTree::object();
  value.set("k", JsonTree::number("1"));
  value.set("j", JsonTree::number("2"));
  value.set("k", JsonTree::number("3"));
  EXPECT_EQ(python_json_dump(value, 4), "{\n    \"k\": 3,\n    \"j\": 2\n}");
  ASSERT_NE(value.find("k"), nullptr);
  EXPECT_EQ(value.find("k")->text, "3");
  EXPECT_EQ(value.find("x"), nullptr);
}

}  // namespace
}  // namespace dumpcmp
