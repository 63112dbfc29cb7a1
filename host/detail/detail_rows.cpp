#include "detail/detail_rows.hpp"

#include <charconv>
#include <cmath>

namespace dumpcmp::single_op {

void append_fixed(std::string& out, double v) {
  if (std::isnan(v)) {
    out += "nan";
    return;
  }
  char buf[512];
  const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, 6);
  out.append(buf, r.ptr);
}

std::string fixed(double v) {
  std::string s;
  append_fixed(s, v);
  return s;
}

void append_int(std::string& out, int64_t v) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

Coordinates::Coordinates(const Shape& shape, int64_t start) : dims_(shape) {
  if (dims_.size() < 4) dims_.resize(4, 1);
  at_.assign(dims_.size(), 0);
  for (size_t k = dims_.size(); k-- > 0;) {
    if (dims_[k] > 0) {
      at_[k] = start % dims_[k];
      start /= dims_[k];
    }
  }
}

void Coordinates::append(std::string& out) const {
  for (size_t k = 0; k < at_.size(); ++k) {
    if (k) out += ' ';
    append_int(out, at_[k]);
  }
}

namespace {

void append_bool(std::string& out, double v) { out += v != 0.0 ? "True" : "False"; }

}  // namespace

std::string header_line(const DetailPair& pair) {
  return "Index," + pair.format + ",NPUDump,GroundTruth,AbsoluteError,RelativeError\n";
}

void append_row(std::string& out, int64_t index, const Coordinates& at, double x, double y,
                const ErrorPair& e, bool boolean) {
  append_int(out, index);
  out += ',';
  at.append(out);
  out += ',';
  if (boolean) {
    append_bool(out, x);
    out += "\t,";
    append_bool(out, y);
    out += "\t,-\t,-\n";
    return;
  }
  append_fixed(out, x);
  out += "\t,";
  append_fixed(out, y);
  out += "\t,";
  append_fixed(out, std::isinf(e.abs) ? NAN : e.abs);  // inf is sanitised to NaN first
  if (!std::isfinite(e.rel)) {
    out += "\t,-\n";
    return;
  }
  out += "\t,";
  append_fixed(out, e.rel);
  out += "\t\n";
}

std::string top_line(int64_t index, const Shape& shape, double x, double y, const ErrorPair& e,
                     bool boolean) {
  std::string line;
  append_int(line, index);
  line += ',';
  Coordinates(shape, index).append(line);
  line += ',';
  if (boolean) {
    append_bool(line, x);
    line += "\t,";
    append_bool(line, y);
  } else {
    append_fixed(line, x);
    line += "\t,";
    append_fixed(line, y);
  }
  line += "\t,";
  append_fixed(line, std::isinf(e.abs) ? NAN : e.abs);
  line += "\t,";
  append_fixed(line, std::isinf(e.rel) ? NAN : e.rel);
  line += "\t\n";
  std::string out;
  for (size_t i = 0; i < line.size();) {
    if (line.compare(i, 3, "nan") == 0 || line.compare(i, 3, "inf") == 0) {
      out += '-';
      i += 3;
    } else {
      out += line[i++];
    }
  }
  return out;
}

TopTable top_table(const char* title, const std::string& header,
                   const std::vector<std::string>& lines) {
  auto split = [](const std::string& line) {
    std::vector<std::string> cells;
    size_t begin = 0;
    for (;;) {
      const size_t comma = line.find(',', begin);
      std::string cell =
          line.substr(begin, comma == std::string::npos ? std::string::npos : comma - begin);
      const size_t b = cell.find_first_not_of(" \t\n");
      const size_t e = cell.find_last_not_of(" \t\n");
      cells.push_back(b == std::string::npos ? "" : cell.substr(b, e - b + 1));
      if (comma == std::string::npos) return cells;
      begin = comma + 1;
    }
  };
  TopTable table{title, {split(header)}};
  for (const std::string& l : lines) table.rows.push_back(split(l));
  return table;
}

}  // namespace dumpcmp::single_op
