// Statistics dumps (docs/statistics.md): the reader on MindSpore's statistic.csv (S1-S6 of the
// real data), CANN per-op stats files and malformed files; msprobe's statistics compare with
// values checked by hand and against msprobe's own output (tests/data/msprobe_stats).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "stats/statistic_csv.hpp"
#include "stats/stats_compare.hpp"
#include "stats/stats_number.hpp"
#include "stats/stats_tree.hpp"
#include "support.hpp"

namespace dumpcmp {
namespace {

namespace fs = std::filesystem;
using testing::ScratchDir;

const char* const kStatsRoot =
    "msinsight/test/smoke-test/msprobe_smoke/att_smoke-my_fix_branch/att_smoke-my_fix_branch/"
    "Testcases1/msprobe_ms_compare/test_data/ms_graph_statistic_compare_data";

std::string realdata(const std::string& relative) {
  return std::string(DUMPCMP_REALDATA_DIR) + "/" + relative;
}

// S1-S3: dump_data0 steps 0-2; S4-S6: dump_data1 steps 0-2.
std::string stats_file(int run, int step) {
  return realdata(std::string(kStatsRoot) + "/dump_data" + std::to_string(run) +
                  "/rank_0/mnist/0/" + std::to_string(step) + "/statistic.csv");
}

#define SKIP_IF_ABSENT(path) \
  if (!fs::exists(path)) GTEST_SKIP() << "real data absent: " << (path)

void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

// Lines of a file other than the header and blank lines, counted without the CSV reader.
std::size_t count_data_lines(const std::string& path, const std::string& must_contain = "") {
  std::ifstream in(path);
  std::string line;
  std::size_t n = 0;
  bool header = true;
  while (std::getline(in, line)) {
    if (header) {
      header = false;
      continue;
    }
    if (line.empty()) continue;
    if (must_contain.empty() || line.find(must_contain) != std::string::npos) ++n;
  }
  return n;
}

// The Error's message, or "" when parsing succeeds.
std::string parse_error(const std::string& text, const std::string& path) {
  try {
    parse_stats_csv(text, path);
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::kInput);
    return e.what();
  }
  return "";
}

const StatsComparedRow& row_of(const StatsComparison& c, const std::string& key,
                               std::size_t occurrence = 0) {
  for (const StatsComparedRow& r : c.rows) {
    if (r.key == key && r.occurrence == occurrence) return r;
  }
  ADD_FAILURE() << "no row " << key;
  return c.rows.front();
}

// ---------------------------------------------------------------------------------------------
// Numbers

TEST(StatsNumber, ParsesCellsAsPythonFloatAndMsprobeWords) {
  EXPECT_EQ(parse_stat_number("2.82149"), 2.82149);
  EXPECT_EQ(parse_stat_number(" -0.424213 "), -0.424213);
  EXPECT_EQ(parse_stat_number("1e-05"), 1e-05);
  EXPECT_EQ(parse_stat_number(".5"), 0.5);
  EXPECT_EQ(parse_stat_number("null"), 0.0);
  EXPECT_EQ(parse_stat_number("False"), 0.0);
  EXPECT_EQ(parse_stat_number("True"), 1.0);
  EXPECT_TRUE(std::isnan(*parse_stat_number("nan")));
  EXPECT_TRUE(std::isnan(*parse_stat_number("NaN")));
  EXPECT_EQ(parse_stat_number("-inf"), -HUGE_VAL);
  EXPECT_EQ(parse_stat_number("Infinity"), HUGE_VAL);
  EXPECT_FALSE(parse_stat_number(""));
  EXPECT_FALSE(parse_stat_number("abc"));
  EXPECT_FALSE(parse_stat_number("0x10"));
  EXPECT_FALSE(parse_stat_number("1.2.3"));
  EXPECT_FALSE(parse_stat_number("e5"));
}

TEST(StatsNumber, PythonReprOfDoubles) {
  EXPECT_EQ(python_float_repr(0.0), "0.0");
  EXPECT_EQ(python_float_repr(-0.0), "-0.0");
  EXPECT_EQ(python_float_repr(1.0), "1.0");
  EXPECT_EQ(python_float_repr(0.0001), "0.0001");
  EXPECT_EQ(python_float_repr(1e-05), "1e-05");
  EXPECT_EQ(python_float_repr(1e16), "1e+16");
  EXPECT_EQ(python_float_repr(1e15), "1000000000000000.0");
  EXPECT_EQ(python_float_repr(static_cast<double>(1e-5f)), "9.999999747378752e-06");
  EXPECT_EQ(python_float_repr(static_cast<double>(0.2f) * 100.0), "20.000000298023224");
  EXPECT_EQ(python_float_repr(3.4e38), "3.4e+38");
  EXPECT_EQ(python_float_repr(-2.5), "-2.5");
  EXPECT_EQ(python_float_repr(HUGE_VAL), "inf");
}

TEST(StatsNumber, NumpyFloat32StrByGeneration) {
  const auto np1 = NumpyGeneration::kNumpy1, np2 = NumpyGeneration::kNumpy2;
  // The values numpy 1.26.4 and 2.4.6 printed for str(np.float32(v)).
  EXPECT_EQ(numpy_float32_str(2.29959f, np1), "2.29959");
  EXPECT_EQ(numpy_float32_str(0.1f, np2), "0.1");
  EXPECT_EQ(numpy_float32_str(1e-4f, np1), "1e-04");
  EXPECT_EQ(numpy_float32_str(1e-4f, np2), "1e-04");
  EXPECT_EQ(numpy_float32_str(0.00012345f, np2), "0.00012345");
  EXPECT_EQ(numpy_float32_str(123456789.0f, np1), "123456790.0");
  EXPECT_EQ(numpy_float32_str(123456789.0f, np2), "1.2345679e+08");
  EXPECT_EQ(numpy_float32_str(999999.9f, np2), "999999.9");
  EXPECT_EQ(numpy_float32_str(1e6f, np2), "1e+06");
  EXPECT_EQ(numpy_float32_str(1e6f, np1), "1000000.0");
  EXPECT_EQ(numpy_float32_str(1e15f, np1), "1000000000000000.0");
  EXPECT_EQ(numpy_float32_str(1e16f, np1), "1e+16");
  EXPECT_EQ(numpy_float32_str(3.4e38f, np1), "3.4e+38");
  EXPECT_EQ(numpy_float32_str(1e-45f, np2), "1e-45");
  EXPECT_EQ(numpy_float32_str(-0.0f, np2), "-0.0");
  EXPECT_EQ(numpy_float32_str(2.29959f - 2.29853f, np2), "0.001060009");
}

// ---------------------------------------------------------------------------------------------
// MindSpore's statistic.csv (S1-S6)

TEST(StatisticCsv, ReadsAllSixRealFilesWithIndependentCounts) {
  for (int run = 0; run < 2; ++run) {
    for (int step = 0; step < 3; ++step) {
      const std::string path = stats_file(run, step);
      SKIP_IF_ABSENT(path);
      const StatsTable table = read_stats_path(path);
      EXPECT_EQ(table.rows.size(), count_data_lines(path)) << path;
      EXPECT_EQ(table.rows.size(), 247u) << path;
      std::size_t inputs = 0, outputs = 0;
      for (const StatsRow& r : table.rows) {
        inputs += r.io == "input";
        outputs += r.io == "output";
        EXPECT_TRUE(r.max && r.min && r.l2norm) << r.file << ":" << r.line;
        EXPECT_FALSE(r.mean);
        EXPECT_TRUE(r.format.empty());
      }
      EXPECT_EQ(inputs, count_data_lines(path, ",input,")) << path;
      EXPECT_EQ(outputs, count_data_lines(path, ",output,")) << path;
      EXPECT_TRUE(table.problems.empty());
      EXPECT_EQ(table.missing_columns, std::vector<std::string>{"Avg Value"});
      EXPECT_EQ(table.files, std::vector<std::string>{path});
    }
  }
}

TEST(StatisticCsv, FirstRowOfS1FieldByField) {
  const std::string path = stats_file(0, 0);
  SKIP_IF_ABSENT(path);
  const StatsTable table = read_stats_file(path);
  // GeLU,Default_GeLU-op0,0,0,1721724942726120,input,0,401408,float32,"(128,1,28,28)",2.82149,
  // -0.424213,305.872,
  const StatsRow& r = table.rows.front();
  EXPECT_EQ(r.op_type, "GeLU");
  EXPECT_EQ(r.op_name, "Default_GeLU-op0");
  EXPECT_EQ(r.task_id, "0");
  EXPECT_EQ(r.stream_id, "0");
  EXPECT_EQ(r.timestamp, 1721724942726120);
  EXPECT_EQ(r.io, "input");
  EXPECT_EQ(r.slot, "0");
  EXPECT_EQ(r.data_size, 401408u);
  EXPECT_EQ(r.dtype, "float32");
  EXPECT_EQ(r.shape, "(128,1,28,28)");
  EXPECT_EQ(r.max, 2.82149);
  EXPECT_EQ(r.min, -0.424213);
  EXPECT_EQ(r.l2norm, 305.872);
  EXPECT_FALSE(r.count);
  EXPECT_EQ(r.line, 2u);
  EXPECT_EQ(r.key(), "Default_GeLU-op0.0.input.0");
  // A bool scalar: MatMul,Default_MatMul-op0,...,input,2,1,bool,"()",0,0,0,
  const StatsRow& b = table.rows[6];
  EXPECT_EQ(b.dtype, "bool");
  EXPECT_EQ(b.shape, "()");
  EXPECT_EQ(b.max, 0.0);
  EXPECT_EQ(b.line, 8u);
}

TEST(StatsCompare, S1AgainstS4HandChecked) {
  const std::string s1 = stats_file(0, 0), s4 = stats_file(1, 0);
  SKIP_IF_ABSENT(s1);
  const StatsTable npu = read_stats_file(s1), bench = read_stats_file(s4);
  StatsCompareOptions np2;
  const StatsComparison c = compare_stats(npu, bench, np2);
  // Both runs dump the same 247 tensors: every row pairs, none is outside the 0.5 magnitude.
  EXPECT_EQ(c.rows.size(), 247u);
  EXPECT_EQ(c.compared, 247u);
  EXPECT_EQ(c.outside, 0u);
  EXPECT_EQ(c.npu_only + c.bench_only, 0u);
  EXPECT_FALSE(c.first_divergent);
  // Rows come sorted by key: "Default_Add-op0.0.input.0" first.
  EXPECT_EQ(c.rows.front().key, "Default_Add-op0.0.input.0");

  // Default_Add-op0 input 0: max 2.29959 vs 2.29853, min 2.28054 vs 2.28475, l2 25.9384 vs 25.9386
  const StatsComparedRow& add = row_of(c, "Default_Add-op0.0.input.0");
  EXPECT_TRUE(add.compared);
  EXPECT_EQ(add.diff[kStatMax], static_cast<double>(2.29959f - 2.29853f));
  EXPECT_EQ(add.diff[kStatMin], static_cast<double>(2.28054f - 2.28475f));
  EXPECT_EQ(add.diff[kStatL2Norm], static_cast<double>(25.9384f - 25.9386f));
  EXPECT_TRUE(std::isnan(add.npu_stats[kStatMean]));  // no Avg Value column
  EXPECT_EQ(add.relative[kStatMean].kind, RelativeError::Kind::kNan);
  EXPECT_NEAR(add.relative[kStatMax].percent, 0.001060009 / 2.29853 * 100, 1e-6);
  EXPECT_EQ(add.accuracy, StatsVerdict::kYes);

  // GeLU input 0: equal max/min, l2norm 305.872 vs 300.54.
  const StatsComparedRow& gelu = row_of(c, "Default_GeLU-op0.0.input.0");
  EXPECT_EQ(gelu.diff[kStatMax], 0.0);
  EXPECT_EQ(gelu.diff[kStatL2Norm], static_cast<double>(305.872f - 300.54f));

  // The cells as msprobe wrote them (numpy 2.4.6 / pandas 3.1.1, and numpy 1.26.4 / pandas 2.2.3).
  const auto cells2 = stats_result_cells(npu, bench, c, np2);
  const auto& a2 = cells2.front();
  EXPECT_EQ(a2[4], "[128,1]");
  EXPECT_EQ(a2[6], "2.29959");
  EXPECT_EQ(a2[8], "");
  EXPECT_EQ(a2[14], "Yes");
  EXPECT_EQ(a2[16], "0.001060009");
  EXPECT_EQ(a2[17], "-0.0042099953");
  EXPECT_EQ(a2[19], "-0.0002002716");
  EXPECT_EQ(a2[20], "0.04611682%");
  EXPECT_EQ(a2[21], "0.18426503%");
  EXPECT_EQ(a2[22], "Nan");
  EXPECT_EQ(a2[23], "0.0007720987%");
  EXPECT_EQ(a2[24], fs::absolute(s1).lexically_normal().string());
  StatsCompareOptions np1;
  np1.numpy = NumpyGeneration::kNumpy1;
  const auto cells1 = stats_result_cells(npu, bench, compare_stats(npu, bench, np1), np1);
  EXPECT_EQ(cells1.front()[20], "0.046116820885799825%");
  EXPECT_EQ(cells1.front()[21], "0.18426503520458937%");
  EXPECT_EQ(cells1.front()[23], "0.0007720987014181446%");
}

// ---------------------------------------------------------------------------------------------
// CANN per-op stats files (docs/formats.md §6)

TEST(CannStats, LegacyHeaderFromTheDumpFileName) {
  ScratchDir dir;
  const std::string path = dir.file("Conv2D.conv1.2.3.1700000000000000.csv");
  write_text(path,
             "Input/Output,Index,Data Size,Data Type,Format,Shape,Max Value,Min Value,Avg Value,"
             "Count,Nan Count,Negative Inf Count,Positive Inf Count\n"
             "Input,0,640000,DT_FLOAT,NHWC,4x50x50x16,1.99999,1,1.50004,160000,0,0,0\n"
             "Output,0,40,DT_UINT1,ND,10,,,,,,,\n");
  const StatsTable table = read_stats_path(dir.path());
  ASSERT_EQ(table.rows.size(), 2u);
  const StatsRow& in = table.rows[0];
  EXPECT_EQ(in.op_type, "Conv2D");
  EXPECT_EQ(in.op_name, "conv1");
  EXPECT_EQ(in.task_id, "2");
  EXPECT_EQ(in.stream_id, "3");
  EXPECT_EQ(in.timestamp, 1700000000000000);
  EXPECT_EQ(in.io, "Input");
  EXPECT_EQ(in.slot, "0");
  EXPECT_EQ(in.data_size, 640000u);
  EXPECT_EQ(in.dtype, "DT_FLOAT");
  EXPECT_EQ(in.format, "NHWC");
  EXPECT_EQ(in.shape, "4x50x50x16");
  EXPECT_EQ(in.max, 1.99999);
  EXPECT_EQ(in.min, 1.0);
  EXPECT_EQ(in.mean, 1.50004);
  EXPECT_FALSE(in.l2norm);
  EXPECT_EQ(in.count, 160000);
  EXPECT_EQ(in.nan_count, 0);
  EXPECT_EQ(in.neg_inf_count, 0);
  EXPECT_EQ(in.pos_inf_count, 0);
  EXPECT_EQ(in.key(), "conv1.2.Input.0");
  EXPECT_FALSE(in.stats_empty());
  // ",,,,,,": an unsupported dtype. Absent, not 0.
  const StatsRow& out = table.rows[1];
  EXPECT_TRUE(out.stats_empty());
  EXPECT_FALSE(out.count);
  EXPECT_FALSE(out.nan_count);
  EXPECT_TRUE(table.problems.empty());
  EXPECT_EQ(table.missing_columns, std::vector<std::string>{"L2Norm Value"});
}

TEST(CannStats, AdumpHeaderWithL2NormAndCountAfterShape) {
  ScratchDir dir;
  // Selected items max, min, l2norm: Count follows Shape (RT adx_dump_record SetOptimizationMode).
  write_text(
      dir.file("MatMul.fc1.7.1.1700000000000123.csv"),
      "Input/Output,Index,Data Size,Data Type,Format,Shape,Count,Max Value,Min Value,l2norm\n"
      "Input,0,64,DT_FLOAT16,ND,4x8,32,3.5,-1.25,7.75\n"
      "Input,1,64,DT_FLOAT16,ND,8x4,32,1,0,2\n"
      "Output,0,32,DT_FLOAT16,ND,4x4,16,9,-9,20.5\n");
  write_text(dir.file("mapping.csv"), "a,b\n");  // not a stats file name: skipped
  const StatsTable table = read_stats_path(dir.path());
  ASSERT_EQ(table.rows.size(), 3u);
  EXPECT_EQ(table.rows[0].count, 32);
  EXPECT_EQ(table.rows[0].max, 3.5);
  EXPECT_EQ(table.rows[0].min, -1.25);
  EXPECT_EQ(table.rows[0].l2norm, 7.75);
  EXPECT_FALSE(table.rows[0].mean);
  EXPECT_EQ(table.rows[2].key(), "fc1.7.Output.0");
  EXPECT_EQ(table.missing_columns, std::vector<std::string>{"Avg Value"});
}

TEST(CannStats, DirectoriesOfPerOpFilesCompare) {
  ScratchDir npu, bench;
  const std::string header =
      "Input/Output,Index,Data Size,Data Type,Format,Shape,Max Value,Min Value,Avg Value,l2norm\n";
  write_text(
      npu.file("Add.add1.1.0.1700000000000001.csv"),
      header + "Input,0,16,DT_FLOAT,ND,4,4,1,2.5,5.477\nOutput,0,16,DT_FLOAT,ND,4,8,2,5,11\n");
  write_text(npu.file("Relu.relu1.2.0.1700000000000002.csv"),
             header + "Output,0,16,DT_FLOAT,ND,4,,,,\n");
  write_text(
      bench.file("Add.add1.1.0.1700000000000101.csv"),
      header + "Input,0,16,DT_FLOAT,ND,4,4,1,2.5,5.477\nOutput,0,16,DT_FLOAT,ND,4,2,2,2,4\n");
  write_text(bench.file("Relu.relu1.2.0.1700000000000102.csv"),
             header + "Output,0,16,DT_FLOAT,ND,4,1,0,0.5,1\n");
  const StatsTable n = read_stats_path(npu.path()), b = read_stats_path(bench.path());
  const StatsComparison c = compare_stats(n, b);
  ASSERT_EQ(c.rows.size(), 3u);
  const StatsComparedRow& in = row_of(c, "add1.1.Input.0");
  EXPECT_EQ(in.accuracy, StatsVerdict::kYes);
  EXPECT_EQ(in.diff[kStatMean], 0.0);
  // Output: max 8 vs 2, diff 6, magnitude 6 / (8 + 1e-10) > 0.5.
  const StatsComparedRow& out = row_of(c, "add1.1.Output.0");
  EXPECT_EQ(out.diff[kStatMax], 6.0);
  EXPECT_EQ(out.relative[kStatMax].percent, 300.0);
  EXPECT_EQ(out.accuracy, StatsVerdict::kNo);
  // Empty stats on the NPU side: not compared, with dumpcmp's message.
  const StatsComparedRow& relu = row_of(c, "relu1.2.Output.0");
  EXPECT_FALSE(relu.compared);
  EXPECT_EQ(relu.accuracy, StatsVerdict::kNone);
  EXPECT_NE(relu.error_message.find("empty stats"), std::string::npos);
  EXPECT_EQ(c.compared, 2u);
  EXPECT_EQ(c.outside, 1u);
  ASSERT_TRUE(c.first_divergent);
  EXPECT_EQ(c.rows[*c.first_divergent].key, "add1.1.Output.0");
}

TEST(CannStats, FileNames) {
  const auto legacy = parse_cann_stats_file_name("Conv2D.conv1.2.3.1700000000000000.csv");
  ASSERT_TRUE(legacy);
  EXPECT_EQ(legacy->stream_id, "3");
  const auto four = parse_cann_stats_file_name("Conv2D.conv1.2.1700000000000000.csv");
  ASSERT_TRUE(four);
  EXPECT_EQ(four->stream_id, "");
  EXPECT_EQ(four->timestamp, 1700000000000000);
  const auto ffts = parse_cann_stats_file_name("Add.add.5.6.1700000000000000.4.0.1.0.csv");
  ASSERT_TRUE(ffts);
  EXPECT_EQ(ffts->timestamp, 1700000000000000);
  EXPECT_FALSE(parse_cann_stats_file_name("Conv2D.conv1.2.3.1700000000000000"));
  EXPECT_FALSE(parse_cann_stats_file_name("statistic.csv"));
  EXPECT_FALSE(parse_cann_stats_file_name("mapping.csv"));
}

// ---------------------------------------------------------------------------------------------
// Malformed files

const char* const kMergedHeader =
    "Op Type,Op Name,Task ID,Stream ID,Timestamp,IO,Slot,Data Size,Data Type,Shape,Max Value,"
    "Min Value,L2Norm Value\n";

TEST(StatsMalformed, ErrorsNameTheFileAndLine) {
  EXPECT_NE(parse_error("", "s.csv").find("s.csv:1: empty statistics file"), std::string::npos);
  EXPECT_NE(parse_error("\n\n", "s.csv").find("empty statistics file"), std::string::npos);
  EXPECT_NE(parse_error("a,b,c\n1,2,3\n", "s.csv").find("s.csv:1: not a statistics file"),
            std::string::npos);
  EXPECT_NE(parse_error("Op Type,Op Name\nA,b\n", "s.csv").find("has no 'Task ID' column"),
            std::string::npos);
  const std::string good = "Add,a,0,0,100,input,0,4,float32,\"(2)\",1,0,1,\n";
  EXPECT_EQ(parse_error(std::string(kMergedHeader) + good, "s.csv"), "");
  // A short row on line 3.
  EXPECT_NE(parse_error(std::string(kMergedHeader) + good + "Add,a,0,0,101,input\n", "s.csv")
                .find("s.csv:3: the row has 6 fields, the header 13"),
            std::string::npos);
  EXPECT_NE(parse_error(std::string(kMergedHeader) + "Add,a,0,0,x1,input,0,4,float32,(2),1,0,1\n",
                        "s.csv")
                .find("s.csv:2: Timestamp 'x1' is not a whole number"),
            std::string::npos);
  EXPECT_NE(parse_error(std::string(kMergedHeader) + "Add,a,0,0,1,input,0,4,float32,\"(2,1,0,1\n",
                        "s.csv")
                .find("s.csv:2: a quoted field is not closed"),
            std::string::npos);
  // A CANN header in a file that is not named like a dump.
  EXPECT_NE(parse_error("Input/Output,Index,Data Size,Data Type,Format,Shape\n", "dir/x.csv")
                .find("a CANN stats file must be named"),
            std::string::npos);
}

TEST(StatsMalformed, BadCellsAreRowProblemsNotErrors) {
  const StatsTable t = parse_stats_csv(
      std::string(kMergedHeader) + "Add,a,0,0,100,input,0,4,float32,\"(2)\",abc,,1,\n" +
          "Add,a,0,0,101,output,0,x,float32,\"(2)\",null,False,True,\n",
      "s.csv");
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_FALSE(t.rows[0].max);  // unreadable: absent, with a problem
  EXPECT_FALSE(t.rows[0].min);  // empty: absent, silently
  EXPECT_EQ(t.rows[0].l2norm, 1.0);
  EXPECT_EQ(t.rows[1].max, 0.0);  // msprobe's words
  EXPECT_EQ(t.rows[1].min, 0.0);
  EXPECT_EQ(t.rows[1].l2norm, 1.0);
  EXPECT_FALSE(t.rows[1].data_size);
  ASSERT_EQ(t.problems.size(), 2u);
  EXPECT_EQ(t.problems[0].text(), "s.csv:2: Max Value 'abc' is not a number");
  EXPECT_EQ(t.problems[1].text(), "s.csv:3: Data Size 'x' is not a whole number");
}

TEST(StatsMalformed, QuotesCrlfBomAndBlankLines) {
  const StatsTable t =
      parse_stats_csv("\xEF\xBB\xBF" + std::string(kMergedHeader) +
                          "\r\nAdd,\"a,\"\"b\",0,0,100,input,0,4,f,\"(2,\r\n3)\",1,0,1\r\n",
                      "s.csv");
  ASSERT_EQ(t.rows.size(), 1u);
  EXPECT_EQ(t.rows[0].op_name, "a,\"b");
  EXPECT_EQ(t.rows[0].shape, "(2,\r\n3)");
  EXPECT_EQ(t.rows[0].line, 3u);
}

TEST(StatsMalformed, MissingPathsAndEmptyDirectories) {
  ScratchDir dir;
  EXPECT_THROW(read_stats_path(dir.file("none.csv")), Error);
  EXPECT_THROW(read_stats_path(dir.path()), Error);
  EXPECT_FALSE(is_stats_directory(dir.path()));
}

// ---------------------------------------------------------------------------------------------
// Pairing, verdicts, the tree and the writer

StatsTable merged(const std::string& rows) {
  return parse_stats_csv(
      "Op Type,Op Name,Task ID,Stream ID,Timestamp,IO,Slot,Data Size,Data Type,Shape,Max Value,"
      "Min Value,Avg Value,L2Norm Value\n" +
          rows,
      "t.csv");
}

TEST(StatsCompare, RepeatedKeysPairInTimeOrderAndUnmatchedRowsShow) {
  const StatsTable n = merged(
      "A,rep,1,0,300,output,0,4,float32,(2),1,1,1,1\n"
      "A,rep,1,0,200,output,0,4,float32,(2),2,2,2,2\n"
      "A,only_npu,1,0,50,output,0,4,float32,(2),1,1,1,1\n");
  const StatsTable b = merged(
      "A,rep,1,0,250,output,0,4,float32,(2),3,3,3,3\n"
      "A,rep,1,0,260,output,0,4,float32,(2),4,4,4,4\n"
      "A,rep,1,0,270,output,0,4,float32,(2),5,5,5,5\n");
  const StatsComparison c = compare_stats(n, b);
  ASSERT_EQ(c.rows.size(), 4u);
  EXPECT_EQ(c.rows[0].key, "only_npu.1.output.0");
  EXPECT_EQ(c.rows[0].error_message,
            "Tensor shapes do not match.\nDtype of NPU and bench Tensor do not match. Skipped.\n");
  EXPECT_EQ(c.rows[1].npu_stats[kStatMax], 2.0);  // ts 200 with ts 250
  EXPECT_EQ(c.rows[1].bench_stats[kStatMax], 3.0);
  EXPECT_EQ(c.rows[2].npu_stats[kStatMax], 1.0);  // ts 300 with ts 260
  EXPECT_EQ(c.rows[2].bench_stats[kStatMax], 4.0);
  EXPECT_FALSE(c.rows[3].npu);
  EXPECT_EQ(c.npu_only, 1u);
  EXPECT_EQ(c.bench_only, 1u);
  EXPECT_EQ(c.compared, 2u);
  const auto cells1 = stats_result_cells(n, b, c, {NumpyGeneration::kNumpy1});
  EXPECT_EQ(cells1[3][4], "nan");  // pandas 2's astype(str) of the missing shape
  const auto cells2 = stats_result_cells(n, b, c, {NumpyGeneration::kNumpy2});
  EXPECT_EQ(cells2[3][4], "");
  EXPECT_EQ(cells2[3][0], "");
  EXPECT_EQ(cells2[3][1], "rep.1.output.0");
}

TEST(StatsCompare, VerdictIsSignedAndNanAware) {
  const StatsTable n = merged(
      "A,up,1,0,1,output,0,4,float32,(2),5,0,0,0\n"
      "A,down,1,0,2,output,0,4,float32,(2),-1,-5,1,1\n"
      "A,nans,1,0,3,output,0,4,float32,(2),nan,inf,2,3\n"
      "A,half,1,0,4,output,0,4,float32,(2),2,0,0,0\n"
      "A,dt,1,0,5,output,0,4,float16,(2),1,1,1,1\n"
      "A,scalar,1,0,6,output,0,4,float32,,1,1,1,1\n");
  const StatsTable b = merged(
      "A,up,1,0,1,output,0,4,float32,(2),0,0,-0.0,nan\n"
      "A,down,1,0,2,output,0,4,float32,(2),-3,-5,1,1\n"
      "A,nans,1,0,3,output,0,4,float32,(2),nan,1,inf,-inf\n"
      "A,half,1,0,4,output,0,4,float32,(2),1,0,0,0\n"
      "A,dt,1,0,5,output,0,4,float32,(2),1,1,1,1\n"
      "A,scalar,1,0,6,output,0,4,float32,,1,1,1,1\n");
  const StatsComparison c = compare_stats(n, b);
  EXPECT_EQ(row_of(c, "up.1.output.0").accuracy, StatsVerdict::kNo);     // 5 / 5
  EXPECT_EQ(row_of(c, "down.1.output.0").accuracy, StatsVerdict::kYes);  // 2 / (-1): negative
  EXPECT_EQ(row_of(c, "nans.1.output.0").accuracy, StatsVerdict::kYes);  // both maxima NaN
  EXPECT_EQ(row_of(c, "half.1.output.0").accuracy, StatsVerdict::kYes);  // 1 / 2 = 0.5
  EXPECT_EQ(row_of(c, "dt.1.output.0").error_message,
            "Dtype of NPU and bench Tensor do not match. Skipped.\n");
  EXPECT_EQ(row_of(c, "scalar.1.output.0").error_message,
            "This is type of scalar data, can not compare.\n");
  const StatsComparedRow& up = row_of(c, "up.1.output.0");
  EXPECT_EQ(up.relative[kStatMax].kind, RelativeError::Kind::kNotApplicable);
  EXPECT_EQ(up.relative[kStatMean].kind, RelativeError::Kind::kNotApplicable);  // bench -0.0
  EXPECT_EQ(up.relative[kStatL2Norm].kind, RelativeError::Kind::kNan);          // bench NaN
  ASSERT_TRUE(c.first_divergent);
  EXPECT_EQ(c.rows[*c.first_divergent].key, "up.1.output.0");
}

TEST(StatsWriter, DiffColumnsTurnFloat64WhenARowIsNotCompared) {
  const std::string row = "A,a,1,0,1,output,0,4,float32,(2),0.1,0,0,0\n";
  const StatsTable n = merged(row);
  const StatsTable b = merged("A,a,1,0,1,output,0,4,float32,(2),0.2,0,0,0\n");
  // Every row compared: the Max diff column stays float32.
  EXPECT_EQ(stats_result_cells(n, b, compare_stats(n, b)).front()[16], "-0.1");
  // One row not compared (None): pandas infers float64 for the whole column.
  const StatsTable n2 = merged(row + "A,only,1,0,2,output,0,4,float32,(2),1,1,1,1\n");
  const auto cells = stats_result_cells(n2, b, compare_stats(n2, b));
  EXPECT_EQ(cells[0][16], "-0.10000000149011612");
  EXPECT_EQ(cells[0][6], "0.1");  // the statistics columns hold NaN, never None
  EXPECT_EQ(cells[1][16], "");
}

TEST(StatsMalformed, EveryPrefixOfAFileParsesOrThrowsError) {
  const std::string text = std::string(kMergedHeader) +
                           "Add,\"a\",0,0,100,input,0,4,float32,\"(2,3)\",1,0,1,\n"
                           "Add,a,0,0,101,output,0,4,float32,\"(2,3)\",nan,-inf,2e5,\n";
  for (std::size_t n = 0; n <= text.size(); ++n) {
    try {
      const StatsTable t = parse_stats_csv(text.substr(0, n), "p.csv");
      EXPECT_LE(t.rows.size(), 2u);
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("p.csv:"), std::string::npos) << e.what();
    }
  }
}

TEST(StatsTree, RankAndStepFromPathsAsMsprobe) {
  EXPECT_EQ(rank_step_of("/d/dump_data0/rank_0/mnist/0/2").rank, 0);
  EXPECT_EQ(rank_step_of("/d/dump_data0/rank_0/mnist/0/2").step, 2);
  EXPECT_EQ(rank_step_of("/d/rank_3/net/1/7").rank, 3);
  EXPECT_EQ(rank_step_of("/d/dump_data0/rank_0/execution_order").step, -1);
  // Without "rank_": the 4th component from the end, else the 3rd.
  EXPECT_EQ(rank_step_of("/d/5/net/1/7").rank, 5);
  EXPECT_EQ(rank_step_of("/d/x/4/1/7").rank, 4);
  EXPECT_EQ(rank_step_of("/d/x/y/1/7").rank, -1);
}

TEST(StatsTree, FindsLeafDirectoriesAndPairsThem) {
  ScratchDir root;
  for (const char* leaf : {"npu/rank_0/net/0/0", "npu/rank_0/net/0/1", "npu/rank_1/net/0/0",
                           "npu/rank_0/execution_order", "bench/rank_0/net/0/1",
                           "bench/rank_0/net/1/1", "bench/rank_1/net/0/0"}) {
    fs::create_directories(root.file(leaf));
  }
  const auto npu = find_rank_step_dirs(root.file("npu"));
  ASSERT_EQ(npu.size(), 3u);
  const auto pairs = pair_rank_steps(npu, find_rank_step_dirs(root.file("bench") + "/"));
  ASSERT_EQ(pairs.size(), 2u);
  EXPECT_EQ(pairs[0].id.rank, 0);
  EXPECT_EQ(pairs[0].id.step, 1);
  EXPECT_EQ(pairs[0].bench_dirs.size(), 2u);  // graphs 0 and 1 of step 1
  EXPECT_EQ(pairs[1].id.rank, 1);
}

TEST(StatsWriter, WritesAtomicallyWithMinimalQuoting) {
  ScratchDir dir;
  const StatsTable n = merged(
      "A,a,1,0,1,output,0,4,float32,\"(2,3)\",1,1,1,1\n"
      "A,b,1,0,2,output,0,4,float32,\"(2)\",1,1,1,1\n");
  const StatsTable b = merged("A,a,1,0,1,output,0,4,float32,\"(2,3)\",2,1,1,inf\n");
  const StatsComparison c = compare_stats(n, b);
  const std::string path = dir.file("compare_result_0_0_20260101000000.csv");
  write_stats_result(path, n, b, c);
  EXPECT_FALSE(fs::exists(path + ".partial"));
  const std::string text = testing::read_text(path);
  std::istringstream in(text);
  std::string header, row_a;
  std::getline(in, header);
  std::getline(in, row_a);
  EXPECT_EQ(header.rfind("NPU Name,Bench Name,NPU Dtype,Bench Dtype,", 0), 0u);
  EXPECT_EQ(row_a.rfind("a.1.output.0,a.1.output.0,float32,float32,\"[2,3]\",\"[2,3]\",", 0), 0u);
  // Bench l2norm holds inf: " inf", and the L2norm diff column -inf.
  EXPECT_NE(
      row_a.find(",1.0,1.0,1.0,1.0,2.0,1.0,1.0, inf,Yes,,-1.0,0.0,0.0, -inf,50.0%,0.0%,0.0%,Nan,"),
      std::string::npos)
      << row_a;
  EXPECT_NE(text.find("\"Tensor shapes do not match.\nDtype of NPU and bench Tensor do not match. "
                      "Skipped.\n\""),
            std::string::npos);
  EXPECT_EQ(text.find('\r'), std::string::npos);
}

}  // namespace
}  // namespace dumpcmp
