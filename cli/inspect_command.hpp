#pragma once
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace dumpcmp::cli {

struct InspectOptions {
  std::vector<std::string> files;
  bool json = false;
};

void setup_inspect(CLI::App& app, InspectOptions& options);
// Prints each file's header; a file that cannot be read is reported and makes the exit code
// non-zero.
int run_inspect(const InspectOptions& options);

}  // namespace dumpcmp::cli
