#pragma once
// The journal of a whole run (`<out>/dumpcmp_journal.jsonl`): a header naming the run, then one
// line per finished leaf, each flushed to disk before the next leaf starts. A run killed at any
// moment leaves at worst a torn last line, which is ignored; --resume keeps every complete line.
#include <cstdint>
#include <map>
#include <string>

#include "tree/jsonl_journal.hpp"
#include "tree/tree_compare.hpp"

namespace dumpcmp {

inline constexpr const char* kJournalName = "dumpcmp_journal.jsonl";

class RunJournal {
 public:
  // Starts a new journal for the run `key` (replacing an old one), or with resume reopens the
  // journal of the same run and loads its finished leaves (none when there is no journal, or no
  // complete header, yet).
  // Throws Error(kInput) naming the file when it cannot be written, or when resume finds the
  // journal of another run.
  RunJournal(const std::string& out_dir, const std::string& key, std::size_t leaves, bool resume);

  // The outcome an earlier run recorded for leaf k with this stem, or nullptr.
  const LeafOutcome* finished(std::size_t k, const std::string& stem) const;
  // Records leaf k and syncs the journal.
  void record(std::size_t k, const std::string& stem, const LeafOutcome& outcome);
  const std::string& path() const { return journal_.path(); }

 private:
  // A finished leaf's line of an earlier run, kept unless it is incomplete.
  void load_line(simdjson::dom::element e);
  std::map<std::size_t, std::pair<std::string, LeafOutcome>> done_;  // filled as journal_ opens
  JsonlJournal journal_;
};

// A stable hash of the text (FNV-1a, 64 bits) in hex: the run key.
std::string run_key(const std::string& text);

}  // namespace dumpcmp
