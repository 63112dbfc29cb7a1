#include "convert/npy_to_dump.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "core/text.hpp"
#include "io/dump_file.hpp"
#include "io/dump_file_name.hpp"
#include "io/dump_writer.hpp"

namespace dumpcmp {
namespace fs = std::filesystem;

namespace {

std::vector<std::string> npy_inputs(const std::string& text) {
  std::vector<std::string> files;
  std::error_code ec;
  if (text.find(',') == std::string::npos && fs::is_directory(text, ec)) {
    for (const auto& entry : fs::directory_iterator(text, ec)) {
      if (entry.is_regular_file() && entry.path().extension() == ".npy") {
        files.push_back(entry.path().string());
      }
    }
  } else {
    for (std::string& item : split_commas(text)) {
      if (!item.empty()) files.push_back(std::move(item));
    }
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) throw Error(ExitCode::kInput, text + ": no .npy files");
  return files;
}

}  // namespace

NpyToDumpSummary convert_npy_to_dumps(const std::string& path, const std::string& output_dir) {
  // (op name, timestamp) -> output index -> file
  std::map<std::pair<std::string, std::string>, std::map<int, std::string>> ops;
  NpyToDumpSummary summary;
  for (const std::string& file : npy_inputs(path)) {
    const std::string base = fs::path(file).filename().string();
    const std::optional<DumpFileName> name = parse_dump_file_name(base);
    if (!name || name->kind != DumpNameKind::kNumpy || name->output_index < 0) {
      throw Error(ExitCode::kInput,
                  file +
                      ": not named op_name.output_index.timestamp.npy, so it cannot become a "
                      "dump");
    }
    auto& outputs = ops[{name->op_name, name->timestamp_text}];
    if (!outputs.emplace(name->output_index, file).second) {
      throw Error(ExitCode::kInput,
                  file + ": a second file for output " + std::to_string(name->output_index));
    }
    ++summary.npy_files;
  }
  std::error_code ec;
  fs::create_directories(output_dir, ec);
  for (const auto& [key, outputs] : ops) {
    DumpSpec spec;
    spec.op_name = key.first;
    int expected = 0;
    for (const auto& [index, file] : outputs) {
      if (index != expected++) {
        throw Error(ExitCode::kInput, file + ": output " + std::to_string(expected - 1) + " of " +
                                          key.first + " is missing");
      }
      const DumpFile npy = read_dump_file(file);
      const TensorInfo& t = npy.outputs.at(0);
      TensorSpec tensor;
      tensor.dtype = t.dtype;
      tensor.format = Format::kND;
      tensor.shape = t.shape;
      tensor.original_shape = t.shape;
      const uint8_t* data = npy.tensor_data(t);
      tensor.bytes.assign(data, data + t.size);
      spec.outputs.push_back(std::move(tensor));
    }
    std::string op = key.first;
    std::replace(op.begin(), op.end(), '/', '_');  // file names cannot hold '/'
    write_binary_dump(output_dir + "/Npy." + op + ".0.0." + key.second, spec);
    ++summary.dumps;
  }
  return summary;
}

}  // namespace dumpcmp
