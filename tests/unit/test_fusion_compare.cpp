// The pieces of the fusion-rule compare that are pure logic: -r/-s selection (msaccucmp's
// RangeMode/SelectMode) and the -advisor decisions (advisor/*.py). Whole runs against the real
// msaccucmp are in tests/cli/test_msaccucmp_fusion_golden.sh.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "fusion/fusion_rule.hpp"
#include "fusion/op_selection.hpp"
#include "report/advisor.hpp"
#include "report/result_table.hpp"

namespace dumpcmp {
namespace {

// Ops a..e with ids 1..5; b and c share the original name "bc" (one group), so groups are
// a=0, bc=1, d=2, e=3.
FusionRule five_ops() {
  auto op = [](const char* name, int id, const char* original) {
    return std::string("{\"name\":\"") + name +
           "\",\"type\":\"Relu\",\"id\":" + std::to_string(id) +
           ",\"attr\":[{\"key\":\"_datadump_original_op_names\",\"value\":{\"list\":{\"s\":[\"" +
           original + "\"]}}}]}";
  };
  const std::string json = "{\"graph\":[{\"op\":[" + op("a", 1, "a") + "," + op("b", 2, "bc") +
                           "," + op("c", 3, "bc") + "," + op("d", 4, "d") + "," + op("e", 5, "e") +
                           "]}]}";
  return FusionRule::parse(json, "five.json");
}

std::vector<int64_t> selected(OpSelection s, const FusionRule& rule,
                              std::string* warning = nullptr) {
  std::string w;
  s.validate(5, w);
  if (warning) *warning = w;
  return s.groups(rule);
}

TEST(OpSelection, RangeKeepsStartEndAndSteps) {
  const FusionRule rule = five_ops();
  // ids 1..5 step 3 from 1: 1, 4 and the end 5 -> groups a, d, e.
  EXPECT_EQ(selected(OpSelection::parse_range("1,5,3"), rule), (std::vector<int64_t>{0, 2, 3}));
  // ids 2..3 -> both ops of group bc, listed once.
  EXPECT_EQ(selected(OpSelection::parse_range("2,3,1"), rule), (std::vector<int64_t>{1}));
  // Empty fields keep the defaults 1, max, 1; -1 is the last id.
  EXPECT_EQ(selected(OpSelection::parse_range(",-1,"), rule), (std::vector<int64_t>{0, 1, 2, 3}));
}

TEST(OpSelection, RangeErrorsUseMsaccucmpMessages) {
  EXPECT_THROW(OpSelection::parse_range("1,2"), Error);
  EXPECT_THROW(OpSelection::parse_range("1,x,1"), Error);
  std::string w;
  OpSelection start0 = OpSelection::parse_range("0,3,1");
  try {
    start0.validate(5, w);
    FAIL() << "start 0 accepted";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "The start index (0) is out of range [1, 5]. Please check the index.");
  }
  OpSelection big_step = OpSelection::parse_range("1,5,5");
  EXPECT_THROW(big_step.validate(5, w), Error);  // step must be < the op count
  OpSelection backwards = OpSelection::parse_range("4,2,1");
  EXPECT_THROW(backwards.validate(5, w), Error);
}

TEST(OpSelection, SelectDropsIdsPastTheEndWithAWarning) {
  const FusionRule rule = five_ops();
  std::string warning;
  EXPECT_EQ(selected(OpSelection::parse_select(" 4, 3,9,3,12 "), rule, &warning),
            (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(warning, "Index [9, 12] out of range [1,5].");
  OpSelection none = OpSelection::parse_select("9");
  EXPECT_THROW(none.validate(5, warning), Error);
  EXPECT_THROW(OpSelection::parse_select("1,-2"), Error);
}

CompareRecord row(int64_t index, const std::string& npu, const std::string& overflow,
                  const std::string& cosine) {
  CompareRecord r;
  r.id.index = index;
  r.id.my_op = npu;
  r.id.overflow = overflow;
  MetricCell cell;  // "NaN": not computed
  if (cosine != "NaN") {
    cell.status = CellStatus::kValue;
    cell.value = std::strtod(cosine.c_str(), nullptr);
  }
  r.metrics = {cell};
  return r;
}

Advice advise(const std::vector<CompareRecord>& rows, const std::vector<std::string>& inputs,
              bool overflow_column = true) {
  AdvisorSink sink;
  TableColumns columns;
  columns.overflow = overflow_column;
  const ResultTable table({Metric::kCosineSimilarity}, columns);
  sink.begin(table);
  for (const CompareRecord& r : rows) sink.write(r);
  return sink.advise(inputs);
}

TEST(Advisor, JudgesTheCosineAsPrinted) {
  // msaccucmp's advisor reads the CSV: 0.98999951 shows as 0.990000 (fine), 0.9899994 as 0.989999.
  EXPECT_EQ(advise({row(1, "a", "NO", "0.98999951")}, {}).operator_index, "NA");
  EXPECT_EQ(advise({row(1, "a", "NO", "0.9899994")}, {}).operator_index, "1");
}

TEST(Advisor, OverflowComesFirst) {
  const Advice a = advise({row(0, "in", "NO", "0.5"), row(3, "x", "YES", "1.0")}, {"in"});
  EXPECT_EQ(a.detection_type, "FP16 Overflow");
  EXPECT_EQ(a.operator_index, "3");
  // Without the column the overflow check is skipped: the low input cosine is found.
  const Advice b = advise({row(0, "in", "YES", "0.5")}, {"in"}, false);
  EXPECT_EQ(b.detection_type, "Input Inconsistent");
  EXPECT_EQ(b.operator_index, "0");
}

TEST(Advisor, GlobalConsistencyLooksAtTheLastComparedRow) {
  // First low cosine at Index 2; the last row with a cosine (NaN rows are dropped) is fine.
  const Advice deviation =
      advise({row(1, "a", "NO", "0.999"), row(2, "b", "NO", "0.98"), row(3, "c", "NO", "1.0"),
              row(4, "d", "NO", "NaN"), row(5, "e", "NO", "nan")},
             {"in"});
  EXPECT_EQ(deviation.detection_type, "Global Consistency");
  EXPECT_EQ(deviation.operator_index, "2");
  EXPECT_NE(deviation.expert_advice.find("final accuracy is qualified"), std::string::npos);
  const Advice problem = advise({row(1, "a", "NO", "0.98"), row(2, "b", "NO", "0.5")}, {});
  EXPECT_EQ(problem.operator_index, "1");
  EXPECT_NE(problem.expert_advice.find("unqualified final accuracy"), std::string::npos);
  const Advice fine = advise({row(1, "a", "NO", "0.995")}, {});
  EXPECT_EQ(fine.operator_index, "NA");
  EXPECT_EQ(fine.lines()[0], "Detection Type: Global Consistency");
  const Advice nothing = advise({row(1, "a", "NO", "NaN")}, {});
  EXPECT_EQ(nothing.lines(), (std::vector<std::string>{"Detection Type: NA", "Operator Index: NA",
                                                       "Expert Advice: NA"}));
}

}  // namespace
}  // namespace dumpcmp
