#include "msprobe_modes.hpp"

#include <algorithm>
#include <array>
#include <string_view>

#include "core/error.hpp"

namespace dumpcmp::cli {

namespace {

// The value of -m/--mode ("auto" when absent): on msprobe's command line (-tp/-gp) -m is the mode,
// not msaccucmp's NPU path.
std::string mode_of(const std::vector<std::string>& args) {
  for (std::size_t i = 2; i < args.size(); ++i) {
    const std::string_view a = args[i];
    if (a.rfind("--mode=", 0) == 0) return std::string(a.substr(7));
    if ((a == "--mode" || a == "-m") && i + 1 < args.size()) return args[i + 1];
  }
  return "auto";
}

// The auto mode's flags, which msprobe refuses with -m offline_data.
constexpr std::array<std::string_view, 15> kAutoOnly = {"--xlsx",
                                                        "--fuzzy_match",
                                                        "--cell_mapping",
                                                        "--api_mapping",
                                                        "--data_mapping",
                                                        "--layer_mapping",
                                                        "--diff_analyze",
                                                        "--rank",
                                                        "--step",
                                                        "--is_print_compare_log",
                                                        "--consistent_check",
                                                        "--backend",
                                                        "--config",
                                                        "--steps",
                                                        "--resume"};

bool starts_flag(const std::string& a) { return a.size() > 1 && a[0] == '-'; }

}  // namespace

std::optional<std::vector<std::string>> offline_data_arguments(
    const std::vector<std::string>& args) {
  const std::string mode = mode_of(args);
  if (mode == "auto") return std::nullopt;
  if (mode != "offline_data") {
    throw Error(ExitCode::kUsage,
                "msprobe compare's mode '" + mode +
                    "' is not dumpcmp's: it runs -m auto (dump.json runs) and -m offline_data "
                    "(msaccucmp's compare of CANN dumps)");
  }
  std::vector<std::string> out = {args[0], "compare"};
  bool output = false;
  for (std::size_t i = 2; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.rfind("--mode=", 0) == 0) continue;
    if (a == "--mode" || a == "-m") {
      ++i;
      continue;
    }
    if (std::find(kAutoOnly.begin(), kAutoOnly.end(), a.substr(0, a.find('='))) !=
        kAutoOnly.end()) {
      throw Error(ExitCode::kUsage,
                  "msprobe compare -m offline_data takes no " + a + " (an option of -m auto)");
    }
    if (a == "--target_path") {
      out.push_back("--my_dump_path");
    } else if (a == "--golden_path") {
      out.push_back("--golden_dump_path");
    } else if (a == "--output_path" || a == "-o") {  // an optional value: ./output
      output = true;
      out.push_back("--output");
      if (i + 1 == args.size() || starts_flag(args[i + 1])) out.push_back("./output");
    } else {
      output = output || a.rfind("--output_path=", 0) == 0;
      out.push_back(a.rfind("--output_path=", 0) == 0 ? "--output=" + a.substr(14) : a);
    }
  }
  if (!output) {  // msprobe always hands msaccucmp -out, ./output by default
    out.push_back("--output");
    out.push_back("./output");
  }
  return out;
}

}  // namespace dumpcmp::cli
