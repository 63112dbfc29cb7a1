#include "report/hdf5_table.hpp"

#include <hdf5.h>

#include <cmath>
#include <cstring>

#include "core/error.hpp"

namespace dumpcmp {

static_assert(sizeof(hid_t) == sizeof(int64_t), "handles are kept as int64_t");

namespace {

constexpr hsize_t kChunkRows = 1024;

void string_attribute(hid_t object, const std::string& name, const std::string& value,
                      const std::string& file_name) {
  const hid_t space = H5Screate(H5S_SCALAR);
  const hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, value.size() + 1);
  H5Tset_cset(type, H5T_CSET_UTF8);
  const hid_t attr = H5Acreate2(object, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT);
  const bool ok = attr >= 0 && H5Awrite(attr, type, value.c_str()) >= 0;
  if (attr >= 0) H5Aclose(attr);
  H5Tclose(type);
  H5Sclose(space);
  if (!ok) throw Error(ExitCode::kInput, file_name + ": cannot write the attribute " + name);
}

}  // namespace

Hdf5Table::Hdf5Table(int64_t file, const std::string& dataset, std::vector<Hdf5Field> fields,
                     const std::string& file_name)
    : file_name_(file_name), fields_(std::move(fields)), file_(file) {
  string_type_ = H5Tcopy(H5T_C_S1);
  H5Tset_size(string_type_, H5T_VARIABLE);
  H5Tset_cset(string_type_, H5T_CSET_UTF8);
  for (const Hdf5Field& f : fields_) {
    offsets_.push_back(record_size_);
    record_size_ += f.kind == Hdf5Kind::kText ? sizeof(char*) : sizeof(double);
  }
  type_ = H5Tcreate(H5T_COMPOUND, record_size_);
  for (std::size_t i = 0; i < fields_.size(); ++i) {
    const Hdf5Kind kind = fields_[i].kind;
    H5Tinsert(type_, fields_[i].name.c_str(), offsets_[i],
              kind == Hdf5Kind::kText    ? string_type_
              : kind == Hdf5Kind::kInt64 ? H5T_NATIVE_INT64
                                         : H5T_NATIVE_DOUBLE);
  }
  const hsize_t zero = 0, unlimited = H5S_UNLIMITED, chunk = kChunkRows;
  const hid_t space = H5Screate_simple(1, &zero, &unlimited);
  const hid_t create = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_chunk(create, 1, &chunk);
  H5Pset_deflate(create, 4);
  const hid_t links = H5Pcreate(H5P_LINK_CREATE);
  H5Pset_create_intermediate_group(links, 1);
  dataset_ = H5Dcreate2(file_, dataset.c_str(), type_, space, links, create, H5P_DEFAULT);
  H5Pclose(links);
  H5Pclose(create);
  H5Sclose(space);
  if (dataset_ < 0)
    throw Error(ExitCode::kInput, file_name_ + ": cannot create the dataset " + dataset);
}

Hdf5Table::~Hdf5Table() {
  if (dataset_ >= 0) H5Dclose(dataset_);
  if (type_ >= 0) H5Tclose(type_);
  if (string_type_ >= 0) H5Tclose(string_type_);
}

void Hdf5Table::begin_row() {
  const std::size_t at = buffer_.size();
  buffer_.resize(at + record_size_);
  static const char* const kEmpty = "";
  for (std::size_t i = 0; i < fields_.size(); ++i) {
    uint8_t* p = buffer_.data() + at + offsets_[i];
    if (fields_[i].kind == Hdf5Kind::kText) {
      std::memcpy(p, &kEmpty, sizeof kEmpty);
    } else if (fields_[i].kind == Hdf5Kind::kInt64) {
      std::memset(p, 0, sizeof(int64_t));
    } else {
      const double nan = NAN;
      std::memcpy(p, &nan, sizeof nan);
    }
  }
}

uint8_t* Hdf5Table::field_at(std::size_t field) {
  return buffer_.data() + buffer_.size() - record_size_ + offsets_[field];
}

void Hdf5Table::set_text(std::size_t field, std::string value) {
  texts_.push_back(std::move(value));
  const char* p = texts_.back().c_str();
  std::memcpy(field_at(field), &p, sizeof p);
}

void Hdf5Table::set_integer(std::size_t field, int64_t value) {
  std::memcpy(field_at(field), &value, sizeof value);
}

void Hdf5Table::set_number(std::size_t field, double value) {
  std::memcpy(field_at(field), &value, sizeof value);
}

void Hdf5Table::end_row() {
  if (++pending_ == kChunkRows) flush();
}

void Hdf5Table::set_attribute(const std::string& name, const std::string& value) {
  attributes_.emplace_back(name, value);
}

void Hdf5Table::flush() {
  if (pending_ == 0) return;
  const hsize_t size = rows_ + pending_;
  bool ok = H5Dset_extent(dataset_, &size) >= 0;
  const hid_t file_space = H5Dget_space(dataset_);
  const hsize_t start = rows_, count = pending_;
  ok = ok && H5Sselect_hyperslab(file_space, H5S_SELECT_SET, &start, nullptr, &count, nullptr) >= 0;
  const hid_t memory = H5Screate_simple(1, &count, nullptr);
  ok = ok && H5Dwrite(dataset_, type_, memory, file_space, H5P_DEFAULT, buffer_.data()) >= 0;
  H5Sclose(memory);
  H5Sclose(file_space);
  ok = ok && H5Fflush(file_, H5F_SCOPE_LOCAL) >= 0;  // finished rows survive an interruption
  if (!ok) throw Error(ExitCode::kInput, file_name_ + ": cannot append rows");
  rows_ = size;
  pending_ = 0;
  buffer_.clear();
  texts_.clear();
}

void Hdf5Table::finish() {
  flush();
  for (const auto& [name, value] : attributes_) string_attribute(dataset_, name, value, file_name_);
}

Hdf5File::Hdf5File(std::string path) : path_(std::move(path)), output_(path_) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // errors are reported as Error, not printed
  file_ = H5Fcreate(output_.partial().c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (file_ < 0) throw Error(ExitCode::kInput, output_.partial() + ": cannot create the HDF5 file");
}

Hdf5File::~Hdf5File() {
  tables_.clear();
  if (file_ >= 0) H5Fclose(file_);
}

Hdf5Table& Hdf5File::add_table(const std::string& dataset, std::vector<Hdf5Field> fields) {
  tables_.push_back(std::unique_ptr<Hdf5Table>(
      new Hdf5Table(file_, dataset, std::move(fields), output_.partial())));
  return *tables_.back();
}

void Hdf5File::set_attribute(const std::string& name, const std::string& value) {
  attributes_.emplace_back(name, value);
}

void Hdf5File::commit() {
  for (const auto& table : tables_) table->finish();
  for (const auto& [name, value] : attributes_)
    string_attribute(file_, name, value, output_.partial());
  tables_.clear();
  const bool closed = H5Fclose(file_) >= 0;
  file_ = -1;
  if (!closed) throw Error(ExitCode::kInput, path_ + ": cannot finish the HDF5 file");
  output_.publish();
}

}  // namespace dumpcmp
