#include "scale/world.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "core/error.hpp"

namespace dumpcmp {

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

#ifdef DUMPCMP_HAVE_MPI
// The MPI world's module (scale/mpi_world.cpp), beside the executable or where the build put it;
// loaded once, and kept. RTLD_GLOBAL: Open MPI's own plugins look up its symbols.
void* mpi_module(std::string& problem) {
  static std::string error;
  static void* handle = [] {
    std::vector<std::string> places;
    char self[4096] = {};
    const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
      const std::string exe(self, static_cast<std::size_t>(n));
      places.push_back(exe.substr(0, exe.rfind('/') + 1) + DUMPCMP_MPI_MODULE);
    }
    if (places.empty() || places[0] != DUMPCMP_MPI_MODULE_BUILT) {
      places.push_back(DUMPCMP_MPI_MODULE_BUILT);
    }
    for (const std::string& place : places) {
      if (void* h = dlopen(place.c_str(), RTLD_NOW | RTLD_GLOBAL)) return h;
      error += (error.empty() ? "" : "; ") + std::string(dlerror());
    }
    return static_cast<void*>(nullptr);
  }();
  problem = error;
  return handle;
}

template <typename Function>
Function* mpi_entry(const char* name, std::string& problem) {
  void* module = mpi_module(problem);
  if (module == nullptr) return nullptr;
  void* entry = dlsym(module, name);
  if (entry == nullptr) problem = dlerror();
  return reinterpret_cast<Function*>(entry);
}
#endif

}  // namespace

std::unique_ptr<World> make_world(int& argc, char**& argv) {
#ifdef DUMPCMP_HAVE_MPI
  if (started_by_mpi_launcher()) {
    std::string problem;
    auto* make = mpi_entry<World*(int*, char***)>("dumpcmp_make_mpi_world", problem);
    if (make == nullptr) {
      throw Error(ExitCode::kInternal,
                  "started by an MPI launcher, but the MPI module " DUMPCMP_MPI_MODULE
                  " cannot be loaded: " +
                      problem);
    }
    return std::unique_ptr<World>(make(&argc, &argv));
  }
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
  std::string problem;
  auto* version = mpi_entry<void(char*, int)>("dumpcmp_mpi_library_version", problem);
  if (version == nullptr)
    return "MPI (its module " DUMPCMP_MPI_MODULE " cannot be loaded: " + problem + ")";
  char text[256] = {};
  version(text, sizeof text);
  return "MPI (" + std::string(text) + ")";
#else
  return "no MPI";
#endif
}

}  // namespace dumpcmp
