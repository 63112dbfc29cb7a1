#include "dumpcmp/io/inspect.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace dumpcmp {
namespace {

constexpr std::array<TensorGroup, 4> kGroups = {TensorGroup::kInput, TensorGroup::kOutput,
                                                TensorGroup::kBuffer, TensorGroup::kWorkspace};

std::string dtype_text(DType t) {
  const std::string_view name = dtype_wire_name(t);
  return name.empty() ? "DT_" + std::to_string(static_cast<int32_t>(t)) : std::string(name);
}

std::string format_text(Format f) {
  const std::string_view name = format_name(f);
  return name.empty() ? std::to_string(static_cast<int32_t>(f)) : std::string(name);
}

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

// Length of the valid UTF-8 sequence starting at s[i], or 0 if the bytes there are not one.
std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto b0 = static_cast<uint8_t>(s[i]);
  std::size_t n = 0;
  uint32_t cp = 0;
  if (b0 < 0x80) return 1;
  if ((b0 & 0xE0) == 0xC0) {
    n = 2;
    cp = b0 & 0x1Fu;
  } else if ((b0 & 0xF0) == 0xE0) {
    n = 3;
    cp = b0 & 0x0Fu;
  } else if ((b0 & 0xF8) == 0xF0) {
    n = 4;
    cp = b0 & 0x07u;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    const auto b = static_cast<uint8_t>(s[i + k]);
    if ((b & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b & 0x3Fu);
  }
  // Reject overlong forms, surrogates and code points past U+10FFFF.
  static constexpr uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (std::size_t i = 0; i < s.size();) {
    const char ch = s[i];
    const std::size_t n = utf8_length(s, i);
    if (n == 1 && ch == '"') {
      out += "\\\"";
    } else if (n == 1 && ch == '\\') {
      out += "\\\\";
    } else if (n == 1 && ch == '\n') {
      out += "\\n";
    } else if (n == 1 && ch == '\t') {
      out += "\\t";
    } else if (n == 0 || static_cast<uint8_t>(ch) < 0x20 || ch == 0x7F) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<uint8_t>(ch)));
      out += buf;
    } else {
      out.append(s.substr(i, n));
      i += n;
      continue;
    }
    ++i;
  }
  return out + "\"";
}

// Non-printable bytes in names would break the table's alignment; show them as \xNN.
std::string printable(std::string_view s) {
  std::string out;
  for (char ch : s) {
    const auto b = static_cast<uint8_t>(ch);
    if (b < 0x20 || b == 0x7F) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", b);
      out += buf;
    } else {
      out += ch;
    }
  }
  return out;
}

}  // namespace

std::string describe_dump_table(const DumpFile& file) {
  std::string out = "file: " + printable(file.path) + "\n";
  out += "encoding: " + std::string(dump_encoding_name(file.encoding)) +
         "  version: " + printable(file.version) + "  op: " + printable(file.op_name) +
         "  dump_time: " + std::to_string(file.dump_time) + "\n";
  for (const auto& [name, value] : file.attrs) {
    out += "attr " + printable(name) + ": " + printable(value) + "\n";
  }

  std::vector<std::array<std::string, 10>> rows;
  rows.push_back({"group", "index", "dtype", "format", "shape", "original_shape", "size", "offset",
                  "address", "origin_name"});
  for (TensorGroup g : kGroups) {
    for (const TensorInfo& t : file.group(g)) {
      rows.push_back({std::string(tensor_group_name(g)), std::to_string(t.index),
                      dtype_text(t.dtype), format_text(t.format), shape_to_string(t.shape),
                      shape_to_string(t.original_shape), std::to_string(t.size),
                      std::to_string(t.offset), hex(t.address), printable(t.origin_name)});
    }
  }
  std::array<std::size_t, 10> width{};
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  }
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t c = 0; c < row.size(); ++c) {
      line += row[c];
      if (c + 1 < row.size()) line.append(width[c] - row[c].size() + 2, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

std::string describe_dump_json(const DumpFile& file) {
  std::string out = "{\"path\":" + json_string(file.path) +
                    ",\"encoding\":" + json_string(dump_encoding_name(file.encoding)) +
                    ",\"version\":" + json_string(file.version) +
                    ",\"op_name\":" + json_string(file.op_name) +
                    ",\"dump_time\":" + std::to_string(file.dump_time) + ",\"attrs\":[";
  for (std::size_t i = 0; i < file.attrs.size(); ++i) {
    if (i) out += ',';
    out += "{\"name\":" + json_string(file.attrs[i].first) +
           ",\"value\":" + json_string(file.attrs[i].second) + "}";
  }
  out += "],\"tensors\":[";
  bool first = true;
  for (TensorGroup g : kGroups) {
    for (const TensorInfo& t : file.group(g)) {
      if (!first) out += ',';
      first = false;
      out += "{\"group\":" + json_string(tensor_group_name(g)) +
             ",\"index\":" + std::to_string(t.index) +
             ",\"dtype\":" + json_string(dtype_text(t.dtype)) +
             ",\"format\":" + json_string(format_text(t.format)) +
             ",\"shape\":" + shape_to_string(t.shape) +
             ",\"original_shape\":" + shape_to_string(t.original_shape) +
             ",\"size\":" + std::to_string(t.size) + ",\"offset\":" + std::to_string(t.offset) +
             ",\"address\":" + json_string(hex(t.address)) +
             ",\"origin_name\":" + json_string(t.origin_name) + "}";
    }
  }
  return out + "]}";
}

}  // namespace dumpcmp
