#pragma once
// Single-operator detail mode's files: msaccucmp's names (long ones shortened and recorded in
// simple_op_mapping.csv), the removal of an earlier run's files, and <prefix>.npy.
#include <cstdint>
#include <string>
#include <vector>

#include "core/shape.hpp"
#include "detail/single_op_detail.hpp"

namespace dumpcmp::single_op {

// msaccucmp's naming: a name of 255 characters or more becomes
// "<dump file with '/' and '.' -> '_'>_<type>_<k>[_<start>]<suffix>" (or a uuid3 when that is
// still too long), recorded in simple_op_mapping.csv as "new,old".
class FileNames {
 public:
  FileNames(const DetailRequest& request, const DetailPair& pair)
      : request_(request), dump_file_(pair.dump_file) {}
  // The path of the file `name` (whose suffix is `suffix`; `start`: a detail CSV's first row).
  std::string path(const std::string& name, const std::string& suffix, int64_t start = -1);
  const std::vector<std::string>& paths() const { return paths_; }
  // Appends the shortened names to simple_op_mapping.csv.
  void save_mapping() const;

 private:
  const DetailRequest& request_;
  std::string dump_file_;
  std::string mapping_;
  std::vector<std::string> paths_;  // every output named so far
};

// delete_old_detail_result_files: <prefix>_summary.txt and <prefix>_*.csv / .npy, and the long
// names simple_op_mapping.csv records for them.
void delete_old_files(const DetailRequest& request);

// <prefix>.npy: the NPU tensor after conversion, as msaccucmp's array; a failure is a warning.
void write_npu_array(const std::string& path, const DetailSide& side, const Shape& shape,
                     std::vector<std::string>& warnings);

}  // namespace dumpcmp::single_op
