#pragma once
// msaccucmp's custom format conversions in a compare (-c DIR/format_convert/, docs/plugins.md):
// each NPU tensor whose format pair has a converter goes through it in the Python worker, and the
// array it returns is saved in a temporary folder for the executor to read as that row's tensor.
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>

#include "compare/custom_conversions.hpp"
#include "plugin/python_worker.hpp"

namespace dumpcmp {

// Whether DIR/format_convert/ holds any convert_{FROM}_to_{TO}.py (or .pyc).
bool has_custom_converters(const std::string& custom_dir);

class PythonConversions : public CustomConversions {
 public:
  // The worker starts at the first conversion; `warnings` receives msaccucmp's warnings.
  PythonConversions(std::string custom_dir, DiagnosticSink warnings);
  ~PythonConversions() override;  // removes the temporary folder

  bool has(Format from, Format to) override;
  Result convert(Format from, Format to, const Shape& shape_from, const Shape& shape_to, int group,
                 const Array& array) override;

 private:
  // The converter of a format pair ("" when there is none), looked up once a run.
  const std::string& module_for(Format from, Format to);

  std::string custom_dir_;
  DiagnosticSink warnings_;
  std::unique_ptr<PythonWorker> worker_;
  std::string temp_dir_;  // made at the first conversion
  int64_t files_ = 0;
  std::map<std::pair<Format, Format>, std::string> modules_;
  std::set<std::pair<Format, Format>> unusable_;
};

}  // namespace dumpcmp
