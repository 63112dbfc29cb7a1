// dumpcmp: msaccucmp-compatible model-accuracy comparison. One setup_x/run_x pair per subcommand.
#include <malloc.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <optional>

#include "argv_aliases.hpp"
#include "compare_command.hpp"
#include "compare_stats_command.hpp"
#include "compare_vector_command.hpp"
#include "config_command.hpp"
#include "convert_command.hpp"
#include "core/error.hpp"
#include "dump_data_conversion_command.hpp"
#include "extract_command.hpp"
#include "file_compare_command.hpp"
#include "inspect_command.hpp"
#include "interrupt.hpp"
#include "msprobe_modes.hpp"
#include "overflow_command.hpp"
#include "probe_compare_command.hpp"
#include "scale/world.hpp"
#include "shape_conversion_command.hpp"
#include "simd/simd_target.hpp"
#include "version.hpp"

// Two settings that the C and OpenMP runtimes read only at start-up, so the process starts again
// with them, unless the user chose them:
// - OpenMP threads that spin between parallel regions take the cores a busy machine (a CI runner,
//   the ranks of a job) needs for the thread doing the work: the many short regions of a whole run
//   of small leaves then took 14 s instead of 1 s (docs/performance.md), and idle machines gain
//   nothing from spinning. Waits are made passive.
// - Thousands of small dumps are read into heap buffers: in 4 KiB pages, faulting and zeroing them
//   took a fifth of such a run. glibc's malloc asks for transparent huge pages for its heap.
void restart_with_runtime_settings(char** argv) {
  if (std::getenv("OMP_WAIT_POLICY") != nullptr || std::getenv("GOMP_SPINCOUNT") != nullptr) return;
  setenv("OMP_WAIT_POLICY", "PASSIVE", 1);
  setenv("GLIBC_TUNABLES", "glibc.malloc.hugetlb=1", 0);  // kept when the user has tunables
  execv("/proc/self/exe", argv);  // returns only when it fails: go on with the default settings
}

// A rank that fails ends every rank of the run: the others would wait for it forever.
int end_run(dumpcmp::World& world, int code) {
  if (world.size() > 1) world.abort(code);
  return code;
}

// Every subcommand's options: registered with CLI11, then the chosen one run.
struct Commands {
  dumpcmp::cli::CompareCommandOptions compare;
  dumpcmp::cli::CompareVectorOptions compare_vector;
  dumpcmp::cli::CompareStatsOptions compare_stats;
  dumpcmp::cli::FileCompareOptions file_compare;
  dumpcmp::cli::ConvertCommandOptions convert;
  dumpcmp::cli::DumpDataConversionOptions dump_data_conversion;
  dumpcmp::cli::ShapeConversionCommandOptions shape_conversion;
  dumpcmp::cli::OverflowCommandOptions overflow;
  dumpcmp::cli::ConfigCommandOptions config;
  CLI::App* config_app = nullptr;
  dumpcmp::cli::ExtractCommandOptions extract;
  dumpcmp::cli::InspectOptions inspect;

  void add_to(CLI::App& app) {
    using namespace dumpcmp::cli;
    setup_compare(*app.add_subcommand("compare", "Compare two dump directories (or files)"),
                  compare);
    setup_compare_vector(
        *app.add_subcommand("compare_vector", "Legacy compare_vector.py spellings (-l -r -o -csv)"),
        compare_vector);
    setup_compare_stats(
        *app.add_subcommand("compare_stats", "msprobe's statistics compare of two stats dumps"),
        compare_stats);
    setup_file_compare(
        *app.add_subcommand("file_compare", "msaccucmp file_compare: two .npy files"),
        file_compare);
    setup_convert(*app.add_subcommand("convert", "Dump files to .npy or .bin (msaccucmp convert)"),
                  convert);
    setup_dump_data_conversion(
        *app.add_subcommand("dump_data_conversion",
                            "The seed's tool: .npy files to dumps and back (-type -target -i -o)"),
        dump_data_conversion);
    setup_shape_conversion(
        *app.add_subcommand(
            "shape_conversion",
            "The seed's tool: one tensor of a dump to another format (-i -format -o)"),
        shape_conversion);
    setup_overflow(
        *app.add_subcommand("overflow", "Overflowing ops: Opdebug records and a NaN/Inf scan"),
        overflow);
    config_app = app.add_subcommand("config", "Check or write an acl.json dump configuration");
    setup_config(*config_app, config);
    setup_extract(
        *app.add_subcommand("extract", "Cut a sub-model's dump data out of a model's dumps"),
        extract);
    setup_inspect(*app.add_subcommand("inspect", "Print the header of dump or .npy files"),
                  inspect);
  }

  int run(const CLI::App& app, dumpcmp::World& world) {
    using namespace dumpcmp::cli;
    if (app.got_subcommand("compare")) return run_compare(compare, world);
    if (app.got_subcommand("compare_vector")) return run_compare_vector(compare_vector);
    if (app.got_subcommand("compare_stats")) return run_compare_stats(compare_stats);
    if (app.got_subcommand("file_compare")) return run_file_compare(file_compare);
    if (app.got_subcommand("convert")) return run_convert(convert);
    if (app.got_subcommand("dump_data_conversion")) {
      return run_dump_data_conversion(dump_data_conversion);
    }
    if (app.got_subcommand("shape_conversion")) return run_shape_conversion(shape_conversion);
    if (app.got_subcommand("overflow")) return run_overflow(overflow);
    if (app.got_subcommand("config")) return run_config(*config_app, config);
    if (app.got_subcommand("extract")) return run_extract(extract);
    if (app.got_subcommand("inspect")) return run_inspect(inspect);
    return 0;
  }
};

// Parses the command line; the exit code when it is --help, --version or a usage error.
std::optional<int> parse_args(CLI::App& app, const std::vector<std::string>& args) {
  std::vector<const char*> arg_ptrs;
  for (const std::string& a : args) arg_ptrs.push_back(a.c_str());
  try {
    app.parse(static_cast<int>(arg_ptrs.size()), arg_ptrs.data());
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : static_cast<int>(dumpcmp::ExitCode::kUsage);
  }
  return std::nullopt;
}

// `compare -tp -gp`: msprobe's compare of dump.json runs, with msprobe's options.
int run_probe(const std::vector<std::string>& args, dumpcmp::World& world) {
  using namespace dumpcmp::cli;
  CLI::App app{"dumpcmp: compare msprobe's PyTorch dumps as msprobe compare does"};
  app.require_subcommand(1);
  ProbeCommandOptions options;
  setup_probe_compare(*app.add_subcommand("compare", "msprobe compare -tp NPU -gp BENCH -o OUT"),
                      options);
  if (const std::optional<int> code = parse_args(app, args)) return *code;
  try {
    return run_probe_compare_command(options, world);
  } catch (const dumpcmp::Error& e) {
    std::cerr << "dumpcmp: error: " << e.what() << '\n';
    return end_run(world, static_cast<int>(e.code()));
  } catch (const std::exception& e) {
    std::cerr << "dumpcmp: internal error: " << e.what() << '\n';
    return end_run(world, static_cast<int>(dumpcmp::ExitCode::kInternal));
  }
}

int main(int argc, char** argv) {
  using namespace dumpcmp::cli;
  const auto start = std::chrono::steady_clock::now();
  restart_with_runtime_settings(argv);
  // Reading thousands of small dumps allocates many buffers of 100 KB - 1 MB; served by mmap
  // (glibc's default above 128 KB) each costs page faults and an munmap. Keep them on the heap.
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
  mallopt(M_TRIM_THRESHOLD, 128 << 20);
  mallopt(M_TOP_PAD, 64 << 20);  // grow heaps in large steps: fewer brk/mprotect calls
  remember_command_line(argc, argv);
  remove_partial_files_on_interrupt();
  // Started by mpirun or srun: one rank of a run (docs/scale-out.md); else a world of one.
  std::unique_ptr<dumpcmp::World> world;
  try {
    world = dumpcmp::make_world(argc, argv);
  } catch (const dumpcmp::Error& e) {
    std::cerr << "dumpcmp: error: " << e.what() << '\n';
    return static_cast<int>(e.code());
  }
  // DUMPCMP_SIMD=avx2 (sse4, avx512, ...) runs the vector kernels on that target or the best one
  // below it: benchmarks compare targets on one machine with it.
  if (const char* simd = std::getenv("DUMPCMP_SIMD"); simd != nullptr && *simd != '\0') {
    try {
      dumpcmp::simd::limit_target(simd);
    } catch (const dumpcmp::Error& e) {
      std::cerr << "dumpcmp: error: DUMPCMP_SIMD: " << e.what() << '\n';
      return static_cast<int>(e.code());
    }
  }
  std::vector<std::string> args = expand_single_dash_aliases(argc, argv);
  if (is_probe_compare(args)) {
    try {
      std::optional<std::vector<std::string>> msaccucmp = offline_data_arguments(args);
      if (!msaccucmp) return run_probe(args, *world);
      args = std::move(*msaccucmp);  // -m offline_data: msaccucmp's compare
    } catch (const dumpcmp::Error& e) {
      std::cerr << "dumpcmp: error: " << e.what() << '\n';
      return static_cast<int>(e.code());
    }
  }
  CLI::App app{"dumpcmp: compare Ascend operator dumps with msaccucmp's metrics, at disk speed"};
  app.set_version_flag("--version",
                       std::function<std::string()>(version_text));  // built when asked
  app.require_subcommand(1);
  Commands commands;
  commands.add_to(app);
  if (const std::optional<int> code = parse_args(app, args)) return *code;
  // DUMPCMP_TRACE=1: the phases are printed when the command returns (its backend torn down).
  struct TraceAtReturn {
    std::chrono::steady_clock::time_point start;
    ~TraceAtReturn() { print_trace(start); }
  } trace_at_return{start};
  // Only compare runs over several ranks; any other command runs on rank 0 alone.
  if (world->rank() != 0 && !app.got_subcommand("compare")) return 0;
  const std::string rank =
      world->size() > 1 ? "rank " + std::to_string(world->rank()) + " (" + world->host() + "): "
                        : "";
  try {
    return commands.run(app, *world);
  } catch (const dumpcmp::Error& e) {
    std::cerr << "dumpcmp: error: " << rank << e.what() << '\n';
    return end_run(*world, static_cast<int>(e.code()));
  } catch (const std::exception& e) {
    std::cerr << "dumpcmp: internal error: " << rank << e.what() << '\n';
    return end_run(*world, static_cast<int>(dumpcmp::ExitCode::kInternal));
  }
}
