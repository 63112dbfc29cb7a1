#pragma once
#include <stdexcept>
#include <string>

namespace dumpcmp {

// Process exit codes, documented in README.md.
enum class ExitCode : int {
  kOk = 0,
  kUsage = 1,            // bad command line
  kInput = 2,            // unreadable or malformed input that stops the whole run
  kDevice = 3,           // requested backend is unavailable
  kInternal = 4,         // a bug
  kOutsideTolerance = 5  // --fail-on-threshold: compared, and some tensor is outside its limits
};

// Errors that end a run (or, caught per tensor, fail one row) carry an exit code.
class Error : public std::runtime_error {
 public:
  Error(ExitCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  ExitCode code() const { return code_; }

 private:
  ExitCode code_;
};

// A malformed file: the message always names the file and the problem.
inline Error format_error(const std::string& path, const std::string& problem) {
  return Error(ExitCode::kInput, path + ": " + problem);
}

}  // namespace dumpcmp
