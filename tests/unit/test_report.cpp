// CSV dialect, injection guard, write-then-rename, and the result table's columns.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <random>

#include "report/csv_writer.hpp"
#include "report/result_table.hpp"
#include "support.hpp"

namespace dumpcmp {
namespace {

TEST(Csv, QuotesLikePythonCsvQuoteMinimal) {
  EXPECT_EQ(csv_quote("plain"), "plain");
  EXPECT_EQ(csv_quote(""), "");
  EXPECT_EQ(csv_quote("[1,2]"), "\"[1,2]\"");
  EXPECT_EQ(csv_quote("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_quote("a\nb"), "\"a\nb\"");
}

TEST(Csv, InjectionGuardLeavesNumbersAlone) {
  EXPECT_EQ(csv_defuse("-0.000000"), "-0.000000");
  EXPECT_EQ(csv_defuse("-inf"), "-inf");
  EXPECT_EQ(csv_defuse("NaN"), "NaN");
  EXPECT_EQ(csv_defuse("=cmd()"), " =cmd()");
  EXPECT_EQ(csv_defuse("-op_name"), " -op_name");
  EXPECT_EQ(csv_defuse("a;@b"), " a;@b");
  EXPECT_EQ(csv_defuse("\xEF\xBC\x9D"
                       "x"),
            " \xEF\xBC\x9D"
            "x");
  EXPECT_EQ(csv_defuse("conv1"), "conv1");
}

TEST(Csv, FileAppearsOnlyOnCommit) {
  testing::ScratchDir dir;
  const std::string path = dir.file("result.csv");
  {
    CsvWriter writer(path);
    writer.write_row({"a", "b"});
    writer.write_row({"1", "[1,2]"});
    EXPECT_FALSE(std::filesystem::exists(path));
    writer.commit();
  }
  EXPECT_EQ(testing::read_text(path), "a,b\r\n1,\"[1,2]\"\r\n");
  {
    CsvWriter abandoned(dir.file("gone.csv"));
    abandoned.write_row({"x"});
  }
  EXPECT_FALSE(std::filesystem::exists(dir.file("gone.csv")));
  EXPECT_FALSE(std::filesystem::exists(dir.file("gone.csv.partial")));
}

TEST(ResultTable, AddressColumnsFollowTheSides) {
  const ResultTable both({Metric::kCosineSimilarity}, TableColumns{});
  EXPECT_EQ(both.header(),
            (std::vector<std::string>{"Index", "OpType", "NPUDump", "DataType", "Address",
                                      "GroundTruth", "DataType", "Address", "TensorIndex", "Shape",
                                      "CosineSimilarity", "CompareFailReason"}));
  TableColumns columns;
  columns.golden_address = false;
  const ResultTable npy_golden({Metric::kCosineSimilarity}, columns);
  EXPECT_EQ(npy_golden.header().size(), 11u);
  RowIdentity id;
  id.index = 3;
  id.my_op = "a";
  id.golden_op = "*";
  CompareRecord failed;
  failed.id = id;
  failed.fail_reason = join_reasons({"first", "", "second"});
  EXPECT_EQ(npy_golden.cells(failed),
            (std::vector<std::string>{"3", "NaN", "a", "NaN", "NaN", "*", "NaN", "NaN", "NaN",
                                      "NaN", "first,second"}));
}

MetricCell value(double v) {
  MetricCell cell;
  cell.status = CellStatus::kValue;
  cell.value = v;
  return cell;
}

// The fixed-point text is printf's "%.6f" (Python's '%.6f'), also at ties, tiny and huge values.
TEST(ResultTable, SixDecimalsAreWhatPrintfWrites) {
  std::mt19937_64 rng(3);
  std::uniform_int_distribution<int> exponent(-40, 330);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::vector<double> values = {0.0,
                                -0.0,
                                0.0000005,
                                0.0000015,
                                0.0000025,
                                -0.0000005,
                                1e-7,
                                -1e-7,
                                0.1234565,
                                2.5e-6,
                                1.0,
                                1e308,
                                -1.7976931348623157e308,
                                INFINITY};
  for (int i = 0; i < 20000; ++i) values.push_back(std::ldexp(mantissa(rng), exponent(rng) - 40));
  for (double v : values) {
    char want[400];
    std::snprintf(want, sizeof want, "%.6f", v);
    ASSERT_EQ(format_fixed6(v), want) << v;
  }
}

TEST(ResultTable, CellsAreSpelledAsMsaccucmpPrintsThem) {
  EXPECT_EQ(format_metric_cell(Metric::kCosineSimilarity, value(0.99999949)), "0.999999");
  EXPECT_EQ(format_metric_cell(Metric::kCosineSimilarity, value(-NAN)), "nan");
  EXPECT_EQ(format_metric_cell(Metric::kMaxAbsoluteError, value(-INFINITY)), "-inf");
  EXPECT_EQ(format_metric_cell(Metric::kMaxAbsoluteError, MetricCell{}), "NaN");
  MetricCell one;
  one.status = CellStatus::kLiteralOne;
  EXPECT_EQ(format_metric_cell(Metric::kCosineSimilarity, one), "1.0");
  EXPECT_EQ(one.number(), 1.0);
  MetricCell sd = value(NAN);
  sd.parts = {2.5, 0.0004, NAN, -1.1185};
  EXPECT_EQ(format_metric_cell(Metric::kStandardDeviation, sd), "(2.500;0.000),(nan;-1.119)");
}

}  // namespace
}  // namespace dumpcmp
