#include "core/step_set.hpp"

#include "core/text.hpp"

namespace dumpcmp {

std::optional<StepSet> StepSet::parse(std::string_view text, std::string* problem) {
  StepSet set;
  size_t parts = 0;
  size_t begin = 0;
  for (;;) {
    const size_t bar = text.find('|', begin);
    const std::string_view part =
        text.substr(begin, bar == std::string_view::npos ? std::string_view::npos : bar - begin);
    if (++parts > kMaxStepParts) {
      if (problem) *problem = "has more than " + std::to_string(kMaxStepParts) + " parts";
      return std::nullopt;
    }
    const size_t dash = part.find('-');
    const std::optional<int64_t> lo = parse_natural(part.substr(0, dash));
    const std::optional<int64_t> hi =
        dash == std::string_view::npos ? lo : parse_natural(part.substr(dash + 1));
    if (!lo || !hi || *lo > *hi) {
      if (problem) {
        *problem = "part \"" + std::string(part) +
                   "\" must be a step N or a range N-M of digits with N <= M";
      }
      return std::nullopt;
    }
    set.ranges_.emplace_back(static_cast<uint64_t>(*lo), static_cast<uint64_t>(*hi));
    if (bar == std::string_view::npos) break;
    begin = bar + 1;
  }
  return set;
}

bool StepSet::contains(std::string_view step) const {
  const std::optional<int64_t> n = parse_natural(step);
  if (!n) return false;
  for (const auto& [lo, hi] : ranges_) {
    if (static_cast<uint64_t>(*n) >= lo && static_cast<uint64_t>(*n) <= hi) return true;
  }
  return false;
}

}  // namespace dumpcmp
