#include "tree/leaf_values.hpp"

#include <algorithm>
#include <cstring>

#include "report/result_table.hpp"

namespace dumpcmp {
namespace {

constexpr char kDigits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int digit_value(char c) {
  const char* at = std::strchr(kDigits, c);
  return c != '\0' && at != nullptr ? static_cast<int>(at - kDigits) : -1;
}

}  // namespace

int LeafValues::metric_column(const std::string& name) const {
  const auto it = std::find(metrics.begin(), metrics.end(), name);
  return it == metrics.end() ? -1 : static_cast<int>(it - metrics.begin());
}

void LeafValuesSink::begin(const ResultTable& table) {
  const std::vector<Metric>& metrics = table.metrics();
  for (std::size_t k = 0; k < metrics.size(); ++k) {
    if (metrics[k] == Metric::kStandardDeviation) continue;  // a pair of pairs, not one number
    columns_.push_back(k);
    values_->metrics.emplace_back(metric_name(metrics[k]));
  }
}

void LeafValuesSink::write(const CompareRecord& record) {
  const RowIdentity& id = record.id;
  values_->tensors.push_back(
      id.tensor_index.empty() || id.tensor_index == kNaNText ? id.my_op : id.tensor_index);
  for (std::size_t k : columns_) values_->values.push_back(record.metric(k).number());
}

std::string encode_doubles(const std::vector<double>& values) {
  std::string bytes(values.size() * sizeof(double), '\0');
  for (std::size_t i = 0; i < values.size(); ++i) {
    uint64_t bits;
    std::memcpy(&bits, &values[i], sizeof bits);
    for (int b = 0; b < 8; ++b) bytes[i * 8 + b] = static_cast<char>(bits >> (8 * b));
  }
  std::string text;
  text.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::size_t n = std::min<std::size_t>(3, bytes.size() - i);
    uint32_t group = 0;
    for (std::size_t b = 0; b < 3; ++b) {
      group = group << 8 | (b < n ? static_cast<unsigned char>(bytes[i + b]) : 0u);
    }
    for (std::size_t d = 0; d < 4; ++d) {
      text += d <= n ? kDigits[(group >> (18 - 6 * d)) & 63] : '=';
    }
  }
  return text;
}

bool decode_doubles(std::string_view text, std::vector<double>& values) {
  if (text.size() % 4 != 0) return false;
  std::string bytes;
  for (std::size_t i = 0; i < text.size(); i += 4) {
    uint32_t group = 0;
    std::size_t n = 3;
    for (std::size_t d = 0; d < 4; ++d) {
      const char c = text[i + d];
      int v = 0;
      if (c == '=' && i + 4 == text.size() && d >= 2) {
        n = std::min(n, d - 1);
      } else if ((v = digit_value(c)) < 0 || n < 3) {
        return false;
      }
      group = group << 6 | static_cast<uint32_t>(v);
    }
    for (std::size_t b = 0; b < n; ++b) bytes += static_cast<char>(group >> (16 - 8 * b));
  }
  if (bytes.size() % 8 != 0) return false;
  values.assign(bytes.size() / 8, 0.0);
  for (std::size_t i = 0; i < values.size(); ++i) {
    uint64_t bits = 0;
    for (int b = 7; b >= 0; --b) bits = bits << 8 | static_cast<unsigned char>(bytes[i * 8 + b]);
    std::memcpy(&values[i], &bits, sizeof bits);
  }
  return true;
}

}  // namespace dumpcmp
