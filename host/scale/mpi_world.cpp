// The MPI world: built only when dumpcmp is built with MPI (-DDUMPCMP_MPI), as the module
// libdumpcmp_mpi.so, which scale/world.cpp loads in a process that a launcher started: MPI's
// libraries then cost no other start anything. Only the thread that called make_world calls MPI
// (MPI_THREAD_FUNNELED); OpenMP threads never do.
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <list>

#include "core/error.hpp"
#include "scale/world.hpp"

namespace dumpcmp {
namespace {

constexpr int kTag = 17;
// MPI counts are ints: larger broadcasts go in pieces of this many bytes.
constexpr uint64_t kPieceBytes = 1ull << 30;

class MpiWorld final : public World {
 public:
  MpiWorld(int& argc, char**& argv) {
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    MPI_Comm local;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &local);
    MPI_Comm_rank(local, &local_rank_);
    MPI_Comm_free(&local);
    char name[MPI_MAX_PROCESSOR_NAME] = {};
    int length = 0;
    MPI_Get_processor_name(name, &length);
    host_.assign(name, static_cast<std::size_t>(length));
  }

  ~MpiWorld() override {
    finish_sends();
    MPI_Finalize();
  }

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  int local_rank() const override { return local_rank_; }
  std::string host() const override { return host_; }

  void broadcast(std::string& bytes) override {
    uint64_t size = bytes.size();
    MPI_Bcast(&size, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    bytes.resize(size);
    moved_ += rank_ == 0 ? size * static_cast<uint64_t>(size_ - 1) : size;
    for (uint64_t at = 0; at < size; at += kPieceBytes) {
      const auto piece = static_cast<int>(std::min(kPieceBytes, size - at));
      MPI_Bcast(bytes.data() + at, piece, MPI_BYTE, 0, MPI_COMM_WORLD);
    }
  }

  std::vector<std::string> gather(const std::string& bytes) override {
    const int size = static_cast<int>(checked_count(bytes.size()));
    std::vector<int> sizes(rank_ == 0 ? static_cast<std::size_t>(size_) : 0);
    MPI_Gather(&size, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    std::vector<int> offsets(sizes.size());
    uint64_t total = 0;
    for (std::size_t r = 0; r < sizes.size(); ++r) {
      offsets[r] = static_cast<int>(checked_count(total));
      total += static_cast<uint64_t>(sizes[r]);
    }
    moved_ += rank_ == 0 ? total - bytes.size() : bytes.size();
    std::string all(checked_count(total), '\0');
    MPI_Gatherv(bytes.data(), size, MPI_BYTE, all.data(), sizes.data(), offsets.data(), MPI_BYTE, 0,
                MPI_COMM_WORLD);
    std::vector<std::string> out;
    for (std::size_t r = 0; r < sizes.size(); ++r) {
      out.push_back(
          all.substr(static_cast<std::size_t>(offsets[r]), static_cast<std::size_t>(sizes[r])));
    }
    return out;
  }

  void send(int to, std::string bytes) override {
    release_delivered();
    moved_ += bytes.size();
    sends_.push_back(Pending{std::move(bytes), MPI_REQUEST_NULL});
    Pending& p = sends_.back();
    MPI_Isend(p.bytes.data(), static_cast<int>(checked_count(p.bytes.size())), MPI_BYTE, to, kTag,
              MPI_COMM_WORLD, &p.request);
  }

  std::string receive(int from) override {
    MPI_Status status;
    MPI_Probe(from, kTag, MPI_COMM_WORLD, &status);
    return take(status);
  }

  bool receive_any(int& from, std::string& bytes, bool wait) override {
    MPI_Status status;
    if (wait) {
      MPI_Probe(MPI_ANY_SOURCE, kTag, MPI_COMM_WORLD, &status);
    } else {
      int arrived = 0;
      MPI_Iprobe(MPI_ANY_SOURCE, kTag, MPI_COMM_WORLD, &arrived, &status);
      if (!arrived) return false;
    }
    from = status.MPI_SOURCE;
    bytes = take(status);
    return true;
  }

  void finish_sends() override {
    for (Pending& p : sends_) MPI_Wait(&p.request, MPI_STATUS_IGNORE);
    sends_.clear();
  }

  uint64_t bytes_moved() const override { return moved_; }

  [[noreturn]] void abort(int code) override {
    MPI_Abort(MPI_COMM_WORLD, code);
    std::_Exit(code);
  }

 private:
  struct Pending {
    std::string bytes;
    MPI_Request request;
  };

  static std::size_t checked_count(uint64_t bytes) {
    if (bytes > static_cast<uint64_t>(INT32_MAX)) {
      throw Error(ExitCode::kInternal,
                  "a message of " + std::to_string(bytes) + " bytes is too large for one MPI call");
    }
    return static_cast<std::size_t>(bytes);
  }

  std::string take(MPI_Status& status) {
    int count = 0;
    MPI_Get_count(&status, MPI_BYTE, &count);
    std::string bytes(static_cast<std::size_t>(count), '\0');
    moved_ += bytes.size();
    MPI_Recv(bytes.data(), count, MPI_BYTE, status.MPI_SOURCE, kTag, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    return bytes;
  }

  // Frees the buffers of sends already delivered (the list keeps each buffer's address fixed).
  void release_delivered() {
    for (auto it = sends_.begin(); it != sends_.end();) {
      int done = 0;
      MPI_Test(&it->request, &done, MPI_STATUS_IGNORE);
      it = done ? sends_.erase(it) : std::next(it);
    }
  }

  int rank_ = 0, size_ = 1, local_rank_ = 0;
  uint64_t moved_ = 0;
  std::string host_;
  std::list<Pending> sends_;
};

}  // namespace

}  // namespace dumpcmp

// The module's entry points, looked up by name (scale/world.cpp).
extern "C" {

dumpcmp::World* dumpcmp_make_mpi_world(int* argc, char*** argv) {
  return new dumpcmp::MpiWorld(*argc, *argv);
}

// "Open MPI v4.1.4": the first line of MPI's library version, up to its first comma.
void dumpcmp_mpi_library_version(char* text, int capacity) {
  char version[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(version, &length);
  const std::size_t end = std::strcspn(version, ",\n");
  std::snprintf(text, static_cast<std::size_t>(capacity), "%.*s", static_cast<int>(end), version);
}

}  // extern "C"
