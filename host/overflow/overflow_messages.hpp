#pragma once
// msaccucmp's message of the overflow analysis, in its wording (core/msaccucmp_messages.hpp).
#include "core/msaccucmp_messages.hpp"

namespace dumpcmp::msg {

// overflow when -d is not a directory.
std::string overflow_dump_dir_invalid(const std::string& dir);

}  // namespace dumpcmp::msg
