#include "dumpcmp/report/hdf5_writer.hpp"

#include <hdf5.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <optional>

#include "dumpcmp/core/error.hpp"

namespace dumpcmp {

namespace {

constexpr hsize_t kChunkRows = 1024;

// The record's fields: strings are variable-length (char*), metrics float64.
struct Field {
  std::string name;
  int column = -1;       // source column in the result table
  bool text = true;      // char* (text) or a number
  bool integer = false;  // int64 (Index, OpSequence) rather than double
  int sd_part = -1;      // StandardDeviation "(a;b),(c;d)": which of the four numbers
  size_t offset = 0;
};

double number(const std::string& cell) {
  if (cell.empty() || cell == "NaN") return NAN;
  char* end = nullptr;
  const double v = std::strtod(cell.c_str(), &end);
  return end == cell.c_str() ? NAN : v;
}

// "(m1;s1),(m2;s2)" -> part k of m1, s1, m2, s2.
double sd_part(const std::string& cell, int k) {
  double v[4];
  if (std::sscanf(cell.c_str(), "(%lf;%lf),(%lf;%lf)", &v[0], &v[1], &v[2], &v[3]) != 4) return NAN;
  return v[k];
}

}  // namespace

struct Hdf5Writer::State {
  hid_t file = -1, dataset = -1, type = -1, string_type = -1;
  std::vector<Field> fields;
  size_t record_size = 0;
  int verdict_field = -1;
  std::vector<int> metric_cols;  // for the verdict
  std::vector<Metric> metrics;
  int npu_col = -1, dtype_col = -1;
  std::vector<uint8_t> buffer;    // records waiting for the next flush
  std::deque<std::string> texts;  // the strings those records point at
  hsize_t rows = 0, pending = 0;
};

Hdf5Writer::Hdf5Writer(std::string path, const VerdictRules* rules)
    : path_(std::move(path)), partial_(path_ + ".partial"), rules_(rules) {}

Hdf5Writer::~Hdf5Writer() {
  if (!state_) return;
  if (state_->dataset >= 0) H5Dclose(state_->dataset);
  if (state_->type >= 0) H5Tclose(state_->type);
  if (state_->string_type >= 0) H5Tclose(state_->string_type);
  if (state_->file >= 0) H5Fclose(state_->file);
}

void Hdf5Writer::begin(const std::vector<std::string>& header) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // errors are reported as Error, not printed
  state_ = std::make_unique<State>();
  State& s = *state_;
  s.file = H5Fcreate(partial_.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (s.file < 0) throw Error(ExitCode::kInput, partial_ + ": cannot create the HDF5 file");
  auto column = [&](const char* name, int nth = 0) {
    for (size_t i = 0; i < header.size(); ++i) {
      if (header[i] == name && nth-- == 0) return static_cast<int>(i);
    }
    return -1;
  };
  s.npu_col = column("NPUDump");
  s.dtype_col = column("DataType");
  s.fields = {{"index", column("Index"), false, true},
              {"op_sequence", column("OpSequence"), false, true},
              {"op_type", column("OpType"), true},
              {"npu_op", column("NPUDump"), true},
              {"npu_dtype", column("DataType"), true},
              {"golden_op", column("GroundTruth"), true},
              {"golden_dtype", column("DataType", 1), true},
              {"tensor_index", column("TensorIndex"), true},
              {"shape", column("Shape"), true},
              {"overflow", column("OverFlow"), true}};
  for (size_t i = 0; i < header.size(); ++i) {
    const std::optional<Metric> m = metric_from_name(header[i]);
    if (!m || header[i] != metric_name(*m)) continue;
    s.metrics.push_back(*m);
    s.metric_cols.push_back(static_cast<int>(i));
    if (*m == Metric::kStandardDeviation) {
      static const char* const kParts[] = {"sd_npu_mean", "sd_npu_std", "sd_golden_mean",
                                           "sd_golden_std"};
      for (int k = 0; k < 4; ++k)
        s.fields.push_back({kParts[k], static_cast<int>(i), false, false, k});
    } else {
      s.fields.push_back({header[i], static_cast<int>(i), false});
    }
  }
  s.fields.push_back({"compare_fail_reason", column("CompareFailReason"), true});
  if (rules_) s.fields.push_back({"verdict", -1, true});
  // Drop the optional columns this table does not have.
  std::vector<Field> kept;
  for (Field& f : s.fields) {
    if (f.column >= 0 || f.name == "verdict") kept.push_back(f);
  }
  s.fields = std::move(kept);
  s.verdict_field = -1;
  for (size_t k = 0; k < s.fields.size(); ++k) {
    if (s.fields[k].name == "verdict") s.verdict_field = static_cast<int>(k);
  }
  s.string_type = H5Tcopy(H5T_C_S1);
  H5Tset_size(s.string_type, H5T_VARIABLE);
  H5Tset_cset(s.string_type, H5T_CSET_UTF8);
  for (Field& f : s.fields) {
    f.offset = s.record_size;
    s.record_size += f.text ? sizeof(char*) : sizeof(double);  // int64 has the same size
  }
  s.type = H5Tcreate(H5T_COMPOUND, s.record_size);
  for (const Field& f : s.fields) {
    H5Tinsert(s.type, f.name.c_str(), f.offset,
              f.text ? s.string_type : (f.integer ? H5T_NATIVE_INT64 : H5T_NATIVE_DOUBLE));
  }
  const hsize_t zero = 0, unlimited = H5S_UNLIMITED, chunk = kChunkRows;
  const hid_t space = H5Screate_simple(1, &zero, &unlimited);
  const hid_t plist = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_chunk(plist, 1, &chunk);
  H5Pset_deflate(plist, 4);
  s.dataset = H5Dcreate2(s.file, "results", s.type, space, H5P_DEFAULT, plist, H5P_DEFAULT);
  H5Pclose(plist);
  H5Sclose(space);
  if (s.dataset < 0)
    throw Error(ExitCode::kInput, partial_ + ": cannot create the results dataset");
}

void Hdf5Writer::write(const ResultRow& row) {
  State& s = *state_;
  const size_t at = s.buffer.size();
  s.buffer.resize(at + s.record_size);
  uint8_t* record = s.buffer.data() + at;
  auto cell = [&](int col) {
    return col >= 0 && static_cast<size_t>(col) < row.cells.size()
               ? row.cells[static_cast<size_t>(col)]
               : std::string();
  };
  for (size_t k = 0; k < s.fields.size(); ++k) {
    const Field& f = s.fields[k];
    if (f.text) {
      std::string text = cell(f.column);
      if (static_cast<int>(k) == s.verdict_field) {
        std::vector<std::string> cells;
        for (int c : s.metric_cols) cells.push_back(cell(c));
        text = std::string(
            verdict_name(rules_->judge(cell(s.npu_col), cell(s.dtype_col), s.metrics, cells)));
      }
      s.texts.push_back(std::move(text));
      const char* p = s.texts.back().c_str();
      std::memcpy(record + f.offset, &p, sizeof p);
    } else if (f.integer) {
      const int64_t v = std::strtoll(cell(f.column).c_str(), nullptr, 10);
      std::memcpy(record + f.offset, &v, sizeof v);
    } else {
      const std::string c = cell(f.column);
      const double v = f.sd_part >= 0 ? sd_part(c, f.sd_part) : number(c);
      std::memcpy(record + f.offset, &v, sizeof v);
    }
  }
  if (++s.pending == kChunkRows) flush();
}

void Hdf5Writer::flush() {
  State& s = *state_;
  if (s.pending == 0) return;
  const hsize_t size = s.rows + s.pending;
  bool ok = H5Dset_extent(s.dataset, &size) >= 0;
  const hid_t file_space = H5Dget_space(s.dataset);
  const hsize_t start = s.rows, count = s.pending;
  ok = ok && H5Sselect_hyperslab(file_space, H5S_SELECT_SET, &start, nullptr, &count, nullptr) >= 0;
  const hid_t memory = H5Screate_simple(1, &count, nullptr);
  ok = ok && H5Dwrite(s.dataset, s.type, memory, file_space, H5P_DEFAULT, s.buffer.data()) >= 0;
  H5Sclose(memory);
  H5Sclose(file_space);
  ok = ok && H5Fflush(s.file, H5F_SCOPE_LOCAL) >= 0;  // finished rows survive an interruption
  if (!ok) throw Error(ExitCode::kInput, partial_ + ": cannot append rows");
  s.rows = size;
  s.pending = 0;
  s.buffer.clear();
  s.texts.clear();
}

void Hdf5Writer::set_attribute(const std::string& name, const std::string& value) {
  attributes_.emplace_back(name, value);
}

void Hdf5Writer::commit() {
  flush();
  State& s = *state_;
  for (const auto& [name, value] : attributes_) {
    const hid_t space = H5Screate(H5S_SCALAR);
    const hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, value.size() + 1);
    H5Tset_cset(type, H5T_CSET_UTF8);
    const hid_t attr = H5Acreate2(s.file, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT);
    const bool ok = attr >= 0 && H5Awrite(attr, type, value.c_str()) >= 0;
    if (attr >= 0) H5Aclose(attr);
    H5Tclose(type);
    H5Sclose(space);
    if (!ok) throw Error(ExitCode::kInput, partial_ + ": cannot write the attribute " + name);
  }
  H5Dclose(s.dataset);
  H5Tclose(s.type);
  H5Tclose(s.string_type);
  const bool closed = H5Fclose(s.file) >= 0;
  state_.reset();
  if (!closed || std::rename(partial_.c_str(), path_.c_str()) != 0) {
    throw Error(ExitCode::kInput, path_ + ": cannot finish the HDF5 file");
  }
}

}  // namespace dumpcmp
