#include "core/timestamp.hpp"

#include <ctime>

namespace dumpcmp {

namespace {

std::string now_as(const char* format, bool utc) {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  if (utc) {
    gmtime_r(&now, &tm);
  } else {
    localtime_r(&now, &tm);
  }
  char buf[32];
  std::strftime(buf, sizeof buf, format, &tm);
  return buf;
}

}  // namespace

std::string local_timestamp() { return now_as("%Y%m%d%H%M%S", false); }

std::string utc_iso_timestamp() { return now_as("%Y-%m-%dT%H:%M:%SZ", true); }

}  // namespace dumpcmp
