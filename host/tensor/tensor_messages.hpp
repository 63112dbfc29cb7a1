#pragma once
// msaccucmp's message for a dump tensor it cannot read, in its wording
// (core/msaccucmp_messages.hpp).
#include "core/msaccucmp_messages.hpp"

namespace dumpcmp::msg {

// common.get_dtype_by_data_type for an output data type it cannot decode.
std::string output_dtype_not_supported(int code);

}  // namespace dumpcmp::msg
