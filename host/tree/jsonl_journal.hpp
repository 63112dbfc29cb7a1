#pragma once
// A run's journal as JSON lines: a header naming the run, then one line per finished piece of
// work, each written and synced to disk before the next piece starts. A run killed at any moment
// leaves at worst a torn last line, which is skipped; --resume keeps every complete line. The
// journals of --tree runs (run_journal) and of msprobe --steps runs (probe_steps) are this file
// with their own lines.
#include <simdjson.h>

#include <cstdio>
#include <functional>
#include <string>

namespace dumpcmp {

class JsonlJournal {
 public:
  // With `resume` and a journal at `path` whose first complete line `same_run` accepts, hands each
  // later complete line to `entry` and appends after them; else (no journal, or no complete
  // header) starts a new one with the line `header`. `same_run` throws for another run's journal.
  // Throws Error(kInput) naming the file when it cannot be read or written.
  JsonlJournal(std::string path, const std::string& header, bool resume,
               const std::function<bool(simdjson::dom::element)>& same_run,
               const std::function<void(simdjson::dom::element)>& entry);
  ~JsonlJournal();
  JsonlJournal(const JsonlJournal&) = delete;
  JsonlJournal& operator=(const JsonlJournal&) = delete;

  // Appends one line (without its '\n') and syncs the journal.
  void append(const std::string& line);
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::FILE* file_ = nullptr;
};

}  // namespace dumpcmp
