#include "detail/detail_files.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "fusion/fusion_rule.hpp"
#include "io/dump_writer.hpp"
#include "tensor/array_export.hpp"

namespace dumpcmp::single_op {
namespace {

constexpr size_t kMaxFileName = 255;  // msaccucmp's LINUX_FILE_NAME_MAX_LEN
constexpr const char* kMappingFile = "simple_op_mapping.csv";

}  // namespace

std::string FileNames::path(const std::string& name, const std::string& suffix, int64_t start) {
  std::string chosen = name;
  if (name.size() >= kMaxFileName) {
    std::string base = dump_file_;
    std::replace(base.begin(), base.end(), '/', '_');
    std::replace(base.begin(), base.end(), '.', '_');
    chosen = base + (request_.input ? "_input_" : "_output_") + std::to_string(request_.index);
    if (start >= 0) chosen += "_" + std::to_string(start);
    chosen += suffix;
    if (chosen.size() >= kMaxFileName) {
      std::string uuid = uuid3_dns(name);
      uuid.erase(std::remove(uuid.begin(), uuid.end(), '-'), uuid.end());
      chosen = uuid + suffix;
    }
    mapping_ += chosen + "," + name + "\n";
  }
  paths_.push_back(request_.output_dir + "/" + chosen);
  return paths_.back();
}

void FileNames::save_mapping() const {
  if (mapping_.empty()) return;
  const std::string path = request_.output_dir + "/" + kMappingFile;
  std::FILE* f = std::fopen(path.c_str(), "ab");
  if (!f || std::fwrite(mapping_.data(), 1, mapping_.size(), f) != mapping_.size()) {
    if (f) std::fclose(f);
    throw Error(ExitCode::kInput, path + ": cannot write the name mapping");
  }
  std::fclose(f);
}

void delete_old_files(const DetailRequest& request) {
  namespace fs = std::filesystem;
  const std::string prefix = request.file_prefix();
  auto ours = [&](const std::string& name) {
    if (name == prefix + "_summary.txt") return true;
    if (name.rfind(prefix + "_", 0) != 0) return false;
    const auto ends = [&](const char* s) {
      const size_t n = std::strlen(s);
      return name.size() >= n && name.compare(name.size() - n, n, s) == 0;
    };
    return ends(".csv") || ends(".npy");
  };
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(request.output_dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name != kMappingFile && ours(name)) fs::remove(entry.path(), ec);
  }
  const std::string mapping = request.output_dir + "/" + kMappingFile;
  std::FILE* f = std::fopen(mapping.c_str(), "rb");
  if (!f) return;
  std::string text, kept;
  char buf[65536];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) text.append(buf, n);
  std::fclose(f);
  size_t begin = 0;
  while (begin < text.size()) {
    size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(begin, end - begin);
    begin = end + 1;
    const size_t comma = line.find(',');
    if (comma != std::string::npos && ours(line.substr(comma + 1))) {
      fs::remove(request.output_dir + "/" + line.substr(0, comma), ec);
    } else if (!line.empty()) {
      kept += line + "\n";
    }
  }
  fs::remove(mapping, ec);
  if (!kept.empty()) {
    AtomicFile out(mapping);
    out.write(kept);
    out.commit();
  }
}

void write_npu_array(const std::string& path, const DetailSide& side, const Shape& shape,
                     std::vector<std::string>& warnings) {
  const ExportedArray array = export_array(side.data, side.dtype, side.map);
  try {
    write_npy(path, array.dtype, shape, array.data, array.bytes);
  } catch (const Error& e) {
    warnings.push_back(path + ": " + e.what());
  }
}

}  // namespace dumpcmp::single_op
