#include "config_command.hpp"

#include <fstream>
#include <iostream>
#include <sstream>

#include "config/acl_json.hpp"
#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/json_text.hpp"

namespace dumpcmp::cli {
namespace {

// The inside of a JSON string (the starter files put it between their own quotes).
std::string json_escape(const std::string& s) {
  const std::string quoted = json_string(s);
  return quoted.substr(1, quoted.size() - 2);
}

}  // namespace

void setup_config(CLI::App& app, ConfigCommandOptions& o) {
  app.require_subcommand(1);
  CLI::App* check = app.add_subcommand("check", "Check an acl.json dump configuration");
  check->add_option("file", o.check_file, "The acl.json")->required();
  check->add_flag("--json", o.json, "Print the problems as JSON");
  CLI::App* make = app.add_subcommand("new", "Write a starter acl.json");
  make->add_option("--kind", o.kind, "model | single-op | overflow | exception | watcher");
  make->add_option("-o,--output_file", o.output, "Write here instead of printing");
  make->add_option("--dump-path", o.dump_path, "The dump_path to put in (default ./dump)");
  make->add_option("--model", o.model, "The model_name of a model dump");
}

int run_config(CLI::App& app, const ConfigCommandOptions& o) {
  if (app.got_subcommand("new")) {
    ConfigKind kind;
    if (!parse_config_kind(o.kind, kind)) {
      throw Error(ExitCode::kUsage,
                  "--kind must be model, single-op, overflow, exception or "
                  "watcher (got '" +
                      o.kind + "')");
    }
    const std::string text = starter_acl_json(kind, json_escape(o.dump_path), json_escape(o.model));
    if (o.output.empty()) {
      std::cout << text;
    } else {
      write_file_atomically(o.output, text);
      std::cout << "dumpcmp: wrote " << o.output << '\n';
    }
    return 0;
  }
  std::ifstream in(o.check_file, std::ios::binary);
  if (!in) throw Error(ExitCode::kInput, o.check_file + ": cannot be read");
  std::stringstream buffer;
  buffer << in.rdbuf();
  const ConfigCheck check = check_acl_json(buffer.str());
  if (o.json) {
    std::cout << "{\"file\": " << json_string(o.check_file)
              << ", \"valid\": " << (check.ok() ? "true" : "false") << ", \"problems\": [";
    for (size_t i = 0; i < check.problems.size(); ++i) {
      std::cout << (i ? ", " : "") << "{\"path\": " << json_string(check.problems[i].path)
                << ", \"rule\": " << json_string(check.problems[i].rule) << "}";
    }
    std::cout << "]}\n";
  } else {
    for (const ConfigProblem& p : check.problems) {
      std::cout << o.check_file << ": " << p.path << ": " << p.rule << '\n';
    }
    for (const std::string& n : check.notes) std::cout << o.check_file << ": note: " << n << '\n';
    std::cout << o.check_file << ": "
              << (check.ok() ? "valid" : std::to_string(check.problems.size()) + " problem(s)")
              << '\n';
  }
  return check.ok() ? 0 : static_cast<int>(ExitCode::kInput);
}

}  // namespace dumpcmp::cli
