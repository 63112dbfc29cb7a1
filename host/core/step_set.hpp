#pragma once
// The dump_step syntax of acl.json, "0|3-5|10" (seed 001): used to check a configuration and to
// select the steps of a dump tree.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dumpcmp {

class StepSet {
 public:
  // At most 100 parts separated by '|', each N or N-M of digits with N <= M. On a bad text returns
  // nullopt and, when problem is given, says which part is wrong.
  static std::optional<StepSet> parse(std::string_view text, std::string* problem = nullptr);

  // True when step is a number inside one of the parts.
  bool contains(std::string_view step) const;

 private:
  std::vector<std::pair<uint64_t, uint64_t>> ranges_;
};

inline constexpr std::size_t kMaxStepParts = 100;

}  // namespace dumpcmp
