// --steps' summary.csv (probe/probe_steps_report): counts only for compared pairs, and the cells
// that come from the dumps (op names, messages) behind msaccucmp's CSV-injection guard.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "probe/probe_steps_report.hpp"
#include "support.hpp"

namespace dumpcmp {
namespace {

TEST(ProbeStepsSummary, CountsAndGuardedCells) {
  const testing::ScratchDir dir;
  ProbeStepPair compared{"0", "rank0", "compared", "step0/compare_result_rank0_1.csv",    5,
                         4,   1,       2,          "=cmd|' /C calc'!A0.forward.output.0", ""};
  ProbeStepPair failed{"1", "rank1", "failed", "", 0, 0, 0, 0, "", "-bad: invalid JSON"};
  const std::string path = dir.file("summary.csv");
  write_probe_steps_summary(path, {compared, failed});
  EXPECT_EQ(testing::read_text(path),
            "Step,Pair,Status,Rows,Matched,Pass,Warning,Error,FirstError,ResultFile,Message\n"
            "0,rank0,compared,5,4,2,1,2, =cmd|' /C calc'!A0.forward.output.0,"
            "step0/compare_result_rank0_1.csv,\n"
            "1,rank1,failed,,,,,,,, -bad: invalid JSON\n");
}

}  // namespace
}  // namespace dumpcmp
