#pragma once
// What the subcommands share: the library's diagnostics on the console, argument checks, the
// backend choice, and the compare summary.
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "backend/backend.hpp"
#include "compare/compare_engine.hpp"
#include "core/diagnostics.hpp"
#include "report/verdict.hpp"

namespace dumpcmp::cli {

// The options every subcommand that compares takes (compare, compare_stats), declared once.
struct CommonCompareOptions {
  std::string output_dir = ".";
  int threads = 0;  // 0: all cores
  bool fail_on_threshold = false, quiet = false;
};

// -out/--output, -j/--threads, --fail-on-threshold and --quiet on app.
void add_common_compare_options(CLI::App& app, CommonCompareOptions& o);

// "dumpcmp: warning: MESSAGE" or "dumpcmp: error: MESSAGE" on standard error.
void print_diagnostic(Severity severity, const std::string& message);

// A tensor index given on the command line: natural numbers only, as msaccucmp's TensorId; else
// Error(kUsage) with msaccucmp's message ("The <what> index is invalid: ...").
int tensor_index_argument(const std::string& text, const char* what);

// The backend --device names (its notice on standard error unless quiet); Error(kUsage) for an
// unknown name. `slot`: this process's place among the ranks of its host (one GPU per rank).
BackendSelection select_backend(const std::string& device, int threads,
                                uint64_t device_memory_mb = 0, bool quiet = false, int slot = 0);

// Creates the output directory; Error(kInput) when it cannot.
void ensure_directory(const std::string& dir);

// "compared N ops, M rows ..." and where the result went.
// DUMPCMP_TRACE=1: the phases the library timed (core/phase_trace), on stderr, with the time
// since `start`; nothing when tracing is off.
void print_trace(std::chrono::steady_clock::time_point start);

void print_summary(const CompareSummary& s, const std::string& result, std::string_view backend,
                   double seconds);

// Prints the compare's warnings, and msaccucmp's NO_DUMP_FILE outcome (the result is written, the
// run still fails): returns the exit code.
int finish_compare(const CompareSummary& s, const std::string& range, const std::string& select);

}  // namespace dumpcmp::cli
