#pragma once
#include <string>

namespace dumpcmp {

// "YYYYmmddHHMMSS" in local time: the stamp in msaccucmp's result file names.
std::string local_timestamp();

}  // namespace dumpcmp
