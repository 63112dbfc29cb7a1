// Decoding of enum-compressed attr keys and values (GE graph/utils/enum_attr_utils.cc rules).
#include "fusion/attr_enum.hpp"

namespace dumpcmp {

namespace {
constexpr uint64_t kDigitBase = 127;  // GE kMaxValueOfEachDigit; each digit is stored + 1
}  // namespace

bool AttrEnum::resolve_key(std::string_view key, std::string_view& name, bool& value_is_enum,
                           std::string& error) const {
  if (!active) {
    error = "attr key is enum-encoded but the model has no om_compress_version 1 and enum tables";
    return false;
  }
  uint64_t position = 0;
  uint64_t weight = 1;
  for (size_t i = 1; i < key.size(); ++i) {
    const auto digit = static_cast<unsigned char>(key[i]);
    // GE writes digits 1..127; anything else, or more digits than an index can have, is corrupt.
    if (digit == 0 || digit > kDigitBase || i > 9) {
      error = "malformed enum-encoded attr key";
      return false;
    }
    position += (digit - 1U) * weight;
    weight *= kDigitBase;
  }
  if (position >= names.size() || position >= use_string_value.size()) {
    error = "enum-encoded attr key index " + std::to_string(position) +
            " is outside attr_name_enum (" + std::to_string(names.size()) +
            ") or attrs_use_string_value (" + std::to_string(use_string_value.size()) + ")";
    return false;
  }
  name = names[position];
  value_is_enum = use_string_value[position];
  return true;
}

bool AttrEnum::resolve_value(int64_t index, std::string_view& value, std::string& error) const {
  if (index < 0 || static_cast<uint64_t>(index) >= values.size()) {
    error = "enum value index " + std::to_string(index) + " is outside attr_value_enum (" +
            std::to_string(values.size()) + ")";
    return false;
  }
  value = values[static_cast<size_t>(index)];
  return true;
}

}  // namespace dumpcmp
