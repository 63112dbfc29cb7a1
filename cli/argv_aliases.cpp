#include "argv_aliases.hpp"

#include <map>

namespace dumpcmp::cli {

std::vector<std::string> expand_single_dash_aliases(int argc, const char* const* argv) {
  static const std::map<std::string, std::string> kAliases = {
      {"-out", "--output"},
      {"-alg", "--algorithm"},
      {"-max", "--max_cmp_size"},
      {"-csv", "--csv"},
      {"-op", "--op_name"},
      {"-cf", "--close_fusion_rule_file"},
      {"-ml", "--max_line"},
      {"-map", "--mapping"},
      {"-ffts", "--ffts"},
      {"-advisor", "--advisor"},
      {"-overflow_detection", "--overflow_detection"},
      // the seed's dump_data_conversion and shape_conversion tools
      {"-type", "--type"},
      {"-target", "--target"},
      {"-format", "--format"},
      {"-shape", "--shape"},
      {"-tensor", "--tensor"},
      {"-index", "--index"},
      {"-custom", "--custom"},
      // msprobe's compare of dump.json runs
      {"-tp", "--target_path"},
      {"-gp", "--golden_path"},
      {"-dm", "--data_mapping"},
      {"-cm", "--cell_mapping"},
      {"-am", "--api_mapping"},
      {"-lm", "--layer_mapping"},
      {"-da", "--diff_analyze"},
      {"-fm", "--fuzzy_match"},
      {"-tensor_log", "--is_print_compare_log"},
      // its -m offline_data, msaccucmp's compare under msprobe's names
      {"-fr", "--fusion_rule_file"},
      {"-qfr", "--quant_fusion_rule_file"},
      {"-cfr", "--close_fusion_rule_file"},
  };
  std::vector<std::string> args;
  for (int i = 0; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto it = kAliases.find(arg);
    args.push_back(i > 0 && it != kAliases.end() ? it->second : arg);
  }
  return args;
}

}  // namespace dumpcmp::cli
