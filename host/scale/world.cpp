#include "scale/world.hpp"

#include <unistd.h>

#include <cstdlib>

#include "core/error.hpp"

namespace dumpcmp {

#ifdef DUMPCMP_HAVE_MPI
std::unique_ptr<World> make_mpi_world(int& argc, char**& argv);  // mpi_world.cpp
std::string mpi_library_version();
#endif

namespace {

// One process: nothing is ever sent, so the point-to-point calls cannot be reached.
class SoloWorld final : public World {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  int local_rank() const override { return 0; }
  std::string host() const override {
    char name[256] = {};
    gethostname(name, sizeof name - 1);
    return name;
  }
  void broadcast(std::string&) override {}
  std::vector<std::string> gather(const std::string& bytes) override { return {bytes}; }
  void send(int to, std::string) override { no_peer(to); }
  std::string receive(int from) override { no_peer(from); }
  bool receive_any(int&, std::string&, bool) override { return false; }
  void finish_sends() override {}
  uint64_t bytes_moved() const override { return 0; }
  [[noreturn]] void abort(int code) override { std::_Exit(code); }

 private:
  [[noreturn]] static void no_peer(int rank) {
    throw Error(ExitCode::kInternal, "rank " + std::to_string(rank) + " does not exist");
  }
};

// Launchers that start MPI ranks say so in the environment.
bool started_by_mpi_launcher() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"}) {
    if (std::getenv(v) != nullptr) return true;
  }
  return false;
}

}  // namespace

std::unique_ptr<World> make_world(int& argc, char**& argv) {
#ifdef DUMPCMP_HAVE_MPI
  if (started_by_mpi_launcher()) return make_mpi_world(argc, argv);
#else
  (void)argc;
  (void)argv;
  (void)started_by_mpi_launcher;
#endif
  return std::make_unique<SoloWorld>();
}

std::unique_ptr<World> make_solo_world() { return std::make_unique<SoloWorld>(); }

std::string mpi_build_info() {
#ifdef DUMPCMP_HAVE_MPI
  return "MPI (" + mpi_library_version() + ")";
#else
  return "no MPI";
#endif
}

}  // namespace dumpcmp
