// msprobe's -dm, -cm and -am files (docs/msprobe-compare.md §4.4-§4.6) read as yaml.safe_load
// reads them; compares with them against msprobe's own files are in
// tests/cli/test_probe_compare.sh.
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

TEST(ProbeMapping, CellPathsKeepFileOrder) {
  const ScratchDir dir;
  const ProbeCellMapping m = read_probe_cell_mapping(
      write(dir, "c.yaml", "net.Dense: net.Linear\nattention: self_attention\nnet.Dense: x\n"));
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0],
            (std::pair<std::string, std::string>("net.Dense", "x")));  // first place, last value
  EXPECT_EQ(m[1], (std::pair<std::string, std::string>("attention", "self_attention")));
  try {
    read_probe_cell_mapping(write(dir, "l.yaml", "- a\n"));
    ADD_FAILURE() << "a list was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              dir.file("l.yaml") + ": a cell mapping is a dict of cell paths");
  }
}

TEST(ProbeMapping, ApiEntriesWithTheirIndexLists) {
  const ScratchDir dir;
  const ProbeApiMapping m = read_probe_api_mapping(write(dir, "a.yaml",
                                                         "- ms_api: Functional.dense\n"
                                                         "  pt_api: Functional.linear\n"
                                                         "  ms_args: [0, 2, x]\n"
                                                         "  pt_args: [0, 1, y]\n"
                                                         "  ms_outputs: [0]\n"
                                                         "  pt_outputs: [1]\n"
                                                         "- ms_api: Mint.add\n"
                                                         "  pt_api: Torch.add\n"
                                                         "  ms_output: [0, 1]\n"
                                                         "  pt_output: [1, 0]\n"
                                                         "  ms_outputs: [0]\n"
                                                         "  pt_outputs: [0]\n"
                                                         "- ms_api: Mint.sub\n"
                                                         "  pt_api: Torch.sub\n"
                                                         "  ms_parameters: [w]\n"));
  ASSERT_EQ(m.entries.size(), 2u);
  const ProbeApiMappingEntry& dense = m.entries[0];
  EXPECT_EQ(dense.ms_api, "Functional.dense");
  EXPECT_EQ(dense.ms_indices[kApiArgs], (std::vector<std::string>{"0", "2", "x"}));
  EXPECT_EQ(dense.pt_indices[kApiArgs], (std::vector<std::string>{"0", "1", "y"}));
  // The plural output keys serve when the singular ones msprobe reads are absent.
  EXPECT_EQ(dense.pt_indices[kApiOutput], (std::vector<std::string>{"1"}));
  EXPECT_EQ(m.entries[1].pt_indices[kApiOutput], (std::vector<std::string>{"1", "0"}));
  ASSERT_EQ(m.warnings.size(), 1u);  // Mint.sub's parameter lists differ in length
  EXPECT_NE(m.warnings[0].find("the mapping of Mint.sub to Torch.sub is left out"),
            std::string::npos);
  EXPECT_TRUE(read_probe_api_mapping(write(dir, "e.yaml", "")).entries.empty());
  try {
    read_probe_api_mapping(write(dir, "d.yaml", "a: b\n"));
    ADD_FAILURE() << "a dict was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), dir.file("d.yaml") + ": an API mapping is a list of dicts");
  }
}

}  // namespace
}  // namespace dumpcmp
