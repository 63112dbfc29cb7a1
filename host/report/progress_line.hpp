#pragma once
// The progress line of a long compare on a terminal: rows and bytes done, rate and ETA, redrawn
// in place at most five times a second; nothing at all when disabled (output not a terminal, or
// --quiet).
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>

namespace dumpcmp {

class ProgressLine {
 public:
  // `now` gives seconds from any fixed origin (injected for tests); `unit` names what is counted.
  ProgressLine(std::ostream& out, bool enabled, std::function<double()> now,
               std::string unit = "rows");
  void update(int64_t done, int64_t total, uint64_t bytes);
  void finish();  // erases the line if one was drawn

  // The text of one line (without the leading carriage return).
  static std::string text(int64_t done, int64_t total, uint64_t bytes, double elapsed,
                          const std::string& unit = "rows");

 private:
  std::ostream& out_;
  bool enabled_;
  std::function<double()> now_;
  std::string unit_;
  double start_ = 0, last_ = -1;
  bool drawn_ = false;
};

}  // namespace dumpcmp
