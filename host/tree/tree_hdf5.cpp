#include "tree/tree_hdf5.hpp"

#include <hdf5.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "tree/batch_mode.hpp"
#include "tree/tree_listing.hpp"

namespace dumpcmp {
namespace {

// Closes an HDF5 handle with the given function when it leaves scope.
class Handle {
 public:
  Handle(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  ~Handle() {
    if (id_ >= 0) close_(id_);
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  operator hid_t() const { return id_; }
  bool ok() const { return id_ >= 0; }

 private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

void check(bool ok, const std::string& path, const std::string& what) {
  if (!ok) throw Error(ExitCode::kInput, path + ": cannot " + what);
}

void string_attribute(hid_t object, const char* name, const std::string& value,
                      const std::string& path) {
  Handle space(H5Screate(H5S_SCALAR), H5Sclose);
  Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(type, value.size() + 1);
  H5Tset_cset(type, H5T_CSET_UTF8);
  Handle attr(H5Acreate2(object, name, type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  check(attr.ok() && H5Awrite(attr, type, value.c_str()) >= 0, path,
        std::string("write the attribute ") + name);
}

void string_dataset(hid_t group, const char* name, const std::vector<std::string>& values,
                    const std::string& path) {
  std::vector<const char*> pointers;
  for (const std::string& v : values) pointers.push_back(v.c_str());
  const hsize_t n = values.size();
  Handle space(H5Screate_simple(1, &n, nullptr), H5Sclose);
  Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(type, H5T_VARIABLE);
  H5Tset_cset(type, H5T_CSET_UTF8);
  Handle set(H5Dcreate2(group, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Dclose);
  check(set.ok() &&
            (n == 0 || H5Dwrite(set, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, pointers.data()) >= 0),
        path, std::string("write ") + name);
}

// One leaf's metric columns by tensor (tensor_index), read back from its /results.
using LeafMetrics = std::map<std::string, std::map<std::string, double>>;  // metric -> tensor

LeafMetrics read_leaf_metrics(hid_t results, const std::string& path) {
  LeafMetrics metrics;
  Handle file_type(H5Dget_type(results), H5Tclose);
  Handle space(H5Dget_space(results), H5Sclose);
  const hssize_t rows = H5Sget_simple_extent_npoints(space);
  if (rows <= 0) return metrics;
  Handle string_type(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(string_type, H5T_VARIABLE);
  H5Tset_cset(string_type, H5T_CSET_UTF8);
  std::vector<char*> tensors(static_cast<size_t>(rows));
  {
    Handle type(H5Tcreate(H5T_COMPOUND, sizeof(char*)), H5Tclose);
    H5Tinsert(type, "tensor_index", 0, string_type);
    check(H5Dread(results, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, tensors.data()) >= 0, path,
          "read tensor_index");
  }
  const int members = H5Tget_nmembers(file_type);
  for (int m = 0; m < members; ++m) {
    if (H5Tget_member_class(file_type, static_cast<unsigned>(m)) != H5T_FLOAT) continue;
    char* name = H5Tget_member_name(file_type, static_cast<unsigned>(m));
    const std::string metric = name;
    H5free_memory(name);
    std::vector<double> values(static_cast<size_t>(rows));
    Handle type(H5Tcreate(H5T_COMPOUND, sizeof(double)), H5Tclose);
    H5Tinsert(type, metric.c_str(), 0, H5T_NATIVE_DOUBLE);
    check(H5Dread(results, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) >= 0, path,
          "read " + metric);
    for (size_t r = 0; r < values.size(); ++r) {
      if (tensors[r]) metrics[metric][tensors[r]] = values[r];
    }
  }
  for (char* t : tensors) {
    if (t) H5free_memory(t);
  }
  return metrics;
}

// A leaf's graph as index.html groups them (by graph id when the name has one), as a group name.
std::string graph_key(const TreeLeaf& l) {
  if (l.single_op()) return "single_op_" + (l.op_name.empty() ? std::string("-") : l.op_name);
  const std::string id = graph_id_of(l.model_name);
  return id.empty() ? l.model_name : "graph_" + id;
}

}  // namespace

std::string leaf_hdf5_name(const std::string& result_csv) {
  return result_csv.substr(0, result_csv.size() - 4) + ".h5";
}

void write_tree_hdf5(const std::string& path, const std::string& out_dir,
                     const std::vector<TreeJob>& jobs, const std::vector<LeafOutcome>& outcomes) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  PartialOutput output(path);
  const std::string& partial = output.partial();
  {
    Handle file(H5Fcreate(partial.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
    check(file.ok(), partial, "create the HDF5 file");
    string_attribute(file, "tool", "dumpcmp", partial);
    Handle leaves(H5Gcreate2(file, "leaves", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
    check(leaves.ok(), partial, "create /leaves");
    // graph -> metric -> tensor -> (step, device) -> value
    struct Trend {
      std::set<std::string> steps, devices;
      std::map<std::string,
               std::map<std::string, std::map<std::pair<std::string, std::string>, double>>>
          values;
      std::vector<std::string> tensor_order;
      std::set<std::string> tensors;
    };
    std::map<std::string, Trend> trends;
    for (size_t k = 0; k < jobs.size() && k < outcomes.size(); ++k) {
      const LeafOutcome& o = outcomes[k];
      if (o.status != LeafStatus::kCompared || o.result_file.empty()) continue;
      const std::string source = out_dir + "/" + leaf_hdf5_name(o.result_file);
      Handle leaf_file(H5Fopen(source.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
      if (!leaf_file.ok()) continue;  // a statistics leaf has no HDF5 table
      const TreeLeaf& l = jobs[k].leaf;
      Handle group(H5Gcreate2(leaves, jobs[k].stem.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                   H5Gclose);
      check(group.ok() &&
                H5Ocopy(leaf_file, "results", group, "results", H5P_DEFAULT, H5P_DEFAULT) >= 0,
            partial, "copy the results of " + source);
      string_attribute(group, "leaf", l.relative, partial);
      string_attribute(group, "device", l.device, partial);
      string_attribute(group, "graph", l.single_op() ? l.op_name : l.model_name, partial);
      string_attribute(group, "model_id", l.model_id, partial);
      string_attribute(group, "step", l.step, partial);
      string_attribute(group, "result_csv", o.result_file, partial);
      Handle results(H5Dopen2(leaf_file, "results", H5P_DEFAULT), H5Dclose);
      Trend& trend = trends[graph_key(l)];
      trend.steps.insert(l.step);
      trend.devices.insert(l.device);
      for (const auto& [metric, by_tensor] : read_leaf_metrics(results, source)) {
        for (const auto& [tensor, v] : by_tensor) {
          trend.values[metric][tensor][{l.step, l.device}] = v;
          if (trend.tensors.insert(tensor).second) trend.tensor_order.push_back(tensor);
        }
      }
    }
    Handle trends_group(H5Gcreate2(file, "trends", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                        H5Gclose);
    check(trends_group.ok(), partial, "create /trends");
    for (const auto& [graph, trend] : trends) {
      Handle group(H5Gcreate2(trends_group, graph.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                   H5Gclose);
      check(group.ok(), partial, "create /trends/" + graph);
      std::vector<std::string> steps(trend.steps.begin(), trend.steps.end());
      std::vector<std::string> devices(trend.devices.begin(), trend.devices.end());
      std::sort(steps.begin(), steps.end(), natural_less);
      std::sort(devices.begin(), devices.end(), natural_less);
      string_dataset(group, "tensors", trend.tensor_order, partial);
      string_dataset(group, "steps", steps, partial);
      string_dataset(group, "devices", devices, partial);
      const hsize_t dims[3] = {trend.tensor_order.size(), steps.size(), devices.size()};
      for (const auto& [metric, by_tensor] : trend.values) {
        std::vector<double> cube(dims[0] * dims[1] * dims[2], std::nan(""));
        for (size_t t = 0; t < trend.tensor_order.size(); ++t) {
          const auto found = by_tensor.find(trend.tensor_order[t]);
          if (found == by_tensor.end()) continue;
          for (size_t s = 0; s < steps.size(); ++s) {
            for (size_t d = 0; d < devices.size(); ++d) {
              const auto v = found->second.find({steps[s], devices[d]});
              if (v != found->second.end()) cube[(t * dims[1] + s) * dims[2] + d] = v->second;
            }
          }
        }
        Handle space(H5Screate_simple(3, dims, nullptr), H5Sclose);
        Handle set(H5Dcreate2(group, metric.c_str(), H5T_NATIVE_DOUBLE, space, H5P_DEFAULT,
                              H5P_DEFAULT, H5P_DEFAULT),
                   H5Dclose);
        check(set.ok() &&
                  H5Dwrite(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, cube.data()) >= 0,
              partial, "write /trends/" + graph + "/" + metric);
      }
    }
  }
  output.publish();
}

}  // namespace dumpcmp
