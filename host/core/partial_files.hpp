#pragma once
// The ".partial" files being written right now (core/atomic_file.hpp), so that an interrupted run
// removes them: the CLI's SIGINT/SIGTERM handler calls remove_all(), which is async-signal-safe.
// A run stopped that way leaves only finished files (and, for trees, its journal to --resume).
#include <string>

namespace dumpcmp::partial_files {

// Registers one partial file for the lifetime of the object.
class Registration {
 public:
  explicit Registration(const std::string& partial_path);
  ~Registration();
  Registration(const Registration&) = delete;
  Registration& operator=(const Registration&) = delete;

 private:
  int slot_ = -1;  // -1: every slot taken (the file is then not removed on a signal)
};

// Unlinks every registered partial file. Async-signal-safe.
void remove_all();

}  // namespace dumpcmp::partial_files
