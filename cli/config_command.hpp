#pragma once
#include <CLI/CLI.hpp>
#include <string>

namespace dumpcmp::cli {

// dumpcmp config check acl.json | config new --kind K [-o FILE] [--dump-path P] [--model NAME]
struct ConfigCommandOptions {
  std::string check_file;
  bool json = false;
  std::string kind = "model", output, dump_path = "./dump", model = "MODEL_NAME";
};

void setup_config(CLI::App& app, ConfigCommandOptions& options);
int run_config(CLI::App& app, const ConfigCommandOptions& options);

}  // namespace dumpcmp::cli
