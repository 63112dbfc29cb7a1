#include "plugin/custom_conversions.hpp"

#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <regex>

#include "core/error.hpp"
#include "plugin/custom_algorithms.hpp"

namespace dumpcmp {

namespace fs = std::filesystem;

bool has_custom_converters(const std::string& custom_dir) {
  static const std::regex kPattern(R"(^convert_\w+_to_\w+\.pyc?$)");
  std::error_code ec;
  for (fs::directory_iterator it(fs::path(custom_dir) / "format_convert", ec), end;
       !ec && it != end; it.increment(ec)) {
    if (std::regex_match(it->path().filename().string(), kPattern)) return true;
  }
  return false;
}

PythonConversions::PythonConversions(std::string custom_dir, DiagnosticSink warnings)
    : custom_dir_(std::move(custom_dir)), warnings_(std::move(warnings)) {}

PythonConversions::~PythonConversions() {
  worker_.reset();
  if (temp_dir_.empty()) return;
  std::error_code ec;
  fs::remove_all(temp_dir_, ec);
}

const std::string& PythonConversions::module_for(Format from, Format to) {
  const auto pair = std::make_pair(from, to);
  auto it = modules_.find(pair);
  if (it == modules_.end()) {
    it = modules_.emplace(pair, find_custom_converter(custom_dir_, from, to)).first;
  }
  return it->second;
}

bool PythonConversions::has(Format from, Format to) {
  return unusable_.count({from, to}) == 0 && !module_for(from, to).empty();
}

CustomConversions::Result PythonConversions::convert(Format from, Format to,
                                                     const Shape& shape_from, const Shape& shape_to,
                                                     int group, const Array& array) {
  if (temp_dir_.empty()) {
    std::string pattern = (fs::temp_directory_path() / "dumpcmp-convert-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) {
      throw Error(ExitCode::kInput, pattern + ": cannot make a folder for converted tensors");
    }
    temp_dir_ = pattern;
  }
  if (!worker_)
    worker_ = std::make_unique<PythonWorker>(custom_dir_, std::vector<std::string>{},
                                             AlgorithmParams{}, warnings_);
  const std::string& module = module_for(from, to);
  std::copy(array.data, array.data + array.bytes, worker_->buffer(array.bytes));
  Result result;
  const std::string path = temp_dir_ + "/" + std::to_string(files_++) + ".npy";
  try {
    const PythonWorker::Converted converted = worker_->convert_file(
        module, shape_from, shape_to, array.descr, array.count, path, nullptr, group);
    if (!converted.unusable.empty()) {
      unusable_.insert({from, to});
      if (warnings_) warnings_(Severity::kWarning, converted.unusable);
      result.unusable = true;
      return result;
    }
  } catch (const Error& e) {
    std::error_code ec;
    fs::remove(path, ec);
    result.error = e.what();
    return result;
  }
  result.path = path;
  return result;
}

}  // namespace dumpcmp
