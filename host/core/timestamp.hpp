#pragma once
#include <string>

namespace dumpcmp {

// "YYYYmmddHHMMSS" in local time: the stamp in msaccucmp's result file names.
std::string local_timestamp();

// "YYYY-mm-ddTHH:MM:SSZ", now in UTC (W3C date-time: an xlsx workbook's creation time).
std::string utc_iso_timestamp();

}  // namespace dumpcmp
