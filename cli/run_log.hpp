#pragma once
// The log of a compare (`-out/dumpcmp_<ts>.log`): every input problem and warning of the run, so
// that a user of a 40,000-file dump learns which files are broken without reading the CSV.
#include <array>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/diagnostics.hpp"

namespace dumpcmp::cli {

class RunLog {
 public:
  RunLog(std::string out_dir, std::string command_line);
  // Each problem once on standard error as "dumpcmp: warning: FILE: problem" (unless quiet),
  // and in the log.
  void input_problems(const std::vector<InputProblem>& problems, bool quiet);
  // A warning already printed elsewhere, kept in the log too.
  void warning(const std::string& text) { lines_.push_back("warning: " + text); }
  void error(const std::string& text) { lines_.push_back("error: " + text); }
  // "dumpcmp: 3 input problems (2 bad dump file, 1 skipped entry): F1; F2; F3 (all in LOG)";
  // nothing when there were none.
  void print_counts() const;
  // Writes the log atomically when the run had a warning or an input problem (a clean run leaves
  // only its results); returns its path, or "" when there was nothing to log.
  std::string write() const;

 private:
  std::string path_;
  std::string command_line_;
  std::vector<std::string> lines_;
  std::array<int64_t, kProblemKinds> counts_{};
  std::vector<std::string> first_;  // the first few problem texts
  std::unordered_set<std::string> seen_;
};

}  // namespace dumpcmp::cli
