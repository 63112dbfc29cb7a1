#pragma once
// The dump section of an acl.json (docs/formats.md §7, the runtime's dump_config_converter):
// checking a configuration against every rule, and writing starter files.
#include <string>
#include <vector>

namespace dumpcmp {

struct ConfigProblem {
  std::string path;  // JSON path, e.g. "dump.dump_list[1].layer"
  std::string rule;  // what is wrong and what is allowed
};

struct ConfigCheck {
  std::vector<ConfigProblem> problems;
  std::vector<std::string> notes;  // not errors: e.g. nothing would be dumped
  bool ok() const { return problems.empty(); }
};

// Checks the text of an acl.json. A document that is not JSON gives one problem at "$" with the
// parser's message; `check_paths` = false skips the dump_path existence test (for tests).
ConfigCheck check_acl_json(const std::string& text, bool check_paths = true);

// The kinds of starter file `config new` writes.
enum class ConfigKind { kModel, kSingleOp, kOverflow, kException, kWatcher };
bool parse_config_kind(const std::string& text, ConfigKind& kind);
std::string starter_acl_json(ConfigKind kind, const std::string& dump_path,
                             const std::string& model_name);

}  // namespace dumpcmp
