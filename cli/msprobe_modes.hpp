#pragma once
// msprobe compare's -m modes on dumpcmp's command line: `auto` (the default) is the dump.json
// compare (probe_compare_command); `offline_data` is msaccucmp's compare of CANN dumps, which
// msprobe runs with -tp/-gp/-fr/-qfr/-cfr/-o renamed to msaccucmp's -m/-g/-f/-q/-cf/-out
// (docs/msprobe.md). torchair, offline_model and atb are not dumpcmp's.
#include <optional>
#include <string>
#include <vector>

namespace dumpcmp::cli {

// For `compare --mode offline_data ...` (single-dash aliases already expanded), the arguments of
// the msaccucmp compare it stands for; nullopt for the auto mode. Throws Error(kUsage) for another
// mode and, as msprobe's check_valid_args does, for an auto-mode flag given to offline_data.
std::optional<std::vector<std::string>> offline_data_arguments(
    const std::vector<std::string>& args);

}  // namespace dumpcmp::cli
