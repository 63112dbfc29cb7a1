// The data mapping file -lm writes, against what PyYAML 6's yaml.dump(d, sort_keys=False) wrote
// for the same dict (run beside msprobe 26.2.0).
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "probe/probe_yaml.hpp"

namespace dumpcmp {
namespace {

TEST(ProbeYaml, ScalarsQuotedAsPyYamlQuotesThem) {
  const std::vector<std::string> keys = {"a",    "N/A",
                                         "null", "1",
                                         "1.0",  "a b",
                                         "-x",   "x-",
                                         "#a",   "a#b",
                                         "a #b", "a:b",
                                         "a: b", "a:",
                                         "true", "on",
                                         "0x1f", "2026-11-28",
                                         ".inf", "_x",
                                         "x.1",  "Tensor.__add__.0.forward.input.0",
                                         "~",    "=",
                                         "<<",   "it's",
                                         "[a]",  "a,b",
                                         "?x",   "? x",
                                         "-",    "--",
                                         "!a",   "%a",
                                         "@a",   "a@b"};
  std::vector<std::pair<std::string, std::string>> entries;
  for (const std::string& key : keys) entries.emplace_back(key, "v");
  EXPECT_EQ(pyyaml_flat_dict(entries),
            "a: v\nN/A: v\n'null': v\n'1': v\n'1.0': v\na b: v\n-x: v\nx-: v\n'#a': v\na#b: v\n"
            "'a #b': v\na:b: v\n'a: b': v\n'a:': v\n'true': v\n'on': v\n'0x1f': v\n"
            "'2026-11-28': v\n'.inf': v\n_x: v\nx.1: v\nTensor.__add__.0.forward.input.0: v\n"
            "'~': v\n'=': v\n'<<': v\nit's: v\n'[a]': v\na,b: v\n?x: v\n'? x': v\n'-': v\n"
            "--: v\n'!a': v\n'%a': v\n'@a': v\na@b: v\n");
}

TEST(ProbeYaml, LongKeysAreExplicitAndNoEntriesIsAnEmptyDict) {
  const std::string key122(122, 'a'), key123(123, 'b');
  EXPECT_EQ(pyyaml_flat_dict({{key122, "N/A"}, {key123, "x"}}),
            key122 + ": N/A\n? " + key123 + "\n: x\n");
  EXPECT_EQ(pyyaml_flat_dict({}), "{}\n");
}

}  // namespace
}  // namespace dumpcmp
