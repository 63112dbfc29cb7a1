// CSV dialect, injection guard, write-then-rename, and the result table's columns.
#include <gtest/gtest.h>

#include <filesystem>

#include "dumpcmp/engine/result_table.hpp"
#include "dumpcmp/report/csv_writer.hpp"
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
  EXPECT_EQ(csv_defuse("\xEF\xBC\x9D" "x"), " \xEF\xBC\x9D" "x");
  EXPECT_EQ(csv_defuse("conv1"), "conv1");
}

TEST(Csv, FileAppearsOnlyOnCommit) {
  testing::ScratchDir dir;
  const std::string path = dir.file("result.csv");
  {
    CsvWriter writer(path);
    writer.begin({"a", "b"});
    writer.write({{"1", "[1,2]"}});
    EXPECT_FALSE(std::filesystem::exists(path));
    writer.commit();
  }
  EXPECT_EQ(testing::read_text(path), "a,b\r\n1,\"[1,2]\"\r\n");
  {
    CsvWriter abandoned(dir.file("gone.csv"));
    abandoned.begin({"x"});
  }
  EXPECT_FALSE(std::filesystem::exists(dir.file("gone.csv")));
  EXPECT_FALSE(std::filesystem::exists(dir.file("gone.csv.partial")));
}

TEST(ResultTable, AddressColumnsFollowTheSides) {
  const ResultTable both({Metric::kCosineSimilarity}, true, true);
  EXPECT_EQ(both.header(), (std::vector<std::string>{"Index", "OpType", "NPUDump", "DataType", "Address",
                                                     "GroundTruth", "DataType", "Address", "TensorIndex",
                                                     "Shape", "CosineSimilarity", "CompareFailReason"}));
  const ResultTable npy_golden({Metric::kCosineSimilarity}, true, false);
  EXPECT_EQ(npy_golden.header().size(), 11u);
  RowIdentity id;
  id.index = 3;
  id.my_op = "a";
  id.golden_op = "*";
  const ResultRow row = npy_golden.failed_row(id, {"first", "", "second"});
  EXPECT_EQ(row.cells, (std::vector<std::string>{"3", "NaN", "a", "NaN", "NaN", "*", "NaN", "NaN", "NaN",
                                                 "NaN", "first,second"}));
}

}  // namespace
}  // namespace dumpcmp
