#include "io/inspect.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "core/json_text.hpp"

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
