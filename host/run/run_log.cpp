#include "run/run_log.hpp"

#include "core/atomic_file.hpp"
#include "core/timestamp.hpp"

namespace dumpcmp {
namespace {
constexpr std::size_t kFirstShown = 3;
}

RunLog::RunLog(std::string out_dir, std::string command_line)
    : path_(out_dir + "/dumpcmp_" + local_timestamp() + ".log"),
      command_line_(std::move(command_line)) {}

std::vector<InputProblem> RunLog::input_problems(const std::vector<InputProblem>& problems) {
  std::vector<InputProblem> added;
  for (const InputProblem& p : problems) {
    if (!seen_.insert(p.text).second) continue;
    added.push_back(p);
    lines_.push_back(std::string(problem_kind_name(p.kind)) + ": " + p.text);
    ++counts_[static_cast<std::size_t>(p.kind)];
    if (first_.size() < kFirstShown) first_.push_back(p.text);
  }
  return added;
}

std::string RunLog::problem_counts() const {
  int64_t total = 0;
  for (int64_t n : counts_) total += n;
  if (total == 0) return {};
  std::string text = std::to_string(total) + " input problem" + (total == 1 ? "" : "s") + " (";
  bool first = true;
  for (int k = 0; k < kProblemKinds; ++k) {
    if (counts_[static_cast<std::size_t>(k)] == 0) continue;
    text += (first ? "" : ", ") + std::to_string(counts_[static_cast<std::size_t>(k)]) + ' ';
    text += problem_kind_name(static_cast<ProblemKind>(k));
    first = false;
  }
  text += "): ";
  for (std::size_t i = 0; i < first_.size(); ++i) text += (i ? "; " : "") + first_[i];
  return text + (static_cast<std::size_t>(total) > first_.size() ? "; ..." : "") + " (all in " +
         path_ + ")";
}

std::string RunLog::write() const {
  if (lines_.empty()) return {};
  std::string text = "dumpcmp run: " + command_line_ + "\n";
  for (const std::string& line : lines_) text += line + "\n";
  write_file_atomically(path_, text);
  return path_;
}

}  // namespace dumpcmp
