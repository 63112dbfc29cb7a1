// The compare pipeline end to end: planners build one ComparePlan, the executor runs any ranges of
// it in any batch size into a sink, and a plan survives being written and read back as JSON lines.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "backend/cpu_backend.hpp"
#include "compare/compare_engine.hpp"
#include "compare/plan_executor.hpp"
#include "compare/plan_json.hpp"
#include "core/error.hpp"
#include "core/mapped_file.hpp"
#include "io/dump_writer.hpp"
#include "support.hpp"

namespace dumpcmp {
namespace {

// Keeps every record in memory, spelled as the CSV spells it.
class MemorySink final : public RecordSink {
 public:
  void begin(const ResultTable& table) override { table_ = &table; }
  void write(const CompareRecord& record) override {
    ids.push_back(record.row);
    rows.push_back(table_->cells(record));
    verdicts.push_back(record.verdict);
  }
  void commit() override {}
  std::vector<int64_t> ids;
  std::vector<std::vector<std::string>> rows;
  std::vector<Verdict> verdicts;

 private:
  const ResultTable* table_ = nullptr;
};

std::vector<uint8_t> floats(std::initializer_list<float> values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(float));
  std::memcpy(bytes.data(), values.begin(), bytes.size());
  return bytes;
}

TensorSpec tensor(std::initializer_list<float> values) {
  TensorSpec t;
  t.shape = {static_cast<int64_t>(values.size())};
  t.bytes = floats(values);
  return t;
}

// An NPU-vs-NPU pair of directories: two ops in binary form, one in the whole-protobuf form
// (its tensors live in owned copies, not in the mapping), and one op only on the left.
struct NpuDumps {
  testing::ScratchDir dir;
  std::string left = dir.file("left"), right = dir.file("right");

  NpuDumps() {
    std::filesystem::create_directories(left);
    std::filesystem::create_directories(right);
    for (int side = 0; side < 2; ++side) {
      const std::string root = side == 0 ? left : right;
      const float e = side == 0 ? 0.01f : 0.0f;
      DumpSpec conv{"conv1", 1700000000000000, {tensor({1, 2, 3, 4})}, {tensor({1 + e, 2, 3, 4})}};
      write_binary_dump(root + "/Conv2D.conv1.1.1.1700000000000000", conv);
      DumpSpec relu{"relu1", 1700000000000001, {tensor({1, -2})}, {tensor({1, 0 + e})}};
      write_protobuf_dump(root + "/Relu.relu1.2.1.1700000000000001", relu);
      DumpSpec add{
          "add1", 1700000000000002, {tensor({5, 6}), tensor({7, 8})}, {tensor({12, 14 - e})}};
      write_binary_dump(root + "/Add.add1.3.1.1700000000000002", add);
    }
    DumpSpec only{"only1", 1700000000000003, {}, {tensor({1})}};
    write_binary_dump(left + "/Cast.only1.4.1.1700000000000003", only);
  }
};

CompareOptions npu_options(const NpuDumps& d) {
  CompareOptions o;
  o.my_path = d.left;
  o.golden_path = d.right;
  o.threads = 2;
  return o;
}

MemorySink run(const ComparePlan& plan, std::size_t begin, std::size_t end, uint64_t batch_bytes,
               MemorySink sink = {}) {
  CpuBackend backend(2);
  const ResultTable table = plan.table();
  sink.begin(table);
  ExecuteOptions options;
  options.batch_bytes = batch_bytes;
  options.threads = 2;
  const VerdictRules rules;
  options.rules = &rules;
  execute_plan(plan, begin, end, backend, sink, options);
  return sink;
}

TEST(ComparePlan, NpuPlannerListsEveryRowInTableOrder) {
  const NpuDumps d;
  const ComparePlan plan = plan_compare(npu_options(d));
  ASSERT_EQ(plan.rows.size(), 8u);  // conv 2 + relu 2 + add 3 + only1 1, in op order
  EXPECT_EQ(plan.ops, 4);
  for (std::size_t i = 0; i < plan.rows.size(); ++i)
    EXPECT_EQ(plan.rows[i].id, static_cast<int64_t>(i));
  EXPECT_EQ(plan.rows.back().identity.my_op, "only1");
  EXPECT_FALSE(plan.rows.back().compared);
  EXPECT_EQ(plan.files.size(), 6u);
  for (const std::string& f : plan.files) EXPECT_TRUE(std::filesystem::path(f).is_absolute()) << f;
}

TEST(PlanExecutor, AnyRangesAndBatchSizesGiveTheSameRecords) {
  const NpuDumps d;
  const ComparePlan plan = plan_compare(npu_options(d));
  const MemorySink whole = run(plan, 0, plan.rows.size(), 64 << 20);
  ASSERT_EQ(whole.rows.size(), plan.rows.size());
  MemorySink pieces;
  pieces = run(plan, 0, 3, 1, std::move(pieces));
  pieces = run(plan, 3, 4, 1, std::move(pieces));
  pieces = run(plan, 4, plan.rows.size(), 16, std::move(pieces));
  EXPECT_EQ(pieces.rows, whole.rows);
  EXPECT_EQ(pieces.ids, whole.ids);
  EXPECT_EQ(pieces.verdicts, whole.verdicts);
  // The left-only op is a failed row; the perturbed outputs are compared and judged.
  EXPECT_EQ(whole.rows.back().back(),
            "[only1] There is no the ground truth dump file for the op \"only1\".");
  EXPECT_EQ(whole.verdicts.back(), Verdict::kNotCompared);
}

TEST(PlanJson, RoundTripKeepsEveryFieldAndTheResult) {
  const NpuDumps d;
  const ComparePlan plan = plan_compare(npu_options(d));
  std::ostringstream first;
  write_plan_jsonl(plan, first);
  const std::string path = d.dir.file("plan.jsonl");
  std::ofstream(path) << first.str();
  const ComparePlan back = read_plan_jsonl(path);
  std::ostringstream second;
  write_plan_jsonl(back, second);
  EXPECT_EQ(second.str(), first.str());
  EXPECT_EQ(run(back, 0, back.rows.size(), 1).rows, run(plan, 0, plan.rows.size(), 1 << 20).rows);
}

TEST(PlanJson, CustomColumnsRoundTrip) {
  const NpuDumps d;
  ComparePlan plan = plan_compare(npu_options(d));
  plan.columns.custom = {{"Mine", 0}, {"Other", static_cast<int>(plan.metrics.size())}};
  std::ostringstream text;
  write_plan_jsonl(plan, text);
  const std::string path = d.dir.file("custom.jsonl");
  std::ofstream(path) << text.str();
  EXPECT_EQ(read_plan_jsonl(path).columns.custom, plan.columns.custom);
  // A column placed past the metrics is refused.
  std::string bad = text.str();
  const std::string after = "\"after\":" + std::to_string(plan.metrics.size());
  bad.replace(bad.find(after), after.size(), "\"after\":99");
  std::ofstream(path) << bad;
  EXPECT_THROW(read_plan_jsonl(path), Error);
}

TEST(PlanJson, FusionPlanWithLayoutMapsRoundTrips) {
  const std::string data = std::string(DUMPCMP_TEST_DATA_DIR) + "/msaccucmp_fusion/layouts";
  CompareOptions o;
  o.my_path = data + "/left";
  o.golden_path = data + "/right";
  o.fusion_rule_path = data + "/model.json";
  o.threads = 2;
  const ComparePlan plan = plan_compare(o);
  ASSERT_FALSE(plan.layouts.empty());
  testing::ScratchDir dir;
  std::ostringstream text;
  write_plan_jsonl(plan, text);
  std::ofstream(dir.file("p.jsonl")) << text.str();
  const ComparePlan back = read_plan_jsonl(dir.file("p.jsonl"));
  ASSERT_EQ(back.layouts.size(), plan.layouts.size());
  for (std::size_t i = 0; i < plan.layouts.size(); ++i) {
    for (int64_t e = 0; e < plan.layouts[i].count; e += 7) {
      EXPECT_EQ(back.layouts[i].source_index(e), plan.layouts[i].source_index(e));
    }
  }
  EXPECT_EQ(run(back, 0, back.rows.size(), 1).rows, run(plan, 0, plan.rows.size(), 64 << 20).rows);
}

std::string error_of(const std::string& path) {
  try {
    read_plan_jsonl(path);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(ComparePlan, AppendedPlansRunToTheRecordsOfEach) {
  const NpuDumps d;
  const std::string data = std::string(DUMPCMP_TEST_DATA_DIR) + "/msaccucmp_fusion/layouts";
  CompareOptions o;
  o.my_path = data + "/left";
  o.golden_path = data + "/right";
  o.fusion_rule_path = data + "/model.json";
  o.threads = 2;
  const ComparePlan npu = plan_compare(npu_options(d));
  const ComparePlan fusion = plan_compare(o);  // with layout maps: their ids move too
  ComparePlan both = fusion;
  EXPECT_EQ(append_plan(both, ComparePlan(npu)), static_cast<int32_t>(fusion.files.size()));
  ASSERT_EQ(both.rows.size(), fusion.rows.size() + npu.rows.size());
  for (std::size_t i = 0; i < both.rows.size(); ++i) EXPECT_EQ(both.rows[i].id, int64_t(i));
  MemorySink expected = run(fusion, 0, fusion.rows.size(), 64 << 20);
  const MemorySink second = run(npu, 0, npu.rows.size(), 64 << 20);
  // The NPU rows read with the fusion table's columns: compare the records' ids and verdicts, and
  // the cells of the fusion part.
  const MemorySink together = run(both, 0, both.rows.size(), 1 << 10);
  ASSERT_EQ(together.rows.size(), both.rows.size());
  for (std::size_t i = 0; i < fusion.rows.size(); ++i) {
    EXPECT_EQ(together.rows[i], expected.rows[i]) << i;
  }
  for (std::size_t i = 0; i < npu.rows.size(); ++i) {
    EXPECT_EQ(together.verdicts[fusion.rows.size() + i], second.verdicts[i]) << i;
  }
}

TEST(PlanJson, BadPlansAreRefusedNamingTheLine) {
  const NpuDumps d;
  std::ostringstream text;
  write_plan_jsonl(plan_compare(npu_options(d)), text);
  const std::string good = text.str();
  const std::string path = d.dir.file("bad.jsonl");
  std::ofstream(path) << good.substr(0, good.find('\n') + 1);  // the header alone
  EXPECT_NE(error_of(path).find("bad.jsonl:2: the plan ends before its files"), std::string::npos)
      << error_of(path);
  std::ofstream(path) << "{\"dumpcmp_plan\":1,\n";
  EXPECT_NE(error_of(path).find("bad.jsonl:1: not a JSON object"), std::string::npos);
  std::string wrong_file = good;
  const std::size_t at = wrong_file.find("\"x\":{\"file\":");
  wrong_file.replace(at, std::strlen("\"x\":{\"file\":0"), "\"x\":{\"file\":99");
  std::ofstream(path) << wrong_file;
  EXPECT_NE(error_of(path).find("unknown file"), std::string::npos) << error_of(path);
  EXPECT_NE(error_of(d.dir.file("absent.jsonl")).find("cannot read the plan"), std::string::npos);
}

TEST(PlanExecutor, AFileChangedAfterPlanningFailsOnlyItsRows) {
  const NpuDumps d;
  const ComparePlan plan = plan_compare(npu_options(d));
  // conv1's golden side now holds one tensor fewer: its rows fail, the others still compare.
  DumpSpec conv{"conv1", 1700000000000000, {}, {tensor({1, 2, 3, 4})}};
  write_binary_dump(d.right + "/Conv2D.conv1.1.1.1700000000000000", conv);
  const MemorySink sink = run(plan, 0, plan.rows.size(), 64 << 20);
  ASSERT_EQ(sink.rows.size(), plan.rows.size());
  int failed = 0;
  for (std::size_t i = 0; i < sink.rows.size(); ++i) {
    const std::string& reason = sink.rows[i].back();
    if (plan.rows[i].identity.my_op != "conv1") continue;
    EXPECT_TRUE(reason.find("Conv2D.conv1") != std::string::npos) << reason;
    ++failed;
  }
  EXPECT_EQ(failed, 2);
  const std::vector<std::string>& relu = sink.rows[2];  // relu1's input: compared as planned
  EXPECT_EQ(relu[2], "relu1");
  EXPECT_EQ(relu[relu.size() - 11], "1.000000");  // its CosineSimilarity
}

TEST(PlanExecutor, CountsThatDoNotFitThePayloadFailTheRow) {
  const NpuDumps d;
  ComparePlan plan = plan_compare(npu_options(d));
  ASSERT_TRUE(plan.rows[0].compared);
  plan.rows[0].x.count = plan.rows[0].y.count = 1 << 20;  // as a hand-edited plan might say
  const MemorySink sink = run(plan, 0, plan.rows.size(), 64 << 20);
  EXPECT_NE(sink.rows[0].back().find("element counts do not fit"), std::string::npos)
      << sink.rows[0].back();
  EXPECT_EQ(sink.rows[1], run(plan_compare(npu_options(d)), 1, 2, 64 << 20).rows[0]);
}

// A mapped dump that shrinks while its rows run used to kill the process (SIGBUS): now its row
// fails naming the file, the run goes on, and every other row is as before.
TEST(ExecutePlan, ADumpTruncatedWhileMappedFailsItsRowOnly) {
  const NpuDumps d;
  const std::size_t count = MappedFile::kReadThreshold;  // 4 MiB of floats: mapped
  TensorSpec big;
  big.shape = {static_cast<int64_t>(count)};
  big.bytes.assign(count * sizeof(float), 0);
  const std::string victim = d.left + "/Mul.big1.5.1.1700000000000004";
  for (const std::string& root : {d.left, d.right}) {
    write_binary_dump(root + "/Mul.big1.5.1.1700000000000004",
                      DumpSpec{"big1", 1700000000000004, {}, {big}});
  }
  const ComparePlan plan = plan_compare(npu_options(d));
  const MemorySink clean = run(plan, 0, plan.rows.size(), 64 << 20);

  testing::TruncatingBackend backend(victim);
  const ResultTable table = plan.table();
  MemorySink sink;
  sink.begin(table);
  ExecuteOptions options;
  options.threads = 2;
  const ExecuteSummary summary = execute_plan(plan, 0, plan.rows.size(), backend, sink, options);
  ASSERT_EQ(sink.rows.size(), clean.rows.size());
  int failed = 0;
  for (std::size_t i = 0; i < sink.rows.size(); ++i) {
    const std::string& reason = sink.rows[i].back();
    if (reason.find("shrank while it was read") == std::string::npos) {
      EXPECT_EQ(sink.rows[i], clean.rows[i]);
      continue;
    }
    ++failed;
    EXPECT_NE(reason.find(victim), std::string::npos) << reason;
  }
  EXPECT_EQ(failed, 1);
  ASSERT_EQ(summary.input_problems.size(), 1u);
  EXPECT_NE(summary.input_problems[0].text.find(victim), std::string::npos);
}

}  // namespace
}  // namespace dumpcmp
