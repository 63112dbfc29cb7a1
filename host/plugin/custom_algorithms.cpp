#include "plugin/custom_algorithms.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <regex>

#include "core/error.hpp"
#include "core/text.hpp"
#include "metrics/metric.hpp"

namespace dumpcmp {
namespace fs = std::filesystem;
namespace {

std::vector<std::string> split(const std::string& s, char by) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (;;) {
    const std::size_t at = s.find(by, start);
    parts.push_back(s.substr(start, at == std::string::npos ? std::string::npos : at - start));
    if (at == std::string::npos) return parts;
    start = at + 1;
  }
}

// Python's repr of a str, as msaccucmp's %r prints paths and arguments.
std::string python_repr(const std::string& s) {
  const bool double_quotes = s.find('\'') != std::string::npos && s.find('"') == std::string::npos;
  const char quote = double_quotes ? '"' : '\'';
  std::string out(1, quote);
  for (const char c : s) {
    if (c == quote || c == '\\') out += '\\';
    out += c;
  }
  return out + quote;
}

[[noreturn]] void invalid_argument(const std::string& entry) {
  throw Error(ExitCode::kUsage, "The algorithm argument (" + python_repr(entry) +
                                    ") is invalid, just supports "
                                    "\"algorithm_name:name1=value1,name2=value2;\".");
}

}  // namespace

std::vector<std::string> find_custom_algorithms(const std::string& custom_dir,
                                                std::vector<std::string>& warnings) {
  std::error_code ec;
  if (!fs::is_directory(custom_dir, ec)) {
    throw Error(ExitCode::kUsage, custom_dir + ": the custom script path is not a directory");
  }
  const fs::path dir = fs::path(custom_dir) / "algorithm";
  if (!fs::exists(dir, ec)) {
    warnings.push_back("There is no 'algorithm' in '" + python_repr(custom_dir) +
                       "', please check the custom path.");
    return {};
  }
  std::vector<fs::path> files;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file(ec)) files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  static const std::regex kPattern(R"(^alg_([A-Za-z0-9_]+)\.pyc?$)");
  std::vector<std::string> names;
  for (const fs::path& file : files) {
    std::smatch match;
    const std::string base = file.filename().string();
    if (std::regex_match(base, match, kPattern)) {
      if (std::find(names.begin(), names.end(), match[1].str()) == names.end()) {
        names.push_back(match[1]);
      }
      continue;
    }
    warnings.push_back("The file '" + python_repr(base) + "' does not match " +
                       "'alg_{algorithm_name}.py' in '" + python_repr(dir.string()) +
                       "', please check the file.");
  }
  if (names.empty()) {
    warnings.push_back("There is no legal 'alg_{algorithm_name}.py' file in '" +
                       python_repr(dir.string()) + "', please check the path.");
  }
  return names;
}

std::string find_custom_converter(const std::string& custom_dir, Format from, Format to) {
  if (custom_dir.empty()) return "";
  const std::string module =
      "convert_" + std::string(format_name(from)) + "_to_" + std::string(format_name(to));
  const fs::path dir = fs::path(custom_dir) / "format_convert";
  std::error_code ec;
  return fs::is_regular_file(dir / (module + ".py"), ec) ||
                 fs::is_regular_file(dir / (module + ".pyc"), ec)
             ? module
             : "";
}

AlgorithmParams parse_algorithm_params(const std::string& text) {
  AlgorithmParams params;
  for (const std::string& entry : split(text, ';')) {
    if (entry.empty()) continue;
    const std::vector<std::string> parts = split(entry, ':');
    if (parts.size() != 2) invalid_argument(entry);
    std::string name = trim(parts[0]);
    if (name.empty()) invalid_argument(entry);
    std::map<std::string, std::string> values;
    for (const std::string& item : split(parts[1], ',')) {
      if (trim(item).empty()) continue;
      const std::vector<std::string> pair = split(item, '=');
      if (pair.size() != 2 || trim(pair[0]).empty() || trim(pair[1]).empty()) {
        invalid_argument(entry);
      }
      values[trim(pair[0])] = trim(pair[1]);
    }
    if (name.size() == 1 && std::isdigit(static_cast<unsigned char>(name[0]))) {
      name = std::string(metric_name(static_cast<Metric>(name[0] - '0')));
    }
    std::map<std::string, std::string>& merged = params[name];  // present even when empty
    for (auto& [key, value] : values) merged[key] = value;
  }
  return params;
}

}  // namespace dumpcmp
