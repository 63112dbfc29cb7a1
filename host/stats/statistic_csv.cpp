#include "stats/statistic_csv.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.hpp"
#include "core/text.hpp"
#include "io/dump_file_name.hpp"
#include "stats/stats_number.hpp"

namespace dumpcmp {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kStatisticCsv = "statistic.csv";
constexpr std::string_view kCsvSuffix = ".csv";

// The statistics columns msprobe looks up by name (ms_graph_compare statistic_data_read).
constexpr const char* kMaxColumn = "Max Value";
constexpr const char* kMinColumn = "Min Value";
constexpr const char* kAvgColumn = "Avg Value";
constexpr const char* kL2NormColumn = "L2Norm Value";

struct CsvRecord {
  std::vector<std::string> fields;
  std::size_t line = 0;  // where the record starts
};

Error row_error(const std::string& path, std::size_t line, const std::string& problem) {
  return Error(ExitCode::kInput, path + ":" + std::to_string(line) + ": " + problem);
}

// Records as Python's csv.reader splits them: ',' separates, '"' quotes (a doubled '"' inside is
// one), a quoted field may hold ',' and line breaks; "\r\n" and "\n" end records. Blank lines are
// skipped. A quote left open at the end of the text is an error.
std::vector<CsvRecord> split_csv(std::string_view text, const std::string& path) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // utf-8-sig
  std::vector<CsvRecord> records;
  CsvRecord record;
  std::string field;
  bool quoted = false, field_started = false, any = false;
  std::size_t line = 1, quote_line = 0;
  record.line = 1;
  auto end_field = [&] {
    record.fields.push_back(std::move(field));
    field.clear();
    field_started = false;
  };
  auto end_record = [&] {
    if (any) {
      end_field();
      records.push_back(std::move(record));
    }
    record = CsvRecord{};
    any = false;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          field += '"';
          ++i;
        } else {
          quoted = false;
        }
      } else {
        if (c == '\n') ++line;
        field += c;
      }
      continue;
    }
    if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') continue;
    if (c == '\n' || c == '\r') {
      end_record();
      ++line;
      record.line = line;
      continue;
    }
    if (!any) record.line = line;
    any = true;
    if (c == ',') {
      end_field();
    } else if (c == '"' && !field_started) {
      quoted = true;
      field_started = true;
      quote_line = line;
    } else {
      field += c;
      field_started = true;
    }
  }
  if (quoted) throw row_error(path, quote_line, "a quoted field is not closed");
  end_record();
  return records;
}

// Column positions by header name; -1 when absent.
struct Columns {
  int op_type = -1, op_name = -1, task_id = -1, stream_id = -1, timestamp = -1, io = -1, slot = -1;
  int data_size = -1, dtype = -1, format = -1, shape = -1;
  int max = -1, min = -1, mean = -1, l2norm = -1;
  int count = -1, nan_count = -1, neg_inf = -1, pos_inf = -1;
};

Columns find_columns(const std::vector<std::string>& header) {
  Columns c;
  for (std::size_t i = 0; i < header.size(); ++i) {
    const std::string name = trim(header[i]);
    const int at = static_cast<int>(i);
    int* slot = nullptr;
    if (name == "Op Type") slot = &c.op_type;
    if (name == "Op Name") slot = &c.op_name;
    if (name == "Task ID") slot = &c.task_id;
    if (name == "Stream ID") slot = &c.stream_id;
    if (name == "Timestamp") slot = &c.timestamp;
    if (name == "IO" || name == "Input/Output") slot = &c.io;
    if (name == "Slot" || name == "Index") slot = &c.slot;
    if (name == "Data Size") slot = &c.data_size;
    if (name == "Data Type") slot = &c.dtype;
    if (name == "Format") slot = &c.format;
    if (name == "Shape") slot = &c.shape;
    if (name == kMaxColumn) slot = &c.max;
    if (name == kMinColumn) slot = &c.min;
    if (name == kAvgColumn) slot = &c.mean;
    if (name == kL2NormColumn || name == "l2norm") slot = &c.l2norm;
    if (name == "Count") slot = &c.count;
    if (name == "Nan Count" || name == "NaN Count") slot = &c.nan_count;
    if (name == "Negative Inf Count") slot = &c.neg_inf;
    if (name == "Positive Inf Count") slot = &c.pos_inf;
    if (slot != nullptr && *slot < 0) *slot = at;  // the first of repeated names, as msprobe's
  }
  return c;
}

class RowReader {
 public:
  RowReader(const CsvRecord& record, const std::string& path, std::vector<StatsProblem>& problems)
      : record_(record), path_(path), problems_(problems) {}

  std::string text(int column) const {
    return column < 0 ? std::string() : record_.fields[static_cast<std::size_t>(column)];
  }

  std::optional<double> number(int column, const char* name) {
    const std::string t = trim(text(column));
    if (column < 0 || t.empty()) return std::nullopt;
    const std::optional<double> value = parse_stat_number(t);
    if (!value) problem(std::string(name) + " '" + t + "' is not a number");
    return value;
  }

  std::optional<int64_t> integer(int column, const char* name) {
    const std::string t = trim(text(column));
    if (column < 0 || t.empty()) return std::nullopt;
    const std::optional<int64_t> value = parse_integer(t);
    if (!value) problem(std::string(name) + " '" + t + "' is not a whole number");
    return value;
  }

  int64_t required_integer(int column, const char* name) const {
    const std::string t = text(column);
    const std::optional<int64_t> value = parse_integer(t);
    if (!value)
      throw row_error(path_, record_.line,
                      std::string(name) + " '" + t + "' is not a whole number");
    return *value;
  }

 private:
  void problem(const std::string& message) {
    problems_.push_back(StatsProblem{path_, record_.line, message});
  }
  const CsvRecord& record_;
  const std::string& path_;
  std::vector<StatsProblem>& problems_;
};

void require(int column, const char* name, const std::string& path, std::size_t line,
             StatsFileKind kind) {
  if (column >= 0) return;
  const char* what = kind == StatsFileKind::kMerged ? "statistic.csv header" : "CANN stats header";
  throw row_error(path, line, std::string(what) + " has no '" + name + "' column");
}

std::string basename_of(const std::string& path) { return fs::path(path).filename().string(); }

// Which statistics file the header's first column says this is.
StatsFileKind file_kind(const CsvRecord& header, const std::string& path) {
  const std::string first = trim(header.fields.front());
  if (first == "Op Type") return StatsFileKind::kMerged;
  if (first == "Input/Output") return StatsFileKind::kCannOp;
  throw row_error(path, header.line,
                  "not a statistics file: the header starts with '" + first +
                      "', not 'Op Type' (statistic.csv) or 'Input/Output' (CANN stats)");
}

// The columns the kind needs; a CANN file's op, from its name.
std::optional<CannStatsName> check_columns(const Columns& c, StatsFileKind kind, std::size_t line,
                                           const std::string& path) {
  std::optional<CannStatsName> cann_name;
  if (kind == StatsFileKind::kMerged) {
    require(c.op_name, "Op Name", path, line, kind);
    require(c.task_id, "Task ID", path, line, kind);
    require(c.timestamp, "Timestamp", path, line, kind);
    require(c.io, "IO", path, line, kind);
    require(c.slot, "Slot", path, line, kind);
  } else {
    require(c.io, "Input/Output", path, line, kind);
    require(c.slot, "Index", path, line, kind);
    cann_name = parse_cann_stats_file_name(basename_of(path));
    if (!cann_name) {
      throw format_error(path,
                         "a CANN stats file must be named "
                         "<op type>.<op name>.<task id>[.<stream id>].<timestamp>.csv");
    }
  }
  require(c.dtype, "Data Type", path, line, kind);
  require(c.shape, "Shape", path, line, kind);
  return cann_name;
}

// One tensor's row; the op from the row (statistic.csv) or from the file's name (CANN).
StatsRow read_row(RowReader& in, const Columns& c, const std::optional<CannStatsName>& cann_name) {
  StatsRow row;
  if (!cann_name) {
    row.op_type = in.text(c.op_type);
    row.op_name = in.text(c.op_name);
    row.task_id = in.text(c.task_id);
    row.stream_id = in.text(c.stream_id);
    row.timestamp = in.required_integer(c.timestamp, "Timestamp");
  } else {
    row.op_type = cann_name->op_type;
    row.op_name = cann_name->op_name;
    row.task_id = cann_name->task_id;
    row.stream_id = cann_name->stream_id;
    row.timestamp = cann_name->timestamp;
  }
  row.io = in.text(c.io);
  row.slot = in.text(c.slot);
  const std::optional<int64_t> size = in.integer(c.data_size, "Data Size");
  if (size && *size >= 0) row.data_size = static_cast<uint64_t>(*size);
  row.dtype = in.text(c.dtype);
  row.format = in.text(c.format);
  row.shape = in.text(c.shape);
  row.max = in.number(c.max, kMaxColumn);
  row.min = in.number(c.min, kMinColumn);
  row.mean = in.number(c.mean, kAvgColumn);
  row.l2norm = in.number(c.l2norm, kL2NormColumn);
  row.count = in.integer(c.count, "Count");
  row.nan_count = in.integer(c.nan_count, "Nan Count");
  row.neg_inf_count = in.integer(c.neg_inf, "Negative Inf Count");
  row.pos_inf_count = in.integer(c.pos_inf, "Positive Inf Count");
  return row;
}

}  // namespace

std::string StatsRow::key() const { return op_name + "." + task_id + "." + io + "." + slot; }

void StatsTable::append(StatsTable&& other) {
  const bool first = files.empty();
  for (StatsRow& row : other.rows) rows.push_back(std::move(row));
  for (std::string& f : other.files) files.push_back(std::move(f));
  for (StatsProblem& p : other.problems) problems.push_back(std::move(p));
  if (first) {
    missing_columns = std::move(other.missing_columns);
  } else {
    // A column is missing from the table when no file had it.
    std::vector<std::string> still;
    for (const std::string& c : missing_columns) {
      if (std::find(other.missing_columns.begin(), other.missing_columns.end(), c) !=
          other.missing_columns.end()) {
        still.push_back(c);
      }
    }
    missing_columns = std::move(still);
  }
}

std::optional<CannStatsName> parse_cann_stats_file_name(std::string_view basename) {
  if (basename.size() <= kCsvSuffix.size() ||
      basename.substr(basename.size() - kCsvSuffix.size()) != kCsvSuffix) {
    return std::nullopt;
  }
  const std::string_view stem = basename.substr(0, basename.size() - kCsvSuffix.size());
  const std::optional<DumpFileName> name = parse_dump_file_name(stem);
  if (!name || name->kind != DumpNameKind::kOffline) return std::nullopt;
  const std::vector<std::string>& f = name->fields;
  CannStatsName out;
  out.op_type = name->op_type;
  out.op_name = name->op_name;
  out.task_id = f[2];
  out.stream_id = f.size() == 4 ? std::string() : f[3];
  const std::optional<int64_t> ts = parse_natural(name->timestamp_text);
  if (!ts) return std::nullopt;  // more than 18 digits
  out.timestamp = *ts;
  return out;
}

StatsTable parse_stats_csv(std::string_view text, const std::string& path) {
  const std::vector<CsvRecord> records = split_csv(text, path);
  if (records.empty()) throw row_error(path, 1, "empty statistics file (no header)");
  const CsvRecord& header = records.front();
  const StatsFileKind kind = file_kind(header, path);
  const Columns c = find_columns(header.fields);
  const std::optional<CannStatsName> cann_name = check_columns(c, kind, header.line, path);

  StatsTable table;
  table.files.push_back(path);
  const std::pair<int, const char*> stat_columns[] = {
      {c.max, kMaxColumn}, {c.min, kMinColumn}, {c.mean, kAvgColumn}, {c.l2norm, kL2NormColumn}};
  for (const auto& [column, name] : stat_columns) {
    if (column < 0) table.missing_columns.push_back(name);
  }
  const std::size_t width = header.fields.size();
  for (std::size_t r = 1; r < records.size(); ++r) {
    const CsvRecord& record = records[r];
    if (record.fields.size() < width) {
      throw row_error(path, record.line,
                      "the row has " + std::to_string(record.fields.size()) +
                          " fields, the header " + std::to_string(width));
    }
    RowReader in(record, path, table.problems);
    if (kind == StatsFileKind::kCannOp && trim(in.text(c.io)) == "Input/Output") continue;
    table.rows.push_back(read_row(in, c, cann_name));
    table.rows.back().file = path;
    table.rows.back().line = record.line;
  }
  return table;
}

StatsTable read_stats_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw format_error(path, "cannot open the statistics file");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) throw format_error(path, "cannot read the statistics file");
  return parse_stats_csv(buffer.str(), path);
}

namespace {

// The CANN per-op stats files of a directory, sorted by name.
std::vector<std::string> cann_stats_files(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name == kStatisticCsv || !parse_cann_stats_file_name(name)) continue;
    if (it->is_regular_file(ec)) files.push_back(it->path().string());
  }
  if (ec) throw format_error(dir, "cannot list the directory: " + ec.message());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

bool is_stats_directory(const std::string& path) {
  std::error_code ec;
  if (!fs::is_directory(path, ec)) return false;
  if (fs::is_regular_file(fs::path(path) / kStatisticCsv, ec)) return true;
  return !cann_stats_files(path).empty();
}

StatsTable read_stats_path(const std::string& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) throw format_error(path, "no such file or directory");
  if (!fs::is_directory(path, ec)) return read_stats_file(path);
  const fs::path merged = fs::path(path) / kStatisticCsv;
  if (fs::is_regular_file(merged, ec)) return read_stats_file(merged.string());
  const std::vector<std::string> files = cann_stats_files(path);
  if (files.empty()) {
    throw format_error(path,
                       "holds no statistic.csv and no CANN stats file "
                       "(<op type>.<op name>.<task id>.<stream id>.<timestamp>.csv)");
  }
  StatsTable table;
  for (const std::string& file : files) table.append(read_stats_file(file));
  return table;
}

}  // namespace dumpcmp
