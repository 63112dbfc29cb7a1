// msprobe's -dm file (docs/msprobe-compare.md §4.4) read as yaml.safe_load reads it; the compare
// with one against msprobe's own files is tests/cli/test_probe_compare.sh.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "core/error.hpp"
#include "probe/probe_mapping.hpp"
#include "support.hpp"

namespace dumpcmp {
namespace {

using testing::ScratchDir;

std::string write(const ScratchDir& dir, const std::string& name, const std::string& text) {
  const std::string path = dir.file(name);
  std::ofstream(path) << text;
  return path;
}

std::string refusal(const std::string& path) {
  try {
    read_probe_data_mapping(path);
  } catch (const Error& e) {
    return e.what();
  }
  return "accepted";
}

TEST(ProbeMapping, FlatDictOfRowNames) {
  const ScratchDir dir;
  const ProbeDataMapping m =
      read_probe_data_mapping(write(dir, "m.yaml",
                                    "# comment\n"
                                    "a.forward.input.0: b.forward.input.0\n"
                                    "'q.x': \"q.y\"  # quoted\n"
                                    "a.forward.input.0: c.forward.input.0\n"));
  EXPECT_EQ(m.size(), 2u);
  EXPECT_EQ(m.at("a.forward.input.0"), "c.forward.input.0");  // the last value, as Python's dict
  EXPECT_EQ(m.at("q.x"), "q.y");
  EXPECT_TRUE(read_probe_data_mapping(write(dir, "empty.yaml", "")).empty());
}

TEST(ProbeMapping, RefusalsNameTheFile) {
  const ScratchDir dir;
  EXPECT_EQ(refusal(write(dir, "m.yml", "a: b\n")),
            dir.file("m.yml") + ": the mapping file does not end with .yaml");
  EXPECT_EQ(refusal(dir.file("none.yaml")),
            dir.file("none.yaml") + ": the mapping file cannot be read");
  EXPECT_EQ(refusal(write(dir, "list.yaml", "- a\n- b\n")),
            dir.file("list.yaml") + ": a data mapping is a dict of row names");
  EXPECT_EQ(
      refusal(write(dir, "nested.yaml", "a: {b: c}\n")),
      dir.file("nested.yaml") + ": a data mapping maps row names to row names (scalars only)");
  EXPECT_EQ(refusal(write(dir, "bad.yaml", "a: b: c\n")),
            dir.file("bad.yaml") + ": not YAML: illegal map value (line 1)");
}

}  // namespace
}  // namespace dumpcmp
