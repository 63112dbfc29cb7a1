#include "common.hpp"

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>

#include "core/error.hpp"
#include "core/phase_trace.hpp"
#include "core/text.hpp"
#include "detail/detail_messages.hpp"
#include "fusion/fusion_messages.hpp"

namespace dumpcmp::cli {

void print_diagnostic(Severity severity, const std::string& message) {
  std::cerr << "dumpcmp: " << (severity == Severity::kError ? "error: " : "warning: ") << message
            << '\n';
}

int tensor_index_argument(const std::string& text, const char* what) {
  const std::optional<int64_t> n = parse_natural(text, 9);
  if (!n) {
    throw Error(ExitCode::kUsage, msg::index_not_natural(what, text));
  }
  return static_cast<int>(*n);
}

BackendSelection select_backend(const std::string& device, int threads, uint64_t device_memory_mb,
                                bool quiet, int slot) {
  DeviceChoice choice;
  if (!parse_device_choice(device, choice)) {
    throw Error(ExitCode::kUsage,
                "--device must be auto, cpu, cuda or thrust-omp (got '" + device + "')");
  }
  auto report = [quiet](const std::string& line) {
    if (!quiet) std::cerr << line << '\n';
  };
  BackendSelection selection = make_backend(choice, threads, device_memory_mb, slot, report);
  if (!selection.notice.empty() && !quiet) std::cerr << selection.notice << '\n';
  return selection;
}

void add_common_compare_options(CLI::App& app, CommonCompareOptions& o) {
  app.add_option("--output", o.output_dir, "Directory for the result files (-out)");
  app.add_option("-j,--threads", o.threads, "CPU threads (0 = all cores)")
      ->check(CLI::NonNegativeNumber);
  app.add_flag("--fail-on-threshold", o.fail_on_threshold,
               "Exit 5 when a compared row is outside its tolerance");
  app.add_flag("--quiet", o.quiet, "No progress line and no summary on the console");
}

void ensure_directory(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (!std::filesystem::is_directory(dir)) {
    throw Error(ExitCode::kInput, dir + ": cannot create the output directory");
  }
}

void print_trace(std::chrono::steady_clock::time_point start) {
  if (!trace_enabled()) return;
  const double total =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  char line[200];
  std::cerr << "dumpcmp: trace (DUMPCMP_TRACE): phase, seconds, calls, GB/s\n";
  for (const TracePhase& p : trace_phases()) {
    std::snprintf(line, sizeof line, "dumpcmp: trace: %-52s %8.4f %6lld", p.name.c_str(), p.seconds,
                  static_cast<long long>(p.calls));
    std::cerr << line;
    if (p.bytes > 0 && p.seconds > 0) {
      std::snprintf(line, sizeof line, " %8.2f", static_cast<double>(p.bytes) / 1e9 / p.seconds);
      std::cerr << line;
    }
    std::cerr << '\n';
  }
  std::snprintf(line, sizeof line, "dumpcmp: trace: %-52s %8.4f", "the command until here", total);
  std::cerr << line << '\n';
}

void print_summary(const CompareSummary& s, const std::string& result, std::string_view backend,
                   double seconds) {
  std::cout << "dumpcmp: compared " << s.ops << " ops, " << s.rows << " rows (" << s.failed_rows
            << " could not be compared), " << (static_cast<double>(s.bytes) / 1e6) << " MB in "
            << seconds << " s on the " << backend << " backend\n"
            << "dumpcmp: result written to " << result << '\n';
}

// Warnings, and msaccucmp's NO_DUMP_FILE outcome: the result is written, the run still fails.
int finish_compare(const CompareSummary& s, const std::string& range, const std::string& select) {
  for (const std::string& w : s.warnings) print_diagnostic(Severity::kWarning, w);
  if (s.dump_match) return 0;
  print_diagnostic(Severity::kError, msg::model_does_not_match(range, select));
  return static_cast<int>(ExitCode::kInput);
}

}  // namespace dumpcmp::cli
