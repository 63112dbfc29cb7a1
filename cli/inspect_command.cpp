#include "inspect_command.hpp"

#include <iostream>

#include "core/error.hpp"
#include "io/dump_file.hpp"
#include "io/inspect.hpp"

namespace dumpcmp::cli {

void setup_inspect(CLI::App& app, InspectOptions& o) {
  app.add_option("files", o.files, "Dump or .npy files")->required();
  app.add_flag("--json", o.json, "Print one JSON object per file (a JSON array)");
}

int run_inspect(const InspectOptions& o) {
  int status = 0;
  if (o.json) std::cout << "[";
  bool first = true;
  for (const std::string& path : o.files) {
    try {
      const DumpFile file = read_dump_file(path);
      if (o.json) {
        std::cout << (first ? "\n" : ",\n") << describe_dump_json(file);
        first = false;
      } else {
        std::cout << describe_dump_table(file) << '\n';
      }
    } catch (const Error& e) {
      std::cerr << "dumpcmp inspect: " << e.what() << '\n';
      status = static_cast<int>(e.code());
    }
  }
  if (o.json) std::cout << "\n]\n";
  return status;
}

}  // namespace dumpcmp::cli
