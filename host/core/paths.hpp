#pragma once
// File names as msaccucmp prints them: real paths (symbolic links and ".." resolved).
#include <string>
#include <unordered_map>

namespace dumpcmp {

// The canonical form of path, or path itself when it cannot be resolved.
std::string real_path(const std::string& path);

// real_path for many files in few directories: each directory is resolved once.
class RealPaths {
 public:
  std::string operator()(const std::string& path);

 private:
  std::unordered_map<std::string, std::string> dirs_;
};

}  // namespace dumpcmp
