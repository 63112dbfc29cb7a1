#pragma once
// What the subcommands share on the console: the library's diagnostics, one line each.
#include <string>

#include "core/diagnostics.hpp"

namespace dumpcmp::cli {

// "dumpcmp: warning: MESSAGE" or "dumpcmp: error: MESSAGE" on standard error.
void print_diagnostic(Severity severity, const std::string& message);

// A tensor index given on the command line: natural numbers only, as msaccucmp's TensorId; else
// Error(kUsage) with msaccucmp's message ("The <what> index is invalid: ...").
int tensor_index_argument(const std::string& text, const char* what);

}  // namespace dumpcmp::cli
