#include "console.hpp"

#include <iostream>
#include <optional>

#include "core/error.hpp"
#include "core/text.hpp"

namespace dumpcmp::cli {

void print_diagnostic(Severity severity, const std::string& message) {
  std::cerr << "dumpcmp: " << (severity == Severity::kError ? "error: " : "warning: ") << message
            << '\n';
}

int tensor_index_argument(const std::string& text, const char* what) {
  const std::optional<int64_t> n = parse_natural(text, 9);
  if (!n) {
    throw Error(ExitCode::kUsage, std::string("The ") + what + " index is invalid: " + text +
                                      ". It only supports natural number.");
  }
  return static_cast<int>(*n);
}

}  // namespace dumpcmp::cli
