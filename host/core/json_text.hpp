#pragma once
// JSON text for the files dumpcmp writes (inspect --json, config check --json, plans).
#include <string>
#include <string_view>

namespace dumpcmp {

// s as a quoted JSON string. Bytes that are not valid UTF-8 and control characters are escaped
// as \u00XX, so the output is always valid JSON.
std::string json_string(std::string_view s);

}  // namespace dumpcmp
