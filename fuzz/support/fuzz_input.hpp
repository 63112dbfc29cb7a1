#pragma once
// What every fuzz target shares: the input as text, and the one kind of failure a parser may
// report on bad input (dumpcmp::Error naming the input). Anything else that escapes (a crash, a
// sanitizer report, std::out_of_range, std::bad_alloc) is a finding.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/error.hpp"

namespace dumpcmp::fuzz {

inline std::string_view as_text(const uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Runs `parse`; a clean dumpcmp::Error is the expected answer to bad input.
template <typename Parse>
void parse_or_reject(Parse&& parse) {
  try {
    parse();
  } catch (const Error&) {
  }
}

}  // namespace dumpcmp::fuzz
