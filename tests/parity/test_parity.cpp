// Device backends against the CPU backend over a table of sizes x dtypes x special values.
// Expected: every field bit-identical, double sums included: all backends cut the same chunks,
// fold each chunk's elements into the same 8 lanes in the same order and merge in the same tree.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "backend/cpu_backend.hpp"
#include "chunk_launch.hpp"
#include "device_backends.hpp"
#include "parity_backend.hpp"
#include "parity_data.hpp"

namespace dumpcmp {
namespace {

bool same_float(float a, float b) {
  return std::memcmp(&a, &b, 4) == 0 || (std::isnan(a) && std::isnan(b));
}

::testing::AssertionResult same_double(double got, double want) {
  if (std::memcmp(&got, &want, 8) == 0 || (std::isnan(got) && std::isnan(want)))
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << std::hexfloat << got << " vs " << want;
}

void expect_same_side(const SideStats& d, const SideStats& c) {
  EXPECT_EQ(d.nan, c.nan);
  EXPECT_EQ(d.pos_inf, c.pos_inf);
  EXPECT_EQ(d.neg_inf, c.neg_inf);
  EXPECT_EQ(d.finite, c.finite);
  EXPECT_TRUE(same_float(d.min, c.min));
  EXPECT_TRUE(same_float(d.max, c.max));
  EXPECT_TRUE(same_double(d.mean, c.mean));
  EXPECT_TRUE(same_double(d.m2, c.m2));
}

void expect_same(const PairStats& d, const PairStats& c) {
  ASSERT_EQ(d.both_bool, c.both_bool);
  EXPECT_EQ(d.boolean.n, c.boolean.n);
  EXPECT_EQ(d.boolean.x_true, c.boolean.x_true);
  EXPECT_EQ(d.boolean.both_true, c.boolean.both_true);
  const PairAccumulator &a = d.pair, &b = c.pair;
  EXPECT_EQ(a.n, b.n);
  EXPECT_EQ(a.nan_abs_d, b.nan_abs_d);
  EXPECT_EQ(a.nan_rel, b.nan_rel);
  EXPECT_TRUE(same_float(a.max_abs_d, b.max_abs_d));
  EXPECT_TRUE(same_float(a.max_rel, b.max_rel));
  for (auto [g, w] : {std::pair{a.sum_xx, b.sum_xx},
                      {a.sum_yy, b.sum_yy},
                      {a.sum_xy, b.sum_xy},
                      {a.sum_d2, b.sum_d2},
                      {a.sum_abs_d, b.sum_abs_d},
                      {a.sum_rel, b.sum_rel}}) {
    EXPECT_TRUE(same_double(g, w));
  }
  expect_same_side(a.x, b.x);
  expect_same_side(a.y, b.y);
  ASSERT_EQ(d.kld.has_value(), c.kld.has_value());
  if (d.kld) {
    EXPECT_TRUE(same_double(d.kld->sum_p, c.kld->sum_p));
    EXPECT_TRUE(same_double(d.kld->sum_q, c.kld->sum_q));
    EXPECT_TRUE(same_double(d.kld->sum_plogpq, c.kld->sum_plogpq));
  }
}

// Every job reduced by both backends gives the same accumulators.
// got[i] equals want[i] for every job, each failure naming its job.
void expect_same_stats(const std::vector<TensorPairJob>& jobs, const std::vector<PairStats>& got,
                       const std::vector<PairStats>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    SCOPED_TRACE("job " + std::to_string(i) + " n=" + std::to_string(jobs[i].x.count) +
                 " dtype=" + std::string(dtype_wire_name(jobs[i].x.dtype)) +
                 (jobs[i].x.layout || jobs[i].y.layout ? " through a layout map" : ""));
    expect_same(got[i], want[i]);
  }
}

void expect_parity(Backend& device, Backend& cpu, const std::vector<TensorPairJob>& jobs) {
  std::vector<PairStats> want, got;
  cpu.reduce(jobs, want);
  device.reduce(jobs, got);
  expect_same_stats(jobs, got, want);
}

class Parity : public ::testing::TestWithParam<uint64_t> {};  // the device memory budget

// Every size x dtype x special-value pair, both bool paths included; `tensors` keeps the bytes.
std::vector<TensorPairJob> special_value_jobs(std::vector<Tensor>& tensors) {
  const std::vector<int64_t> sizes = {0,  1,  3,    7,    8,    9,     31,
                                      32, 33, 1023, 1024, 1025, 16385, (1 << 20) + 3};
  const std::vector<DType> dtypes = {
      DType::kFloat, DType::kFloat16, DType::kBFloat16,     DType::kDouble,     DType::kInt32,
      DType::kInt8,  DType::kBool,    DType::kFloat8E4M3FN, DType::kFloat8E5M2, DType::kHiFloat8};
  std::vector<TensorPairJob> jobs;
  tensors.reserve(sizes.size() * dtypes.size() * 7 * 2);
  uint32_t seed = 1;
  for (int64_t n : sizes) {
    for (DType dt : dtypes) {
      for (int special = 0; special <= 6; ++special) {
        if (n > 100000 && special % 3 != 0) continue;  // the largest size: fewer variants
        tensors.push_back(make_tensor(dt, values(n, special, seed++)));
        tensors.push_back(make_tensor(dt, values(n, special == 6 ? 0 : special / 2, seed++)));
        TensorPairJob job;
        job.x = tensors[tensors.size() - 2].source();
        job.y = tensors.back().source();
        job.both_bool = dt == DType::kBool && (special % 2 == 0);  // both bool paths are exercised
        job.need_kld = true;
        jobs.push_back(job);
      }
    }
  }
  return jobs;
}

TEST_P(Parity, SizesDtypesAndSpecialValues) {
  const auto device = device_backend(GetParam());
  if (!device) GTEST_SKIP() << "no usable device";
  CpuBackend cpu(2);
  std::vector<Tensor> tensors;
  expect_parity(*device, cpu, special_value_jobs(tensors));
}

// Tensors already in device memory (host memory for thrust-omp), reduced in place: the same
// accumulators as the cpu backend gives for the same bytes on the host.
TEST(Resident, InPlaceGivesTheCpuBackendsAccumulators) {
  std::string why;
  const auto resident = resident_reducer(why);
  if (!resident) GTEST_SKIP() << "no usable device: " << why;
  std::vector<Tensor> tensors;
  const std::vector<TensorPairJob> jobs = special_value_jobs(tensors);
  std::vector<DeviceCopy> copies;
  const std::vector<TensorPairJob> in_place = device_copies(jobs, copies);
  CpuBackend cpu(2);
  std::vector<PairStats> want, got;
  cpu.reduce(jobs, want);
  resident->reduce(in_place, nullptr, got, nullptr);
  expect_same_stats(jobs, got, want);
  // The sessions' buffers are reused: a second call on fewer jobs gives the same.
  resident->reduce({in_place[5]}, nullptr, got, nullptr);
  expect_same(got.at(0), want[5]);
}

// Tensors that start off a 16-byte boundary (views into larger tensors), aligned to their element
// size only: the kernels' wide loads must not assume more.
TEST(Resident, MisalignedTensorsGiveTheCpuBackendsAccumulators) {
  std::string why;
  const auto resident = resident_reducer(why);
  if (!resident) GTEST_SKIP() << "no usable device: " << why;
  std::vector<Tensor> tensors;
  std::vector<TensorPairJob> jobs;
  uint32_t seed = 501;
  for (DType dt : {DType::kFloat, DType::kFloat16, DType::kBFloat16}) {
    for (int64_t n : {int64_t{1000}, 3 * kChunkElements + 5}) {
      tensors.push_back(make_tensor(dt, values(n, 0, seed++)));
      tensors.push_back(make_tensor(dt, values(n, 0, seed++)));
    }
  }
  for (std::size_t i = 0; i < tensors.size(); i += 2) {
    TensorPairJob job;
    job.x = tensors[i].source();
    job.y = tensors[i + 1].source();
    job.need_kld = true;
    jobs.push_back(job);
  }
  CpuBackend cpu(2);
  std::vector<PairStats> want, got;
  cpu.reduce(jobs, want);
  for (const std::size_t offset : {std::size_t{2}, std::size_t{4}, std::size_t{12}}) {
    SCOPED_TRACE("offset " + std::to_string(offset));
    std::vector<DeviceCopy> copies;
    std::vector<TensorPairJob> in_place = device_copies(jobs, copies, offset);
    if (offset % 4 != 0) {  // fp32 needs 4-byte alignment: only the 16-bit pairs
      in_place.erase(in_place.begin(), in_place.begin() + 2);
      resident->reduce(in_place, nullptr, got, nullptr);
      expect_same_stats({jobs.begin() + 2, jobs.end()}, got, {want.begin() + 2, want.end()});
    } else {
      resident->reduce(in_place, nullptr, got, nullptr);
      expect_same_stats(jobs, got, want);
    }
  }
}

// A launch's tasks grouped by view kind (each kind's kernel reads only its own range on CUDA):
// every task in its kind's range, in its order within the kind, its chunk id alongside.
TEST(KindRanges, GroupTasksByViewKindKeepingTheirIds) {
  using device::ChunkTask;
  using device::ViewKind;
  const auto task = [](DType x, DType y, int32_t layout, int64_t marker) {
    ChunkTask t;
    t.x_dtype = x;
    t.y_dtype = y;
    t.x_layout = layout;
    t.local_begin = marker;  // tells the tasks apart
    return t;
  };
  device::Launch l;
  const std::vector<std::array<int, 3>> specs = {{0, 0, -1}, {1, 1, -1}, {0, 0, 0},  {2, 2, -1},
                                                 {3, 3, -1}, {1, 0, -1}, {0, 0, -1}, {1, 1, -1}};
  const DType dtypes[] = {DType::kFloat, DType::kFloat16, DType::kBFloat16, DType::kInt32};
  for (std::size_t i = 0; i < specs.size(); ++i) {
    l.tasks.push_back(
        task(dtypes[specs[i][0]], dtypes[specs[i][1]], specs[i][2], static_cast<int64_t>(i)));
    l.chunk_ids.push_back(100 + static_cast<int64_t>(i));
  }
  device::group_by_view_kind(l);
  ASSERT_EQ(l.tasks.size(), specs.size());
  EXPECT_EQ(l.kinds.total(), static_cast<int64_t>(specs.size()));
  // fp32 (0, 6), fp16 (1, 7), bf16 (3), decoding (2: a layout; 4: int32; 5: mixed dtypes).
  const std::vector<int64_t> order = {0, 6, 1, 7, 3, 2, 4, 5};
  const std::array<int64_t, device::kViewKinds + 1> begin = {0, 2, 4, 5, 8};
  EXPECT_EQ(l.kinds.begin, begin);
  for (std::size_t i = 0; i < order.size(); ++i) {
    EXPECT_EQ(l.tasks[i].local_begin, order[i]) << i;
    EXPECT_EQ(l.chunk_ids[i], 100 + order[i]) << i;
  }
  for (int k = 0; k < device::kViewKinds; ++k) {
    for (int64_t i = l.kinds.begin[k]; i < l.kinds.begin[k + 1]; ++i) {
      EXPECT_EQ(static_cast<int>(device::view_kind(l.tasks[static_cast<std::size_t>(i)])), k);
    }
  }
  // One kind: in place, its range all of them; none: empty ranges.
  device::Launch one;
  one.tasks = {task(DType::kFloat16, DType::kFloat16, -1, 0)};
  one.chunk_ids = {7};
  device::group_by_view_kind(one);
  EXPECT_EQ(one.kinds.first(ViewKind::kFloat16), 0);
  EXPECT_EQ(one.kinds.end(ViewKind::kFloat16), 1);
  EXPECT_EQ(one.kinds.total(), 1);
  device::Launch none;
  device::group_by_view_kind(none);
  EXPECT_EQ(none.kinds.total(), 0);
}

// Jobs that read through layout maps (decode and gather inside the load), on either side, among
// plain jobs, in sizes around the chunk boundary.
TEST_P(Parity, JobsWithLayoutMaps) {
  const auto device = device_backend(GetParam());
  if (!device) GTEST_SKIP() << "no usable device";
  CpuBackend cpu(2);
  const std::vector<std::array<int64_t, 4>> shapes = {
      {1, 3, 2, 2}, {2, 20, 5, 7}, {1, 33, 16, 32}, {3, 16, 31, 33}};
  std::vector<LayoutMap> maps;
  maps.reserve(shapes.size());
  std::vector<Tensor> tensors;
  tensors.reserve(shapes.size() * 3 * 4);
  std::vector<TensorPairJob> jobs;
  uint32_t seed = 77;
  for (const auto& s : shapes) {
    maps.push_back(nc1hwc0_to_nchw(s[0], s[1], s[2], s[3]));
    const LayoutMap& map = maps.back();
    const int64_t padded = nc1hwc0_elements(s[0], s[1], s[2], s[3]);
    for (DType dt : {DType::kFloat16, DType::kFloat, DType::kBFloat16}) {
      for (int special = 0; special <= 1; ++special) {
        tensors.push_back(make_tensor(dt, values(padded, special, seed++)));
        tensors.push_back(make_tensor(dt, values(map.count, 0, seed++)));
        // special 1: the map on the golden side too.
        TensorPairJob job =
            layout_job(tensors[tensors.size() - 2], tensors.back(), map, special == 1);
        job.need_kld = true;
        jobs.push_back(job);
      }
    }
  }
  expect_parity(*device, cpu, jobs);
}

#if defined(DUMPCMP_PARITY_BACKEND_THRUST_OMP)  // a CPU-only test: in one of the two binaries
// The CPU backend keeps the gathered bits of a 16-bit side read through a layout for the KLD pass
// (when the copies fit a third of the pair) and reads them in order there: the same bits as
// reading the same elements with no layout at all. Shapes with a few channels (copies kept) and
// many (not kept), the map on either side or both, over several chunks.
TEST(KeptSides, GiveWhatTheMaterialisedTensorGives) {
  CpuBackend cpu(2);
  const std::vector<std::array<int64_t, 4>> shapes = {
      {1, 3, 2, 2}, {1, 2, 130, 129}, {2, 5, 33, 47}, {1, 33, 16, 32}};
  std::vector<LayoutMap> maps;
  maps.reserve(shapes.size());
  std::vector<Tensor> tensors;
  tensors.reserve(shapes.size() * 2 * 3 * 4);
  std::vector<TensorPairJob> mapped, plain;
  uint32_t seed = 5;
  // The tensor as the map reads it, with no map: element i is source element map(i), 0 where the
  // map pads.
  const auto materialise = [](const Tensor& t, const LayoutMap& map) {
    Tensor m{t.dtype, std::vector<uint8_t>(static_cast<std::size_t>(2 * map.count)), map.count};
    for (int64_t i = 0; i < map.count; ++i) {
      const int64_t s = map.source_index(i);
      if (s >= 0) std::memcpy(m.bytes.data() + 2 * i, t.bytes.data() + 2 * s, 2);
    }
    return m;
  };
  for (const auto& s : shapes) {
    maps.push_back(nc1hwc0_to_nchw(s[0], s[1], s[2], s[3]));
    const LayoutMap& map = maps.back();
    const int64_t padded = nc1hwc0_elements(s[0], s[1], s[2], s[3]);
    for (DType dt : {DType::kFloat16, DType::kBFloat16}) {
      for (int sides = 1; sides <= 3; ++sides) {  // 1: x mapped, 2: y mapped, 3: both
        tensors.push_back(make_tensor(dt, values(padded, 0, seed++)));
        const Tensor& x = tensors.back();
        tensors.push_back(make_tensor(dt, values(padded, 0, seed++)));
        const Tensor& y = tensors.back();
        tensors.push_back(materialise(x, map));
        const Tensor& x_plain = tensors.back();
        tensors.push_back(materialise(y, map));
        const Tensor& y_plain = tensors.back();
        TensorPairJob job, reference;
        job.need_kld = reference.need_kld = true;
        job.x = x.source();
        reference.x = x_plain.source();
        job.y = y.source();
        reference.y = y_plain.source();
        for (ElementSource* side : {&job.x, &job.y}) {
          side->layout = &map;
          side->source_count = padded;
          side->count = map.count;
        }
        if (sides == 1) job.y = y_plain.source();
        if (sides == 2) job.x = x_plain.source();
        mapped.push_back(job);
        plain.push_back(reference);
      }
    }
  }
  std::vector<PairStats> got, want;
  cpu.reduce(mapped, got);
  cpu.reduce(plain, want);
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    SCOPED_TRACE("job " + std::to_string(i));
    ASSERT_TRUE(wants_kld_pass(mapped[i], got[i]));
    expect_same(got[i], want[i]);
  }
  // Twice: the second reduce reuses the first one's buffers.
  cpu.reduce(mapped, got);
  for (std::size_t i = 0; i < got.size(); ++i) expect_same(got[i], want[i]);
}
#endif

// 64M elements (2^26) per side, fp32 and fp16, with a NaN-free and a NaN-carrying variant: the
// largest size of the table, kept to two dtypes so the test stays within seconds.
TEST(ParityLarge, SixtyFourMillionElements) {
  // The budget forces the fp32 pair through several passes.
  const auto device = device_backend(256ull << 20);
  if (!device) GTEST_SKIP() << "no usable device";
  CpuBackend cpu(2);
  const int64_t n = int64_t{1} << 26;
  for (DType dt : {DType::kFloat, DType::kFloat16}) {
    for (int special : {0, 1}) {
      const Tensor x = make_tensor(dt, values(n, special, 7));
      const Tensor y = make_tensor(dt, values(n, 0, 8));
      TensorPairJob job;
      job.x = x.source();
      job.y = y.source();
      job.need_kld = true;
      std::vector<PairStats> want, got;
      cpu.reduce({job}, want);
      device->reduce({job}, got);
      SCOPED_TRACE(std::string(dtype_wire_name(dt)) + " special " + std::to_string(special));
      expect_same(got[0], want[0]);
    }
  }
}

// 1 GiB holds the whole batch; 300 KiB splits the 2^20-element pairs over passes (KLD deferred).
INSTANTIATE_TEST_SUITE_P(Budgets, Parity, ::testing::Values(1ull << 30, 300ull << 10));

}  // namespace
}  // namespace dumpcmp
