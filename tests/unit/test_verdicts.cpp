// Verdicts (docs/verdicts.md), the first divergent op, and the progress line's text.
#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "report/progress_line.hpp"
#include "report/record.hpp"
#include "report/result_analysis.hpp"
#include "report/result_table.hpp"
#include "report/verdict.hpp"

namespace dumpcmp {
namespace {

// A cell as the CSV shows it: "NaN" not computed, else the number ("nan" is a computed NaN).
MetricCell cell(const std::string& text) {
  MetricCell c;
  if (text == "NaN") return c;
  c.status = CellStatus::kValue;
  c.value = std::strtod(text.c_str(), nullptr);
  return c;
}

std::vector<MetricCell> cells(const std::vector<std::string>& texts) {
  std::vector<MetricCell> out;
  for (const std::string& t : texts) out.push_back(cell(t));
  return out;
}

const std::vector<Metric> kMetrics = {Metric::kCosineSimilarity, Metric::kRelativeEuclideanDistance,
                                      Metric::kMaxAbsoluteError};

TEST(Verdicts, DefaultsPerDtype) {
  const VerdictRules rules;
  // fp16: cosine >= 0.99, RED <= 0.05; MaxAE has no default limit.
  EXPECT_EQ(rules.judge("op", "float16", kMetrics, cells({"0.995", "0.04", "100"})),
            Verdict::kPass);
  EXPECT_EQ(rules.judge("op", "float16", kMetrics, cells({"0.985", "0.04", "0"})), Verdict::kFail);
  // fp32 is held to cosine >= 0.999 and RED <= 0.01.
  std::string why;
  EXPECT_EQ(rules.judge("op", "float32", kMetrics, cells({"0.995", "0.004", "0"}), &why),
            Verdict::kFail);
  EXPECT_EQ(why, "CosineSimilarity 0.995000 < 0.999");
  // int8 is allowed cosine 0.98 and RED 0.1.
  EXPECT_EQ(rules.judge("op", "int8", kMetrics, cells({"0.985", "0.09", "0"})), Verdict::kPass);
}

TEST(Verdicts, NotComputedAndNan) {
  const VerdictRules rules;
  EXPECT_EQ(rules.judge("op", "float16", kMetrics, cells({"NaN", "NaN", "NaN"})),
            Verdict::kNotCompared);
  // "nan" is a computed NaN (NaN in the data): outside tolerance.
  EXPECT_EQ(rules.judge("op", "float16", kMetrics, cells({"nan", "nan", "nan"})), Verdict::kFail);
  // A metric that could not be computed is skipped, the others decide.
  EXPECT_EQ(rules.judge("op", "float16", kMetrics, cells({"NaN", "0.01", "3"})), Verdict::kPass);
}

TEST(Verdicts, Overrides) {
  VerdictRules rules;
  rules.add_override("Cosine=0.9");
  rules.add_override("conv*:MaxAE=0.5");
  rules.add_override("conv*:RED=0.2");
  EXPECT_EQ(rules.judge("relu1", "float32", kMetrics, cells({"0.95", "0.001", "9"})),
            Verdict::kPass);
  EXPECT_EQ(rules.judge("conv1", "float32", kMetrics, cells({"0.95", "0.1", "0.4"})),
            Verdict::kPass);
  EXPECT_EQ(rules.judge("conv1", "float32", kMetrics, cells({"0.95", "0.1", "0.6"})),
            Verdict::kFail);
  EXPECT_THROW(rules.add_override("Cosine"), Error);
  EXPECT_THROW(rules.add_override("Sharpness=1"), Error);
  EXPECT_THROW(rules.add_override("RED=x"), Error);
}

// Test rows as text: Index, NPUDump, DataType, TensorIndex, CosineSimilarity.
DivergentOp first_divergent(const std::vector<std::vector<std::string>>& rows) {
  const VerdictRules rules;
  const ResultTable table({Metric::kCosineSimilarity}, TableColumns{});
  ResultAnalysis a;
  a.begin(table);
  for (const auto& r : rows) {
    CompareRecord record;
    record.id.index = std::stoll(r[0]);
    record.id.my_op = r[1];
    record.id.my_dtype = r[2];
    record.id.tensor_index = r[3];
    record.metrics = {cell(r[4])};
    rules.judge(table.metrics(), record);
    a.write(record);
  }
  return a.first_divergent();
}

TEST(Verdicts, FirstDivergentOpIsTheFirstWhoseInputsPass) {
  // op 1 passes; op 2's output fails while its input passes: error introduced at 2; op 3 only
  // inherits it (its input fails too).
  const DivergentOp d = first_divergent({{"1", "a", "float16", "a:output:0", "0.999"},
                                         {"2", "b", "float16", "b:input:0", "0.999"},
                                         {"2", "b", "float16", "b:output:0", "0.5"},
                                         {"3", "c", "float16", "c:input:0", "0.5"},
                                         {"3", "c", "float16", "c:output:0", "0.4"}});
  EXPECT_TRUE(d.found);
  EXPECT_FALSE(d.inherited);
  EXPECT_EQ(d.index, 2);
  EXPECT_EQ(d.op, "b");
  // Every failing op has failing inputs: the first failing op, marked inherited.
  const DivergentOp inherited = first_divergent(
      {{"4", "x", "float16", "x:input:0", "0.5"}, {"4", "x", "float16", "x:output:0", "0.5"}});
  EXPECT_TRUE(inherited.found && inherited.inherited);
  EXPECT_FALSE(first_divergent({{"1", "a", "float16", "a:output:0", "1.0"}}).found);
}

TEST(ProgressLine, TextAndRedrawRate) {
  EXPECT_EQ(ProgressLine::text(50, 200, 1500000000, 10.0),
            "dumpcmp: 50/200 rows (25%), 1500.0 MB, 150.0 MB/s, ETA 0:30");
  EXPECT_EQ(ProgressLine::text(0, 10, 0, 0.0),
            "dumpcmp: 0/10 rows (0%), 0.0 MB, 0.0 MB/s, ETA --:--");
  double clock = 0;
  std::ostringstream out;
  ProgressLine line(out, true, [&clock] { return clock; });
  line.update(1, 10, 100);
  clock = 0.1;
  line.update(2, 10, 200);  // too soon: not drawn
  clock = 0.5;
  line.update(3, 10, 300);
  line.finish();
  const std::string text = out.str();
  EXPECT_NE(text.find("1/10"), std::string::npos);
  EXPECT_EQ(text.find("2/10"), std::string::npos);
  EXPECT_NE(text.find("3/10"), std::string::npos);
  std::ostringstream quiet;
  ProgressLine off(quiet, false, [] { return 0.0; });
  off.update(1, 2, 3);
  off.finish();
  EXPECT_TRUE(quiet.str().empty());
}

}  // namespace
}  // namespace dumpcmp
