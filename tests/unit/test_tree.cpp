// Whole runs: dump-tree discovery, leaf selection and pairing, msaccucmp's batch mode, the run
// journal. Trees are built from empty files: discovery only reads names.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "compare/compare_engine.hpp"
#include "core/error.hpp"
#include "core/mapped_file.hpp"
#include "core/step_set.hpp"
#include "io/dump_writer.hpp"
#include "support.hpp"
#include "tree/batch_mode.hpp"
#include "tree/dump_tree.hpp"
#include "tree/leaf_group.hpp"
#include "tree/leaf_values.hpp"
#include "tree/run_journal.hpp"
#include "tree/tree_compare.hpp"
#include "tree/tree_listing.hpp"
#include "tree/tree_pairing.hpp"
#include "tree/tree_report.hpp"

namespace fs = std::filesystem;

namespace dumpcmp {
namespace {

using testing::ScratchDir;

const char* const kDump = "Add.add1.1.1.1700000000000000";

void touch(const std::string& path) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path) << "";
}

void leaf(const std::string& dir) { touch(dir + "/" + kDump); }

std::vector<std::string> relatives(const DumpTree& tree) {
  std::vector<std::string> out;
  for (const TreeLeaf& l : tree.leaves) out.push_back(l.relative);
  return out;
}

bool any_contains(const std::vector<std::string>& lines, const std::string& part) {
  for (const std::string& l : lines) {
    if (l.find(part) != std::string::npos) return true;
  }
  return false;
}

TEST(TreeListing, NaturalOrder) {
  EXPECT_TRUE(natural_less("2", "10"));
  EXPECT_TRUE(natural_less("10", "a"));
  EXPECT_TRUE(natural_less("007", "8"));
  EXPECT_FALSE(natural_less("10", "9"));
  EXPECT_TRUE(natural_less("99999999999999999999999", "100000000000000000000000"));
}

TEST(StepSet, ParsesTheDumpStepSyntax) {
  const auto set = StepSet::parse("0|3-5|10");
  ASSERT_TRUE(set);
  for (const char* s : {"0", "3", "4", "5", "10"}) EXPECT_TRUE(set->contains(s)) << s;
  for (const char* s : {"1", "2", "6", "11", "x", ""}) EXPECT_FALSE(set->contains(s)) << s;
  std::string problem;
  EXPECT_FALSE(StepSet::parse("5-3", &problem));
  EXPECT_NE(problem.find("5-3"), std::string::npos);
  EXPECT_FALSE(StepSet::parse("1||2"));
  EXPECT_FALSE(StepSet::parse("a"));
}

TEST(DumpTree, FindsModelLeavesUnderTimeDirectoriesAndSkipsStrays) {
  ScratchDir dir;
  const std::string root = dir.file("dump");
  for (const char* step : {"10", "0", "5"}) {
    leaf(root + "/20240101120000/0/ge_default_20240101115959_1/1/" + step);
    leaf(root + "/20240101120005/1/ge_default_20240101120004_1/1/" + step);
  }
  touch(root + "/notes.txt");
  touch(root + "/20240101120000/0/.DS_Store");
  fs::create_directories(root + "/20240101120000/0/ge_default_20240101115959_1/1/5/sub");
  fs::create_symlink(dir.file("nowhere"), root + "/dangling");
  const DumpTree tree = discover_dump_tree(root);
  EXPECT_EQ(relatives(tree),
            (std::vector<std::string>{"20240101120000/0/ge_default_20240101115959_1/1/0",
                                      "20240101120000/0/ge_default_20240101115959_1/1/5",
                                      "20240101120000/0/ge_default_20240101115959_1/1/10",
                                      "20240101120005/1/ge_default_20240101120004_1/1/0",
                                      "20240101120005/1/ge_default_20240101120004_1/1/5",
                                      "20240101120005/1/ge_default_20240101120004_1/1/10"}));
  const TreeLeaf& l = tree.leaves[4];
  EXPECT_EQ(l.time, "20240101120005");
  EXPECT_EQ(l.device, "1");
  EXPECT_EQ(l.model_name, "ge_default_20240101120004_1");
  EXPECT_EQ(l.model_id, "1");
  EXPECT_EQ(l.step, "5");
  EXPECT_FALSE(l.single_op());
  EXPECT_TRUE(any_contains(tree.warnings, "notes.txt: a file outside any dump directory"));
  EXPECT_TRUE(any_contains(tree.warnings, ".DS_Store"));
  EXPECT_TRUE(any_contains(tree.warnings, "/5/sub: a directory inside a dump directory"));
  EXPECT_TRUE(any_contains(tree.warnings, "dangling: a symbolic link to nothing"));
}

TEST(DumpTree, AnEmptyStepIsALeafThatWillFailAndOtherEmptyDirectoriesAreWarnings) {
  ScratchDir dir;
  const std::string root = dir.file("dump");
  leaf(root + "/20240101120000/0/g_1/1/0");
  fs::create_directories(root + "/20240101120000/0/g_1/1/5");
  fs::create_directories(root + "/20240101120000/spare");
  const DumpTree tree = discover_dump_tree(root);
  EXPECT_EQ(relatives(tree),
            (std::vector<std::string>{"20240101120000/0/g_1/1/0", "20240101120000/0/g_1/1/5"}));
  EXPECT_TRUE(any_contains(tree.warnings, "/spare: an empty directory; skipped"));
}

TEST(DumpTree, RootMayBeTheTimeDirectory) {
  ScratchDir dir;
  const std::string root = dir.file("20240101120000");
  leaf(root + "/3/resnet/7/0");
  const DumpTree tree = discover_dump_tree(root);
  ASSERT_EQ(tree.leaves.size(), 1u);
  EXPECT_EQ(tree.leaves[0].time, "20240101120000");
  EXPECT_EQ(tree.leaves[0].device, "3");
  EXPECT_EQ(tree.leaves[0].model_name, "resnet");
}

TEST(DumpTree, SingleOperatorLeaves) {
  ScratchDir dir;
  leaf(dir.file("dump/0/Add_op"));
  leaf(dir.file("dump/1/Add_op"));
  const DumpTree tree = discover_dump_tree(dir.file("dump"));
  ASSERT_EQ(tree.leaves.size(), 2u);
  EXPECT_TRUE(tree.leaves[0].single_op());
  EXPECT_EQ(tree.leaves[1].device, "1");
  EXPECT_EQ(tree.leaves[1].op_name, "Add_op");
}

TEST(DumpTree, OddDepthsAndLoopsAreWarnings) {
  ScratchDir dir;
  leaf(dir.file("dump/0/model/1"));  // three levels: not a leaf position
  fs::create_directories(dir.file("dump/9"));
  fs::create_directory_symlink(dir.file("dump"), dir.file("dump/9/loop"));
  const DumpTree tree = discover_dump_tree(dir.file("dump"));
  EXPECT_TRUE(tree.leaves.empty());
  EXPECT_TRUE(any_contains(tree.warnings, "dump files where the tree has no leaf"));
  EXPECT_TRUE(any_contains(tree.warnings, "symbolic link loop"));
  EXPECT_THROW(discover_dump_tree(dir.file("missing")), Error);
}

TEST(TreePairing, NpuTreesPairByDeviceGraphAndStepWithTheGraphIdFallback) {
  ScratchDir dir;
  for (const char* step : {"0", "5"}) {
    leaf(dir.file("npu/20240101120000/0/ge_default_20240101115959_1/1/") + step);
    leaf(dir.file("npu/20240101120000/0/ge_default_20240101115959_2/2/") + step);  // init
    leaf(dir.file("gold/20230101120000/0/ge_default_20230101115959_1/1/") + step);
  }
  leaf(dir.file("npu/20240101120000/0/ge_default_20240101115959_1/1/10"));  // no golden step
  leaf(dir.file("gold/20230101120000/1/ge_default_20230101115959_1/1/0"));  // no NPU leaf
  const DumpTree npu = discover_dump_tree(dir.file("npu"));
  const GoldenTree golden = discover_golden_tree(dir.file("gold"));
  ASSERT_EQ(golden.kind, GoldenKind::kNpuTree);
  LeafSelection only_graph_1;
  only_graph_1.graphs = {"ge_default_20250101000000_1"};  // by graph id
  const TreePairing p = pair_tree_leaves(npu, golden, only_graph_1);
  ASSERT_EQ(p.pairs.size(), 3u);
  EXPECT_EQ(p.pairs[0].golden_path,
            dir.file("gold") + "/20230101120000/0/ge_default_20230101115959_1/1/0");
  EXPECT_NE(p.pairs[0].note.find("by graph id 1"), std::string::npos);
  EXPECT_EQ(p.pairs[2].npu.step, "10");
  EXPECT_TRUE(p.pairs[2].golden_path.empty());
  ASSERT_EQ(p.golden_only.size(), 1u);
  EXPECT_EQ(p.golden_only[0].device, "1");

  LeafSelection steps;
  steps.steps = StepSet::parse("5-10");
  steps.devices = {"0"};
  EXPECT_EQ(pair_tree_leaves(npu, golden, steps).pairs.size(), 3u);  // graphs 1 and 2
}

TEST(TreePairing, GoldenStepFoldersAndFlatFolders) {
  ScratchDir dir;
  leaf(dir.file("npu/20240101120000/0/net/1/0"));
  leaf(dir.file("npu/20240101120000/0/net/1/5"));
  touch(dir.file("steps/0/add1.0.1700000000000000.npy"));
  touch(dir.file("flat/add1.0.1700000000000000.npy"));
  const DumpTree npu = discover_dump_tree(dir.file("npu"));
  const GoldenTree steps = discover_golden_tree(dir.file("steps"));
  EXPECT_EQ(steps.kind, GoldenKind::kStepFolders);
  const TreePairing by_step = pair_tree_leaves(npu, steps, {});
  ASSERT_EQ(by_step.pairs.size(), 2u);
  EXPECT_EQ(by_step.pairs[0].golden_path, dir.file("steps") + "/0");
  EXPECT_TRUE(by_step.pairs[1].golden_path.empty());
  const GoldenTree flat = discover_golden_tree(dir.file("flat"));
  EXPECT_EQ(flat.kind, GoldenKind::kFlat);
  for (const LeafPair& p : pair_tree_leaves(npu, flat, {}).pairs) {
    EXPECT_EQ(p.golden_path, dir.file("flat"));
  }
}

std::string write_rule(const std::string& path, const std::vector<std::string>& graphs) {
  std::string text = "{\"graph\":[";
  for (size_t k = 0; k < graphs.size(); ++k) {
    text += (k ? "," : "") + std::string("{\"name\":\"") + graphs[k] + "\",\"op\":[]}";
  }
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path) << text << "]}";
  return path;
}

TEST(BatchMode, StringLargestStepPerModelIdAndResultNames) {
  ScratchDir dir;
  const std::string time = dir.file("dump/20240101120000");
  for (const char* dev : {"0", "1"}) {
    for (const char* step : {"5", "10"}) {
      leaf(time + "/" + dev + "/ge_default_20240101115959_1/1/" + step);
    }
  }
  touch(time + "/notes.txt");                                 // msaccucmp: fatal
  touch(time + "/0/ge_default_20240101115959_1/1/zz_stray");  // msaccucmp: chosen as the step
  write_rule(dir.file("rules/g1.json"), {"ge_default_20240101115959_1"});
  touch(dir.file("rules/readme.txt"));
  std::ofstream(dir.file("rules/acl.json")) << "{\"dump\":{}}";
  const BatchPlan plan = plan_batch_mode(time, dir.file("rules"));
  ASSERT_EQ(plan.leaves.size(), 2u);
  EXPECT_EQ(plan.leaves[0].leaf.step, "5");  // "5" > "10" as strings
  EXPECT_EQ(batch_result_stem(plan.leaves[0].leaf), "0_ge_default_20240101115959_1_5");
  EXPECT_EQ(batch_result_stem(plan.leaves[1].leaf), "1_ge_default_20240101115959_1_5");
  EXPECT_EQ(plan.leaves[1].rule_file, fs::canonical(dir.file("rules/g1.json")).string());
  EXPECT_TRUE(any_contains(plan.warnings, "notes.txt: not a device directory; skipped"));
  EXPECT_TRUE(any_contains(plan.warnings, "zz_stray: not a step directory; skipped"));
  EXPECT_TRUE(any_contains(plan.warnings, "acl.json: no \"graph\" array"));
  EXPECT_TRUE(any_contains(plan.warnings, "not compared: 10"));
}

TEST(BatchMode, GraphIdFallbackWarnsAndTheLastMatchWins) {
  ScratchDir dir;
  const std::string time = dir.file("dump/20240101120000");
  leaf(time + "/0/ge_default_20240101115960_1/1/0");
  leaf(time + "/1/ge_default_20240101115961_1/1/0");
  leaf(time + "/1/resnet50/1/0");  // msaccucmp aborts on its digit-run count; here: no match
  write_rule(dir.file("rules/g.json"), {"ge_default_20240101115958_1"});
  const BatchPlan plan = plan_batch_mode(time, dir.file("rules"));
  ASSERT_EQ(plan.leaves.size(), 1u);
  EXPECT_EQ(plan.leaves[0].leaf.model_name, "ge_default_20240101115961_1");
  const std::string real_time = fs::canonical(time).string();
  EXPECT_TRUE(any_contains(plan.warnings,
                           "The ge_default_20240101115958_1 and in " + real_time +
                               "/0/ge_default_20240101115960_1/1/0 dump data are not generated "
                               "at the same time. The result may be incorrect."));
  EXPECT_TRUE(any_contains(plan.warnings, "a later directory matched its graph id too"));
}

TEST(BatchMode, TheFallbacksLastMatchFollowsTheWalkNotTheNames) {
  ScratchDir dir;
  const std::string time = dir.file("dump/20240101120000");
  leaf(time + "/0/ge_default_20240101115960_1/1/0");
  leaf(time + "/1/ge_default_20240101115959_1/1/0");
  write_rule(dir.file("rules/g.json"), {"ge_default_20240101115958_1"});
  const BatchPlan plan = plan_batch_mode(time, dir.file("rules"));
  ASSERT_EQ(plan.leaves.size(), 1u);
  EXPECT_EQ(plan.leaves[0].leaf.device, "1");
}

TEST(BatchMode, OneRuleFileKeepsItsLastMatchedGraph) {
  ScratchDir dir;
  const std::string time = dir.file("dump/20240101120000");
  leaf(time + "/0/g_a/1/0");
  leaf(time + "/0/g_b/2/0");
  write_rule(dir.file("rules/m.json"), {"g_a", "g_b"});
  const BatchPlan plan = plan_batch_mode(time, dir.file("rules"));
  ASSERT_EQ(plan.leaves.size(), 1u);
  EXPECT_EQ(plan.leaves[0].graph, "g_b");
  EXPECT_TRUE(any_contains(plan.warnings, "graph g_b replaces graph g_a, whose leaves"));
}

TEST(BatchMode, RefusalsCarryMsaccucmpsMessages) {
  ScratchDir dir;
  leaf(dir.file("dump/20240101120000/0/g/1/0"));
  write_rule(dir.file("rules/m.json"), {"other"});
  fs::create_directories(dir.file("empty_rules"));
  fs::create_directories(dir.file("dump/20240101120001/0"));
  auto message = [](auto&& f) {
    try {
      f();
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string dump = fs::canonical(dir.file("dump")).string();
  EXPECT_EQ(message([&] { plan_batch_mode(dir.file("dump"), dir.file("rules")); }),
            "The " + dump + " path must end with a timestamp.");
  EXPECT_EQ(
      message([&] { plan_batch_mode(dir.file("dump/20240101120000"), dir.file("empty_rules")); }),
      "There is no fusion rule json file in \"'" + fs::canonical(dir.file("empty_rules")).string() +
          "'\".");
  EXPECT_EQ(message([&] { plan_batch_mode(dir.file("dump/20240101120001"), dir.file("rules")); }),
            "The " + dump +
                "/20240101120001 does not match the path format,please save dump files in the "
                "dump_path/time/device_id/model_name/model_id/dump_step/dump_file path format");
  EXPECT_EQ(message([&] { plan_batch_mode(dir.file("dump/20240101120000"), dir.file("rules")); }),
            "The " + dump + "/20240101120000 not match fusion rule file");
}

TEST(TreeCompare, StemsStayUnique) {
  TreeLeaf a;
  a.device = "0";
  a.model_name = "g";
  a.model_id = "1";
  a.step = "0";
  TreeLeaf b = a;
  b.model_id = "7";
  std::vector<TreeJob> jobs = {{a, "", "", "0_g_0", ""},
                               {b, "", "", "0_g_0", ""},
                               {a, "", "", "x", ""},
                               {a, "", "", "x", ""}};
  make_stems_unique(jobs);
  EXPECT_EQ(jobs[0].stem, "0_g_1_0");
  EXPECT_EQ(jobs[1].stem, "0_g_7_0");
  EXPECT_EQ(jobs[2].stem, "0_g_1_0_2");  // still equal to the first: numbered
  EXPECT_EQ(jobs[3].stem, "0_g_1_0_3");
}

TEST(LeafValues, DoublesSurviveTheirTextExactly) {
  for (std::size_t n = 0; n < 5; ++n) {  // every padding of the last base64 group
    std::vector<double> values = {0.9999823456789012, -0.0, 1e-310, INFINITY, -INFINITY, NAN, 3.0};
    values.resize(n);
    std::vector<double> back;
    ASSERT_TRUE(decode_doubles(encode_doubles(values), back)) << n;
    ASSERT_EQ(back.size(), values.size());
    if (n > 0) {
      EXPECT_EQ(std::memcmp(back.data(), values.data(), n * sizeof(double)), 0) << n;
    }
  }
  std::vector<double> back;
  EXPECT_FALSE(decode_doubles("AAAA", back));  // 3 bytes: not whole doubles
  EXPECT_FALSE(decode_doubles("A=AA", back));
  EXPECT_FALSE(decode_doubles("AAA", back));
}

TEST(RunJournal, KeepsFinishedLeavesAcrossATornLine) {
  ScratchDir dir;
  LeafOutcome o;
  o.status = LeafStatus::kCompared;
  o.result_file = "0_g_0_result_20240101120000.csv";
  o.rows = 12;
  o.compared = 10;
  o.outside = 1;
  o.not_compared = 2;
  o.first_op = "conv \"1\"";
  o.first_index = 3;
  o.bytes = 4096;
  auto values = std::make_shared<LeafValues>();
  values->metrics = {"CosineSimilarity", "MaxAbsoluteError"};
  values->tensors = {"conv:output:0", "relu \"x\""};
  values->values = {0.93123456789, 0.5, NAN, INFINITY};
  o.values = values;
  {
    RunJournal journal(dir.path(), run_key("run a"), 3, false);
    journal.record(0, "0_g_0", o);
  }
  std::ofstream(dir.file(kJournalName), std::ios::app) << "{\"leaf\":1,\"stem\":\"0_g_";
  RunJournal resumed(dir.path(), run_key("run a"), 3, true);
  const LeafOutcome* done = resumed.finished(0, "0_g_0");
  ASSERT_NE(done, nullptr);
  EXPECT_TRUE(done->resumed);
  EXPECT_EQ(done->result_file, o.result_file);
  EXPECT_EQ(done->first_op, o.first_op);
  EXPECT_EQ(done->rows, 12);
  EXPECT_EQ(done->bytes, 4096u);
  ASSERT_NE(done->values, nullptr);  // the typed values a resumed leaf charts with
  EXPECT_EQ(done->values->metrics, values->metrics);
  EXPECT_EQ(done->values->tensors, values->tensors);
  EXPECT_EQ(done->values->at(0, 0), 0.93123456789);
  EXPECT_TRUE(std::isnan(done->values->at(1, 0)));
  EXPECT_EQ(done->values->at(1, 1), INFINITY);
  EXPECT_EQ(resumed.finished(0, "other"), nullptr);
  EXPECT_EQ(resumed.finished(1, "0_g_5"), nullptr);
  EXPECT_THROW(RunJournal(dir.path(), run_key("run b"), 3, true), Error);
  ScratchDir empty;  // killed before the journal existed: a fresh start
  EXPECT_EQ(RunJournal(empty.path(), run_key("run a"), 3, true).finished(0, "0_g_0"), nullptr);
  std::ofstream(empty.file(kJournalName)) << "{\"journal\":1,\"ru";  // killed in the header
  EXPECT_EQ(RunJournal(empty.path(), run_key("run a"), 3, true).finished(0, "0_g_0"), nullptr);
  EXPECT_NE(testing::read_text(empty.file(kJournalName)).find(run_key("run a")), std::string::npos);
}

// A dump that shrinks while a group of small leaves runs: the problem goes to the leaf that has the
// file (to be logged with it), the other leaf has none.
TEST(LeafGroup, ProblemsMetWhileRowsRunGoToTheirLeaf) {
  ScratchDir dir;
  TensorSpec big;
  big.shape = {static_cast<int64_t>(MappedFile::kReadThreshold / 2)};  // 2 MiB: mapped
  big.bytes.assign(MappedFile::kReadThreshold * 2, 1);
  for (const std::string leaf : {"a", "b"}) {
    for (const std::string side : {"left", "right"}) {
      std::filesystem::create_directories(dir.file(leaf + "/" + side));
      write_binary_dump(dir.file(leaf + "/" + side + "/Mul.big.1.1.1700000000000000"),
                        DumpSpec{"big", 1700000000000000, {}, {big}});
    }
  }
  const std::string victim = dir.file("b/left/Mul.big.1.1.1700000000000000");
  class CountingSink final : public RecordSink {
   public:
    void begin(const ResultTable&) override {}
    void write(const CompareRecord&) override { ++records; }
    void commit() override {}
    int records = 0;
  } sinks[2];
  CompareOptions base;
  base.threads = 2;
  LeafGroup group(base.batch_bytes);
  for (std::size_t k = 0; k < 2; ++k) {
    CompareOptions options = base;
    options.my_path = dir.file(std::string(k == 0 ? "a" : "b") + "/left");
    options.golden_path = dir.file(std::string(k == 0 ? "a" : "b") + "/right");
    OpenedDumps opened;
    ComparePlan plan = plan_compare(options, &opened);
    ASSERT_TRUE(group.accepts(plan));
    group.add(k, std::move(plan), std::move(opened), sinks[k]);
  }
  testing::TruncatingBackend backend(victim);
  const std::vector<LeafGroup::LeafRun> runs = group.run(backend, base);
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(sinks[0].records, 1);
  EXPECT_EQ(sinks[1].records, 1);
  EXPECT_FALSE(runs[0].failure || runs[1].failure);
  EXPECT_TRUE(runs[0].input_problems.empty());
  ASSERT_EQ(runs[1].input_problems.size(), 1u);
  EXPECT_EQ(runs[1].input_problems[0].text.rfind(victim + ": the file shrank", 0), 0u)
      << runs[1].input_problems[0].text;
}

}  // namespace
}  // namespace dumpcmp
