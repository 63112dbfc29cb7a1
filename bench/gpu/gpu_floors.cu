// dumpcmp_gpu_floors: the speed limits a GPU compare is measured against, and the kernels alone.
//   floors: device-to-device copy, pinned and pageable host-to-device copy, file read into pinned
//   memory, and ways to upload a mapped file (upload_floors); kernels: the device backend's
//   first-pass and KLD lifts over fp32 data already on the device (no transfer), timed with CUDA
//   events. Prints one "name GB/s" line each.
// Usage: dumpcmp_gpu_floors [FILE_TO_READ] [ELEMENTS]
#include <cuda_runtime.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "cuda_glue.cuh"
#include "device_backends.hpp"
#include "thrust_reducer.inl"

namespace {

using dumpcmp::device::ChunkTask;

double time_ms(cudaEvent_t a, cudaEvent_t b) {
  float ms = 0;
  DUMPCMP_CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
  return ms;
}

template <typename F>
double timed(F f, int reps) {
  cudaEvent_t a, b;
  DUMPCMP_CUDA_CHECK(cudaEventCreate(&a));
  DUMPCMP_CUDA_CHECK(cudaEventCreate(&b));
  f();  // warm-up
  DUMPCMP_CUDA_CHECK(cudaEventRecord(a));
  for (int i = 0; i < reps; ++i) f();
  DUMPCMP_CUDA_CHECK(cudaEventRecord(b));
  DUMPCMP_CUDA_CHECK(cudaEventSynchronize(b));
  const double ms = time_ms(a, b) / reps;
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return ms;
}

void report(const char* name, double bytes, double ms) {
  std::printf("%-28s %8.1f GB/s  (%.3f ms for %.1f MB)\n", name, bytes / ms / 1e6, ms, bytes / 1e6);
}

// The faster of two runs of f, wall milliseconds (f returns once its copies are done).
template <typename F>
double best_wall_ms(F f) {
  double best = 0;
  for (int run = 0; run < 2; ++run) {
    const auto start = std::chrono::steady_clock::now();
    f();
    const std::chrono::duration<double, std::milli> ms = std::chrono::steady_clock::now() - start;
    if (run == 0 || ms.count() < best) best = ms.count();
  }
  return best;
}

// Ways to move a mapped file's bytes to the device, each on one host thread, warm page cache:
// the uploader's (memcpy into two pinned blocks in turn, each sent while the other fills), pread
// into the same blocks, the mapping's slices page-locked in place (cudaHostRegister, read-only;
// the next slice registered while the last one is sent), and a plain copy from the mapping
// (the driver's own staging). Issue 37 keeps the faster of the first three.
void upload_floors(const char* file, uint8_t* device, std::size_t capacity) {
  const int fd = open(file, O_RDONLY);
  if (fd < 0) return;
  struct stat st {};
  fstat(fd, &st);
  const std::size_t size = std::min(static_cast<std::size_t>(st.st_size), capacity);
  void* mapped = mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
  if (mapped == MAP_FAILED || size == 0) {
    close(fd);
    return;
  }
  const auto* bytes = static_cast<const uint8_t*>(mapped);
  const std::size_t block = dumpcmp::device::kUploadBlockBytes;
  uint8_t* pinned[2];
  cudaEvent_t sent[2];
  cudaStream_t stream;
  DUMPCMP_CUDA_CHECK(cudaStreamCreate(&stream));
  for (int b = 0; b < 2; ++b) {
    DUMPCMP_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&pinned[b]), block));
    DUMPCMP_CUDA_CHECK(cudaEventCreateWithFlags(&sent[b], cudaEventDisableTiming));
  }
  const auto through_blocks = [&](auto fill) {
    int b = 0;
    for (std::size_t at = 0; at < size; at += block, b = 1 - b) {
      const std::size_t n = std::min(block, size - at);
      DUMPCMP_CUDA_CHECK(cudaEventSynchronize(sent[b]));
      fill(pinned[b], at, n);
      DUMPCMP_CUDA_CHECK(
          cudaMemcpyAsync(device + at, pinned[b], n, cudaMemcpyHostToDevice, stream));
      DUMPCMP_CUDA_CHECK(cudaEventRecord(sent[b], stream));
    }
    DUMPCMP_CUDA_CHECK(cudaStreamSynchronize(stream));
  };
  report("mapped, memcpy to pinned", static_cast<double>(size), best_wall_ms([&] {
           through_blocks(
               [&](uint8_t* to, std::size_t at, std::size_t n) { std::memcpy(to, bytes + at, n); });
         }));
  report("pread to pinned", static_cast<double>(size), best_wall_ms([&] {
           through_blocks([&](uint8_t* to, std::size_t at, std::size_t n) {
             if (pread(fd, to, n, static_cast<off_t>(at)) != static_cast<ssize_t>(n)) {
               throw dumpcmp::Error(dumpcmp::ExitCode::kInput, "short read");
             }
           });
         }));
  const std::size_t slice = std::size_t{64} << 20;  // a multiple of the page size
  const auto registered = [&] {
    void* last = nullptr;
    for (std::size_t at = 0; at < size; at += slice) {
      void* here = const_cast<uint8_t*>(bytes + at);
      const std::size_t n = std::min(slice, size - at);
      DUMPCMP_CUDA_CHECK(cudaHostRegister(here, n, cudaHostRegisterReadOnly));
      DUMPCMP_CUDA_CHECK(cudaMemcpyAsync(device + at, here, n, cudaMemcpyHostToDevice, stream));
      if (last) {
        DUMPCMP_CUDA_CHECK(cudaEventSynchronize(sent[0]));
        DUMPCMP_CUDA_CHECK(cudaHostUnregister(last));
      }
      DUMPCMP_CUDA_CHECK(cudaEventRecord(sent[0], stream));
      last = here;
    }
    DUMPCMP_CUDA_CHECK(cudaStreamSynchronize(stream));
    if (last) DUMPCMP_CUDA_CHECK(cudaHostUnregister(last));
  };
  try {
    report("mapped, registered slices", static_cast<double>(size), best_wall_ms(registered));
  } catch (const dumpcmp::Error& e) {
    std::printf("%-28s %s\n", "mapped, registered slices", e.what());
    cudaGetLastError();
  }
  report("mapped, pageable copy", static_cast<double>(size), best_wall_ms([&] {
           DUMPCMP_CUDA_CHECK(cudaMemcpy(device, bytes, size, cudaMemcpyHostToDevice));
         }));
  for (int b = 0; b < 2; ++b) {
    cudaFreeHost(pinned[b]);
    cudaEventDestroy(sent[b]);
  }
  cudaStreamDestroy(stream);
  munmap(mapped, size);
  close(fd);
}

}  // namespace

int main(int argc, char** argv) {
  namespace thrust = THRUST_NS_QUALIFIER;
  const char* file = argc > 1 ? argv[1] : nullptr;
  const int64_t n = argc > 2 ? std::atoll(argv[2]) : (int64_t{1} << 28);  // 1 GiB of fp32 per side
  const std::size_t bytes = static_cast<std::size_t>(n) * 4;
  try {
    void *d0, *d1, *pinned;
    DUMPCMP_CUDA_CHECK(cudaMalloc(&d0, 2 * bytes));
    DUMPCMP_CUDA_CHECK(cudaMalloc(&d1, 2 * bytes));
    DUMPCMP_CUDA_CHECK(cudaMallocHost(&pinned, bytes));
    std::vector<char> pageable(bytes, 1);
    report(
        "device-to-device copy", 2.0 * bytes,
        timed([&] { DUMPCMP_CUDA_CHECK(cudaMemcpy(d1, d0, bytes, cudaMemcpyDeviceToDevice)); }, 5));
    report("pinned host-to-device", bytes,
           timed([&] { DUMPCMP_CUDA_CHECK(cudaMemcpy(d0, pinned, bytes, cudaMemcpyHostToDevice)); },
                 3));
    report("pageable host-to-device", bytes,
           timed(
               [&] {
                 DUMPCMP_CUDA_CHECK(cudaMemcpy(d0, pageable.data(), bytes, cudaMemcpyHostToDevice));
               },
               3));
    if (file) {
      const int fd = open(file, O_RDONLY);
      if (fd >= 0) {
        posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);  // cold read where the kernel allows it
        const auto start = std::chrono::steady_clock::now();
        std::size_t total = 0;
        ssize_t got;
        while ((got = read(fd, pinned, bytes)) > 0) total += static_cast<std::size_t>(got);
        const std::chrono::duration<double, std::milli> ms =
            std::chrono::steady_clock::now() - start;
        close(fd);
        report("file read (cold if allowed)", static_cast<double>(total), ms.count());
      }
      upload_floors(file, static_cast<uint8_t*>(d1), 2 * bytes);
    }
    // Kernels alone: x and y of n fp32 each, already on the device.
    thrust::device_vector<float> x(static_cast<std::size_t>(n), 1.5f),
        y(static_cast<std::size_t>(n), 1.25f);
    const int64_t chunk = dumpcmp::kChunkElements;  // as the backends cut them
    std::vector<ChunkTask> tasks;
    const auto* base = reinterpret_cast<const uint8_t*>(thrust::raw_pointer_cast(x.data()));
    const auto y_offset =
        reinterpret_cast<const uint8_t*>(thrust::raw_pointer_cast(y.data())) - base;
    for (int64_t b = 0; b < n; b += chunk) {
      ChunkTask t;
      t.x_offset = 0;
      t.y_offset = y_offset;
      t.local_begin = b;
      t.count = std::min(chunk, n - b);
      t.sx = {0.0f, 1.0f};
      t.sy = {0.0f, 1.0f};
      tasks.push_back(t);
    }
    thrust::device_vector<ChunkTask> device_tasks(tasks.begin(), tasks.end());
    thrust::device_vector<dumpcmp::PairAccumulator> pair_out(tasks.size());
    thrust::device_vector<dumpcmp::KldAccumulator> kld_out(tasks.size());
    const auto* t = thrust::raw_pointer_cast(device_tasks.data());
    dumpcmp::device::Launch launch;  // every task fp32: grouping leaves them in place
    launch.tasks = tasks;
    launch.chunk_ids.resize(tasks.size());
    dumpcmp::device::group_by_view_kind(launch);
    const dumpcmp::device::KindRanges& kinds = launch.kinds;
    using Glue = dumpcmp::device::CudaGlue;
    Glue::Stream stream;  // blocking: ordered with the default stream the events are recorded on
    report("kernel: first pass (fp32)", 2.0 * bytes,
           timed(
               [&] {
                 Glue::run(stream, dumpcmp::device::LiftPairTask{base, t, nullptr}, kinds,
                           thrust::raw_pointer_cast(pair_out.data()));
               },
               3));
    report("kernel: KLD pass (fp32)", 2.0 * bytes,
           timed(
               [&] {
                 Glue::run(stream, dumpcmp::device::LiftKldTask{base, t, nullptr}, kinds,
                           thrust::raw_pointer_cast(kld_out.data()));
               },
               3));
    cudaFree(d0);
    cudaFree(d1);
    cudaFreeHost(pinned);
  } catch (const dumpcmp::Error& e) {
    std::fprintf(stderr, "dumpcmp_gpu_floors: %s\n", e.what());
    return 3;
  }
  return 0;
}
