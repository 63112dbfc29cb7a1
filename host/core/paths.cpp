#include "core/paths.hpp"

#include <filesystem>

namespace dumpcmp {

std::string real_path(const std::string& path) {
  std::error_code ec;
  const std::filesystem::path p = std::filesystem::weakly_canonical(path, ec);
  return ec ? path : p.string();
}

std::string RealPaths::operator()(const std::string& path) {
  const std::filesystem::path p(path);
  const std::string dir = p.parent_path().string();
  auto it = dirs_.find(dir);
  if (it == dirs_.end()) it = dirs_.emplace(dir, real_path(dir.empty() ? "." : dir)).first;
  return (std::filesystem::path(it->second) / p.filename()).string();
}

}  // namespace dumpcmp
