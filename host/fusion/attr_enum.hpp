#pragma once
// Enum-compressed om JSON (om_compress_version 1): attr keys "\0" + base-127 digits index
// attr_name_enum, and string values of flagged attrs index attr_value_enum. GE decodes these in
// Pb2Json::EnumJson2Json before writing `atc --json`; we decode them the same way on read.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dumpcmp {

class AttrEnum {
 public:
  // Tables from the model-level attrs; `active` when om_compress_version == 1.
  bool active = false;
  std::vector<std::string> names;      // attr_name_enum
  std::vector<std::string> values;     // attr_value_enum
  std::vector<bool> use_string_value;  // attrs_use_string_value

  static bool is_encoded(std::string_view key) { return !key.empty() && key[0] == '\0'; }

  // Resolves an encoded key to its name and whether its "i"/"list.i" hold attr_value_enum
  // indexes. False with a message when the key cannot be resolved.
  bool resolve_key(std::string_view key, std::string_view& name, bool& value_is_enum,
                   std::string& error) const;
  // attr_value_enum[index]; false with a message when out of range.
  bool resolve_value(int64_t index, std::string_view& value, std::string& error) const;
};

}  // namespace dumpcmp
