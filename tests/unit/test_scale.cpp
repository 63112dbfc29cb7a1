// Scale-out without MPI: how work is dealt to ranks (scale/shares) and the bytes records travel
// as (scale/wire). The runs over real ranks are tests/cli/test_mpi.sh.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <numeric>

#include "backend/cpu_backend.hpp"
#include "core/error.hpp"
#include "math/chunk_plan.hpp"
#include "scale/shares.hpp"
#include "scale/split_rows.hpp"
#include "scale/wire.hpp"
#include "scale/world.hpp"

namespace dumpcmp {
namespace {

uint64_t share_weight(const std::vector<uint64_t>& w, const Share& s) {
  return std::accumulate(w.begin() + static_cast<std::ptrdiff_t>(s.begin),
                         w.begin() + static_cast<std::ptrdiff_t>(s.end), uint64_t{0});
}

TEST(BalancedShares, CoverEveryItemOnceInOrder) {
  const std::vector<uint64_t> w = {5, 1, 1, 9, 2, 2, 2, 7, 3, 1, 1, 4};
  for (int parts = 1; parts <= 16; ++parts) {
    const std::vector<Share> s = balanced_shares(w, parts);
    ASSERT_EQ(s.size(), static_cast<std::size_t>(parts));
    std::size_t at = 0;
    for (const Share& share : s) {
      EXPECT_EQ(share.begin, at);
      EXPECT_LE(share.begin, share.end);
      at = share.end;
    }
    EXPECT_EQ(at, w.size());
  }
}

TEST(BalancedShares, EqualWeightsSplitEvenly) {
  const std::vector<uint64_t> w(100, 10);
  const std::vector<Share> s = balanced_shares(w, 4);
  for (const Share& share : s) EXPECT_EQ(share.end - share.begin, 25u);
}

TEST(BalancedShares, NoShareFarFromItsFraction) {
  // Each share is within one item of its fair part.
  std::vector<uint64_t> w;
  for (int i = 0; i < 1000; ++i) w.push_back(static_cast<uint64_t>((i * 7919) % 1000 + 1));
  const uint64_t total = std::accumulate(w.begin(), w.end(), uint64_t{0});
  const uint64_t largest = *std::max_element(w.begin(), w.end());
  for (int parts : {2, 3, 7, 64}) {
    for (const Share& share : balanced_shares(w, parts)) {
      const double fair = static_cast<double>(total) / parts;
      EXPECT_LE(std::abs(static_cast<double>(share_weight(w, share)) - fair),
                2.0 * static_cast<double>(largest));
    }
  }
}

TEST(BalancedShares, OneDominantItemTakesAShareAlone) {
  const std::vector<uint64_t> w = {1, 1, 1000, 1, 1, 1};
  const std::vector<Share> s = balanced_shares(w, 3);
  bool alone = false;
  for (const Share& share : s) alone = alone || (share.begin == 2 && share.end == 3);
  EXPECT_TRUE(alone);
}

TEST(BalancedShares, FewerItemsThanParts) {
  const std::vector<Share> s = balanced_shares({3, 3}, 5);
  std::size_t non_empty = 0;
  for (const Share& share : s) non_empty += share.end > share.begin;
  EXPECT_EQ(non_empty, 2u);
  EXPECT_EQ(balanced_shares({}, 3).back().end, 0u);
}

TEST(AssignGroups, KeepsAGroupTogetherOnARankThatReadsIt) {
  // Devices 0 and 1 live on the host of ranks 0-1, devices 2 and 3 on the host of ranks 2-3.
  std::vector<uint64_t> w;
  std::vector<std::string> device;
  std::vector<std::vector<int>> readers;
  for (int d = 0; d < 4; ++d) {
    for (int step = 0; step < 5; ++step) {
      w.push_back(100);
      device.push_back(std::to_string(d));
      readers.push_back(d < 2 ? std::vector<int>{0, 1} : std::vector<int>{2, 3});
    }
  }
  const std::vector<int> rank = assign_groups(w, device, readers, 4);
  for (std::size_t i = 0; i < w.size(); ++i) {
    EXPECT_EQ(rank[i], rank[i - i % 5]) << "one device, one rank";
    const int d = static_cast<int>(i / 5);
    EXPECT_EQ(rank[i] / 2, d / 2) << "on the host that holds device " << d;
  }
  EXPECT_NE(rank[0], rank[5]);  // two devices of one host on its two ranks
  EXPECT_NE(rank[10], rank[15]);
}

TEST(AssignGroups, UnreadableItemsGoToRankZero) {
  const std::vector<int> rank = assign_groups({10, 10}, {"0", "1"}, {{}, {1}}, 2);
  EXPECT_EQ(rank[0], 0);
  EXPECT_EQ(rank[1], 1);
}

TEST(Wire, RecordsTravelBitForBit) {
  CompareRecord r;
  r.row = 41;
  r.id.index = 7;
  r.id.op_type = "Conv2D";
  r.id.my_op = "conv1, with \"quotes\"";
  r.id.golden_op = std::string("a\0b", 3);
  r.id.tensor_index = "conv1:output:0";
  r.id.shape = "[1,3,224,224]";
  r.id.op_sequence = -5;
  r.id.overflow = "YES";
  MetricCell value;
  value.status = CellStatus::kValue;
  value.value = std::nextafter(1.0, 0.0);
  MetricCell nan_payload;
  nan_payload.status = CellStatus::kValue;
  nan_payload.value = -std::nan("0x5");
  nan_payload.parts = {1.5, -0.0, INFINITY, NAN};
  nan_payload.reason = "some reason";
  MetricCell literal;
  literal.status = CellStatus::kLiteralOne;
  r.metrics = {value, nan_payload, literal, MetricCell{}};
  r.fail_reason = "why";
  r.verdict = Verdict::kFail;
  r.verdict_why = "CosineSimilarity < 0.99";

  ByteWriter out;
  write_record(out, r);
  write_record(out, CompareRecord{});
  const std::string bytes = out.take();
  ByteReader in(bytes);
  const CompareRecord back = read_record(in);
  const CompareRecord empty = read_record(in);
  EXPECT_TRUE(in.done());
  EXPECT_EQ(back.row, 41);
  EXPECT_EQ(back.id.golden_op, r.id.golden_op);
  EXPECT_EQ(back.id.my_op, r.id.my_op);
  EXPECT_EQ(back.id.op_sequence, -5);
  EXPECT_EQ(back.id.overflow, "YES");
  ASSERT_EQ(back.metrics.size(), 4u);
  for (std::size_t k = 0; k < 4; ++k) {
    EXPECT_EQ(back.metrics[k].status, r.metrics[k].status);
    EXPECT_EQ(std::memcmp(&back.metrics[k].value, &r.metrics[k].value, sizeof(double)), 0);
    EXPECT_EQ(
        std::memcmp(back.metrics[k].parts.data(), r.metrics[k].parts.data(), sizeof(double) * 4),
        0);
    EXPECT_EQ(back.metrics[k].reason, r.metrics[k].reason);
  }
  EXPECT_EQ(back.verdict, Verdict::kFail);
  EXPECT_EQ(back.verdict_why, r.verdict_why);
  EXPECT_FALSE(empty.compared());
  EXPECT_EQ(empty.id.op_type, kNaNText);
}

TEST(Wire, ATruncatedMessageIsAnError) {
  ByteWriter out;
  write_record(out, CompareRecord{});
  std::string bytes = out.take();
  bytes.resize(bytes.size() - 3);
  ByteReader in(bytes);
  EXPECT_THROW(read_record(in), Error);
}

TEST(Wire, TablesKeepMetricsAndColumns) {
  TableColumns columns;
  columns.my_address = false;
  columns.overflow = true;
  ByteWriter out;
  write_table(out, {Metric::kMaxRelativeError, Metric::kCosineSimilarity}, columns);
  const std::string bytes = out.take();
  ByteReader in(bytes);
  const ResultTable table = read_table(in);
  EXPECT_EQ(table.metrics(),
            (std::vector<Metric>{Metric::kMaxRelativeError, Metric::kCosineSimilarity}));
  EXPECT_FALSE(table.columns().my_address);
  EXPECT_TRUE(table.columns().golden_address);
  EXPECT_TRUE(table.columns().overflow);
}

// One large pair reduced as the blocks split_rows deals to each rank, merged pairwise in block
// order, must equal the pair reduced whole, bit for bit, KLD pass included.
TEST(SplitRows, BlocksMergeToTheWholeTensorBitForBit) {
  const int64_t n = 37 * kChunkElements + 1234;  // not a whole number of chunks
  std::vector<float> x(static_cast<std::size_t>(n)), y(x.size());
  for (int64_t i = 0; i < n; ++i) {
    x[static_cast<std::size_t>(i)] = std::sin(static_cast<float>(i) * 0.001f) * 3.0f;
    y[static_cast<std::size_t>(i)] =
        x[static_cast<std::size_t>(i)] + 1e-3f * std::cos(static_cast<float>(i));
  }
  ComparePlan plan;
  for (int k = 0; k < 3; ++k) {  // two small rows around the large one
    PlanRow r;
    r.id = k;
    r.compared = true;
    r.x.count = r.y.count = k == 1 ? n : 100;
    r.x.size = r.y.size = static_cast<uint64_t>(r.x.count) * 4;
    plan.rows.push_back(r);
  }
  TensorPairJob job;
  job.x.data = reinterpret_cast<const uint8_t*>(x.data());
  job.y.data = reinterpret_cast<const uint8_t*>(y.data());
  job.x.dtype = job.y.dtype = DType::kFloat;
  job.x.count = job.y.count = n;
  job.need_kld = true;
  CpuBackend backend(2);
  std::vector<PairStats> whole;
  backend.reduce({job}, whole);
  ASSERT_TRUE(whole[0].kld.has_value());
  for (int ranks : {2, 3, 4, 7, 16}) {
    const std::vector<SplitRow> split = plan_split_rows(plan, ranks);
    ASSERT_EQ(split.size(), 1u) << ranks << " ranks";
    const SplitRow& s = split[0];
    EXPECT_EQ(s.row, 1u);
    EXPECT_EQ(s.block_elements % kChunkElements, 0);
    EXPECT_LE(s.blocks, ranks);
    std::vector<PairAccumulator> pair;
    std::vector<KldAccumulator> kld;
    int64_t covered = 0;
    for (int r = 0; r < s.blocks; ++r) {
      std::vector<PairStats> first, second;
      TensorPairJob slice = slice_job(job, s.block_first(r), s.block_count(r));
      slice.need_kld = false;
      backend.reduce({slice}, first);
      pair.push_back(first[0].pair);
      covered += s.block_count(r);
    }
    EXPECT_EQ(covered, n);
    merge_pairwise(pair.data(), static_cast<int64_t>(pair.size()));
    PairStats merged;
    merged.pair = pair.front();
    for (int r = 0; r < s.blocks; ++r) {
      std::vector<PairStats> second;
      TensorPairJob slice = slice_job(job, s.block_first(r), s.block_count(r));
      slice.whole = &merged;
      backend.reduce({slice}, second);
      ASSERT_TRUE(second[0].kld.has_value());
      kld.push_back(*second[0].kld);
    }
    merge_pairwise(kld.data(), static_cast<int64_t>(kld.size()));
    EXPECT_EQ(std::memcmp(&merged.pair, &whole[0].pair, sizeof merged.pair), 0) << ranks;
    EXPECT_EQ(std::memcmp(&kld.front(), &*whole[0].kld, sizeof kld.front()), 0) << ranks;
  }
}

TEST(SplitRows, OnlyRowsLargerThanAShareAndPlain) {
  ComparePlan plan;
  auto row = [&](int64_t count, DType dtype, int32_t layout) {
    PlanRow r;
    r.id = static_cast<int64_t>(plan.rows.size());
    r.compared = true;
    r.x.count = r.y.count = count;
    r.x.dtype = r.y.dtype = dtype;
    r.x.size = r.y.size = static_cast<uint64_t>(count) * 2;
    r.x.layout = layout;
    plan.rows.push_back(r);
  };
  row(16 * kChunkElements, DType::kFloat16, -1);  // large, plain
  row(4 * kChunkElements, DType::kFloat16, 0);    // large, through a layout map
  row(4 * kChunkElements, DType::kUInt1, -1);     // large, sub-byte
  row(kChunkElements, DType::kFloat16, -1);       // one chunk
  for (int k = 0; k < 4; ++k) row(100, DType::kFloat16, -1);
  EXPECT_TRUE(plan_split_rows(plan, 1).empty());
  const std::vector<SplitRow> split = plan_split_rows(plan, 4);
  ASSERT_EQ(split.size(), 1u);
  EXPECT_EQ(split[0].row, 0u);
  EXPECT_EQ(split[0].blocks, 4);
  EXPECT_EQ(split[0].block_count(3), 4 * kChunkElements);
  EXPECT_EQ(split[0].block_count(4), 0);
}

TEST(World, WithoutALauncherTheWorldIsOneProcess) {
  int argc = 1;
  char name[] = "test";
  char* args[] = {name, nullptr};
  char** argv = args;
  const bool launched = std::getenv("OMPI_COMM_WORLD_SIZE") || std::getenv("PMIX_RANK") ||
                        std::getenv("PMI_RANK") || std::getenv("PMI_SIZE");
  if (launched) GTEST_SKIP() << "started by an MPI launcher";
  const std::unique_ptr<World> world = make_world(argc, argv);
  EXPECT_EQ(world->rank(), 0);
  EXPECT_EQ(world->size(), 1);
  std::string bytes = "plan";
  world->broadcast(bytes);
  EXPECT_EQ(bytes, "plan");
  EXPECT_EQ(world->gather("x"), std::vector<std::string>{"x"});
}

}  // namespace
}  // namespace dumpcmp
