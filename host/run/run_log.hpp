#pragma once
// The log of a run (`-out/dumpcmp_<ts>.log`): every input problem and warning of the run, so that
// a user of a 40,000-file dump learns which files are broken without reading the CSV. Silent: it
// says which problems are new and what to print; the caller prints them.
#include <array>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/diagnostics.hpp"

namespace dumpcmp {

class RunLog {
 public:
  RunLog(std::string out_dir, std::string command_line);

  // Logs each problem once; returns those it had not logged before (a file that failed at
  // planning and again), for the console.
  std::vector<InputProblem> input_problems(const std::vector<InputProblem>& problems);
  void warning(const std::string& text) { lines_.push_back("warning: " + text); }
  void error(const std::string& text) { lines_.push_back("error: " + text); }
  // "3 input problems (2 bad dump file, 1 skipped entry): F1; F2; F3 (all in LOG)"; "" when there
  // were none.
  std::string problem_counts() const;
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

}  // namespace dumpcmp
