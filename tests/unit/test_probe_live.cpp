// The live compare's engine (probe/probe_live): the bench run's tensors fed as its run would feed
// them (here read from its msprobe dump, which a live run never writes), then its dump.json
// records; the result must be msprobe's compare of the two dumps, byte for byte. The PyTorch hooks
// that feed it are tests/python/test_live.py's.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "backend/cpu_backend.hpp"
#include "core/error.hpp"
#include "math/blas_dot.hpp"
#include "probe/probe_array.hpp"
#include "probe/probe_dump.hpp"
#include "probe/probe_live.hpp"
#include "support.hpp"

namespace dumpcmp {
namespace {

namespace fs = std::filesystem;
using testing::read_text;
using testing::ScratchDir;

const std::string kData = std::string(DUMPCMP_TEST_DATA_DIR) + "/msprobe_dump/";

// numpy's OpenBLAS order where the expected files were written: tensor_cases' (SkylakeX, 2
// threads, as tests/cli/test_probe_compare.sh runs them) and live's (an AMD EPYC Zen 5: Haswell).
constexpr BlasOrder kSkylakeX{BlasDotKernel::kSkylakeX, 2};
constexpr BlasOrder kHaswell{BlasDotKernel::kHaswell, 2};

// Feeds every bench tensor whose data file reads (a row the bench run could not have produced is
// left out: its row then says it was not compared) and writes the result into `out`.
ProbeRunResult live_compare(const std::string& npu, const std::string& bench,
                            const std::string& out, BlasOrder order = kHaswell) {
  ProbeLiveCompare live(npu);
  CpuBackend cpu(2);
  const auto reduce = [&](const ProbePairJob& job) {
    std::vector<ProbeSums> sums;
    cpu.reduce_probe({job}, order, sums);
    return sums.at(0);
  };
  const ProbeDump dump = read_probe_dump(bench);
  const std::string dir = fs::path(bench).parent_path().string() + "/dump_tensor_data/";
  for (const ProbeOp& op : dump.ops) {
    for (const ProbeRow& row : op.rows) {
      if (row.data_name == "-1") continue;
      try {
        live.compare(row.data_name, read_probe_array(dir + row.data_name, ProbeDataFormat::kTorch),
                     reduce);
      } catch (const Error&) {
      }
    }
  }
  ProbeRunOptions options;
  options.output_dir = out;
  return live.write(read_text(bench), options);
}

// The live cases: forward-only models (tensor, statistics and md5 mode), a DTensor one, and a step
// trained forward and backward (module backward records and parameter gradients).
TEST(ProbeLive, ModuleDumpAsMsprobeComparesIt) {
  for (const std::string task :
       {"tensor", "statistics", "md5", "sharded", "train/tensor", "train/statistics"}) {
    ScratchDir out;
    const std::string dir = kData + "live/" + task;
    const ProbeRunResult result =
        live_compare(dir + "/npu/dump.json", dir + "/bench/dump.json", out.path());
    ASSERT_EQ(result.written.size(), 1u) << task;
    std::string expected = task;
    std::replace(expected.begin(), expected.end(), '/', '_');
    EXPECT_EQ(read_text(result.written[0]), read_text(kData + "live/expected_" + expected + ".csv"))
        << task;
    EXPECT_TRUE(result.warnings.empty()) << task;
  }
}

// Every dtype, NaN and inf, strided views, OpenBLAS's per-thread parts, a missing and a truncated
// data file: the rows are msprobe's.
TEST(ProbeLive, TensorCasesAsMsprobeComparesThem) {
  ScratchDir out;
  const std::string dir = kData + "tensor_cases/tensor/";
  const ProbeRunResult result = live_compare(dir + "npu/proc0/dump.json",
                                             dir + "bench/proc0/dump.json", out.path(), kSkylakeX);
  ASSERT_EQ(result.written.size(), 1u);
  EXPECT_EQ(read_text(result.written[0]), read_text(kData + "expected/tensor_proc0.csv"));
  EXPECT_FALSE(result.warnings.empty());  // the unreadable files, named
}

TEST(ProbeLive, UnreadableNpuFileFailsItsRowOnly) {
  ScratchDir copy, out;
  fs::copy(kData + "live/tensor/npu", copy.path(), fs::copy_options::recursive);
  const std::string victim = "Module.emb.Linear.forward.0.output.0.pt";
  fs::resize_file(copy.path() + "/dump_tensor_data/" + victim, 10);
  const std::string bench = kData + "live/tensor/bench/dump.json";
  const ProbeRunResult result = live_compare(copy.file("dump.json"), bench, out.path());
  ASSERT_EQ(result.written.size(), 1u);
  EXPECT_FALSE(result.log.empty());
  bool named = false;
  for (const std::string& w : result.warnings) named = named || w.find(victim) != std::string::npos;
  EXPECT_TRUE(named);
  EXPECT_NE(read_text(result.written[0])
                .find("Module.emb.Linear.forward.0.output.0,Module.emb."
                      "Linear.forward.0.output.0,torch.float32,torch."
                      "float32,\"[4, 16]\",\"[4, 16]\",False,False,"
                      "unsupported"),
            std::string::npos);
}

TEST(ProbeLive, TensorsNotFedAreUnsupportedAndSaidSo) {
  ScratchDir out;
  ProbeLiveCompare live(kData + "live/tensor/npu/dump.json");
  ProbeRunOptions options;
  options.output_dir = out.path();
  const ProbeRunResult result =
      live.write(read_text(kData + "live/tensor/bench/dump.json"), options);
  ASSERT_FALSE(result.warnings.empty());
  EXPECT_NE(result.warnings[0].find("not compared"), std::string::npos);
}

TEST(ProbeLive, RefusesWhatItCannotCompareAsItRuns) {
  ScratchDir dir;
  testing::write_bytes(dir.file("dump.json"),
                       {'{', '"', 't', 'a', 's', 'k', '"', ':', '"', 'x', '"', '}'});
  const auto refused = [](const std::string& text, const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "w");
    std::fputs(text.c_str(), f);
    std::fclose(f);
    try {
      ProbeLiveCompare live(path);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(refused(R"({"task": "tensor", "level": "L0", "framework": "mindspore", "data": {}})",
                    dir.file("dump.json"))
                .find("MindSpore"),
            std::string::npos);
  ProbeLiveCompare live(kData + "live/tensor/npu/dump.json");
  ProbeRunOptions options;
  options.output_dir = dir.path();
  options.fuzzy_match = true;
  EXPECT_THROW(live.write("{}", options), Error);
}

}  // namespace
}  // namespace dumpcmp
