#pragma once
// msprobe's built-in MindSpore-to-PyTorch API names for `-am` (docs/msprobe-compare.md §4.6).
#include <optional>
#include <string_view>

namespace dumpcmp {

// The PyTorch API a MindSpore API ("Functional.dense") is compared with ("Functional.linear"), or
// none when the name stays as it is.
std::optional<std::string_view> ms_to_pt_api(std::string_view ms_api);

}  // namespace dumpcmp
